#include "views/layernormview.h"

#include "plot/palette.h"

#include "widgets/controlcheckbox.h"
#include "views/heatmapview.h"
#include "model/model.h"
#include "pretrained/model_folder.h"
#include "plot/plotting.h"
#include "session/messages.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

// Okabe–Ito (colour-blind safe): vermillion before the LayerNorm, blue after it.
const QColor kBeforeColor = okabeIto(Okabe::Vermillion);
const QColor kAfterColor = okabeIto(Okabe::Blue);

constexpr double kMinShownVariance = 1e-6; // a log axis cannot show 0
constexpr double kLinearVarianceLimit = 10; // larger variances get a log axis

const LabeledMatrix* matrixNamed(const Stage& s, const char* name)
{
    for (const auto& m : s.matrices) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

/// -5 -> "⁻⁵"
QString superscript(int number)
{
    static const char16_t kDigits[] = u"\u2070\u00B9\u00B2\u00B3\u2074\u2075\u2076\u2077\u2078\u2079";
    QString out = number < 0 ? QStringLiteral("\u207B") : QString();
    for (const QChar c : QString::number(std::abs(number)))
        out += QChar(kDigits[c.unicode() - u'0']);
    return out;
}

/// ε as people write it: "10⁻⁵", "2.5·10⁻⁶".
QString epsilonText(double eps)
{
    if (!(eps > 0) || !std::isfinite(eps))
        return QString::number(eps);
    // + 1e-6: 1e-5 stored as a float is 9.99999974e-6, which is still "10⁻⁵".
    const int e = static_cast<int>(std::floor(std::log10(eps) + 1e-6));
    const double mantissa = eps / std::pow(10.0, e);
    if (std::abs(mantissa - 1) < 1e-5)
        return QStringLiteral("10") + superscript(e);
    return QString::number(mantissa, 'g', 3) + QStringLiteral("\u00B710") + superscript(e);
}

/// Two bar series side by side per token (before, after), a dashed reference line, a title
/// row and the legend under the plot.
void setUpBarsPlot(QCustomPlot* plot)
{
    addPlotTitle(plot);
    auto* group = new QCPBarsGroup(plot);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    for (const QColor& c : {kBeforeColor, kAfterColor}) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setWidth(0.38);
        bars->setBarsGroup(group);
        bars->setPen(QPen(c.darker(130)));
        bars->setBrush(QColor(c.red(), c.green(), c.blue(), 190));
    }
    QCPGraph* reference = plot->addGraph();
    reference->setPen(QPen(QColor(30, 30, 30), 1.5, Qt::DashLine));
    // A dot on top of each bar after: where each token lands, visible even for a bar of height 0.
    QCPGraph* landing = plot->addGraph();
    landing->setLineStyle(QCPGraph::lsNone);
    landing->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kAfterColor.darker(130), kAfterColor, 7));
    putLegendBelow(plot, 3);
    landing->removeFromLegend();
    plot->xAxis->setSubTicks(false);
    plot->xAxis->setTickLength(0, 4);
    plot->xAxis->grid()->setVisible(false);
    plot->setMinimumHeight(180);
}

/// The stack's final LayerNorm (encoder_output, decoder_output), not a layer's own.
bool isStackOutput(const Stage& stage)
{
    return stage.id == "encoder_output" || stage.id == "decoder_output";
}

/// A layer's input as the engine's layer formulas write it (engine/nn/transformer.cpp): X in an
/// encoder layer, Y in a decoder layer ("N_1 = LN_1(X)", "N_1 = LN_1(Y)").
QString layerInputName(Block block)
{
    return block == Block::EncoderSelf ? QStringLiteral("X") : QStringLiteral("Y");
}

QVector<double> toVector(const std::vector<double>& v)
{
    return QVector<double>(v.begin(), v.end());
}

} // namespace

