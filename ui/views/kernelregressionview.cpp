#include "views/kernelregressionview.h"

#include "plot/palette.h"

#include "views/heatmapview.h"
#include "plot/fitting.h"
#include "plot/plotting.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <string>

namespace attnlab {

namespace {

// Okabe–Ito (colour-blind safe): blue for the model's prediction, vermillion for the query.
const QColor kPredictionColor = okabeIto(Okabe::Blue);
const QColor kQueryColor = okabeIto(Okabe::Vermillion);
const QColor kPointColor(90, 90, 90);

constexpr double kPlotMargin = 0.1; // x axis runs a little beyond 0..kXMax so edge points show

double sigmaFromSlider(int v)
{
    return bandwidthGrid(v); // the slider offers the engine's bandwidth grid
}

int sliderFromSigma(double sigma)
{
    return static_cast<int>(std::lround(100.0 * std::log10(sigma / KernelRegressionView::kMinSigma)));
}

QString number(double v, int decimals = 2)
{
    return fixedNumber(v, decimals);
}

/// A title row above the plot and the legend in a row under it (never over the data).
void addTitleAndLegendRows(QCustomPlot* plot, int legendColumns)
{
    addPlotTitle(plot);
    putLegendBelow(plot, legendColumns);
}

QCPItemStraightLine* queryLine(QCustomPlot* plot)
{
    auto* line = new QCPItemStraightLine(plot);
    line->setObjectName(QStringLiteral("queryLine"));
    line->setPen(QPen(kQueryColor, 1.5, Qt::DashLine));
    line->setClipToAxisRect(true);
    return line;
}

} // namespace

KernelRegressionView::KernelRegressionView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_caption(new QLabel(this))
    , m_queryLabel(new QLabel(this))
    , m_queryValue(new QLabel(this))
    , m_querySlider(new QSlider(Qt::Horizontal, this))
    , m_sigmaLabel(new QLabel(this))
    , m_sigmaSlider(new QSlider(Qt::Horizontal, this))
    , m_sigmaSpin(new QDoubleSpinBox(this))
    , m_learn(new QPushButton(this))
    , m_wLabel(new QLabel(this))
    , m_fitPlot(new QCustomPlot(this))
    , m_weightsPlot(new QCustomPlot(this))
    , m_heatmap(new HeatmapView(this))
    , m_data(kernelRegressionData()) // fixed: every run and every test sees the same points
{
    for (int i = 0; i < kCurvePoints; ++i)
        m_curveX.push_back(kXMax * i / (kCurvePoints - 1));
    for (int i = 0; i < kHeatmapQueries; ++i)
        m_gridQ.push_back(kXMax * i / (kHeatmapQueries - 1));
    setupControls();
    setupPlots();
    applyFonts();
    retranslate();

    connect(m_querySlider, &QSlider::valueChanged, this, &KernelRegressionView::updateQuery);
    connect(m_sigmaSlider, &QSlider::valueChanged, this, [this](int v) {
        // The slider is a coarse log scale; the spin box holds the σ in use.
        m_sigmaSpin->setValue(sigmaFromSlider(v));
    });
    connect(m_sigmaSpin, &QDoubleSpinBox::valueChanged, this, [this] {
        m_learnedLoss = -1; // a σ chosen by hand is no longer the learned one
        syncSigmaSlider();
        recompute();
    });
    connect(m_learn, &QPushButton::clicked, this, [this] { learnW(); });
    syncSigmaSlider();
    recompute();
}

void KernelRegressionView::setupControls()
{
    auto* root = new QVBoxLayout(this);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    root->addWidget(m_caption);

    auto* controls = new QHBoxLayout;
    m_queryLabel->setBuddy(m_querySlider);
    controls->addWidget(m_queryLabel);
    m_querySlider->setRange(0, kQuerySteps);
    m_querySlider->setValue(kQuerySteps / 2);
    m_querySlider->setPageStep(25);
    controls->addWidget(m_querySlider, 3);
    m_queryValue->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("x = 5.00")) + 4);
    controls->addWidget(m_queryValue);
    controls->addSpacing(16);
    m_sigmaLabel->setBuddy(m_sigmaSpin);
    controls->addWidget(m_sigmaLabel);
    m_sigmaSlider->setRange(0, kSigmaSliderSteps);
    m_sigmaSlider->setPageStep(25);
    controls->addWidget(m_sigmaSlider, 2);
    m_sigmaSpin->setRange(kMinSigma, kMaxSigma);
    m_sigmaSpin->setDecimals(3);
    m_sigmaSpin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType); // steps grow with σ
    m_sigmaSpin->setValue(kDefaultSigma);
    controls->addWidget(m_sigmaSpin);
    controls->addSpacing(16);
    controls->addWidget(m_learn);
    controls->addWidget(m_wLabel);
    controls->addStretch(1);
    root->addLayout(controls);

    // Fit and weights on the left (sharing their x axis), the heatmap on the right.
    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QSplitter(Qt::Vertical, split);
    left->addWidget(m_fitPlot);
    left->addWidget(m_weightsPlot);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    left->setSizes({3, 2});
    split->addWidget(left);
    split->addWidget(m_heatmap);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 3);
    split->setSizes({5, 3});
    root->addWidget(split, 1);
    m_fitPlot->setMinimumHeight(220);
    m_weightsPlot->setMinimumHeight(160);
    m_heatmap->setMinimumWidth(300);
}

