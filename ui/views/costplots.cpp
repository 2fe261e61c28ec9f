#include "views/costplots.h"

#include "plot/palette.h"

#include "plot/fitting.h"
#include "plot/plotting.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

/// Where the guides pass: the geometric mean of the curves' first points.
std::pair<double, double> anchor(const std::vector<Curve>& curves)
{
    double lx = 0, ly = 0;
    int count = 0;
    for (const Curve& c : curves) {
        if (c.x.empty())
            continue;
        lx += std::log(c.x.front());
        ly += std::log(c.y.front());
        ++count;
    }
    return {std::exp(lx / std::max(count, 1)), std::exp(ly / std::max(count, 1))};
}

} // namespace

QColor seriesColor(int i)
{
    static const QColor kColors[] = {QColor(0, 0, 0), okabeIto(Okabe::Orange), okabeIto(Okabe::SkyBlue), okabeIto(Okabe::BluishGreen),
                                     okabeIto(Okabe::ReddishPurple), okabeIto(Okabe::Blue), okabeIto(Okabe::Vermillion), QColor(0x999933),
                                     QColor(0x882255)};
    return kColors[static_cast<std::size_t>(std::max(i, 0)) % std::size(kColors)];
}

void setUpLogLogPlot(QCustomPlot* plot, double xBase)
{
    addPlotTitle(plot);
    keepTextsFitting(plot);
    // A legend row under the plot for the guides (the curves are named by whoever shows them).
    putLegendBelow(plot, 3);
    // Log–log: a power law y ∝ n^p is a straight line of slope p.
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(axis == plot->xAxis ? xBase : 10);
        ticker->setSubTickCount(axis == plot->xAxis ? 0 : 8);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("gb"));
    }
}

void drawLogLog(QCustomPlot* plot, const std::vector<Curve>& curves, const std::vector<Guide>& guides, const QString& title,
                const QString& xLabel, const QString& yLabel)
{
    plot->clearGraphs();
    plot->clearItems();
    plotTitle(plot)->setText(title);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    double xMin = HUGE_VAL, xMax = 0, yMin = HUGE_VAL, yMax = 0;
    for (const Curve& c : curves) {
        if (c.x.empty())
            continue;
        auto* g = plot->addGraph();
        g->setName(c.name);
        g->removeFromLegend();
        g->setPen(QPen(c.color, 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c.color, c.color, 6));
        g->setData(QVector<double>(c.x.begin(), c.x.end()), QVector<double>(c.y.begin(), c.y.end()));
        xMin = std::min(xMin, *std::min_element(c.x.begin(), c.x.end()));
        xMax = std::max(xMax, *std::max_element(c.x.begin(), c.x.end()));
        yMin = std::min(yMin, *std::min_element(c.y.begin(), c.y.end()));
        yMax = std::max(yMax, *std::max_element(c.y.begin(), c.y.end()));
    }
    if (xMax <= 0) {
        plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // The guides: y = y0·(x/x0)^p over the data's x range, dashed, grey, named in the legend.
    const auto [x0, y0] = anchor(curves);
    const Qt::PenStyle styles[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    for (std::size_t i = 0; i < guides.size(); ++i) {
        auto* g = plot->addGraph();
        g->setName(guides[i].name);
        g->setPen(QPen(QColor(110, 110, 110), 1.5, styles[i % std::size(styles)]));
        const double a = y0 * std::pow(xMin / x0, guides[i].power);
        const double b = y0 * std::pow(xMax / x0, guides[i].power);
        g->setData(QVector<double>{xMin, xMax}, QVector<double>{a, b});
        yMin = std::min(yMin, std::min(a, b));
        yMax = std::max(yMax, std::max(a, b));
    }
    // At least a decade and a half, so that the log ticker labels powers of ten, not crowded
    // linear steps (0.6, 0.7, …).
    if (yMax / yMin < 30) {
        const double mid = std::sqrt(yMax * yMin);
        yMin = mid / std::sqrt(30.0);
        yMax = mid * std::sqrt(30.0);
    }
    // A little room around the points (a factor on a log axis).
    plot->xAxis->setRange(xMin / 1.25, xMax * 1.25);
    plot->yAxis->setRange(yMin / 1.6, yMax * 1.6);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab
