#pragma once
// What every view of the Session does alike, once: it holds the Session, redraws when the trace
// changes (at once while it is on screen; at its next show while its window is up but the view
// itself is hidden: the studio holds many views, and the trace changes on every keystroke),
// restyles when its font changes (presenter mode and slides change the application font) or its
// palette does, retranslates on QEvent::LanguageChange, and names the plots it exports.
//
// A view derives from it, overrides the hooks it needs and ends its constructor with its first
// refresh():
//
//   refresh()      draw what the Session holds now (called for Session::traceChanged, and for
//                  the other Session signals a view passes to refreshOn());
//   retranslate()  set the fixed texts again; the base then asks for a refresh, since titles and
//                  captions hold numbers and names;
//   applyFonts()   give the plots the widget's font (QCustomPlot copies fonts only once);
//   applyPalette() restyle what takes its colours from the palette.
//
// A view not inside a shown window (tests, slides, exports) always redraws at once. Views that
// draw nothing from the trace (the kernel regression and √d_k demonstrations) leave refresh()
// empty. CaptionedView (views/captionedview.h) adds a caption over the plots and a message in
// their place for the steps a view has nothing for.

#include "core/stage_key.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <optional>

class QAction;
class QCustomPlot;
class QEvent;
class QPainter;
class QShowEvent;

namespace attnlab {

class Session;

/// The dynamic property (true) of a widget that takes the arrow keys while it has the keyboard
/// focus (the model view's grid, the head view's tokens): the studio's stepping keys
/// (shell/stepkeys.h) leave ←, →, ↑ and ↓ to it; the clicker's keys still step.
inline constexpr char kOwnsArrowKeys[] = "attnlab_ownsArrowKeys";

/// The dynamic property of an action the shortcut sheet (shell/shortcutsheet.h) lists under a
/// group of its own: the group's name, translated (the generation stepper's keys).
inline constexpr char kShortcutGroup[] = "attnlab_shortcutGroup";

/// What an export of a view is named after when its figure is not the current stage's picture
/// (export/exportname.h): the view ("model", "head-view"), the 1-based layer and the block shown.
struct FigureName {
    QString view; ///< empty: the export is named after the current step
    std::optional<int> layer;
    Block block = Block::None;
};

class SessionView : public QWidget {
    Q_OBJECT
public:
    Session* session() const { return m_session; }

    /// The plots that make up the view's figure, for exports and slides: by default every
    /// QCustomPlot inside the view (the heatmaps' plots included).
    virtual QList<QCustomPlot*> exportedPlots() const;

    /// A view that paints its figure itself (no plot inside): the size of its figure in an
    /// export, in logical pixels; an empty size for a view of plots (the default).
    virtual QSize figureSize() const { return {}; }
    /// Paints the figure (black on white) on a canvas of figureSize(): a PNG, SVG or PDF page.
    virtual void paintFigure(QPainter&) const {}
    /// What the view's exports are named after (FigureName); by default the current step.
    virtual FigureName figureName() const { return {}; }
    /// Actions whose keys work wherever the focus is in the studio window, even while the view
    /// is hidden (the view stack adds them to itself): the generation stepper's Next token.
    virtual QList<QAction*> windowActions() const { return {}; }

    /// True while a redraw waits for the view's next show.
    bool isRefreshPending() const { return m_pending; }

protected:
    SessionView(Session* session, QWidget* parent);

    /// Redraw now, or at the next show when the view is hidden inside a shown window.
    void requestRefresh();
    /// Also redraw, the same way, on `signal` of the Session (traceChanged is always watched).
    template <typename Signal>
    void refreshOn(Signal signal)
    {
        connect(m_session, signal, this, &SessionView::requestRefresh);
    }

    virtual void refresh() {}
    virtual void retranslate() {}
    virtual void applyFonts() {}
    virtual void applyPalette() {}

    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    /// A projection's start or end (widgets/projectiontype.h): redraw, for what a caption says.
    bool event(QEvent* event) override;

private:
    Session* m_session;
    bool m_pending = false;
};

} // namespace attnlab
