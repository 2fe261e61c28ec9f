#include "views/heatmapview.h"

#include "plot/fitting.h"
#include "plot/plotting.h"
#include "views/heatmaplabels.h"
#include "views/heatmapzoom.h"
#include "widgets/projectiontype.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnlab {

namespace {

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

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_pointer(m_plot)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_zoom = new HeatmapZoom(m_plot, this); // zoom and fit, scrolling when zoomed in
    layout->addWidget(m_zoom);
    connect(m_zoom, &HeatmapZoom::changed, this, &HeatmapView::rebuild);
    connect(m_zoom, &HeatmapZoom::moved, this, &HeatmapView::rebuild); // the values of the cells now shown

    m_plot->plotLayout()->insertRow(0);
    m_titleElement = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(0, 0, m_titleElement);

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
    connect(m_plot, &QCustomPlot::beforeReplot, m_colorScale, [this] { fitColorScale(); });
    // The cells' size is known only once the plot is laid out (the margins follow the labels);
    // the values were drawn for an estimate (cellPixels before the layout). When the layout
    // made the cells another size, draw again, once: values of the wrong size, or none at all
    // in cells estimated too small (after presenter mode's large type, the numbers were gone).
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        // Whole pixels, as drawCellValues measures them.
        const auto pixels = [](const QSizeF& s) { return QSize(static_cast<int>(s.width()), static_cast<int>(s.height())); };
        if (m_redraws > 0 || pixels(cellPixels()) == pixels(m_drawnCell))
            return;
        ++m_redraws;
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_redrawing = true;
                rebuild();
                m_redrawing = false;
            },
            Qt::QueuedConnection);
    });

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
    m_plot->installEventFilter(this); // the mouse leaving the plot takes the pointer's marks away
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
    restorePointer(); // moves the outline and repaints the overlay alone, not the matrix
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
        followFont();
        rebuild();
    }
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
    // What depends on the values alone is worked out once here, not at every draw.
    m_dataDirty = true;
    m_litDirty = true;
    if (m.colLabels != m_measuredLabels) // the same labels (a vocabulary, the same sentence): the same width
        m_widestColumnLabel = -1;
    m_measuredLabels = m.colLabels;
    const auto a = m_matrix.values.array();
    m_ownMaxAbs = a.size() > 0 ? a.isFinite().select(a.abs(), 0.0f).maxCoeff() : 0.0f; // masked cells (−∞) left out
    rebuild();
}

