#include "views/scalingview.h"

#include "plot/palette.h"

#include "plot/fitting.h"
#include "plot/plotting.h"

#include "session/session.h"

#include <qcustomplot.h>

#include <QEventLoop>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <optional>

namespace attnlab {

namespace {

// Okabe–Ito (colour-blind safe): vermillion without scaling, blue with it.
const QColor kUnscaledColor = okabeIto(Okabe::Vermillion);
const QColor kScaledColor = okabeIto(Okabe::Blue);
const QColor kReferenceColor(120, 120, 120);

/// The example: the same for every view, so made once.
const ScalingExample& example()
{
    static const ScalingExample ex = scalingExample();
    return ex;
}

/// The statistics over d_k, one future for every view: empty until a view is first shown (or
/// waited for), then running on a worker thread, then holding the result for every later view
/// (it is the same every time). GUI thread only.
std::optional<QFuture<ScalingStatistics>>& sharedStatistics()
{
    static std::optional<QFuture<ScalingStatistics>> future;
    return future;
}

QVector<double> toQVector(const std::vector<double>& v)
{
    return QVector<double>(v.begin(), v.end());
}

/// The "computing…" notes in `plots` (none once the statistics are drawn).
std::vector<QCPItemText*> computingNotes(std::initializer_list<QCustomPlot*> plots)
{
    std::vector<QCPItemText*> notes;
    for (QCustomPlot* p : plots) {
        for (int i = 0; i < p->itemCount(); ++i) {
            if (auto* note = qobject_cast<QCPItemText*>(p->item(i)); note && note->objectName() == QStringLiteral("computingNote"))
                notes.push_back(note);
        }
    }
    return notes;
}

/// A log axis with ticks at 1, 4, 16, ..., 1024.
void logAxis(QCPAxis* axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(4);
    ticker->setSubTickCount(1); // the powers of 2 in between
    axis->setTicker(ticker);
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(5);
}

QCPGraph* lineGraph(QCustomPlot* plot, const QColor& color, Qt::PenStyle style, QCPScatterStyle::ScatterShape shape)
{
    QCPGraph* g = plot->addGraph();
    g->setPen(QPen(color, 2, style));
    if (shape != QCPScatterStyle::ssNone)
        g->setScatterStyle(QCPScatterStyle(shape, color, Qt::white, 7));
    return g;
}

QCPItemStraightLine* dkLine(QCustomPlot* plot)
{
    auto* line = new QCPItemStraightLine(plot);
    line->setObjectName(QStringLiteral("dkLine"));
    line->setPen(QPen(QColor(60, 60, 60), 1, Qt::DotLine));
    return line;
}

} // namespace

SoftmaxScalingView::SoftmaxScalingView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_caption(new QLabel(this))
    , m_dkLabel(new QLabel(this))
    , m_dkSlider(new QSlider(Qt::Horizontal, this))
    , m_dkValue(new QLabel(this))
    , m_unscaledPlot(new QCustomPlot(this))
    , m_scaledPlot(new QCustomPlot(this))
    , m_variancePlot(new QCustomPlot(this))
    , m_maxProbPlot(new QCustomPlot(this))
    , m_example(example())
{
    // The example row's largest probability at each d_k the slider offers.
    for (int d : kDkChoices) {
        const ScalingRow row = scalingRow(m_example, d);
        m_exMaxUnscaled.push_back(row.largestUnscaled);
        m_exMaxScaled.push_back(row.largestScaled);
    }
    setupLayout();
    setupBarPlots();
    setupCurvePlots();
    applyFonts();
    retranslate();
    connect(m_dkSlider, &QSlider::valueChanged, this, &SoftmaxScalingView::showDk);
    showDk();

    watchStatistics(false); // at once when an earlier view has them; started when first shown
}

void SoftmaxScalingView::watchStatistics(bool start)
{
    if (m_hasStatistics || m_watcher)
        return;
    std::optional<QFuture<ScalingStatistics>>& shared = sharedStatistics();
    if (!shared) {
        if (!start)
            return;
        shared = QtConcurrent::run(&scalingStatistics);
    }
    if (shared->isFinished()) {
        showStatistics(shared->result());
        return;
    }
    m_watcher = new QFutureWatcher<ScalingStatistics>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] { showStatistics(m_watcher->result()); });
    m_watcher->setFuture(*shared);
}