LayerNormView::LayerNormView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_meanPlot(new QCustomPlot(content()))
    , m_variancePlot(new QCustomPlot(content()))
    , m_shared(new ControlCheckBox(content()))
    , m_inputView(new HeatmapView(content()))
    , m_outputView(new HeatmapView(content()))
{
    setUpLayout();
    setUpBarsPlot(m_meanPlot);
    setUpBarsPlot(m_variancePlot);
    // Variances get a log axis when they are large (drawVariances decides).
    auto logTicker = QSharedPointer<QCPAxisTickerLog>::create();
    logTicker->setSubTickCount(8);
    m_logTicker = logTicker;
    m_linearTicker = m_variancePlot->yAxis->ticker();
    applyFonts();
    retranslate();

    connect(m_shared, &QCheckBox::toggled, this, &LayerNormView::drawHeatmaps);
    // The output is the stage's matrix: a click on it selects the cell, as in the matrix view;
    // the same cell is outlined before and after.
    connect(m_outputView, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(m_inputView, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(session, &Session::selectionChanged, this, [this](int row, int column) {
        m_inputView->setSelectedCell(row, column);
        m_outputView->setSelectedCell(row, column);
    });
    connect(session, &Session::highlightChanged, this, [this] {
        m_inputView->setHighlight(this->session()->highlight());
        m_outputView->setHighlight(this->session()->highlight());
    });
    refreshOn(&Session::stepChanged);
    refresh();
}

void LayerNormView::setUpLayout()
{
    // The statistics per token on top; the matrices before and after underneath.
    auto* body = new QVBoxLayout(content());
    body->setContentsMargins(0, 0, 0, 0);
    auto* stats = new QHBoxLayout;
    stats->addWidget(m_meanPlot, 1);
    stats->addWidget(m_variancePlot, 1);
    body->addLayout(stats, 5);
    auto* bar = new QHBoxLayout;
    bar->addStretch(1);
    m_shared->setChecked(true); // one scale: the LayerNorm visibly shrinks (or stretches) the values
    m_shared->setFocusPolicy(Qt::NoFocus);
    bar->addWidget(m_shared);
    body->addLayout(bar);
    auto* heat = new QHBoxLayout;
    heat->addWidget(m_inputView, 1);
    heat->addWidget(m_outputView, 1);
    body->addLayout(heat, 6);
    m_inputView->setMinimumHeight(200);
    m_outputView->setMinimumHeight(200);
}

void LayerNormView::applyFonts()
{
    // The widget's font, with its CJK fallback families (the heatmaps follow on their own).
    for (QCustomPlot* plot : {m_meanPlot, m_variancePlot})
        applyPlotFonts(plot, font());
    if (hasStage())
        drawStatistics(); // label sizes decide whether token labels stand upright
}

void LayerNormView::resizeEvent(QResizeEvent* event)
{
    CaptionedView::resizeEvent(event);
    // Whether the token labels stand upright depends on the plots' width.
    for (QCustomPlot* plot : {m_meanPlot, m_variancePlot}) {
        fitTokenLabels(plot, m_tokens);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void LayerNormView::retranslate()
{
    m_shared->setText(tr("Same colour scale before and after"));
    m_shared->setToolTip(tr("One symmetric colour range for both matrices, so you see how much the norm "
                            "shrinks or stretches the values"));
    m_meanPlot->yAxis->setLabel(tr("mean μ of the row"));
    // The dashed lines: where the norm puts every token (an RMSNorm does not centre).
    m_meanPlot->graph(0)->setName(m_rms ? tr("0: not moved there") : tr("(x − μ)/σ has mean 0"));
    m_variancePlot->graph(0)->setName(m_rms ? tr("x / RMS(x) has RMS 1") : tr("(x − μ)/σ has variance 1"));
}

void LayerNormView::showNoStage()
{
    m_stageId.clear();
    m_inputStageId.clear();
    m_output = {};
    m_input = {};
    m_tokens.clear();
    m_inMean.clear();
    m_inVar.clear();
    m_outMean.clear();
    m_outVar.clear();
    m_inRms.clear();
    m_outRms.clear();
    m_rms = false;
    showMessage(session()->isModel()
                    ? tr("This step has no LayerNorm. Choose one of a layer's “Norm” steps to see what it does to "
                         "each token.")
                    : tr("LayerNorm is part of a Transformer layer, and one attention block has none. Choose a "
                         "Transformer model in the settings, then one of a layer's “Norm” steps."));
}

void LayerNormView::refresh()
{
    const std::shared_ptr<const Trace>& trace = session()->trace();
    const QString id = session()->stepId();
    const Stage* stage = trace ? trace->find(id.toStdString()) : nullptr;
    const LabeledMatrix* mean = stage ? matrixNamed(*stage, "mean") : nullptr;
    const LabeledMatrix* variance = stage ? matrixNamed(*stage, "variance") : nullptr;
    const LabeledMatrix* meanSquare = stage ? matrixNamed(*stage, "mean_square") : nullptr; // an RMSNorm's
    const Eigen::Index n = stage ? stage->main().values.rows() : 0;
    const bool layerNorm = mean && variance && mean->values.rows() == n && variance->values.rows() == n;
    const bool rms = !layerNorm && meanSquare && meanSquare->values.rows() == n;
    if (!stage || n == 0 || !(layerNorm || rms))
        return showNoStage();
    showContent();

    m_rms = rms;
    m_stageId = id;
    m_output = stage->main();
    m_outputFormula = withSubscripts(QString::fromStdString(stage->formula));
    m_tokens = rowTokens(m_output);
    readModel(*trace, *stage);
    findInput(*stage);
    if (rms) {
        readRmsStatistics(*meanSquare);
        writeRmsCaption();
    } else {
        readStatistics(*mean, *variance);
        writeCaption();
    }
    retranslate(); // the dashed lines' names follow the kind of norm
    drawStatistics();
    drawHeatmaps();
}

void LayerNormView::readStatistics(const LabeledMatrix& mean, const LabeledMatrix& variance)
{
    // Before: the statistics of the input rows, as the engine computed them.
    const int rows = static_cast<int>(m_output.values.rows());
    m_inRms.clear();
    m_outRms.clear();
    m_inMean.assign(static_cast<std::size_t>(rows), 0);
    m_inVar.assign(static_cast<std::size_t>(rows), 0);
    for (int r = 0; r < rows; ++r) {
        m_inMean[static_cast<std::size_t>(r)] = mean.values(r, 0);
        m_inVar[static_cast<std::size_t>(r)] = variance.values(r, 0);
    }
    // After: mean and biased variance (divided by d) of each output row, in double.
    const Eigen::MatrixXd out = m_output.values.cast<double>();
    const Eigen::Index d = out.cols();
    m_outMean.assign(static_cast<std::size_t>(rows), 0);
    m_outVar.assign(static_cast<std::size_t>(rows), 0);
    for (int r = 0; r < rows && d > 0; ++r) {
        const double mu = out.row(r).mean();
        m_outMean[static_cast<std::size_t>(r)] = mu;
        m_outVar[static_cast<std::size_t>(r)] = (out.row(r).array() - mu).square().sum() / static_cast<double>(d);
    }
}

void LayerNormView::readRmsStatistics(const LabeledMatrix& meanSquare)
{
    // Before: √mean(x²) of each input row, as the engine computed it, and the input rows' means
    // (from the input stage, when found). After: the output rows' RMS and means, in double.
    const int rows = static_cast<int>(m_output.values.rows());
    const Eigen::MatrixXd out = m_output.values.cast<double>();
    const auto d = static_cast<double>(out.cols());
    m_inVar.clear();
    m_outVar.clear();
    m_inRms.assign(static_cast<std::size_t>(rows), 0);
    m_outRms.assign(static_cast<std::size_t>(rows), 0);
    m_outMean.assign(static_cast<std::size_t>(rows), 0);
    m_inMean.clear();
    const bool haveInput = m_input.values.rows() == rows && m_input.values.cols() == out.cols();
    for (int r = 0; r < rows && d > 0; ++r) {
        const auto i = static_cast<std::size_t>(r);
        m_inRms[i] = std::sqrt(std::max(0.0, static_cast<double>(meanSquare.values(r, 0))));
        m_outRms[i] = std::sqrt(out.row(r).squaredNorm() / d);
        m_outMean[i] = out.row(r).mean();
        if (haveInput)
            m_inMean.push_back(m_input.values.row(r).cast<double>().mean());
    }
}

void LayerNormView::readModel(const Trace& trace, const Stage& stage)
{
    // The model's ε, norm placement and this LayerNorm's γ and β (the module the stage used).
    const std::shared_ptr<const Seq2SeqModel>& model = trace.model;
    const Eigen::Index d = m_output.values.cols();
    m_eps = model ? static_cast<double>(model->spec.layerNormEps) : kDefaultEpsilon;
    m_preNorm = (model ? model->spec.norm : trace.config.norm) == NormPlacement::Pre;
    m_normPlusOne = model && model->pretrained && model->pretrained->config().normPlusOne;
    const LayerNormWeights* affine = model ? layerNormModule(*model, stage.module) : nullptr;
    m_knownAffine = affine && affine->gamma.size() == d && affine->beta.size() == d && d > 0;
    if (m_knownAffine) {
        m_identityAffine = (affine->gamma.array() == 1.0f).all() && (affine->beta.array() == 0.0f).all();
        m_gammaRange = {affine->gamma.minCoeff(), affine->gamma.maxCoeff()};
        m_betaRange = {affine->beta.minCoeff(), affine->beta.maxCoeff()};
    }
}

void LayerNormView::findInput(const Stage& stage)
{
    // The input, as the trace recorded it, from the whole trace (a Pre-LN layer's input belongs
    // to the previous layer).
    const std::shared_ptr<const Trace>& full = session()->fullTrace() ? session()->fullTrace() : session()->trace();
    const Stage* input = full->input(stage);
    if (input && (input->main().values.rows() != m_output.values.rows() || input->main().values.cols() != m_output.values.cols()))
        input = nullptr; // never draw a matrix that is not this LayerNorm's input
    m_input = input ? input->main() : LabeledMatrix{};
    m_inputStageId = input ? QString::fromStdString(input->id) : QString();
    if (!input) {
        m_inputName.clear();
        m_inputTitle.clear();
        return;
    }
    // The input's name as the formulas write it, so the titles and the caption agree with the
    // formula banner: a layer's own LayerNorm calls the layer's input X or Y (below); anything
    // else is called by its matrix's name.
    m_inputName = withSubscripts(QString::fromStdString(input->main().name));
    const bool layerInput = input->id == "input" || input->id == "layer_output";
    if (layerInput && !isStackOutput(stage))
        m_inputName = m_rms ? QStringLiteral("X") : layerInputName(stage.block); // a modern decoder's formulas: X in every layer
    if (input->id == "input")
        m_inputTitle = tr("%1, the layer's input").arg(m_inputName);
    else if (input->id == "layer_output")
        m_inputTitle = tr("%1, the output of layer %2").arg(m_inputName).arg(input->layer.value_or(0) + 1);
    else
        m_inputTitle = withSubscripts(QString::fromStdString(input->formula));
}

void LayerNormView::writeCaption()
{
    // The formula with this model's ε, where the input comes from, what to look for.
    const QString outputName = withSubscripts(QString::fromStdString(m_output.name));
    const QString inName = m_inputStageId.isEmpty() ? tr("its input") : m_inputName;
    QString where;
    if (m_stageId == u"encoder_output" || m_stageId == u"decoder_output")
        where = tr("The stack's final LayerNorm normalises its last layer's output %1.").arg(inName);
    else if (m_preNorm)
        where = tr("Pre-LN: the LayerNorm normalises %1 on its way into the sublayer; the residual stream itself is "
                   "never normalised.")
                    .arg(inName);
    else
        where = tr("Post-LN (Add & Norm): the LayerNorm normalises the residual sum %1.").arg(inName);
    QString affineText; // nothing when γ and β are unknown (no model)
    if (m_knownAffine && m_identityAffine)
        affineText = tr("Here γ = 1 and β = 0 (as initialised), so %1 keeps exactly that.").arg(outputName);
    else if (m_knownAffine)
        affineText = tr("This LayerNorm's learned γ (from %1 to %2) and β (from %3 to %4) then scale and shift each "
                        "feature, so the rows of %5 move off exactly 0 and 1.")
                         .arg(fixedNumber(m_gammaRange.first, 2), fixedNumber(m_gammaRange.second, 2),
                              fixedNumber(m_betaRange.first, 2), fixedNumber(m_betaRange.second, 2), outputName);
    QString text = tr("LN(x) = (x − μ) / √(σ² + ε) · γ + β,   ε = %1,   over each token's %2 features.")
                       .arg(epsilonText(m_eps))
                       .arg(m_output.values.cols());
    text += QLatin1Char('\n') + where + QLatin1Char(' ')
        + tr("Before, each token's mean and variance are whatever the stream made them; after subtracting μ and "
             "dividing by √(σ² + ε), every token has mean 0 and variance 1 (the dashed lines).");
    if (!affineText.isEmpty())
        text += QLatin1Char(' ') + affineText;
    setCaption(text);
}

void LayerNormView::writeRmsCaption()
{
    // The formula with this model's ε, where the input comes from, what RMSNorm does not do.
    const QString inName = m_inputStageId.isEmpty() ? tr("its input") : m_inputName;
    QString where;
    if (m_stageId == u"encoder_output" || m_stageId == u"decoder_output")
        where = tr("The stack's final RMSNorm normalises its last layer's output %1.").arg(inName);
    else if (m_stageId == u"attn_post_norm" || m_stageId == u"ffn_post_norm")
        where = tr("Gemma 3 also normalises the sublayer's output %1 before adding it to the residual stream.").arg(inName);
    else
        where = tr("Pre-norm: the RMSNorm normalises %1 on its way into the sublayer; the residual stream itself is "
                   "never normalised.")
                    .arg(inName);
    QString text = (m_normPlusOne ? tr("RMSNorm(x) = x / √(mean(x²) + ε) · (1 + w),   ε = %1,   over each token's %2 features.")
                                  : tr("RMSNorm(x) = x / √(mean(x²) + ε) · γ,   ε = %1,   over each token's %2 features."))
                       .arg(epsilonText(m_eps))
                       .arg(m_output.values.cols());
    QString more = appendSentence(where, tr("Unlike LayerNorm it subtracts no mean (the means on the left are not moved to 0): it divides "
                                            "each token's vector by its root mean square, so every token has RMS 1 (the dashed line); "
                                            "then the learned weights, one per feature, rescale the features, so the RMS after is not "
                                            "exactly 1."));
    // Tokens whose vectors differ greatly in length before: the norm evens them out.
    const auto [lo, hi] = std::minmax_element(m_inRms.begin(), m_inRms.end());
    if (lo != m_inRms.end() && *lo > 0 && *hi / *lo >= 5) {
        const auto longest = static_cast<std::size_t>(hi - m_inRms.begin());
        more = appendSentence(more, tr("Before it, “%1” has a vector %2 times as long as the shortest one; after it, all are about as long.")
                                        .arg(longest < m_tokens.size() ? m_tokens[longest] : QString())
                                        .arg(fixedNumber(*hi / *lo, 0)));
    }
    setCaption(text + QLatin1Char('\n') + more);
}

void LayerNormView::drawStatistics()
{
    const int n = static_cast<int>(m_tokens.size());
    QVector<double> keys(n);
    for (int i = 0; i < n; ++i)
        keys[i] = i;
    const QString inName = m_input.values.size() > 0 ? m_inputName : tr("input");
    const QString outName = withSubscripts(QString::fromStdString(m_output.name));

    for (QCustomPlot* plot : {m_meanPlot, m_variancePlot}) {
        plot->plottable(0)->setName(tr("before: %1").arg(inName));
        plot->plottable(1)->setName(tr("after: %1").arg(outName));
        plot->xAxis->setTicker(tokenTicker(m_tokens));
        plot->xAxis->setRange(-0.6, n - 0.4);
        fitTokenLabels(plot, m_tokens);
        plot->graph(0)->setData({-0.6, n - 0.4}, {plot == m_meanPlot ? 0.0 : 1.0, plot == m_meanPlot ? 0.0 : 1.0});
        // The dots sit on the after bars: the right one of each pair (width 0.38, 1 px apart).
        QVector<double> dotKeys(n);
        for (int i = 0; i < n; ++i)
            dotKeys[i] = i + 0.19 + 0.002;
        plot->graph(1)->setData(dotKeys, toVector(plot == m_meanPlot ? m_outMean : m_rms ? m_outRms : m_outVar), true);
        QCPScatterStyle dot = plot->graph(1)->scatterStyle();
        dot.setSize(n <= kMaxLabelledTokens ? 7 : 4); // smaller dots for thin bars
        plot->graph(1)->setScatterStyle(dot);
    }
    drawMeans(keys);
    drawVariances(keys);
    m_meanPlot->replot(QCustomPlot::rpQueuedReplot);
    m_variancePlot->replot(QCustomPlot::rpQueuedReplot);
}

void LayerNormView::drawMeans(const QVector<double>& keys)
{
    // A linear axis that always holds 0 (the target) and every bar.
    auto* meanBefore = qobject_cast<QCPBars*>(m_meanPlot->plottable(0));
    auto* meanAfter = qobject_cast<QCPBars*>(m_meanPlot->plottable(1));
    meanBefore->setData(keys, toVector(m_inMean), true);
    meanAfter->setData(keys, toVector(m_outMean), true);
    double lo = 0;
    double hi = 0;
    for (const auto* v : {&m_inMean, &m_outMean}) {
        for (double x : *v) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    }
    const double pad = std::max(0.1 * (hi - lo), 0.05);
    m_meanPlot->yAxis->setRange(lo - pad, hi + pad);
    if (auto* title = plotTitle(m_meanPlot))
        title->setText(tr("Mean μ of each token's row")); // the dashed line says an RMSNorm does not centre it
}

void LayerNormView::drawVariances(const QVector<double>& keys)
{
    // A linear axis from 0 while the largest is at most kLinearVarianceLimit (the bars after, at 1,
    // keep a tenth of the height); above that a log axis, on which bars start at the axis' bottom
    // (0 has no place on it).
    // An RMSNorm's root mean squares take the variances' place.
    const std::vector<double>& before = m_rms ? m_inRms : m_inVar;
    const std::vector<double>& after = m_rms ? m_outRms : m_outVar;
    double vhi = 1;
    double vlo = 1;
    for (const auto* v : {&before, &after}) {
        for (double x : *v) {
            vhi = std::max(vhi, x);
            vlo = std::min(vlo, std::max(x, kMinShownVariance));
        }
    }
    const bool logScale = vhi > kLinearVarianceLimit;
    QCPAxis* axis = m_variancePlot->yAxis;
    double base = 0;
    if (logScale) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(m_logTicker);
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setLabel(m_rms ? tr("RMS of the row (log scale)") : tr("variance σ² of the row (log scale)"));
        // Whole decades, with room above the tallest bar.
        base = std::pow(10.0, std::floor(std::log10(vlo * 0.8)));
        axis->setRange(base, std::pow(10.0, std::ceil(std::log10(vhi * 1.25))));
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(m_linearTicker);
        axis->setNumberFormat(QStringLiteral("gb"));
        axis->setLabel(m_rms ? tr("RMS of the row") : tr("variance σ² of the row"));
        axis->setRange(0, vhi * 1.12);
    }
    for (int i = 0; i < 2; ++i) {
        auto* bars = qobject_cast<QCPBars*>(m_variancePlot->plottable(i));
        QVector<double> shown = toVector(i == 0 ? before : after);
        for (double& x : shown)
            x = logScale ? std::max(x, kMinShownVariance) : x;
        bars->setBaseValue(base);
        bars->setData(keys, shown, true);
    }
    if (auto* title = plotTitle(m_variancePlot))
        title->setText(m_rms ? tr("Root mean square of each token's row") : tr("Variance σ² of each token's row"));
}

void LayerNormView::drawHeatmaps()
{
    if (!hasStage())
        return;
    const bool haveInput = m_input.values.size() > 0;
    m_inputView->setVisible(haveInput);
    m_shared->setVisible(haveInput);
    // One symmetric range for both when asked: the largest finite |value| of either matrix.
    double shared = 0;
    if (haveInput && m_shared->isChecked()) {
        for (const Eigen::MatrixXf* m : {&m_input.values, &m_output.values}) {
            for (Eigen::Index i = 0; i < m->size(); ++i) {
                if (std::isfinite(m->data()[i]))
                    shared = std::max(shared, static_cast<double>(std::abs(m->data()[i])));
            }
        }
    }
    const int row = session()->selectedRow();
    const int column = session()->selectedColumn();
    if (haveInput) {
        m_inputView->setSharedMaxAbs(shared);
        m_inputView->setSelectedCell(row, column);
        m_inputView->setHighlight(session()->highlight());
        m_inputView->setMatrix(m_input, tr("Before: %1").arg(m_inputTitle), HeatmapView::Scale::Signed);
    }
    m_outputView->setSharedMaxAbs(shared);
    m_outputView->setSelectedCell(row, column);
    m_outputView->setHighlight(session()->highlight());
    m_outputView->setMatrix(m_output, tr("After: %1").arg(m_outputFormula), HeatmapView::Scale::Signed);
}

} // namespace attnlab
