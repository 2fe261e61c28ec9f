#pragma once
// Keeps hidden views free: the studio holds many views (the other pages of the stage stack,
// the all-heads tab, docks) and the trace changes on every keystroke. A view hands its
// redraw to one of these; the redraw runs at once while the view is on screen, and is
// postponed to the view's next show while its window is up but the view itself is hidden.
// A view not inside a shown window (tests, slides) always redraws at once.

#include <QObject>

#include <functional>

class QWidget;

namespace attnlab {

class RefreshWhenVisible : public QObject {
    Q_OBJECT
public:
    RefreshWhenVisible(QWidget* view, std::function<void()> refresh);

    /// Redraw now, or at the next show.
    void request();
    bool isPending() const { return m_pending; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_view;
    std::function<void()> m_refresh;
    bool m_pending = false;
};

} // namespace attnlab
