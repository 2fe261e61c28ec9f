// A lesson's highlight on the heatmap (HeatmapView::setHighlight): thick frames around the
// highlighted cells, rows and columns, and a light veil over every other cell, so the
// highlighted ones keep the colour of their value.

#include "views/heatmapview.h"

#include <qcustomplot.h>

#include <algorithm>

namespace attnlab {

QColor HeatmapView::highlightVeil()
{
    return QColor(240, 240, 240, 185); // light grey, mostly opaque: the rest recedes
}

void HeatmapView::setHighlight(const Highlight& highlight)
{
    if (highlight == m_highlight)
        return;
    m_highlight = highlight;
    m_litDirty = true;
    rebuild();
}

void HeatmapView::drawHighlight(bool veil)
{
    // A lesson's emphasis, like a laser pointer that keeps the colours honest: a thick frame
    // (dark outside, a white line inside, visible on dark and light cells) around each
    // highlighted cell, row and column, and a translucent veil over every other cell (drawn
    // under the values, which stay readable on it). The highlighted cells keep the colour of
    // their value on the colour bar.
    const int rows = static_cast<int>(m_matrix.values.rows());
    const int cols = static_cast<int>(m_matrix.values.cols());
    if (std::find(m_lit.begin(), m_lit.end(), 1) == m_lit.end())
        return; // nothing of the highlight lies in this matrix (the lesson note says so)
    const auto rect = [&](double r0, double c0, double r1, double c1, const QPen& pen, const QBrush& brush) {
        auto* item = new QCPItemRect(m_plot);
        item->setObjectName(QStringLiteral("highlight"));
        item->topLeft->setCoords(c0 - 0.5, r0 - 0.5);
        item->bottomRight->setCoords(c1 + 0.5, r1 + 0.5);
        item->setPen(pen);
        item->setBrush(brush);
        item->setClipToAxisRect(true);
        return item;
    };
    if (veil) {
        // One rectangle per run of cells in a row that are not highlighted; the rows below with
        // the same runs make those rectangles taller (a highlighted row of 1024 is three rectangles).
        std::vector<std::pair<int, int>> above;
        std::vector<QCPItemRect*> open;
        for (int r = 0; r < rows; ++r) {
            std::vector<std::pair<int, int>> runs;
            for (int c = 0; c < cols;) {
                if (isLit(r, c)) {
                    ++c;
                    continue;
                }
                const int start = c;
                while (c < cols && !isLit(r, c))
                    ++c;
                runs.emplace_back(start, c - 1);
            }
            if (runs == above && !runs.empty()) {
                for (std::size_t i = 0; i < runs.size(); ++i)
                    open[i]->bottomRight->setCoords(runs[i].second + 0.5, r + 0.5);
                continue;
            }
            open.clear();
            for (const auto& [c0, c1] : runs)
                open.push_back(rect(r, c0, r, c1, Qt::NoPen, highlightVeil()));
            above = std::move(runs);
        }
        return;
    }
    const auto frame = [&](double r0, double c0, double r1, double c1) {
        rect(r0, c0, r1, c1, QPen(QColor(20, 20, 20), 5), Qt::NoBrush);
        rect(r0, c0, r1, c1, QPen(Qt::white, 1.5), Qt::NoBrush);
    };
    for (const auto& [r, c] : m_highlight.cells) {
        if (r < rows && c < cols)
            frame(r, c, r, c);
    }
    for (const int r : m_highlight.rows) {
        if (r < rows)
            frame(r, 0, r, cols - 1);
    }
    for (const int c : m_highlight.columns) {
        if (c < cols)
            frame(0, c, rows - 1, c);
    }
}

bool HeatmapView::isLit(int row, int column) const
{
    const auto i = static_cast<std::size_t>(row) * static_cast<std::size_t>(m_matrix.values.cols()) + static_cast<std::size_t>(column);
    return i < m_lit.size() && m_lit[i];
}

} // namespace attnlab