void KernelRegressionView::setupPlots()
{
    // --- the fit: points, true curve, prediction, the query --------------------------------
    addTitleAndLegendRows(m_fitPlot, 2); // two per row: the Chinese labels are long
    QCPGraph* points = m_fitPlot->addGraph();
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kPointColor, QColor(200, 200, 200), 6));
    points->setPen(QPen(kPointColor));
    points->setData(QVector<double>(m_data.x.begin(), m_data.x.end()), QVector<double>(m_data.y.begin(), m_data.y.end()), true);
    QCPGraph* truth = m_fitPlot->addGraph();
    truth->setPen(QPen(QColor(30, 30, 30), 1.5, Qt::DashLine));
    QVector<double> trueY;
    for (double x : m_curveX)
        trueY.push_back(trueFunction(x));
    truth->setData(QVector<double>(m_curveX.begin(), m_curveX.end()), trueY, true);
    QCPGraph* prediction = m_fitPlot->addGraph();
    prediction->setPen(QPen(kPredictionColor, 2.5));
    QCPGraph* queryPoint = m_fitPlot->addGraph();
    queryPoint->setLineStyle(QCPGraph::lsNone);
    queryPoint->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, kQueryColor, kQueryColor, 12));
    queryPoint->setPen(QPen(kQueryColor));
    queryLine(m_fitPlot);
    // A fixed y range that holds every point, so the axes stay put while σ changes.
    const auto [yMin, yMax] = std::minmax_element(m_data.y.begin(), m_data.y.end());
    m_fitPlot->yAxis->setRange(std::floor(std::min(*yMin, 0.0) - 0.3), std::ceil(*yMax + 0.3));
    m_fitPlot->xAxis->setRange(-kPlotMargin, kXMax + kPlotMargin);

    // --- the weights of the chosen query --------------------------------------------------
    addTitleAndLegendRows(m_weightsPlot, 2);
    auto* bars = new QCPBars(m_weightsPlot->xAxis, m_weightsPlot->yAxis);
    bars->setWidth(0.04);
    bars->setPen(QPen(kQueryColor.darker(130)));
    bars->setBrush(QColor(kQueryColor.red(), kQueryColor.green(), kQueryColor.blue(), 170));
    QCPGraph* bump = m_weightsPlot->addGraph();
    bump->setPen(QPen(QColor(30, 30, 30), 1.2));
    queryLine(m_weightsPlot);
    m_weightsPlot->xAxis->setRange(-kPlotMargin, kXMax + kPlotMargin);

    // --- the heatmap ------------------------------------------------------------------------
    m_heatmap->setCellValuesVisible(false); // 41 × 50 cells: colours only
    // 50 key labels do not fit across the heatmap: label every 5th key. HeatmapView sets its own
    // ticker whenever it redraws, so ours goes back on just before each replot.
    auto keyTicker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < kTrainingPoints; i += 5)
        keyTicker->addTick(i, number(m_data.x[i]));
    m_keyTicker = keyTicker;
    connect(m_heatmap->plot(), &QCustomPlot::beforeReplot, this, &KernelRegressionView::useSparseKeyTicks);
}

double KernelRegressionView::sigma() const
{
    return m_sigmaSpin->value();
}

double KernelRegressionView::query() const
{
    return m_querySlider->value() / 100.0;
}

