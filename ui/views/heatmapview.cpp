#include "views/heatmapview.h"

#include "plot/fitting.h"
#include "plot/plotting.h"
#include "views/heatmapzoom.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnlab {

namespace {

constexpr int kMaxLabelledCells = 24; // per axis: more labels than this overlap

QString minusInfinity()
{
    return QStringLiteral("\u2212\u221E"); // −∞
}

/// A cell's value in at most 4-5 characters: two decimals below 10, fewer above, two digits
/// and a power of ten from 10⁴ on, "0" only for an exact zero (a masked weight), so rounding
/// never pretends a value is zero. NaN is never drawn as a number: its cell stays empty (the
/// engine refuses a trace that overflows, so none should arrive).
QString formatValue(float v)
{
    if (std::isinf(v))
        return v < 0 ? minusInfinity() : QStringLiteral("\u221E");
    if (std::isnan(v))
        return {};
    if (v == 0.0f)
        return QStringLiteral("0");
    const float a = std::abs(v);
    if (a >= 1e4f)
        return minusSigned(QString::number(static_cast<double>(v), 'g', 2));
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return fixedNumber(static_cast<double>(v), decimals);
}

/// A column of probabilities gets its label, among too many columns, from this value on.
constexpr float kLabelledProbability = 0.05f;

QSharedPointer<QCPAxisTickerText> labelTicker(const std::vector<std::string>& labels, int maxLabels = kMaxLabelledCells)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = static_cast<int>(labels.size());
    // With many labels show every k-th so they stay readable.
    const int step = n <= maxLabels ? 1 : (n + maxLabels - 1) / maxLabels;
    for (int i = 0; i < n; i += step)
        ticker->addTick(i, QString::fromStdString(labels[static_cast<std::size_t>(i)]));
    return ticker;
}

/// Which cells of a rows × cols matrix a highlight covers (row-major, 1 = highlighted).
std::vector<char> highlightedCells(const Highlight& h, int rows, int cols)
{
    std::vector<char> lit(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0);
    const auto mark = [&](int r, int c) {
        if (r >= 0 && c >= 0 && r < rows && c < cols)
            lit[static_cast<std::size_t>(r * cols + c)] = 1;
    };
    for (const auto& [r, c] : h.cells)
        mark(r, c);
    for (const int r : h.rows) {
        for (int c = 0; c < cols; ++c)
            mark(r, c);
    }
    for (const int c : h.columns) {
        for (int r = 0; r < rows; ++r)
            mark(r, c);
    }
    return lit;
}

} // namespace

QColor HeatmapView::highlightVeil()
{
    return QColor(240, 240, 240, 185); // light grey, mostly opaque: the rest recedes
}

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_zoom = new HeatmapZoom(m_plot, this); // zoom and fit, scrolling when zoomed in
    layout->addWidget(m_zoom);
    connect(m_zoom, &HeatmapZoom::changed, this, &HeatmapView::rebuild);

    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, new QCPTextElement(m_plot, QString()));

    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false); // crisp cells: each cell is one number
    m_map->setTightBoundary(false);

    m_colorScale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(1, 1, m_colorScale);
    m_colorScale->setType(QCPAxis::atRight);
    m_map->setColorScale(m_colorScale);
    // Keep the colour bar exactly as tall as the heatmap.
    auto* group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    m_colorScale->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    m_plot->yAxis->setRangeReversed(true); // row 0 (the first token) at the top, as in a matrix
    m_plot->xAxis->setTickLabelRotation(-45);
    m_plot->xAxis->setSubTicks(false);
    m_plot->yAxis->setSubTicks(false);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    // Keys along the top, like the column headers of a matrix.
    m_plot->xAxis->setVisible(false);
    m_plot->xAxis2->setVisible(true);
    m_plot->xAxis2->setTickLabelRotation(-45);
    m_plot->xAxis2->setSubTicks(false);
    m_plot->xAxis2->grid()->setVisible(false);
    applyPlotFonts(m_plot, font()); // the CJK fallback families of the application font
    keepTextsFitting(m_plot);        // a long title breaks into lines rather than run off the plot
    m_plot->setMouseTracking(true);
    connect(m_plot, &QCustomPlot::mouseMove, this, &HeatmapView::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &HeatmapView::onMousePress);
}

