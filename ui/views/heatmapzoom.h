#pragma once
// Zoom and fit for one heatmap. The plot sits in a scroll area: at 100 % ("fit") it fills the
// view exactly as before; zoomed in, it is drawn larger than the view (so wide matrices get room
// for every column label and the values inside their cells) and scrolls. Ctrl + the mouse wheel
// zooms about the pointer; the wheel alone scrolls a zoomed heatmap (Shift: sideways). The
// window's View menu (Ctrl+= / Ctrl+- / Ctrl+0) zooms every heatmap of the view in front.

#include <QScrollArea>

class QCustomPlot;

namespace attnlab {

class HeatmapZoom : public QScrollArea {
    Q_OBJECT
public:
    static constexpr double kMinFactor = 1.0; ///< fit: the whole matrix in the view
    static constexpr double kMaxFactor = 8.0;
    static constexpr double kStep = 1.25;     ///< one key press or one wheel notch

    /// Takes `plot` as its content (the plot's parent becomes the scroll area's viewport).
    explicit HeatmapZoom(QCustomPlot* plot, QWidget* parent = nullptr);

    /// 1 = fit; 2 = the plot twice the view's width and height.
    double factor() const { return m_factor; }
    /// Clamped to [kMinFactor, kMaxFactor]; keeps the plot point at viewport pixel `anchor` (by
    /// default the middle of the view) where it is.
    void setFactor(double factor, QPoint anchor = QPoint(-1, -1));
    void zoomIn() { setFactor(m_factor * kStep); }
    void zoomOut() { setFactor(m_factor / kStep); }
    void fit() { setFactor(kMinFactor); }
    /// The heatmaps inside `view` that are shown (for the View menu's zoom of the view in front).
    static QList<HeatmapZoom*> shownIn(QWidget* view);

signals:
    /// The plot was laid out at another size while zoomed (the view redraws its labels).
    void resized();
    void factorChanged(double factor);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void layOutPlot();
    bool wheel(class QWheelEvent* event);

    QCustomPlot* m_plot;
    double m_factor = kMinFactor;
};

} // namespace attnlab
