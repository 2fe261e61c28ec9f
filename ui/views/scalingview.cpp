#include "views/scalingview.h"

#include "plot/plotting.h"

#include "core/random.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace attnlab {

namespace {

// Okabe–Ito (colour-blind safe): vermillion without scaling, blue with it.
const QColor kUnscaledColor(0xD55E00);
const QColor kScaledColor(0x0072B2);
const QColor kReferenceColor(120, 120, 120);

/// Standard normal numbers from a SplitMix64 stream (Box–Muller, both outputs used).
class NormalStream {
public:
    explicit NormalStream(SplitMix64 gen) : m_gen(gen) {}

    double next()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double u1 = 1.0 - uniform(); // (0, 1]: the logarithm stays finite
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double a = 2.0 * std::numbers::pi * u2;
        m_spare = r * std::sin(a);
        m_hasSpare = true;
        return r * std::cos(a);
    }

private:
    double uniform() { return static_cast<double>(m_gen.next() >> 11) * 0x1.0p-53; } // [0, 1), 53 bits

    SplitMix64 m_gen;
    bool m_hasSpare = false;
    double m_spare = 0;
};

/// softmax(scale · s), with the row max subtracted before exp for numerical stability
/// (unscaled scores at d_k = 1024 reach ±100).
std::vector<double> softmax(const std::vector<double>& s, double scale)
{
    const double top = *std::max_element(s.begin(), s.end()) * scale;
    std::vector<double> p(s.size());
    double sum = 0;
    for (std::size_t j = 0; j < s.size(); ++j) {
        p[j] = std::exp(s[j] * scale - top);
        sum += p[j];
    }
    for (double& v : p)
        v /= sum;
    return p;
}

double maxOf(const std::vector<double>& v)
{
    return *std::max_element(v.begin(), v.end());
}

