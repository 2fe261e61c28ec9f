#include "views/heatmappointer.h"

#include <qcustomplot.h>

#include <cmath>

namespace attnlab {

namespace {

const QColor kPointer(255, 140, 0); // orange: the hover's dashes, the selection, the markers' frames
constexpr int kMarkerChars = 40;    // a longer label is cut with an ellipsis
constexpr double kGuidedCell = 8;   // cells narrower or lower than this (pixels) get guides to the markers

} // namespace

const char* HeatmapPointer::outsideCellsProperty()
{
    return "attnlabOutsideCells";
}

HeatmapPointer::HeatmapPointer(QCustomPlot* plot)
    : m_plot(plot)
{
}

QCPItemText* HeatmapPointer::marker(const QColor& frame) const
{
    auto* t = new QCPItemText(m_plot);
    t->setLayer(QStringLiteral("overlay"));
    t->setClipToAxisRect(false); // beside the cells, over the tick labels it stands for
    t->setProperty(outsideCellsProperty(), true);
    t->setFont(m_plot->yAxis->tickLabelFont());
    t->setColor(m_plot->palette().color(QPalette::WindowText));
    t->setBrush(m_plot->palette().color(QPalette::Base)); // opaque: the thinned labels under it do not show through
    t->setPen(QPen(frame, 1));
    t->setPadding(QMargins(3, 1, 3, 1));
    t->setVisible(false);
    return t;
}

void HeatmapPointer::recreate()
{
    // The dashed outline under the mouse, the selected cell's outline.
    m_hover = new QCPItemRect(m_plot);
    m_hover->setLayer(QStringLiteral("overlay"));
    m_hover->setPen(QPen(kPointer, 2, Qt::DashLine));
    m_hover->setClipToAxisRect(true);
    m_selection = new QCPItemRect(m_plot);
    m_selection->setLayer(QStringLiteral("overlay"));
    m_selection->setPen(QPen(kPointer, 3));
    m_selection->setClipToAxisRect(true);
    m_rowMarker = nullptr; // made when the mouse is over a cell (a plot never hovered has no texts)
    m_columnMarker = nullptr;
    m_rowGuide = nullptr;
    m_columnGuide = nullptr;
    place();
}

void HeatmapPointer::makeMarkers()
{
    // The row's token left of the cells, at the row; the column's above them, at the column.
    m_rowMarker = marker(kPointer);
    m_rowMarker->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_rowMarker->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_rowMarker->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_columnMarker = marker(kPointer);
    m_columnMarker->position->setTypeX(QCPItemPosition::ptPlotCoords);
    m_columnMarker->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_columnMarker->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    // Dotted lines from the row's marker along the row, and from the column's down the column.
    const auto guide = [this] {
        auto* line = new QCPItemLine(m_plot);
        line->setLayer(QStringLiteral("overlay"));
        line->setPen(QPen(kPointer, 1, Qt::DotLine));
        line->setClipToAxisRect(true);
        return line;
    };
    m_rowGuide = guide();
    m_rowGuide->start->setTypeX(QCPItemPosition::ptAxisRectRatio); // from the cells' left edge
    m_columnGuide = guide();
    m_columnGuide->start->setTypeY(QCPItemPosition::ptAxisRectRatio); // from their top edge
}

void HeatmapPointer::setHover(int row, int column, const QString& rowLabel, const QString& columnLabel)
{
    if (row < 0)
        column = -1;
    if (row == m_hoverRow && column == m_hoverColumn && rowLabel == m_rowLabel && columnLabel == m_columnLabel)
        return;
    m_hoverRow = row;
    m_hoverColumn = column;
    m_rowLabel = rowLabel;
    m_columnLabel = columnLabel;
    place();
    repaint();
}

void HeatmapPointer::setSelection(int row, int column)
{
    if (row < 0)
        column = -1;
    if (row == m_selRow && column == m_selColumn)
        return;
    m_selRow = row;
    m_selColumn = column;
    place();
    repaint();
}

void HeatmapPointer::place()
{
    if (!m_hover)
        return;
    const auto cell = [](QCPItemRect* item, int r, int c) {
        item->setVisible(r >= 0 && c >= 0);
        item->topLeft->setCoords(c - 0.5, r - 0.5);
        item->bottomRight->setCoords(c + 0.5, r + 0.5);
    };
    cell(m_hover, m_hoverRow, m_hoverColumn);
    cell(m_selection, m_selRow, m_selColumn);
    const bool hovering = m_hoverRow >= 0 && m_hoverColumn >= 0;
    if (!m_rowMarker && hovering)
        makeMarkers();
    if (!m_rowMarker)
        return;
    const QFontMetrics fm(m_rowMarker->font());
    m_rowMarker->setText(fm.elidedText(m_rowLabel, Qt::ElideRight, fm.averageCharWidth() * kMarkerChars));
    m_rowMarker->position->setCoords(0, m_hoverRow);
    m_rowMarker->setVisible(hovering && !m_rowLabel.isEmpty());
    m_columnMarker->setText(fm.elidedText(m_columnLabel, Qt::ElideRight, fm.averageCharWidth() * kMarkerChars));
    m_columnMarker->position->setCoords(m_hoverColumn, 0);
    m_columnMarker->setVisible(hovering && !m_columnLabel.isEmpty());
    // A cell of a few pixels hides under its outline: the guides lead the eye to it.
    const double width = std::abs(m_plot->xAxis->coordToPixel(m_hoverColumn + 0.5) - m_plot->xAxis->coordToPixel(m_hoverColumn - 0.5));
    const double height = std::abs(m_plot->yAxis->coordToPixel(m_hoverRow + 0.5) - m_plot->yAxis->coordToPixel(m_hoverRow - 0.5));
    const bool guided = hovering && (width < kGuidedCell || height < kGuidedCell);
    m_rowGuide->start->setCoords(0, m_hoverRow);
    m_rowGuide->end->setCoords(m_hoverColumn - 0.5, m_hoverRow);
    m_rowGuide->setVisible(guided && m_rowMarker->visible());
    m_columnGuide->start->setCoords(m_hoverColumn, 0);
    m_columnGuide->end->setCoords(m_hoverColumn, m_hoverRow - 0.5);
    m_columnGuide->setVisible(guided && m_columnMarker->visible());
}

void HeatmapPointer::repaint()
{
    // The overlay layer is buffered (QCustomPlot makes it so): only its buffer is drawn again.
    if (QCPLayer* layer = m_plot->layer(QStringLiteral("overlay")); layer && layer->mode() == QCPLayer::lmBuffered)
        layer->replot();
    else
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab
