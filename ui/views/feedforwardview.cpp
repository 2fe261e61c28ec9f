#include "views/feedforwardview.h"

#include "plot/palette.h"

#include "views/heatmapview.h"
#include "model/model.h"
#include "nn/blocks.h"
#include "pretrained/model_folder.h"
#include "plot/plotting.h"
#include "session/messages.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

// Okabe–Ito (colour-blind safe): sky blue for switched-off units, orange for active ones.
const QColor kOffColor = okabeIto(Okabe::SkyBlue);
const QColor kOnColor = okabeIto(Okabe::Orange);


/// A fraction as a percentage: 0.25 -> "25%".
QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', fraction * 100 >= 10 || fraction == 0 ? 0 : 1) + QLatin1Char('%');
}

/// Tick labels as percentages (the axis holds fractions 0..1).
class PercentTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        return QString::number(std::lround(tick * 100)) + QLatin1Char('%');
    }
};

} // namespace

FeedForwardView::FeedForwardView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_heatmap(new HeatmapView(content()))
    , m_gateView(new HeatmapView(content()))
    , m_upView(new HeatmapView(content()))
    , m_zeroPlot(new QCustomPlot(content()))
    , m_histPlot(new QCustomPlot(content()))
{

    // H is wide (d_ff columns): across the top (a gated FFN's G and U beside it); the two
    // summaries of its values underneath.
    auto* body = new QVBoxLayout(content());
    body->setContentsMargins(0, 0, 0, 0);
    auto* matrices = new QHBoxLayout;
    for (HeatmapView* view : {m_gateView, m_upView, m_heatmap})
        matrices->addWidget(view, 1);
    body->addLayout(matrices, 11);
    auto* plots = new QHBoxLayout;
    plots->addWidget(m_zeroPlot, 1);
    plots->addWidget(m_histPlot, 1);
    body->addLayout(plots, 10);
    m_heatmap->setMinimumHeight(200);
    m_zeroPlot->setMinimumHeight(180);
    m_histPlot->setMinimumHeight(180);
    setUpZeroPlot();
    setUpHistogramPlot();
    applyFonts();
    retranslate();

    // G, U and H have the same shape: a cell clicked in one is outlined in all three.
    for (HeatmapView* view : {m_gateView, m_upView, m_heatmap}) {
        connect(view, &HeatmapView::cellClicked, session, &Session::selectCell);
        connect(session, &Session::selectionChanged, view, &HeatmapView::setSelectedCell);
        connect(session, &Session::highlightChanged, view, [this, view] { view->setHighlight(this->session()->highlight()); });
    }
    refreshOn(&Session::stepChanged);
    refresh();
}

void FeedForwardView::setUpZeroPlot()
{
    // Switched-off fraction per token: bars, and a dashed line for all tokens together.
    addPlotTitle(m_zeroPlot);
    auto* zeroBars = new QCPBars(m_zeroPlot->xAxis, m_zeroPlot->yAxis);
    zeroBars->setWidth(0.7);
    zeroBars->setPen(QPen(kOffColor.darker(140)));
    zeroBars->setBrush(QColor(kOffColor.red(), kOffColor.green(), kOffColor.blue(), 200));
    QCPGraph* overall = m_zeroPlot->addGraph();
    overall->setPen(QPen(QColor(30, 30, 30), 1.5, Qt::DashLine));
    putLegendBelow(m_zeroPlot, 2);
    m_zeroPlot->yAxis->setTicker(QSharedPointer<PercentTicker>::create());
    m_zeroPlot->yAxis->setRange(0, 1.08); // fractions: the full scale, always
    m_zeroPlot->xAxis->setSubTicks(false);
    m_zeroPlot->xAxis->setTickLength(0, 4);
    m_zeroPlot->xAxis->grid()->setVisible(false);
}

void FeedForwardView::setUpHistogramPlot()
{
    // Histogram: the switched-off values at the bottom of each bar, the rest stacked on top.
    addPlotTitle(m_histPlot);
    auto* offBars = new QCPBars(m_histPlot->xAxis, m_histPlot->yAxis);
    offBars->setPen(QPen(kOffColor.darker(140)));
    offBars->setBrush(QColor(kOffColor.red(), kOffColor.green(), kOffColor.blue(), 220));
    auto* onBars = new QCPBars(m_histPlot->xAxis, m_histPlot->yAxis);
    onBars->setPen(QPen(kOnColor.darker(140)));
    onBars->setBrush(QColor(kOnColor.red(), kOnColor.green(), kOnColor.blue(), 200));
    onBars->moveAbove(offBars);
    auto* zeroLine = new QCPItemStraightLine(m_histPlot);
    zeroLine->point1->setCoords(0, 0);
    zeroLine->point2->setCoords(0, 1);
    zeroLine->setPen(QPen(QColor(30, 30, 30), 1.2, Qt::DashLine));
    zeroLine->setClipToAxisRect(true);
    putLegendBelow(m_histPlot, 2);
    m_histPlot->xAxis->grid()->setVisible(false);
}

void FeedForwardView::applyFonts()
{
    // The widget's font, with its CJK fallback families (the heatmap follows on its own).
    for (QCustomPlot* plot : {m_zeroPlot, m_histPlot})
        applyPlotFonts(plot, font());
    if (hasStage())
        drawZeroFractions(); // label sizes decide whether token labels stand upright
}

void FeedForwardView::resizeEvent(QResizeEvent* event)
{
    CaptionedView::resizeEvent(event);
    // Whether the token labels stand upright depends on the plot's width.
    fitTokenLabels(m_zeroPlot, m_tokens);
    m_zeroPlot->replot(QCustomPlot::rpQueuedReplot);
}

void FeedForwardView::retranslate()
{
    m_zeroPlot->yAxis->setLabel(m_gated ? tr("share of the gate's units") : tr("share of the hidden units"));
    m_histPlot->xAxis->setLabel(m_gated ? tr("gate value %1(g)").arg(m_actName) : tr("hidden value h"));
    m_histPlot->yAxis->setLabel(tr("how many values"));
}

bool FeedForwardView::isOff(float value) const
{
    // Switched off: ReLU gives exactly 0; GELU and a gate's SiLU, smooth, give 0 or a small negative value.
    return m_gated || m_activation != Activation::Relu ? value <= 0.0f : value == 0.0f;
}

void FeedForwardView::showNoStage()
{
    m_hidden = {};
    m_gated = false;
    m_gate = {};
    m_up = {};
    m_gateActivation.resize(0, 0);
    m_tokens.clear();
    m_zeroFractions.clear();
    m_overallZero = 0;
    m_edges.clear();
    m_counts.clear();
    m_offCounts.clear();
    showMessage(session()->isModel()
                    ? tr("This block has no feed-forward network (cross-attention's block has none). Choose a "
                         "layer's “FFN hidden” step.")
                    : tr("The feed-forward network is part of a Transformer layer, and one attention block has "
                         "none. Choose a Transformer model in the settings, then a layer's “FFN hidden” step."));
}

void FeedForwardView::refresh()
{
    // The session's trace holds one layer's block: its ffn_hidden, when the block has one.
    const std::shared_ptr<const Trace>& trace = session()->trace();
    const Stage* stage = trace ? trace->find("ffn_hidden") : nullptr;
    if (!stage || stage->main().values.size() == 0)
        return showNoStage();
    showContent();

    m_hidden = stage->main();
    const std::shared_ptr<const Seq2SeqModel>& model = trace->model;
    m_activation = model ? model->spec.activation : trace->config.activation;
    m_dModel = model ? model->spec.dModel : trace->config.dModel;
    readGate(*trace);
    m_tokens = rowTokens(m_hidden);
    countSwitchedOff();
    countHistogram();
    if (m_gated)
        writeGatedCaption();
    else
        writeCaption();
    retranslate(); // the axes name the gate or the hidden values
    drawHeatmaps(*stage);
    drawZeroFractions();
    drawHistogram();
}

