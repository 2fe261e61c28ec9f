#include "views/columnplot.h"

#include "plot/fitting.h"
#include "plot/palette.h"
#include "plot/plotting.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kMaxTexts = 64; ///< more rows than this: the bars alone (their texts would overlap)

const QColor kBarColor = okabeIto(Okabe::SkyBlue);

QString rowLabel(const LabeledMatrix& m, int i)
{
    if (m.rowLabels && i < static_cast<int>(m.rowLabels->size()))
        return QString::fromStdString((*m.rowLabels)[static_cast<std::size_t>(i)]);
    return QString::number(i + 1);
}

} // namespace

ColumnPlot::ColumnPlot(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    addPlotTitle(m_plot);
    keepTextsFitting(m_plot);
    m_plot->yAxis->setRangeReversed(true); // token 0 at the top, as in the heatmaps
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->grid()->setVisible(false);
    // The value texts stand right of their bars: the right margin is kept for them (redraw()).
    m_plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
    applyPlotFonts(m_plot, font());
}

bool ColumnPlot::isColumnStage(const QString& id)
{
    return id == u"error" || id == u"normalizer" || id == u"buckets";
}

ColumnPlot::Style ColumnPlot::styleForStage(const QString& id)
{
    return id == u"buckets" ? Style::Buckets : Style::Values;
}

void ColumnPlot::setColumn(const LabeledMatrix& m, const QString& title, const QString& axisLabel, Style style)
{
    m_matrix = m;
    m_title = title;
    m_axisLabel = axisLabel;
    m_style = style;
    m_values.clear();
    for (Eigen::Index i = 0; i < m.values.rows() && m.values.cols() > 0; ++i)
        m_values.push_back(static_cast<double>(m.values(i, 0)));
    redraw();
}

QStringList ColumnPlot::barTexts() const
{
    QStringList texts;
    if (static_cast<int>(m_values.size()) > kMaxTexts)
        return texts;
    for (const double v : m_values)
        texts << (m_style == Style::Buckets ? tr("bucket %1").arg(static_cast<int>(std::lround(v))) : fixedNumber(v, 3));
    return texts;
}

void ColumnPlot::redraw()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    plotTitle(m_plot)->setText(m_title);
    const int n = static_cast<int>(m_values.size());
    const bool buckets = m_style == Style::Buckets;
    // A bucket is a name, not an amount: every token gets a bar of the same length in its bucket's colour.
    std::vector<QCPBars*> bars;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double lo = 0, hi = 0;
    for (int i = 0; i < n; ++i) {
        const double v = m_values[static_cast<std::size_t>(i)];
        const auto bucket = static_cast<std::size_t>(buckets ? std::max(0L, std::lround(v)) : 0L);
        if (bars.size() <= bucket)
            bars.resize(bucket + 1, nullptr);
        if (!bars[bucket])
            bars[bucket] = horizontalBars(m_plot, buckets ? okabeIto(static_cast<int>(bucket)) : kBarColor);
        bars[bucket]->addData(i, buckets ? 1.0 : v);
        ticker->addTick(i, rowLabel(m_matrix, i));
        if (std::isfinite(v) && !buckets) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (buckets)
        hi = 1;
    // The texts at the bars' ends, and room for the widest right of the axis rect.
    const QStringList texts = barTexts();
    int widest = 0;
    for (int i = 0; i < texts.size(); ++i) {
        const double v = buckets ? 1.0 : m_values[static_cast<std::size_t>(i)];
        widest = std::max(widest, addBarText(m_plot, std::isfinite(v) ? std::max(v, 0.0) : 0.0, i, texts[i]));
    }
    m_plot->yAxis->setTicker(ticker);
    fitTickLabels(m_plot->yAxis);
    m_plot->yAxis->setRange(-0.5, std::max(n, 1) - 0.5);
    m_plot->xAxis->setRange(lo, hi > lo ? hi : lo + 1);
    // The bars carry their numbers: the value axis needs its ticks only when there are too many
    // bars to write on (and a bucket is a name, not an amount: no value axis at all).
    const bool ticks = !buckets && texts.isEmpty();
    m_plot->xAxis->setTickLabels(ticks);
    m_plot->xAxis->setTicks(ticks);
    m_plot->xAxis->setLabel(m_axisLabel);
    m_plot->axisRect()->setMargins(QMargins(0, 0, widest + 8, 0));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ColumnPlot::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        redraw();
    } else if (event->type() == QEvent::FontChange) {
        applyPlotFonts(m_plot, font());
        redraw();
    }
}

} // namespace attnlab
