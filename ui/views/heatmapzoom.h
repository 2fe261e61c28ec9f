#pragma once
// Zoom and fit for one heatmap. Zoomed in, the heatmap shows part of the matrix, larger, in the
// same plot: the token labels, the title and the colour bar stay where they are, every column
// label gets room (a wide matrix labels only some at 100 %), and scroll bars move the part shown.
// At 100 % ("fit") the whole matrix fills the view exactly as before. Ctrl + the mouse wheel
// zooms about the pointer; the wheel alone scrolls a zoomed heatmap (Shift: sideways). The
// window's View menu (Ctrl+= / Ctrl+- / Ctrl+0) zooms every heatmap of the view in front. The
// zoom stays while the matrices keep their shape (another head; scores, scaled, weights); a
// matrix of another shape is shown whole.

#include <QPointF>
#include <QWidget>

class QCustomPlot;
class QScrollBar;
class QWheelEvent;

namespace attnlab {

class HeatmapZoom : public QWidget {
    Q_OBJECT
public:
    static constexpr double kMinFactor = 1.0; ///< fit: the whole matrix in the view
    static constexpr double kMaxFactor = 8.0;
    static constexpr double kStep = 1.25;     ///< one key press or one wheel notch

    /// Takes `plot` into its layout, with a scroll bar beside and below it (shown when zoomed).
    explicit HeatmapZoom(QCustomPlot* plot, QWidget* parent = nullptr);

    /// 1 = fit; 2 = half the rows and half the columns shown, each twice as large.
    double factor() const { return m_factor; }
    /// Clamped to [kMinFactor, kMaxFactor]; the cell under plot pixel `anchor` stays under it
    /// (by default the middle of the cells shown).
    void setFactor(double factor, QPointF anchor = QPointF(-1, -1));
    void zoomIn() { setFactor(m_factor * kStep); }
    void zoomOut() { setFactor(m_factor / kStep); }
    void fit() { setFactor(kMinFactor); }
    /// Shows the part of a `columns` × `rows` matrix the zoom asks for: the heatmap calls it
    /// each time it has set its axes to the whole matrix.
    void apply(int columns, int rows);
    /// The centre of the part shown, in cells (column, row).
    QPointF centre() const { return m_centre; }
    QScrollBar* horizontalBar() const { return m_across; }
    QScrollBar* verticalBar() const { return m_down; }
    /// The heatmaps inside `view` that are shown (for the View menu's zoom of the view in front).
    static QList<HeatmapZoom*> shownIn(QWidget* view);

signals:
    /// The factor changed: the heatmap draws again (labels and values depend on the cells' size).
    void changed();
    /// The part shown moved (the scroll bars, the wheel): the heatmap writes the values of the
    /// cells now shown (it writes only those).
    void moved();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// Sets the plot's axes to the part shown and the scroll bars to match.
    void showPart();
    void scrolled();
    bool wheel(QWheelEvent* event);

    QCustomPlot* m_plot;
    QScrollBar* m_across;
    QScrollBar* m_down;
    double m_factor = kMinFactor;
    QPointF m_centre{-1, -1}; ///< in cells; negative: the middle
    int m_columns = 0;
    int m_rows = 0;
    bool m_updatingBars = false;
};

} // namespace attnlab