void FeedForwardView::readGate(const Trace& trace)
{
    // A gated FFN: G and U of the same block, each n x d_ff as H is, and the gate's activation
    // (Gemma 3's GeGLU: GELU_tanh; the others' SwiGLU: SiLU) applied to G here.
    const Stage* gate = trace.find("ffn_gate");
    const Stage* up = trace.find("ffn_up");
    const auto sameShape = [&](const Stage* s) {
        return s && s->main().values.rows() == m_hidden.values.rows() && s->main().values.cols() == m_hidden.values.cols();
    };
    m_gated = sameShape(gate) && sameShape(up);
    m_gate = m_gated ? gate->main() : LabeledMatrix{};
    m_up = m_gated ? up->main() : LabeledMatrix{};
    const std::shared_ptr<const Seq2SeqModel>& model = trace.model;
    const bool geglu = model && model->pretrained && model->pretrained->config().gegluTanh;
    const FfnActivation act = !m_gated ? ffnActivation(m_activation) : geglu ? ffnActivation(Activation::GeluTanh) : siluActivation();
    m_actName = QString::fromLatin1(act.name);
    if (m_gated)
        m_gateActivation = m_gate.values.unaryExpr(act.apply);
    else
        m_gateActivation.resize(0, 0);
}

void FeedForwardView::drawHeatmaps(const Stage& hidden)
{
    // H alone, or G, U and H = act(G) ⊙ U, each titled with its formula.
    const int n = static_cast<int>(m_hidden.values.rows());
    const int row = session()->selectedRow();
    const int column = session()->selectedColumn();
    const auto draw = [&](HeatmapView* view, const LabeledMatrix& m, const QString& title) {
        view->setSelectedCell(row, column);
        view->setHighlight(session()->highlight());
        view->setMatrix(m, title, HeatmapView::Scale::Signed);
    };
    m_gateView->setVisible(m_gated);
    m_upView->setVisible(m_gated);
    const QString formula = withSubscripts(QString::fromStdString(hidden.formula));
    if (!m_gated) {
        draw(m_heatmap, m_hidden, tr("%1   (%2 tokens × %3 hidden units)").arg(formula).arg(n).arg(dFF()));
        return;
    }
    const std::shared_ptr<const Trace>& trace = session()->trace();
    const auto formulaOf = [&](const char* id) { return withSubscripts(QString::fromStdString(trace->find(id)->formula)); };
    draw(m_gateView, m_gate, tr("Gate: %1").arg(formulaOf("ffn_gate")));
    draw(m_upView, m_up, tr("Up: %1").arg(formulaOf("ffn_up")));
    draw(m_heatmap, m_hidden, tr("Product: %1").arg(formula)); // the caption gives the sizes
}

void FeedForwardView::countSwitchedOff()
{
    // Switched off, per token and over all tokens (a gated FFN's: its gate values).
    const Eigen::MatrixXf& h = summarised();
    const int n = static_cast<int>(h.rows());
    const int dff = static_cast<int>(h.cols());
    m_zeroFractions.assign(static_cast<std::size_t>(n), 0);
    long long offTotal = 0;
    for (int r = 0; r < n; ++r) {
        int off = 0;
        for (int c = 0; c < dff; ++c)
            off += isOff(h(r, c)) ? 1 : 0;
        m_zeroFractions[static_cast<std::size_t>(r)] = dff > 0 ? static_cast<double>(off) / dff : 0;
        offTotal += off;
    }
    m_overallZero = h.size() > 0 ? static_cast<double>(offTotal) / static_cast<double>(h.size()) : 0;
}