void HeatmapView::setSharedMaxAbs(double maxAbs)
{
    if (maxAbs == m_sharedMaxAbs)
        return;
    m_sharedMaxAbs = maxAbs;
    rebuild();
}

void HeatmapView::setSelectedCell(int row, int column)
{
    if (row == m_selRow && column == m_selCol)
        return;
    m_selRow = row;
    m_selCol = column;
    rebuild();
}

void HeatmapView::setHighlight(const Highlight& highlight)
{
    if (highlight == m_highlight)
        return;
    m_highlight = highlight;
    rebuild();
}

void HeatmapView::setMessage(const QString& message)
{
    if (message == m_message)
        return;
    m_message = message;
    rebuild();
}

void HeatmapView::drawMessage()
{
    // Large, in the middle of the (empty) cells, where the eye looks for the matrix.
    auto* text = new QCPItemText(m_plot);
    text->setObjectName(QStringLiteral("message"));
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setPositionAlignment(Qt::AlignCenter);
    text->setTextAlignment(Qt::AlignCenter);
    text->setText(m_message);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    // Smaller type when the plot is narrow, so the longest line stays inside the cells.
    const int room = std::max(120, m_plot->axisRect()->width() > 10 ? m_plot->axisRect()->width() - 16 : m_plot->width() - 200);
    for (int i = 0; i < 8 && messageWidth(f) > room; ++i)
        f.setPointSizeF(f.pointSizeF() * 0.85);
    text->setFont(f);
    text->setColor(palette().color(QPalette::WindowText));
    text->setClipToAxisRect(true);
}

int HeatmapView::messageWidth(const QFont& f) const
{
    int widest = 0;
    for (const QString& line : m_message.split(QLatin1Char('\n')))
        widest = std::max(widest, QFontMetrics(f).horizontalAdvance(line));
    return widest;
}

void HeatmapView::setCellValuesVisible(bool visible)
{
    m_cellValues = visible;
    rebuild();
}

void HeatmapView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyPlotFonts(m_plot, font()); // presenter mode and slides use larger type
        rebuild();
    }
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    rebuild(); // whether values fit inside the cells depends on the size
}

HeatmapView::Scale HeatmapView::scaleForStage(const QString& stageId)
{
    // Rows that sum to 1: the attention weights, the probabilities and the rollout.
    return stageId == QLatin1String("weights") || stageId == QLatin1String("probabilities") || stageId == QLatin1String("rollout")
            || stageId == QLatin1String("reference_weights")
        ? Scale::Probability
        : Scale::Signed;
}

void HeatmapView::setMatrix(const LabeledMatrix& m, const QString& title, Scale scale)
{
    m_matrix = m;
    m_title = title;
    m_scale = scale;
    rebuild();
}

void HeatmapView::rebuild()
{
    if (m_matrix.values.size() == 0)
        return; // nothing to draw yet
    if (auto* t = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->element(0, 0)))
        t->setText(m_title);
    fillColorMapData(m_map->data(), m_matrix.values);
    applyColorRange();
    labelAxes();
    m_plot->clearItems();
    // A message in place of the cells hides the colours and the colour bar they would be read on.
    const bool message = !m_message.isEmpty();
    m_map->setVisible(!message);
    m_colorScale->setVisible(!message);
    if (message) {
        drawMessage();
    } else {
        m_lit = highlightedCells(m_highlight, static_cast<int>(m_matrix.values.rows()), static_cast<int>(m_matrix.values.cols()));
        drawHighlight(true); // the veil, under the values
        drawCellValues();
        drawHighlight(false); // the frames, over them
    }
    drawHoverAndSelection();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::applyColorRange()
{
    if (m_scale == Scale::Probability) {
        m_map->setGradient(viridisGradient());
        m_map->setDataRange(QCPRange(0, 1)); // probabilities: the full scale, always
        return;
    }
    // Signed values: symmetric around 0 so white means exactly 0.
    const Eigen::MatrixXf& v = m_matrix.values;
    float maxAbs = 0;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        if (std::isfinite(v.data()[i]))
            maxAbs = std::max(maxAbs, std::abs(v.data()[i]));
    }
    const double r = m_sharedMaxAbs > 0 ? m_sharedMaxAbs : maxAbs > 0 ? maxAbs : 1.0;
    m_map->setGradient(m_scale == Scale::Difference ? differenceGradient() : divergingGradient());
    m_map->setDataRange(QCPRange(-r, r));
}

void HeatmapView::labelAxes()
{
    const Eigen::MatrixXf& v = m_matrix.values;
    const int rows = static_cast<int>(v.rows());
    const int cols = static_cast<int>(v.cols());
    m_plot->xAxis->setRange(-0.5, cols - 0.5);
    m_plot->yAxis->setRange(-0.5, rows - 0.5);
    m_plot->xAxis2->setRange(-0.5, cols - 0.5);
    m_zoom->apply(cols, rows); // the part a zoom shows
    const double zoom = m_zoom->factor();
    const int maxLabels = static_cast<int>(kMaxLabelledCells * zoom); // zoomed in: room for more
    if (m_matrix.colLabels) {
        m_plot->xAxis2->setTicker(labelTicker(*m_matrix.colLabels, maxLabels));
        // Upright column labels when they fit their cells (CJK characters, short words);
        // slanted otherwise, so long words do not run into each other.
        const QFontMetrics fm(m_plot->xAxis2->tickLabelFont());
        int widest = 0;
        for (const auto& l : *m_matrix.colLabels)
            widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(l)));
        const int cellWidth = cols > 0 ? static_cast<int>(std::max(m_plot->width() - 160, 200) * zoom / cols) : 0;
        const bool upright = widest + 6 <= cellWidth;
        m_plot->xAxis2->setTickLabelRotation(upright ? 0 : -45);
        // Slanted labels need about a line's height each: in a narrow plot (a comparison's
        // three) label no more columns than that, so the labels never run into each other.
        if (!upright && m_plot->width() > 0) {
            const int fitting = std::max(2, std::max(m_plot->width() - 160, 40) / (fm.height() + 4));
            m_plot->xAxis2->setTicker(labelTicker(*m_matrix.colLabels, std::min(maxLabels, static_cast<int>(fitting * zoom))));
        }
        // Too many probability columns to label them all (a vocabulary): label the columns that
        // hold a real probability somewhere, so the bright cells carry their tokens' names.
        QMap<double, double> priority;
        if (m_scale == Scale::Probability && cols > maxLabels) {
            auto ticker = QSharedPointer<QCPAxisTickerText>::create();
            for (int c = 0; c < cols; ++c) {
                if (v.col(c).maxCoeff() >= kLabelledProbability) {
                    ticker->addTick(c, QString::fromStdString((*m_matrix.colLabels)[static_cast<std::size_t>(c)]));
                    priority.insert(c, static_cast<double>(v.col(c).maxCoeff()));
                }
            }
            if (ticker->ticks().size() <= maxLabels) {
                m_plot->xAxis2->setTicker(ticker);
                m_plot->xAxis2->setTickLabelRotation(-90); // neighbouring tokens stay apart
            } else {
                priority.clear();
            }
        }
        // Of neighbouring columns that both hold a probability, the likelier keeps its label.
        fitTickLabels(m_plot->xAxis2, priority);
    }
    if (m_matrix.rowLabels) {
        m_plot->yAxis->setTicker(labelTicker(*m_matrix.rowLabels, maxLabels));
        fitTickLabels(m_plot->yAxis);
    }
}