void SoftmaxScalingView::showEvent(QShowEvent* event)
{
    SessionView::showEvent(event);
    watchStatistics(true);
}

void SoftmaxScalingView::setupLayout()
{
    auto* root = new QVBoxLayout(this);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    root->addWidget(m_caption);
    auto* controls = new QHBoxLayout;
    m_dkLabel->setBuddy(m_dkSlider);
    controls->addWidget(m_dkLabel);
    m_dkSlider->setRange(0, static_cast<int>(kDkChoices.size()) - 1);
    m_dkSlider->setPageStep(1);
    m_dkSlider->setTickPosition(QSlider::TicksBelow);
    m_dkSlider->setTickInterval(1);
    m_dkSlider->setValue(kDefaultChoice);
    m_dkSlider->setMaximumWidth(320);
    controls->addWidget(m_dkSlider, 1);
    m_dkValue->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("d_k = 1024")) + 6);
    controls->addWidget(m_dkValue);
    controls->addStretch(2);
    root->addLayout(controls);

    auto* grid = new QGridLayout;
    grid->addWidget(m_unscaledPlot, 0, 0);
    grid->addWidget(m_scaledPlot, 0, 1);
    grid->addWidget(m_variancePlot, 1, 0);
    grid->addWidget(m_maxProbPlot, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    root->addLayout(grid, 1);
    for (QCustomPlot* p : {m_unscaledPlot, m_scaledPlot, m_variancePlot, m_maxProbPlot})
        p->setMinimumSize(300, 200);
}

void SoftmaxScalingView::setupBarPlots()
{
    // The two softmax rows.
    for (QCustomPlot* p : {m_unscaledPlot, m_scaledPlot}) {
        addPlotTitle(p);
        const QColor c = p == m_unscaledPlot ? kUnscaledColor : kScaledColor;
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setWidth(0.7);
        bars->setPen(QPen(c.darker(130)));
        bars->setBrush(c);
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int j = 0; j < kKeys; ++j)
            ticker->addTick(j + 1, QStringLiteral("k%1").arg(j + 1));
        p->xAxis->setTicker(ticker);
        p->xAxis->setSubTicks(false);
        p->xAxis->grid()->setVisible(false);
        p->xAxis->setRange(0.4, kKeys + 0.6);
        p->yAxis->setRange(0, 1.12); // probabilities: the full 0..1, and room for the labels on top
        fitTickLabels(p->xAxis);
        // The values above the bars only while each fits its bar (a projector's narrow plot).
        connect(p, &QCustomPlot::beforeReplot, p, [p] {
            const int barWidth = p->axisRect()->width() / kKeys;
            for (int i = 0; i < p->itemCount(); ++i) {
                if (auto* label = qobject_cast<QCPItemText*>(p->item(i)); label && label->objectName() == QLatin1String("barValue"))
                    label->setVisible(p->axisRect()->width() < 20 || QFontMetrics(label->font()).horizontalAdvance(label->text()) + 3 <= barWidth);
            }
        });
    }
}