void FeedForwardView::countHistogram()
{
    // kBins equal bins from the smallest to the largest value.
    const Eigen::MatrixXf& h = summarised();
    double lo = h.minCoeff();
    double hi = h.maxCoeff();
    if (!(hi - lo > 1e-12)) { // every value the same: one unit-wide range around it
        lo -= 0.5;
        hi += 0.5;
    }
    m_edges.assign(kBins + 1, 0);
    for (int i = 0; i <= kBins; ++i)
        m_edges[static_cast<std::size_t>(i)] = lo + (hi - lo) * i / kBins;
    m_edges.back() = hi;
    m_counts.assign(kBins, 0);
    m_offCounts.assign(kBins, 0);
    for (Eigen::Index i = 0; i < h.size(); ++i) {
        const float v = h.data()[i];
        // The bin whose [lower, upper) holds v; the largest value goes into the last bin.
        const auto above = std::upper_bound(m_edges.begin(), m_edges.end(), static_cast<double>(v));
        const int bin = std::clamp(static_cast<int>(above - m_edges.begin()) - 1, 0, kBins - 1);
        ++m_counts[static_cast<std::size_t>(bin)];
        if (isOff(v))
            ++m_offCounts[static_cast<std::size_t>(bin)];
    }
}

void FeedForwardView::writeCaption()
{
    // The shapes with the numbers, and what the activation does.
    const QString act = QString::fromLatin1(attnlab::activationName(m_activation));
    const Eigen::Index values = m_hidden.values.size();
    QString text = tr("Feed-forward network: d_model = %1 → d_ff = %2 → d_model = %1, with %3. Each token goes "
                      "through the same two linear layers on its own (tokens do not look at each other here): "
                      "H = %3(X·W₁ᵀ + b₁) widens its vector to %2 features, then H·W₂ᵀ + b₂ brings it back to %1.")
                       .arg(m_dModel)
                       .arg(dFF())
                       .arg(act);
    text += QLatin1Char('\n');
    if (m_activation != Activation::Relu)
        text += tr("GELU(x) = x·Φ(x) is smooth: a negative input gives a small negative value (never below about "
                   "−0.17) rather than exactly 0. Here %1 of all %2 hidden values are negative or zero.")
                    .arg(percent(m_overallZero))
                    .arg(values);
    else
        text += tr("ReLU(x) = max(0, x) switches a unit off, to exactly 0, whenever its input is negative. Here %1 "
                   "of all %2 hidden values are exactly 0.")
                    .arg(percent(m_overallZero))
                    .arg(values);
    setCaption(text);
}

void FeedForwardView::writeGatedCaption()
{
    // The shapes with the numbers, what the gate does, and how often it closes here.
    const bool geglu = m_actName != u"SiLU";
    // The first paragraph alone is what a projected window shows (CaptionedView::setCaption).
    const QString text = tr("Gated feed-forward network (%1): d_model = %2 → two projections of d_ff = %3 → d_model = %2, each token on "
                      "its own; H = %4(G) ⊙ U, so the gate G decides how much of each feature of U passes.")
                       .arg(geglu ? QStringLiteral("GeGLU") : QStringLiteral("SwiGLU"))
                       .arg(m_dModel)
                       .arg(dFF())
                       .arg(m_actName);
    const QString sides = tr("G and U are computed side by side from the same input; then H·W_downᵀ brings the token back to %1 features.")
                              .arg(m_dModel);
    const QString gate = (geglu ? tr("GELU_tanh(g) is near 0 for a very negative g (the gate closes) and never below about −0.17, so a "
                        "negative gate lets a little of U through with its sign flipped. Here %1 of all %2 gate values are "
                        "negative or zero.")
                   : tr("SiLU(g) = g·σ(g) is near 0 for a very negative g (the gate closes) and never below about −0.28, so a "
                        "negative gate lets a little of U through with its sign flipped. Here %1 of all %2 gate values are "
                        "negative or zero."))
                .arg(percent(m_overallZero))
                .arg(m_gateActivation.size());
    setCaption(text + QLatin1Char('\n') + appendSentence(sides, gate));
}

