#pragma once
// Where the keyboard is, for everyone in the room: a ring in the highlight colour around the
// widget that has the keyboard focus, whatever the style draws (Fusion shows the focus of few
// widgets: a list, a spin box, a tab changed no pixel). It follows the focus and the widget (a
// scroll, a dock moved, a resize) and stays out of the way of the mouse. Not in presenter mode:
// nothing interactive is projected. Tab and Shift+Tab also pass over the widgets of a panel
// hidden behind another panel's tab (Qt keeps them in the chain, off the screen): a Tab stop
// the user cannot see is no stop.

#include <QPointer>
#include <QWidget>

namespace attnlab {

class FocusRing : public QWidget {
    Q_OBJECT
public:
    /// Rings the focus widgets inside `window` (its floating docks excepted).
    explicit FocusRing(QWidget* window);
    ~FocusRing() override;

    /// The widget ringed now, or null.
    QWidget* target() const { return m_target; }
    /// Hides the ring while `on` (presenter mode); it comes back with the focus after.
    void setSuppressed(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void follow(QWidget* focus);
    void place();
    /// Whether `w` takes the focus by keyboard and lies in the window (not in a floating dock).
    bool ringable(const QWidget* w) const;
    /// After Tab (forward) or Shift+Tab onto `w`: when nothing of it is on the screen, the focus
    /// goes on along the chain to the next widget that is.
    void passHidden(QWidget* w, bool forward);

    QWidget* m_window;
    QPointer<QWidget> m_target;
    QList<QPointer<QWidget>> m_watched; ///< the target and its parents up to the window
    bool m_suppressed = false;
};

} // namespace attnlab