double KernelRegressionView::leaveOneOutLoss(double sigma) const
{
    return attnlab::leaveOneOutLoss(m_data, sigma);
}

double KernelRegressionView::learnW()
{
    m_sigmaSpin->setValue(fitBandwidth(m_data)); // rounds to the spin box's decimals and recomputes
    m_learnedLoss = leaveOneOutLoss(sigma());
    updateWLabel(); // shows the learned loss
    return sigma();
}

void KernelRegressionView::syncSigmaSlider()
{
    const QSignalBlocker block(m_sigmaSlider); // following the spin box is not choosing a σ
    m_sigmaSlider->setValue(sliderFromSigma(sigma()));
}

void KernelRegressionView::recompute()
{
    const double s = sigma();
    // The predicted curve: f(x) = Σ_i w_i(x) y_i at each x of the curve.
    m_curveY = kernelPredictions(m_curveX, m_data, s);
    m_fitPlot->graph(2)->setData(QVector<double>(m_curveX.begin(), m_curveX.end()),
                                 QVector<double>(m_curveY.begin(), m_curveY.end()), true);

    // weights: (queries x keys), one softmax row per query of the grid
    const Eigen::MatrixXf weights = kernelWeightMatrix(m_gridQ, m_data.x, s).cast<float>();
    auto rowLabels = std::make_shared<std::vector<std::string>>();
    for (double q : m_gridQ)
        rowLabels->push_back(QString::number(q, 'g', 4).toStdString()); // 0, 0.125, 0.25, ...
    auto colLabels = std::make_shared<std::vector<std::string>>();
    for (double x : m_data.x)
        colLabels->push_back(QString::number(x, 'f', 2).toStdString());
    m_heatmap->setMatrix({"W", weights, rowLabels, colLabels},
                         tr("Weights: %1 queries × %2 keys").arg(kHeatmapQueries).arg(kTrainingPoints),
                         HeatmapView::Scale::Probability);
    updateWLabel();
    updateQuery();
}

void KernelRegressionView::updateQuery()
{
    const double x = query();
    m_queryW = kernelWeights(x, m_data.x, sigma());
    m_queryY = kernelPrediction(x, m_data, sigma());
    m_queryValue->setText(tr("x = %1").arg(number(x)));

    // The fit: the query's vertical line and its prediction.
    m_fitPlot->graph(3)->setData({x}, {m_queryY});
    for (QCustomPlot* plot : {m_fitPlot, m_weightsPlot}) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i))) {
                line->point1->setCoords(x, 0);
                line->point2->setCoords(x, 1);
            }
        }
    }

    // The weights as bars at the keys, and the kernel bump they sample:
    // K(x, t) / Σ_i K(x, x_i) passes through the top of every bar.
    auto* bars = qobject_cast<QCPBars*>(m_weightsPlot->plottable(0));
    bars->setData(QVector<double>(m_data.x.begin(), m_data.x.end()), QVector<double>(m_queryW.begin(), m_queryW.end()), true);
    const double s = sigma();
    // Sample the bump evenly, and densely near the query so a narrow bump keeps its shape.
    std::vector<double> ts;
    for (int i = 0; i <= 500; ++i)
        ts.push_back((kXMax + 2 * kPlotMargin) * i / 500 - kPlotMargin);
    for (int i = 0; i <= 200; ++i)
        ts.push_back(x + 4 * s * (i / 100.0 - 1));
    std::sort(ts.begin(), ts.end());
    ts.erase(std::remove_if(ts.begin(), ts.end(), [](double t) { return t < -kPlotMargin || t > kXMax + kPlotMargin; }), ts.end());
    // Capped above the axis (≤ 1.15), where it is clipped anyway.
    const std::vector<double> bump = kernelBump(x, m_data.x, s, ts, 2.0);
    const QVector<double> bx(ts.begin(), ts.end());
    const QVector<double> by(bump.begin(), bump.end());
    m_weightsPlot->graph(0)->setData(bx, by, true);
    const double top = *std::max_element(m_queryW.begin(), m_queryW.end());
    m_weightsPlot->yAxis->setRange(0, std::max(top, 1.0 / kTrainingPoints) * 1.15);
    if (auto* title = plotTitle(m_weightsPlot)) {
        // One line where it fits (keepTextsFitting breaks it where it does not).
        title->setText(tr("Weights of x = %1 (sum 1): f(x) = %2, true %3")
                           .arg(number(x), number(m_queryY), number(trueFunction(x))));
    }

    // The heatmap: outline the grid query nearest x at its heaviest key.
    const int row = static_cast<int>(std::lround(x / (kXMax / (kHeatmapQueries - 1))));
    const Eigen::MatrixXf& m = m_heatmap->matrix().values;
    Eigen::Index col = 0;
    if (row >= 0 && row < m.rows())
        m.row(row).maxCoeff(&col);
    m_selection = QPoint(row, static_cast<int>(col));
    m_heatmap->setSelectedCell(row, static_cast<int>(col));

    m_fitPlot->replot(QCustomPlot::rpQueuedReplot);
    m_weightsPlot->replot(QCustomPlot::rpQueuedReplot);
}

void KernelRegressionView::updateWLabel()
{
    m_wLabel->setText(m_learnedLoss >= 0
                          ? tr("w = 1/σ = %1 (learned; leave-one-out error %2)").arg(number(1 / sigma()), number(m_learnedLoss, 3))
                          : tr("w = 1/σ = %1").arg(number(1 / sigma())));
}

void KernelRegressionView::useSparseKeyTicks()
{
    QCPAxis* top = m_heatmap->plot()->xAxis2;
    if (top->ticker() == m_keyTicker)
        return;
    top->setTicker(m_keyTicker);
    top->setTickLabelRotation(-45);
    fitTickLabels(top); // every 5th key, fewer when even those would run into each other
    m_keyTicker = top->ticker();
}

void KernelRegressionView::retranslate()
{
    m_caption->setText(
        tr("Nadaraya–Watson kernel regression (1964) is attention with nothing learned: the query x scores every "
           "key x_i by −(x − x_i)²/2σ², a softmax turns the scores into weights, and the prediction "
           "f(x) = Σ w_i·y_i is the weighted average of the values y_i. A small bandwidth σ lets each query attend "
           "only to its nearest points (a spiky fit, a narrow band in the heatmap); a large σ spreads the attention "
           "over all points alike (a flat fit near the mean)."));
    m_queryLabel->setText(tr("Query x:"));
    m_querySlider->setToolTip(tr("The query whose weights are shown under the fit"));
    m_sigmaLabel->setText(tr("Bandwidth σ:"));
    m_sigmaSlider->setToolTip(tr("σ on a log scale, from %1 to %2").arg(kMinSigma).arg(kMaxSigma));
    m_sigmaSpin->setToolTip(tr("The width of the Gaussian kernel exp(−(x − x_i)²/2σ²)"));
    m_learn->setText(tr("Learn w"));
    m_learn->setToolTip(tr("The classic parameterisation exp(−((x − x_i)·w)²/2), i.e. σ = 1/w: choose the w that "
                           "predicts each training point best from the others (leave-one-out error)"));

    if (auto* title = plotTitle(m_fitPlot))
        title->setText(tr("Kernel regression f(x)"));
    m_fitPlot->graph(0)->setName(tr("training points (x_i, y_i)"));
    m_fitPlot->graph(1)->setName(tr("true 2·sin(x) + x^0.8"));
    m_fitPlot->graph(2)->setName(tr("prediction f(x) = Σ w_i·y_i"));
    m_fitPlot->graph(3)->setName(tr("the query's prediction"));
    m_fitPlot->xAxis->setLabel(tr("x"));
    m_fitPlot->yAxis->setLabel(tr("y"));

    m_weightsPlot->plottable(0)->setName(tr("weight w_i of key x_i"));
    m_weightsPlot->graph(0)->setName(tr("kernel bump K(x, t) / Σ K(x, x_i)"));
    m_weightsPlot->xAxis->setLabel(tr("key x_i"));
    m_weightsPlot->yAxis->setLabel(tr("weight"));

    m_heatmap->plot()->yAxis->setLabel(tr("query x"));
    m_heatmap->plot()->xAxis2->setLabel(tr("key x_i (sorted)"));

    if (!m_curveY.empty())
        recompute(); // the texts with numbers in them
}

void KernelRegressionView::applyFonts()
{
    // The widget's font, with its CJK fallback families (the heatmap follows on its own).
    for (QCustomPlot* plot : {m_fitPlot, m_weightsPlot})
        applyPlotFonts(plot, font());
}

} // namespace attnlab