void FeedForwardView::drawZeroFractions()
{
    const int n = static_cast<int>(m_tokens.size());
    QVector<double> keys(n);
    for (int i = 0; i < n; ++i)
        keys[i] = i;
    auto* bars = qobject_cast<QCPBars*>(m_zeroPlot->plottable(0));
    bars->setData(keys, QVector<double>(m_zeroFractions.begin(), m_zeroFractions.end()), true);
    const bool gelu = m_activation != Activation::Relu;
    bars->setName(m_gated ? tr("%1(g) ≤ 0").arg(m_actName) : gelu ? tr("negative or zero (GELU)") : tr("exactly 0 (ReLU)"));
    m_zeroPlot->graph(0)->setData({-0.6, n - 0.4}, {m_overallZero, m_overallZero});
    m_zeroPlot->graph(0)->setName(tr("all tokens: %1").arg(percent(m_overallZero)));
    m_zeroPlot->xAxis->setTicker(tokenTicker(m_tokens));
    m_zeroPlot->xAxis->setRange(-0.6, n - 0.4);
    fitTokenLabels(m_zeroPlot, m_tokens);
    if (auto* title = plotTitle(m_zeroPlot))
        title->setText(m_gated ? tr("Gate at or below 0 per token (%1 units each)").arg(dFF())
                       : gelu  ? tr("Hidden units negative or zero per token (%1 units each)").arg(dFF())
                               : tr("Hidden units at exactly 0 per token (%1 units each)").arg(dFF()));
    m_zeroPlot->replot(QCustomPlot::rpQueuedReplot);
}

void FeedForwardView::drawHistogram()
{
    if (m_counts.empty())
        return;
    const double width = m_edges[1] - m_edges[0];
    QVector<double> keys;
    QVector<double> off;
    QVector<double> on;
    int highest = 1;
    for (int i = 0; i < kBins; ++i) {
        const auto b = static_cast<std::size_t>(i);
        keys.push_back((m_edges[b] + m_edges[b + 1]) / 2);
        off.push_back(m_offCounts[b]);
        on.push_back(m_counts[b] - m_offCounts[b]);
        highest = std::max(highest, m_counts[b]);
    }
    auto* offBars = qobject_cast<QCPBars*>(m_histPlot->plottable(0));
    auto* onBars = qobject_cast<QCPBars*>(m_histPlot->plottable(1));
    offBars->setWidth(width);
    onBars->setWidth(width);
    offBars->setData(keys, off, true);
    onBars->setData(keys, on, true);
    const bool gelu = m_activation != Activation::Relu;
    offBars->setName(m_gated ? tr("%1(g) ≤ 0").arg(m_actName) : gelu ? tr("h ≤ 0 (negative or zero)") : tr("h = 0 (switched off)"));
    onBars->setName(m_gated ? tr("%1(g) > 0").arg(m_actName) : tr("h > 0"));
    // Always show h = 0 (the dashed line), with half a bin of room at both ends.
    m_histPlot->xAxis->setRange(std::min(m_edges.front(), 0.0) - width / 2, std::max(m_edges.back(), 0.0) + width / 2);
    m_histPlot->yAxis->setRange(0, highest * 1.1);
    const int n = static_cast<int>(m_hidden.values.rows());
    if (auto* title = plotTitle(m_histPlot))
        title->setText(m_gated ? tr("All %1 gate values %2(g) (%3 × %4), %5 bins").arg(n * dFF()).arg(m_actName).arg(n).arg(dFF()).arg(kBins)
                               : tr("All %1 hidden values (%2 × %3), %4 bins").arg(n * dFF()).arg(n).arg(dFF()).arg(kBins));
    m_histPlot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab
