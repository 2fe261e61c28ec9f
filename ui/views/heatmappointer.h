#pragma once
// What moves over a heatmap while the matrix stays: the dashed outline under the mouse, the
// selected cell's outline, and, beside the axes, the row's and the column's token of the cell
// under the mouse (a heatmap of many tokens labels only some rows and columns), with thin
// guides from them to a cell too small to see its outline. They live on
// QCustomPlot's buffered "overlay" layer, so moving them repaints that layer alone: the colour
// map, the labels and the cell values are not drawn again (a 1024 × 1024 heatmap follows the
// mouse as fast as a small one).

#include <QString>

class QColor;
class QCustomPlot;
class QCPItemLine;
class QCPItemRect;
class QCPItemText;

namespace attnlab {

class HeatmapPointer {
public:
    explicit HeatmapPointer(QCustomPlot* plot);

    /// Makes the items again (the heatmap clears every item of its plot when it draws anew)
    /// and puts them where they were.
    void recreate();
    /// The cell under the mouse and its row's and column's labels; row < 0: none. Repaints the
    /// overlay layer when something changed.
    void setHover(int row, int column, const QString& rowLabel, const QString& columnLabel);
    /// The selected cell's outline; row < 0: none. Repaints the overlay layer.
    void setSelection(int row, int column);
    /// The cell under the mouse, or (-1, -1).
    int hoverRow() const { return m_hoverRow; }
    int hoverColumn() const { return m_hoverColumn; }
    /// The labels beside the axes (null until the mouse is over a cell), for tests.
    QCPItemText* rowMarker() const { return m_rowMarker; }
    QCPItemText* columnMarker() const { return m_columnMarker; }

    /// Items that stand outside the cells carry this property: a zoomed heatmap clips every
    /// other item to its cells (views/heatmapzoom.h).
    static const char* outsideCellsProperty();

private:
    void place();
    void makeMarkers();
    void repaint();
    QCPItemText* marker(const QColor& frame) const;

    QCustomPlot* m_plot;
    QCPItemRect* m_hover = nullptr;
    QCPItemRect* m_selection = nullptr;
    QCPItemText* m_rowMarker = nullptr;
    QCPItemText* m_columnMarker = nullptr;
    QCPItemLine* m_rowGuide = nullptr;
    QCPItemLine* m_columnGuide = nullptr;
    int m_hoverRow = -1;
    int m_hoverColumn = -1;
    QString m_rowLabel;
    QString m_columnLabel;
    int m_selRow = -1;
    int m_selColumn = -1;
};

} // namespace attnlab