void SoftmaxScalingView::setupCurvePlots()
{
    // Variance over d_k (log-log: a slope of 1 is "grows like d_k"); the data come with the statistics.
    addPlotTitle(m_variancePlot);
    putLegendBelow(m_variancePlot, 3);
    lineGraph(m_variancePlot, kUnscaledColor, Qt::SolidLine, QCPScatterStyle::ssCircle);
    lineGraph(m_variancePlot, kScaledColor, Qt::SolidLine, QCPScatterStyle::ssSquare);
    lineGraph(m_variancePlot, kReferenceColor, Qt::DashLine, QCPScatterStyle::ssNone);
    logAxis(m_variancePlot->xAxis);
    logAxis(m_variancePlot->yAxis);
    m_variancePlot->xAxis->setRange(0.8, 1300);
    m_variancePlot->yAxis->setRange(0.4, 2500);
    dkLine(m_variancePlot);

    // The largest probability over d_k: the means (with the statistics) and the example row's points.
    addPlotTitle(m_maxProbPlot);
    putLegendBelow(m_maxProbPlot, 2);
    lineGraph(m_maxProbPlot, kUnscaledColor, Qt::SolidLine, QCPScatterStyle::ssNone);
    lineGraph(m_maxProbPlot, kScaledColor, Qt::SolidLine, QCPScatterStyle::ssNone);
    for (const auto* values : {&m_exMaxUnscaled, &m_exMaxScaled}) {
        QCPGraph* g = lineGraph(m_maxProbPlot, values == &m_exMaxUnscaled ? kUnscaledColor : kScaledColor, Qt::SolidLine,
                                values == &m_exMaxUnscaled ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssSquare);
        g->setLineStyle(QCPGraph::lsNone); // this one row: points, not a trend
        g->setData(QVector<double>(kDkChoices.begin(), kDkChoices.end()), toQVector(*values), true);
    }
    lineGraph(m_maxProbPlot, kReferenceColor, Qt::DashLine, QCPScatterStyle::ssNone)
        ->setData({0.5, 2000.0}, {1.0 / kKeys, 1.0 / kKeys}, true);
    logAxis(m_maxProbPlot->xAxis);
    m_maxProbPlot->xAxis->setRange(0.8, 1300);
    m_maxProbPlot->yAxis->setRange(0, 1.05);
    dkLine(m_maxProbPlot);

    // Until the statistics arrive, each curve plot says so in its middle.
    for (QCustomPlot* p : {m_variancePlot, m_maxProbPlot}) {
        auto* note = new QCPItemText(p);
        note->setObjectName(QStringLiteral("computingNote"));
        note->position->setAxisRect(p->axisRect());
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.5, 0.5);
        note->setColor(kReferenceColor);
    }
}

void SoftmaxScalingView::showStatistics(const ScalingStatistics& statistics)
{
    m_stats = statistics;
    m_hasStatistics = true;
    QVector<double> dx;
    for (int d : m_stats.dims)
        dx.push_back(d);
    m_variancePlot->graph(0)->setData(dx, toQVector(m_stats.varianceUnscaled), true);
    m_variancePlot->graph(1)->setData(dx, toQVector(m_stats.varianceScaled), true);
    m_variancePlot->graph(2)->setData(dx, dx, true);
    m_maxProbPlot->graph(0)->setData(dx, toQVector(m_stats.meanMaxUnscaled), true);
    m_maxProbPlot->graph(1)->setData(dx, toQVector(m_stats.meanMaxScaled), true);
    for (QCPItemText* note : computingNotes({m_variancePlot, m_maxProbPlot}))
        note->parentPlot()->removeItem(note);
    m_variancePlot->replot(QCustomPlot::rpQueuedReplot);
    m_maxProbPlot->replot(QCustomPlot::rpQueuedReplot);
    emit statisticsReady();
}

bool SoftmaxScalingView::waitForStatistics(int timeoutMs)
{
    watchStatistics(true);
    if (m_hasStatistics)
        return true;
    // The watcher reports through the event loop, so run one until it does (or time runs out).
    QEventLoop loop;
    connect(this, &SoftmaxScalingView::statisticsReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return m_hasStatistics;
}

int SoftmaxScalingView::dk() const
{
    return kDkChoices[static_cast<std::size_t>(std::clamp(m_dkSlider->value(), 0, static_cast<int>(kDkChoices.size()) - 1))];
}

void SoftmaxScalingView::showDk()
{
    const int d = dk();
    m_row = scalingRow(m_example, d);
    m_dkValue->setText(tr("d_k = %1").arg(d));

    const auto [lo, hi] = std::minmax_element(m_row.scores.begin(), m_row.scores.end());
    drawBars(m_unscaledPlot, m_row.unscaled,
             tr("Without scaling: softmax(q·k_j)\nscores from %1 to %2, largest weight %3")
                 .arg(fixedNumber(*lo, 1), fixedNumber(*hi, 1), fixedNumber(m_row.largestUnscaled, 2)));
    const double r = std::sqrt(static_cast<double>(d));
    drawBars(m_scaledPlot, m_row.scaled,
             tr("With scaling: softmax(q·k_j / √d_k), √d_k = %1\nscores from %2 to %3, largest weight %4")
                 .arg(fixedNumber(r, r == std::floor(r) ? 0 : 2), fixedNumber(*lo / r, 2), fixedNumber(*hi / r, 2),
                      fixedNumber(m_row.largestScaled, 2)));

    for (QCustomPlot* p : {m_variancePlot, m_maxProbPlot}) {
        for (int i = 0; i < p->itemCount(); ++i) {
            if (auto* line = qobject_cast<QCPItemStraightLine*>(p->item(i))) {
                line->point1->setCoords(d, 0.5);
                line->point2->setCoords(d, 1.0);
            }
        }
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void SoftmaxScalingView::drawBars(QCustomPlot* plot, const std::vector<double>& row, const QString& title)
{
    QVector<double> x, y;
    for (int j = 0; j < kKeys; ++j) {
        x.push_back(j + 1);
        y.push_back(row[j]);
    }
    qobject_cast<QCPBars*>(plot->plottable(0))->setData(x, y, true);
    if (auto* t = plotTitle(plot))
        t->setText(title);
    // Each probability above its bar: "1.00" and a row of "0.00" is the saturation.
    plot->clearItems();
    QFont f = font();
    f.setPointSizeF(std::max(6.0, f.pointSizeF() - 1));
    for (int j = 0; j < kKeys; ++j) {
        auto* label = new QCPItemText(plot);
        label->setObjectName(QStringLiteral("barValue"));
        label->position->setCoords(j + 1, row[j]);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(fixedNumber(row[j], 2));
        label->setFont(f);
        label->setClipToAxisRect(true);
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

void SoftmaxScalingView::retranslate()
{
    m_caption->setText(
        tr("Why divide by √d_k? When q and k have d_k random components of variance 1, the score q·k is a sum of "
           "d_k such products, so its variance grows like d_k: for large d_k the scores lie tens apart, softmax "
           "saturates (one weight ≈ 1, the rest ≈ 0) and its gradients vanish. Dividing the scores by √d_k brings "
           "their variance back to 1 for every d_k, so the weights stay soft."));
    m_dkLabel->setText(tr("Key dimension d_k:"));
    m_dkSlider->setToolTip(tr("d_k = 4, 16, 64, 256 or 1024"));
    for (QCustomPlot* p : {m_unscaledPlot, m_scaledPlot}) {
        p->xAxis->setLabel(tr("key j"));
        p->yAxis->setLabel(tr("weight"));
    }
    if (auto* t = plotTitle(m_variancePlot))
        t->setText(tr("Variance of the score over %1 random pairs (q, k)").arg(kVarianceSamples));
    m_variancePlot->graph(0)->setName(tr("Var(q·k)"));
    m_variancePlot->graph(1)->setName(tr("Var(q·k / √d_k)"));
    m_variancePlot->graph(2)->setName(tr("d_k (theory)"));
    m_variancePlot->xAxis->setLabel(tr("d_k"));
    m_variancePlot->yAxis->setLabel(tr("variance"));
    if (auto* t = plotTitle(m_maxProbPlot))
        t->setText(tr("Largest weight of a row of %1 keys").arg(kKeys));
    m_maxProbPlot->graph(0)->setName(tr("without scaling (mean of %1 rows)").arg(kMaxProbSamples));
    m_maxProbPlot->graph(1)->setName(tr("with ÷√d_k (mean of %1 rows)").arg(kMaxProbSamples));
    m_maxProbPlot->graph(2)->setName(tr("without scaling (the row above)"));
    m_maxProbPlot->graph(3)->setName(tr("with ÷√d_k (the row above)"));
    m_maxProbPlot->graph(4)->setName(tr("uniform 1/n"));
    m_maxProbPlot->xAxis->setLabel(tr("d_k"));
    m_maxProbPlot->yAxis->setLabel(tr("largest weight"));
    for (QCPItemText* note : computingNotes({m_variancePlot, m_maxProbPlot}))
        note->setText(tr("computing…"));
    if (!m_row.scores.empty())
        showDk(); // the titles with numbers in them
}

void SoftmaxScalingView::applyFonts()
{
    for (QCustomPlot* p : {m_unscaledPlot, m_scaledPlot, m_variancePlot, m_maxProbPlot})
        applyPlotFonts(p, font()); // the widget's font, with its CJK fallback families
    for (QCPItemText* note : computingNotes({m_variancePlot, m_maxProbPlot}))
        note->setFont(font());
    if (!m_row.scores.empty())
        showDk(); // the bar labels
}

} // namespace attnlab
