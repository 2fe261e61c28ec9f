#include "plot/plotting.h"

#include "plot/fitting.h"

#include "core/trace.h"

#include <QRegularExpression>

#include <qcustomplot.h>

#include <cmath>

namespace attnlab {

void fillColorMapData(QCPColorMapData* data, const Eigen::MatrixXf& m)
{
    const int rows = static_cast<int>(m.rows());
    const int cols = static_cast<int>(m.cols());
    // Cells centred on integer indices: column c spans c-0.5 .. c+0.5.
    data->setSize(cols, rows);
    // QCustomPlot sizes a cell from the range divided by (size − 1): a single row or column
    // would have height 0 and vanish, so it spans its own cell, −0.5 .. 0.5, instead.
    const auto span = [](int n) { return n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.5, 0.5); };
    data->setRange(span(cols), span(rows));
    // QCustomPlot keeps its cells row by row, Eigen column by column: a row-major copy first
    // (Eigen transposes in cache-sized blocks), so both are read and written in memory order
    // (a 1024 × 50257 vocabulary would otherwise miss the cache on every cell).
    const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> byRow = m;
    const float* cell = byRow.data();
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c, ++cell)
            data->setCell(c, r, std::isfinite(*cell) ? static_cast<double>(*cell) : std::nan(""));
    }
}

QSharedPointer<QCPAxisTickerText> tokenTicker(const std::vector<QString>& tokens)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = static_cast<int>(tokens.size());
    const int step = n <= kMaxLabelledTokens ? 1 : (n + kMaxLabelledTokens - 1) / kMaxLabelledTokens;
    for (int i = 0; i < n; i += step)
        ticker->addTick(i, tokens[static_cast<std::size_t>(i)]);
    return ticker;
}

std::vector<QString> rowTokens(const LabeledMatrix& m)
{
    const int rows = static_cast<int>(m.values.rows());
    const Labels& l = m.rowLabels;
    std::vector<QString> tokens;
    for (int r = 0; r < rows; ++r)
        tokens.push_back(l && r < static_cast<int>(l->size()) ? QString::fromStdString((*l)[static_cast<std::size_t>(r)])
                                                               : QString::number(r + 1));
    return tokens;
}

void fitTokenLabels(QCustomPlot* plot, const std::vector<QString>& tokens)
{
    const QFontMetrics fm(plot->xAxis->tickLabelFont());
    int widest = 0;
    for (const QString& t : tokens)
        widest = std::max(widest, fm.horizontalAdvance(t));
    const int n = std::min(static_cast<int>(tokens.size()), kMaxLabelledTokens);
    const int room = n > 0 ? std::max(plot->width() - 90, 100) / n : 0;
    plot->xAxis->setTickLabelRotation(widest + 8 <= room ? 0 : -45);
    fitTickLabels(plot->xAxis); // and only as many labels as fit side by side
}

QString withSubscripts(QString text)
{
    static const QRegularExpression index(QStringLiteral("_(\\d+)"));
    QRegularExpressionMatch m;
    while ((m = index.match(text)).hasMatch()) {
        QString digits;
        for (const QChar c : m.captured(1))
            digits += QChar(0x2080 + (c.unicode() - u'0'));
        text.replace(m.capturedStart(), m.capturedLength(), digits);
    }
    return text;
}

QString minusSigned(QString text)
{
    return text.replace(QLatin1Char('-'), QChar(0x2212));
}

QString fixedNumber(double v, int decimals)
{
    return minusSigned(QString::number(v, 'f', decimals));
}

void addPlotTitle(QCustomPlot* plot)
{
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, QString()));
    keepTextsFitting(plot); // the title breaks into lines, the legend into columns, as they fit
}