void HeatmapView::rebuild()
{
    if (m_matrix.values.size() == 0)
        return; // nothing to draw yet
    if (!m_redrawing)
        m_redraws = 0;
    followFont(); // made (or moved) inside a projected window after its type changed
    // Without a title (a projected stage, whose banner names it) its row goes.
    setPlotTitle(m_plot, m_titleElement, m_title);
    if (m_dataDirty) {
        // Once per matrix: QCustomPlot keeps the colours it made from the data until the data,
        // the range or the gradient change, so a resize, a zoom or a hover draws no cell anew.
        fillColorMapData(m_map->data(), m_matrix.values);
        m_dataDirty = false;
    }
    applyColorRange();
    labelAxes();
    // Cells smaller than a pixel: a smooth scaling lets every cell count, as nearest-pixel
    // scaling would drop some rows and columns (and their bright cells) at random.
    const QSizeF cell = cellPixels();
    const bool smooth = cell.width() < 1 || cell.height() < 1;
    if (m_map->interpolate() != smooth)
        m_map->setInterpolate(smooth);
    m_plot->clearItems();
    m_pointer.recreate(); // on the overlay layer: the hover and the selection
    // A message in place of the cells hides the colours and the colour bar they would be read on.
    const bool message = !m_message.isEmpty();
    m_map->setVisible(!message);
    m_colorScale->setVisible(!message);
    if (message) {
        drawMessage();
    } else {
        if (m_litDirty)
            m_lit = highlightedCells(m_highlight, static_cast<int>(m_matrix.values.rows()), static_cast<int>(m_matrix.values.cols()));
        m_litDirty = false;
        drawHighlight(true); // the veil, under the values
        drawCellValues();
        drawHighlight(false); // the frames, over them
    }
    restorePointer();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QFont HeatmapView::plotFont() const
{
    // Presenter mode and slides: the projected type (a share of the screen's or the page's
    // height, widgets/projectiontype.h) for the stage's heatmap.
    return m_projectedType ? projectedFont(this, font()) : font();
}

void HeatmapView::fitColorScale()
{
    // A colour scale tells the group the margin the group last gave it as its own need, so the
    // shared margin could only grow: slanted labels once (a narrow window, presenter mode's
    // type), and the gap above the cells stayed, the cells too small for their numbers. Before
    // each layout it asks for nothing; the group then takes what the axes need now.
    QMargins m = m_colorScale->margins();
    m.setTop(0);
    m.setBottom(0);
    m_colorScale->setMargins(m);
    // Its tick labels a line and a half apart at most, down to two (or one) on a bar a few rows
    // tall in presenter mode's type: never on top of each other. The bar's length is the last
    // layout's (a resize lays out and draws again).
    const int length = m_colorScale->rect().height();
    if (length > 20) {
        const QFontMetrics fm(m_colorScale->axis()->tickLabelFont());
        m_colorScale->axis()->ticker()->setTickCount(std::clamp(static_cast<int>(length / (fm.height() * 1.8)), 1, 5));
    }
}

void HeatmapView::followFont()
{
    if (const QFont wanted = plotFont(); m_plot->xAxis->tickLabelFont() != wanted) {
        applyPlotFonts(m_plot, wanted);
        m_widestColumnLabel = -1;
    }
}

void HeatmapView::setProjectedType(bool on)
{
    m_projectedType = on;
    rebuild();
}

void HeatmapView::applyColorRange()
{
    if (m_scale == Scale::Probability) {
        m_map->setGradient(viridisGradient());
        m_map->setDataRange(QCPRange(0, 1)); // probabilities: the full scale, always
        return;
    }
    // Signed values: symmetric around 0 so white means exactly 0.
    const double r = m_sharedMaxAbs > 0 ? m_sharedMaxAbs : m_ownMaxAbs > 0 ? m_ownMaxAbs : 1.0;
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
    if (m_matrix.colLabels) {
        if (m_widestColumnLabel < 0) // measured once per matrix and font: a vocabulary has 50 000 labels
            m_widestColumnLabel = widestLabel(*m_matrix.colLabels, m_plot->xAxis2->tickLabelFont());
        labelHeatmapColumns(m_plot->xAxis2, m_matrix, m_scale == Scale::Probability, cellPixels().width(), zoom, m_widestColumnLabel);
    }
    if (m_matrix.rowLabels)
        labelHeatmapRows(m_plot->yAxis, *m_matrix.rowLabels, cellPixels().height(), zoom);
}

QSizeF HeatmapView::cellPixels() const
{
    // Before the first layout the axis rect is empty: estimate it from the widget's size (less
    // room for labels and the colour bar) rather than assume the values fit.
    // Resized since the last layout (this runs on the plot's resize event, before it lays itself
    // out): the cells grow and shrink with the plot.
    QRect area = m_plot->axisRect()->rect();
    if (area.width() < 10 || area.height() < 10)
        area = QRect(0, 0, std::max(0, m_plot->width() - 170), std::max(0, m_plot->height() - 120));
    else
        area.setSize(area.size() + m_plot->size() - m_plot->viewport().size());
    const double zoom = m_zoom->factor(); // zoomed in, fewer and larger cells are shown
    const Eigen::MatrixXf& v = m_matrix.values;
    if (v.rows() == 0 || v.cols() == 0)
        return {};
    return {area.width() * zoom / static_cast<double>(v.cols()), area.height() * zoom / static_cast<double>(v.rows())};
}

QRect HeatmapView::shownCells() const
{
    // The cells the axes' ranges reach into, whole or in part.
    const QCPRange x = m_plot->xAxis->range();
    const QCPRange y = m_plot->yAxis->range();
    const int cols = static_cast<int>(m_matrix.values.cols());
    const int rows = static_cast<int>(m_matrix.values.rows());
    const int left = std::max(0, static_cast<int>(std::floor(x.lower + 0.5)));
    const int right = std::min(cols - 1, static_cast<int>(std::ceil(x.upper - 0.5)));
    const int top = std::max(0, static_cast<int>(std::floor(y.lower + 0.5)));
    const int bottom = std::min(rows - 1, static_cast<int>(std::ceil(y.upper - 0.5)));
    return QRect(QPoint(left, top), QPoint(right, bottom));
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
    // Values inside the cells, when the cells are large enough to hold them; of a zoomed heatmap
    // only the cells shown get them.
    const Eigen::MatrixXf& v = m_matrix.values;
    const int rows = static_cast<int>(v.rows());
    const int cols = static_cast<int>(v.cols());
    const double zoom = m_zoom->factor();
    const QSizeF px = cellPixels();
    bool fits = m_cellValues && rows > 0 && cols > 0 && rows * cols <= 400 * zoom * zoom && px.width() >= 34 && px.height() >= 18;
    const QRect shown = shownCells();
    // The numbers grow with the cells (a projector's 300-pixel cells get large numbers), never
    // beyond them, and never smaller than the text around them.
    QString widest;
    for (int r = shown.top(); r <= shown.bottom() && fits; ++r)
        for (int c = shown.left(); c <= shown.right(); ++c)
            if (const QString t = formatValue(v(r, c)); t.size() > widest.size())
                widest = t;
    m_drawnCell = px;
    const QSize cell(static_cast<int>(px.width()), static_cast<int>(px.height()));
    const QFont valueFont = cellValueFont(plotFont(), widest, cell);
    // Among small cells only the masked ones are marked (−∞), where the mark fits its cell: a
    // few pixels per cell show the masked cells' grey, and no text.
    const QFontMetrics fm(valueFont);
    // Numbers that would run into each other (large type, narrow cells) are not drawn at all.
    if (fits && (fm.horizontalAdvance(widest) > 0.95 * px.width() || fm.height() > px.height()))
        fits = false;
    const bool marks = !fits && px.width() >= fm.horizontalAdvance(minusInfinity()) + 2 && px.height() >= fm.height();
    if (!fits && (!marks || v.allFinite()))
        return;
    const bool anyLit = std::find(m_lit.begin(), m_lit.end(), 1) != m_lit.end();
    for (int r = shown.top(); r <= shown.bottom(); ++r) {
        for (int c = shown.left(); c <= shown.right(); ++c) {
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
            // Under a highlight's veil every cell is light: near-black text, readable from the
            // back row (grey on the veil's lilac was not).
            const bool veiled = anyLit && !isLit(r, c);
            label->setColor(veiled ? QColor(25, 25, 25) : darkCell ? QColor(Qt::white) : QColor(Qt::black));
            label->setClipToAxisRect(true);
        }
    }
}

void HeatmapView::restorePointer()
{
    // After the items were cleared, or for a new selection: the outlines within this matrix.
    const int rows = static_cast<int>(m_matrix.values.rows());
    const int cols = static_cast<int>(m_matrix.values.cols());
    const bool selected = m_selRow >= 0 && m_selCol >= 0 && m_selRow < rows && m_selCol < cols;
    m_pointer.setSelection(selected ? m_selRow : -1, selected ? m_selCol : -1);
    const int r = m_pointer.hoverRow();
    const int c = m_pointer.hoverColumn();
    if (r >= rows || c >= cols || !m_message.isEmpty())
        m_pointer.setHover(-1, -1, {}, {});
    else if (r >= 0) // the same cell, perhaps of another sentence: its labels again
        m_pointer.setHover(r, c, labelOf(m_matrix.rowLabels, r), labelOf(m_matrix.colLabels, c));
}

QString HeatmapView::labelOf(const Labels& labels, int i)
{
    return labels && i < static_cast<int>(labels->size()) ? QString::fromStdString((*labels)[static_cast<std::size_t>(i)]) : QString::number(i + 1);
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
    const float x = v(r, c);
    const QString value = std::isfinite(x) ? QString::number(static_cast<double>(x), 'g', 7) : formatValue(x);
    return QStringLiteral("%1[%2, %3]  %4 \u2192 %5 = %6")
        .arg(QString::fromStdString(m_matrix.name))
        .arg(r + 1) // rows and columns counted from 1, as people count
        .arg(c + 1)
        .arg(labelOf(m_matrix.rowLabels, r), labelOf(m_matrix.colLabels, c), value);
}

void HeatmapView::onMousePress(QMouseEvent* event)
{
    const QPoint cell = cellAt(event->position());
    if (cell.x() >= 0)
        emit cellClicked(cell.x(), cell.y());
}

void HeatmapView::onMouseMove(QMouseEvent* event)
{
    // The pointer: a dashed outline follows the cell under the mouse, for the back row, and its
    // row's and column's tokens stand beside the axes (most rows of 1024 have no label).
    const QPoint cell = cellAt(event->position());
    if (cell.x() >= 0 && m_message.isEmpty())
        m_pointer.setHover(cell.x(), cell.y(), labelOf(m_matrix.rowLabels, cell.x()), labelOf(m_matrix.colLabels, cell.y()));
    else
        m_pointer.setHover(-1, -1, {}, {});
    const QString text = cellDescription(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

bool HeatmapView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Leave)
        m_pointer.setHover(-1, -1, {}, {});
    // Which labels and values fit depends on the plot's size: the plot takes its size from the
    // zoom's layout after this view's resize event, so it is the plot's resize that counts.
    if (watched == m_plot && event->type() == QEvent::Resize)
        rebuild();
    return QWidget::eventFilter(watched, event);
}

} // namespace attnlab