QFont HeatmapView::cellValueFont(const QFont& base, const QString& widest, const QSize& cell)
{
    QFont f = base;
    f.setPointSizeF(std::max(6.0, base.pointSizeF() - 1));
    if (widest.isEmpty() || cell.isEmpty())
        return f;
    // The largest size (up to twice the text's) whose widest number takes at most 80 % of the
    // cell's width and whose line at most half its height.
    const double smallest = f.pointSizeF();
    double lo = smallest;
    double hi = base.pointSizeF() * 2; // beside axis labels of the base size, still balanced in exports
    const auto fitsIn = [&](double size) {
        QFont g = base;
        g.setPointSizeF(size);
        const QFontMetrics fm(g);
        return fm.horizontalAdvance(widest) <= 0.8 * cell.width() && fm.height() <= 0.5 * cell.height();
    };
    if (!fitsIn(lo))
        return f;
    for (int i = 0; i < 12; ++i) {
        const double mid = (lo + hi) / 2;
        (fitsIn(mid) ? lo : hi) = mid;
    }
    f.setPointSizeF(lo);
    return f;
}

void HeatmapView::drawCellValues()
{
    // Values inside the cells, when the cells are large enough to hold them.
    const Eigen::MatrixXf& v = m_matrix.values;
    const int rows = static_cast<int>(v.rows());
    const int cols = static_cast<int>(v.cols());
    // Before the first layout the axis rect is empty: estimate it from the widget's size (less
    // room for labels and the colour bar) rather than assume the values fit.
    QRect area = m_plot->axisRect()->rect();
    if (area.width() < 10 || area.height() < 10)
        area = QRect(0, 0, std::max(0, m_plot->width() - 170), std::max(0, m_plot->height() - 120));
    const double zoom = m_zoom->factor(); // zoomed in, fewer and larger cells are shown
    const bool fits = m_cellValues && rows > 0 && cols > 0 && rows * cols <= 400 * zoom * zoom && area.width() * zoom / cols >= 34
        && area.height() * zoom / rows >= 18;
    // The numbers grow with the cells (a projector's 300-pixel cells get large numbers), never
    // beyond them, and never smaller than the text around them.
    QString widest;
    for (int r = 0; r < rows && fits; ++r)
        for (int c = 0; c < cols; ++c)
            if (const QString t = formatValue(v(r, c)); t.size() > widest.size())
                widest = t;
    const QSize cell = rows > 0 && cols > 0 ? QSize(static_cast<int>(area.width() * zoom / cols), static_cast<int>(area.height() * zoom / rows)) : QSize();
    const QFont valueFont = cellValueFont(font(), widest, cell);
    const bool anyLit = std::find(m_lit.begin(), m_lit.end(), 1) != m_lit.end();
    for (int r = 0; r < rows && (fits || !v.allFinite()); ++r) {
        for (int c = 0; c < cols; ++c) {
            const float x = v(r, c);
            if (!fits && std::isfinite(x))
                continue; // small cells: only the masked ones are marked
            auto* label = new QCPItemText(m_plot);
            label->position->setCoords(c, r);
            label->setText(formatValue(x));
            label->setFont(valueFont);
            // Dark text on light cells and light text on dark ones.
            const double t = m_scale == Scale::Probability ? x : 0.5 + 0.5 * std::abs(x) / std::max(1e-9, m_map->dataRange().upper);
            const bool darkCell = std::isfinite(x) && (m_scale == Scale::Probability ? t < 0.6 : t > 0.8);
            // Under a highlight's veil every cell is light: dark grey text, still readable.
            const bool veiled = anyLit && !isLit(r, c);
            label->setColor(veiled ? QColor(90, 90, 90) : darkCell ? QColor(Qt::white) : QColor(Qt::black));
            label->setClipToAxisRect(true);
        }
    }
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
    };
    if (veil) {
        // One rectangle per run of cells in a row that are not highlighted.
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols;) {
                if (isLit(r, c)) {
                    ++c;
                    continue;
                }
                const int start = c;
                while (c < cols && !isLit(r, c))
                    ++c;
                rect(r, start, r, c - 1, Qt::NoPen, highlightVeil());
            }
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