/// Sample variance with n − 1 in the denominator (two passes: the mean first).
double sampleVariance(const std::vector<double>& v)
{
    double mean = 0;
    for (double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return ss / static_cast<double>(v.size() - 1);
}

/// Everything that depends only on the fixed seed: computed once, shared by every view.
struct Statistics {
    Eigen::VectorXd q;    // (kMaxDim)
    Eigen::MatrixXd keys; // (kKeys x kMaxDim)
    std::vector<int> dims;
    std::vector<double> varUnscaled, varScaled, meanMaxUnscaled, meanMaxScaled;
};

Statistics computeStatistics()
{
    using V = SoftmaxScalingView;
    Statistics st;
    for (int d = 1; d <= V::kMaxDim; d *= 2)
        st.dims.push_back(d);
    const std::size_t nd = st.dims.size();

    // The example: q and kKeys keys with standard normal components.
    NormalStream example(stream("softmax-scaling-example", V::kExampleSeed));
    st.q.resize(V::kMaxDim);
    for (int c = 0; c < V::kMaxDim; ++c)
        st.q(c) = example.next();
    st.keys.resize(V::kKeys, V::kMaxDim);
    for (int j = 0; j < V::kKeys; ++j) {
        for (int c = 0; c < V::kMaxDim; ++c)
            st.keys(j, c) = example.next();
    }

    // Variance of q·k: kVarianceSamples independent pairs; q·k over the first d components
    // is a running sum, read off at each d of the curve.
    std::vector<std::vector<double>> dots(nd), scaledDots(nd);
    NormalStream pairs(stream("softmax-scaling-variance", V::kSeed));
    std::vector<double> q(V::kMaxDim), k(V::kMaxDim);
    for (int s = 0; s < V::kVarianceSamples; ++s) {
        for (double& x : q)
            x = pairs.next();
        for (double& x : k)
            x = pairs.next();
        double dot = 0;
        std::size_t next = 0;
        for (int c = 0; c < V::kMaxDim; ++c) {
            dot += q[c] * k[c];
            if (c + 1 == st.dims[next]) {
                dots[next].push_back(dot);
                scaledDots[next].push_back(dot / std::sqrt(static_cast<double>(st.dims[next])));
                ++next;
            }
        }
    }
    for (std::size_t i = 0; i < nd; ++i) {
        st.varUnscaled.push_back(sampleVariance(dots[i]));
        st.varScaled.push_back(sampleVariance(scaledDots[i]));
    }

    // Mean largest probability: kMaxProbSamples rows of kKeys scores each.
    st.meanMaxUnscaled.assign(nd, 0.0);
    st.meanMaxScaled.assign(nd, 0.0);
    NormalStream rows(stream("softmax-scaling-rows", V::kSeed));
    Eigen::MatrixXd keys(V::kKeys, V::kMaxDim);
    std::vector<double> row(V::kKeys);
    for (int s = 0; s < V::kMaxProbSamples; ++s) {
        for (double& x : q)
            x = rows.next();
        for (int j = 0; j < V::kKeys; ++j) {
            for (int c = 0; c < V::kMaxDim; ++c)
                keys(j, c) = rows.next();
        }
        for (std::size_t i = 0; i < nd; ++i) {
            const int d = st.dims[i];
            for (int j = 0; j < V::kKeys; ++j) {
                double dot = 0;
                for (int c = 0; c < d; ++c)
                    dot += q[c] * keys(j, c);
                row[j] = dot;
            }
            st.meanMaxUnscaled[i] += maxOf(softmax(row, 1.0)) / V::kMaxProbSamples;
            st.meanMaxScaled[i] += maxOf(softmax(row, 1.0 / std::sqrt(static_cast<double>(d)))) / V::kMaxProbSamples;
        }
    }
    return st;
}

const Statistics& statistics()
{
    static const Statistics st = computeStatistics(); // about 10 M normal numbers: once per process
    return st;
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
    : QWidget(parent)
    , m_session(session)
    , m_caption(new QLabel(this))
    , m_dkLabel(new QLabel(this))
    , m_dkSlider(new QSlider(Qt::Horizontal, this))
    , m_dkValue(new QLabel(this))
    , m_unscaledPlot(new QCustomPlot(this))
    , m_scaledPlot(new QCustomPlot(this))
    , m_variancePlot(new QCustomPlot(this))
    , m_maxProbPlot(new QCustomPlot(this))
{
    const Statistics& st = statistics();
    m_q = st.q;
    m_keys = st.keys;
    m_dims = st.dims;
    m_varUnscaled = st.varUnscaled;
    m_varScaled = st.varScaled;
    m_meanMaxUnscaled = st.meanMaxUnscaled;
    m_meanMaxScaled = st.meanMaxScaled;
    // The example row's largest probability at each d_k the slider offers.
    for (int d : kDkChoices) {
        std::vector<double> s(kKeys);
        for (int j = 0; j < kKeys; ++j)
            s[j] = m_keys.row(j).head(d).dot(m_q.head(d)); // s_j = q·k_j over d components
        m_exMaxUnscaled.push_back(maxOf(softmax(s, 1.0)));
        m_exMaxScaled.push_back(maxOf(softmax(s, 1.0 / std::sqrt(static_cast<double>(d)))));
    }

    // --- layout ----------------------------------------------------------------------------
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

    // --- the two softmax rows ---------------------------------------------------------------
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
    }

    // --- variance over d_k (log-log: a slope of 1 is "grows like d_k") ----------------------
    addPlotTitle(m_variancePlot);
    putLegendBelow(m_variancePlot, 3);
    QVector<double> dx;
    for (int d : m_dims)
        dx.push_back(d);
    lineGraph(m_variancePlot, kUnscaledColor, Qt::SolidLine, QCPScatterStyle::ssCircle)
        ->setData(dx, QVector<double>(m_varUnscaled.begin(), m_varUnscaled.end()), true);
    lineGraph(m_variancePlot, kScaledColor, Qt::SolidLine, QCPScatterStyle::ssSquare)
        ->setData(dx, QVector<double>(m_varScaled.begin(), m_varScaled.end()), true);
    lineGraph(m_variancePlot, kReferenceColor, Qt::DashLine, QCPScatterStyle::ssNone)->setData(dx, dx, true);
    logAxis(m_variancePlot->xAxis);
    logAxis(m_variancePlot->yAxis);
    m_variancePlot->xAxis->setRange(0.8, 1300);
    m_variancePlot->yAxis->setRange(0.4, 2500);
    dkLine(m_variancePlot);

    // --- the largest probability over d_k -----------------------------------------------------
    addPlotTitle(m_maxProbPlot);
    putLegendBelow(m_maxProbPlot, 2);
    lineGraph(m_maxProbPlot, kUnscaledColor, Qt::SolidLine, QCPScatterStyle::ssNone)
        ->setData(dx, QVector<double>(m_meanMaxUnscaled.begin(), m_meanMaxUnscaled.end()), true);
    lineGraph(m_maxProbPlot, kScaledColor, Qt::SolidLine, QCPScatterStyle::ssNone)
        ->setData(dx, QVector<double>(m_meanMaxScaled.begin(), m_meanMaxScaled.end()), true);
    for (const auto* values : {&m_exMaxUnscaled, &m_exMaxScaled}) {
        QCPGraph* g = lineGraph(m_maxProbPlot, values == &m_exMaxUnscaled ? kUnscaledColor : kScaledColor, Qt::SolidLine,
                                values == &m_exMaxUnscaled ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssSquare);
        g->setLineStyle(QCPGraph::lsNone); // this one row: points, not a trend
        g->setData(QVector<double>(kDkChoices.begin(), kDkChoices.end()), QVector<double>(values->begin(), values->end()), true);
    }
    lineGraph(m_maxProbPlot, kReferenceColor, Qt::DashLine, QCPScatterStyle::ssNone)
        ->setData({0.5, 2000.0}, {1.0 / kKeys, 1.0 / kKeys}, true);
    logAxis(m_maxProbPlot->xAxis);
    m_maxProbPlot->xAxis->setRange(0.8, 1300);
    m_maxProbPlot->yAxis->setRange(0, 1.05);
    dkLine(m_maxProbPlot);

    applyFonts();
    retranslate();
    connect(m_dkSlider, &QSlider::valueChanged, this, &SoftmaxScalingView::showDk);
    showDk();
}

int SoftmaxScalingView::dk() const
{
    return kDkChoices[static_cast<std::size_t>(std::clamp(m_dkSlider->value(), 0, static_cast<int>(kDkChoices.size()) - 1))];
}

void SoftmaxScalingView::showDk()
{
    const int d = dk();
    // scores: (kKeys) = K[:, :d] (kKeys x d) · q[:d] (d)
    m_scores.assign(kKeys, 0.0);
    for (int j = 0; j < kKeys; ++j)
        m_scores[j] = m_keys.row(j).head(d).dot(m_q.head(d));
    m_unscaled = softmax(m_scores, 1.0);
    m_scaled = softmax(m_scores, 1.0 / std::sqrt(static_cast<double>(d)));
    m_dkValue->setText(tr("d_k = %1").arg(d));

    const auto [lo, hi] = std::minmax_element(m_scores.begin(), m_scores.end());
    drawBars(m_unscaledPlot, m_unscaled,
             tr("Without scaling: softmax(q·k_j)\nscores from %1 to %2, largest weight %3")
                 .arg(fixedNumber(*lo, 1), fixedNumber(*hi, 1), fixedNumber(maxOf(m_unscaled), 2)));
    const double r = std::sqrt(static_cast<double>(d));
    drawBars(m_scaledPlot, m_scaled,
             tr("With scaling: softmax(q·k_j / √d_k), √d_k = %1\nscores from %2 to %3, largest weight %4")
                 .arg(fixedNumber(r, r == std::floor(r) ? 0 : 2), fixedNumber(*lo / r, 2), fixedNumber(*hi / r, 2), fixedNumber(maxOf(m_scaled), 2)));

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
    if (!m_scores.empty())
        showDk(); // the titles with numbers in them
}

void SoftmaxScalingView::applyFonts()
{
    for (QCustomPlot* p : {m_unscaledPlot, m_scaledPlot, m_variancePlot, m_maxProbPlot})
        applyPlotFonts(p, font()); // the widget's font, with its CJK fallback families
    if (!m_scores.empty())
        showDk(); // the bar labels
}

void SoftmaxScalingView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attnlab