QCPTextElement* plotTitle(QCustomPlot* plot)
{
    return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

void setPlotTitle(QCustomPlot* plot, QCPTextElement* title, const QString& text)
{
    QCPLayoutGrid* grid = plot->plotLayout();
    const bool placed = grid->hasElement(0, 0) && grid->element(0, 0) == title;
    if (text.isEmpty() && placed) {
        grid->take(title);
        grid->simplify();
    } else if (!text.isEmpty() && !placed) {
        grid->insertRow(0);
        grid->addElement(0, 0, title);
        applyPlotFonts(plot, plot->font()); // the type applyPlotFonts gave the plot while the title was out
    }
    title->setText(text);
}

QCPBars* horizontalBars(QCustomPlot* plot, const QColor& color)
{
    auto* bars = new QCPBars(plot->yAxis, plot->xAxis); // horizontal: keys down, values across
    bars->setWidth(0.7);
    bars->setPen(QPen(color.darker(140), 1));
    bars->setBrush(color);
    return bars;
}

int addBarText(QCustomPlot* plot, double x, double y, const QString& text)
{
    auto* item = new QCPItemText(plot);
    item->setObjectName(QStringLiteral("barText"));
    item->position->setCoords(x, y);
    item->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    item->setPadding(QMargins(4, 0, 0, 0));
    item->setFont(plot->xAxis->tickLabelFont());
    item->setText(text);
    item->setClipToAxisRect(false);
    return QFontMetrics(item->font()).horizontalAdvance(text) + 12;
}

void putLegendBelow(QCustomPlot* plot, int columns)
{
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->addElement(2, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(2, 0.001); // the legend takes only what it needs
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(columns);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
}

void applyPlotFonts(QCustomPlot* plot, const QFont& f)
{
    plot->setFont(f);
    plot->replot(QCustomPlot::rpQueuedReplot);
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setLabelFont(f);
            axis->setTickLabelFont(f);
        }
    }
    QFont title = f;
    title.setBold(true);
    title.setPointSizeF(f.pointSizeF() * 1.2);
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
        QCPLayoutElement* e = plot->plotLayout()->elementAt(i);
        if (auto* text = qobject_cast<QCPTextElement*>(e))
            text->setFont(title);
        else if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
            scale->axis()->setLabelFont(f);
            scale->axis()->setTickLabelFont(f);
        }
    }
    if (plot->legend) {
        plot->legend->setFont(f);
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            if (QCPAbstractLegendItem* item = plot->legend->item(i)) // null: an empty cell of a wrapped legend
                item->setFont(f);
        }
    }
}

QCPColorGradient viridisGradient()
{
    // Viridis sampled at 0, 0.1, ..., 1 (the published colour map of matplotlib).
    static const QColor kStops[] = {
        QColor(0x440154), QColor(0x482475), QColor(0x414487), QColor(0x355F8D),
        QColor(0x2A788E), QColor(0x21918C), QColor(0x22A884), QColor(0x44BF70),
        QColor(0x7AD151), QColor(0xBDDF26), QColor(0xFDE725),
    };
    QCPColorGradient g;
    g.clearColorStops();
    const int n = static_cast<int>(std::size(kStops));
    for (int i = 0; i < n; ++i)
        g.setColorStopAt(static_cast<double>(i) / (n - 1), kStops[i]);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(200, 200, 200));
    return g;
}

namespace {

/// A diverging gradient through five colours, the middle one (white) at 0; NaN (a masked cell) grey.
QCPColorGradient diverging(const QColor (&stops)[5])
{
    QCPColorGradient g;
    g.clearColorStops();
    for (int i = 0; i < 5; ++i)
        g.setColorStopAt(i / 4.0, stops[i]);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(QColor(200, 200, 200));
    return g;
}

} // namespace

QCPColorGradient divergingGradient()
{
    // ColorBrewer RdBu (reversed: negative blue, positive red), readable by most colour-blind viewers.
    return diverging({QColor(5, 48, 97), QColor(67, 147, 195), QColor(247, 247, 247), QColor(214, 96, 77), QColor(103, 0, 31)});
}

QCPColorGradient differenceGradient()
{
    // ColorBrewer PuOr (negative purple, positive orange), white at 0: another diverging map than
    // the values' RdBu, so a difference is never read as a value; readable by most colour-blind
    // viewers.
    return diverging({QColor(45, 0, 75), QColor(128, 115, 172), QColor(247, 247, 247), QColor(224, 130, 20), QColor(127, 59, 8)});
}

} // namespace attnlab