void HeatmapView::drawHoverAndSelection()
{
    // The dashed outline under the mouse (onMouseMove moves it), and the selected cell's outline.
    m_hover = new QCPItemRect(m_plot);
    m_hover->setPen(QPen(QColor(255, 140, 0), 2, Qt::DashLine));
    m_hover->setVisible(false);
    m_hover->setClipToAxisRect(true);
    const int rows = static_cast<int>(m_matrix.values.rows());
    const int cols = static_cast<int>(m_matrix.values.cols());
    if (m_selRow >= 0 && m_selCol >= 0 && m_selRow < rows && m_selCol < cols) {
        auto* outline = new QCPItemRect(m_plot);
        outline->topLeft->setCoords(m_selCol - 0.5, m_selRow - 0.5);
        outline->bottomRight->setCoords(m_selCol + 0.5, m_selRow + 0.5);
        outline->setPen(QPen(QColor(255, 140, 0), 3));
        outline->setClipToAxisRect(true);
    }
}

QPoint HeatmapView::cellAt(const QPointF& pos) const
{
    const int c = static_cast<int>(std::lround(m_plot->xAxis->pixelToCoord(pos.x())));
    const int r = static_cast<int>(std::lround(m_plot->yAxis->pixelToCoord(pos.y())));
    const Eigen::MatrixXf& v = m_matrix.values;
    if (r < 0 || c < 0 || r >= v.rows() || c >= v.cols() || !m_plot->axisRect()->rect().contains(pos.toPoint()))
        return {-1, -1};
    return {r, c};
}

QString HeatmapView::cellDescription(const QPointF& pos) const
{
    const QPoint cell = cellAt(pos);
    const int r = cell.x();
    const int c = cell.y();
    const Eigen::MatrixXf& v = m_matrix.values;
    if (r < 0)
        return {};
    const auto label = [](const Labels& l, int i) {
        return l && i < static_cast<int>(l->size()) ? QString::fromStdString((*l)[static_cast<std::size_t>(i)]) : QString::number(i + 1);
    };
    const float x = v(r, c);
    const QString value = std::isfinite(x) ? QString::number(static_cast<double>(x), 'g', 7) : formatValue(x);
    return QStringLiteral("%1[%2, %3]  %4 \u2192 %5 = %6")
        .arg(QString::fromStdString(m_matrix.name))
        .arg(r + 1) // rows and columns counted from 1, as people count
        .arg(c + 1)
        .arg(label(m_matrix.rowLabels, r), label(m_matrix.colLabels, c), value);
}

void HeatmapView::onMousePress(QMouseEvent* event)
{
    const QPoint cell = cellAt(event->position());
    if (cell.x() >= 0)
        emit cellClicked(cell.x(), cell.y());
}

void HeatmapView::onMouseMove(QMouseEvent* event)
{
    // The pointer: a dashed outline follows the cell under the mouse, for the back row.
    const QPoint cell = cellAt(event->position());
    if (m_hover) {
        const bool inside = cell.x() >= 0;
        if (inside) {
            m_hover->topLeft->setCoords(cell.y() - 0.5, cell.x() - 0.5);
            m_hover->bottomRight->setCoords(cell.y() + 0.5, cell.x() + 0.5);
        }
        if (inside || m_hover->visible()) {
            m_hover->setVisible(inside);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    }
    const QString text = cellDescription(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

} // namespace attnlab
