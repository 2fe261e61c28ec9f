// The LayerNorm view: the bars before are the mean and biased variance of the LayerNorm's input
// rows (recomputed here in double from the input stage of the whole trace), the bars after are
// those of the output rows (mean 0, variance 1 with the seeded γ = 1, β = 0), the output is
// (x − μ)/√(σ² + ε) of the input by hand, Post-LN and Pre-LN find their own inputs, and steps
// without a LayerNorm (or one attention block) show a message instead of crashing.

#include "views/heatmapview.h"
#include "shell/languages.h"
#include "views/layernormview.h"
#include "model/model.h"
#include "session/session.h"
#include "support/compare.h"
#include "support/hfsession.h"
#include "widgets/projectiontype.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QLabel>
#include <QTemporaryDir>
#include "support/plots.h"
#include "support/settle.h"

#include <QtTest>

using attnlab::testing::chineseFontProblem;

#include <cmath>

using namespace attnlab;
using attnlab::testing::largestDifference;

Q_DECLARE_METATYPE(attnlab::NormPlacement)

namespace {

Config seededConfig(NormPlacement norm)
{
    Config c;
    c.model = ModelKind::Seeded;
    c.dModel = 16;
    c.heads = 2;
    c.setLayers(2);
    c.norm = norm;
    return c;
}

/// Goes to the step (id, layer, block) and checks that it exists.
bool goTo(Session& s, const char* id, std::optional<int> layer, const char* block)
{
    const int i = s.stepIndex(QString::fromLatin1(id), layer, parseBlock(block).value());
    if (i < 0)
        return false;
    s.setStep(i);
    return s.stepId() == QLatin1String(id);
}

/// Per row: mean and biased variance (divided by d), in double.
void rowStatistics(const Eigen::MatrixXf& m, std::vector<double>& mean, std::vector<double>& variance)
{
    mean.clear();
    variance.clear();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        double sum = 0;
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            sum += m(r, c);
        const double mu = sum / static_cast<double>(m.cols());
        double sq = 0;
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            sq += (m(r, c) - mu) * (m(r, c) - mu);
        mean.push_back(mu);
        variance.push_back(sq / static_cast<double>(m.cols()));
    }
}

QString plotTitleText(QCustomPlot* p)
{
    auto* t = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
    return t ? t->text() : QString();
}

} // namespace

class TestLayerNormView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void statisticsAreTheInputAndOutputRows_data()
    {
        QTest::addColumn<NormPlacement>("norm");
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("block");
        // Where the LayerNorm's input is in the whole trace (docs/transformer-layers.md).
        QTest::addColumn<QString>("inputId");
        QTest::addColumn<int>("inputLayer"); // -1: none
        QTest::addColumn<QString>("inputBlock");
        const NormPlacement post = NormPlacement::Post;
        const NormPlacement pre = NormPlacement::Pre;
        const QString enc = QStringLiteral("encoder_self");
        const QString dec = QStringLiteral("decoder_self");
        const QString cross = QStringLiteral("cross");
        QTest::newRow("post encoder attn_norm 1") << post << "attn_norm" << 0 << enc << "attn_residual" << 0 << enc;
        QTest::newRow("post encoder ffn_norm 2") << post << "ffn_norm" << 1 << enc << "ffn_residual" << 1 << enc;
        QTest::newRow("post decoder attn_norm 1") << post << "attn_norm" << 0 << dec << "attn_residual" << 0 << dec;
        QTest::newRow("post decoder cross_norm 2") << post << "cross_norm" << 1 << cross << "cross_residual" << 1 << cross;
        QTest::newRow("post decoder ffn_norm 1") << post << "ffn_norm" << 0 << dec << "ffn_residual" << 0 << dec;
        QTest::newRow("pre encoder attn_norm 1") << pre << "attn_norm" << 0 << enc << "input" << -1 << enc;
        QTest::newRow("pre encoder attn_norm 2") << pre << "attn_norm" << 1 << enc << "layer_output" << 0 << enc;
        QTest::newRow("pre encoder ffn_norm 1") << pre << "ffn_norm" << 0 << enc << "attn_residual" << 0 << enc;
        QTest::newRow("pre decoder attn_norm 1") << pre << "attn_norm" << 0 << dec << "input" << -1 << dec;
        QTest::newRow("pre decoder cross_norm 1") << pre << "cross_norm" << 0 << cross << "attn_residual" << 0 << dec;
        QTest::newRow("pre decoder ffn_norm 2") << pre << "ffn_norm" << 1 << dec << "cross_residual" << 1 << cross;
    }

    void statisticsAreTheInputAndOutputRows()
    {
        QFETCH(NormPlacement, norm);
        QFETCH(QString, id);
        QFETCH(int, layer);
        QFETCH(QString, block);
        QFETCH(QString, inputId);
        QFETCH(int, inputLayer);
        QFETCH(QString, inputBlock);
        Session s;
        s.setConfig(seededConfig(norm));
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        LayerNormView v(&s);
        QVERIFY(goTo(s, qPrintable(id), layer, qPrintable(block)));
        QVERIFY(v.hasStage());
        QCOMPARE(v.stageId(), id);
        QVERIFY(v.messageLabel()->isHidden());

        // The input: that stage of the whole trace, drawn as it is.
        const Stage* input = s.fullTrace()->find(inputId.toStdString(), std::nullopt,
                                                 inputLayer < 0 ? std::nullopt : std::optional<int>(inputLayer),
                                                 parseBlock(inputBlock.toStdString()).value());
        QVERIFY(input);
        QCOMPARE(v.inputStageId(), inputId);
        QVERIFY(v.inputView()->isVisibleTo(&v));
        QVERIFY(v.inputView()->matrix().values == input->main().values);
        const Eigen::MatrixXf& x = input->main().values;
        const int n = static_cast<int>(x.rows());
        const int d = static_cast<int>(x.cols());
        QCOMPARE(d, 16);
        QCOMPARE(static_cast<int>(v.tokens().size()), n);

        // Before: μ and σ² of each input row, by hand in double.
        std::vector<double> mu, var;
        rowStatistics(x, mu, var);
        QCOMPARE(v.inputMeans().size(), mu.size());
        QCOMPARE(v.inputVariances().size(), var.size());
        double worst = 0;
        QString where = largestDifference(v.inputMeans(), mu, &worst);
        QVERIFY2(worst < 1e-5, qPrintable(QStringLiteral("means: ") + where));
        for (int r = 0; r < n; ++r) {
            const double rel = std::abs(v.inputVariances()[r] - var[r]) / std::max(1.0, var[r]);
            QVERIFY2(rel < 1e-5, qPrintable(QStringLiteral("variance of row %1: %2, by hand %3").arg(r).arg(v.inputVariances()[r]).arg(var[r])));
        }

        // The output: (x − μ)/√(σ² + ε) by hand (the seeded model's γ = 1, β = 0).
        const auto& model = s.model();
        QVERIFY(model);
        QCOMPARE(v.epsilon(), static_cast<double>(model->spec.layerNormEps));
        const LayerNormWeights& ln0 = model->weights.encoder[0].norm1;
        QVERIFY((ln0.gamma.array() == 1.0f).all() && (ln0.beta.array() == 0.0f).all());
        const Eigen::MatrixXf& y = v.outputView()->matrix().values;
        QCOMPARE(y.rows(), x.rows());
        QCOMPARE(y.cols(), x.cols());
        QVERIFY(y == s.trace()->find(id.toStdString())->main().values);
        double worstCell = 0;
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < d; ++c)
                worstCell = std::max(worstCell, std::abs(y(r, c) - (x(r, c) - mu[r]) / std::sqrt(var[r] + v.epsilon())));
        }
        QVERIFY2(worstCell < 1e-4, qPrintable(QStringLiteral("LN(x) differs from the hand computation by %1").arg(worstCell)));

        // After: each output row has mean 0 and variance σ²/(σ² + ε) ≈ 1, and the view's numbers
        // are those of the drawn rows.
        std::vector<double> outMu, outVar;
        rowStatistics(y, outMu, outVar);
        where = largestDifference(v.outputMeans(), outMu, &worst);
        QVERIFY2(worst < 1e-9, qPrintable(QStringLiteral("output means: ") + where));
        where = largestDifference(v.outputVariances(), outVar, &worst);
        QVERIFY2(worst < 1e-9, qPrintable(QStringLiteral("output variances: ") + where));
        const std::vector<double> zeros(static_cast<std::size_t>(n), 0.0);
        const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
        where = largestDifference(v.outputMeans(), zeros, &worst);
        QVERIFY2(worst < 1e-4, qPrintable(QStringLiteral("output means vs 0: ") + where));
        where = largestDifference(v.outputVariances(), ones, &worst);
        QVERIFY2(worst < 1e-4, qPrintable(QStringLiteral("output variances vs 1: ") + where));

        // The bars are those numbers (the variance axis is logarithmic: they are all > 0 here).
        for (QCustomPlot* p : {v.meanPlot(), v.variancePlot()}) {
            for (int i = 0; i < 2; ++i) {
                auto* bars = qobject_cast<QCPBars*>(p->plottable(i));
                QVERIFY(bars);
                QCOMPARE(bars->data()->size(), n);
                const std::vector<double>& expected = p == v.meanPlot() ? (i == 0 ? v.inputMeans() : v.outputMeans())
                                                                        : (i == 0 ? v.inputVariances() : v.outputVariances());
                int r = 0;
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it, ++r) {
                    QCOMPARE(it->key, double(r));
                    QCOMPARE(it->value, expected[r]);
                }
            }
        }
        // Variances of 1 to 3 here: a linear axis from 0 that holds every bar.
        QCOMPARE(v.variancePlot()->yAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(v.variancePlot()->yAxis->range().lower, 0.0);
        QVERIFY(v.variancePlot()->yAxis->range().upper > *std::max_element(var.begin(), var.end()));

        // The caption: the formula, ε of the model and the norm placement.
        const QString caption = v.captionLabel()->text();
        QVERIFY2(caption.contains(QStringLiteral("LN(x) = (x \u2212 \u03BC) / \u221A(\u03C3\u00B2 + \u03B5) \u00B7 \u03B3 + \u03B2")),
                 qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("\u03B5 = 10\u207B\u2075")), qPrintable(caption));
        QVERIFY(caption.contains(norm == NormPlacement::Pre ? QStringLiteral("Pre-LN") : QStringLiteral("Post-LN")));
        QVERIFY(caption.contains(QStringLiteral("\u03B3 = 1 and \u03B2 = 0")));
    }

    // A modern decoder's RMSNorm (issue 31): the right plot holds each token's root mean square
    // before (√mean(x²) of the input row, by hand in double) and after (the output row's), the
    // left plot the rows' means, which RMSNorm does not move to 0; the caption gives RMSNorm's
    // formula with the model's ε and, for Gemma 3, its (1 + w).
    void anRmsNormShowsEachTokensRootMeanSquare_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("inputId");
        QTest::addColumn<QString>("formula");
        QTest::newRow("Llama attn_norm") << "llama_gqa_tied_f32" << "attn_norm" << "input" << "· γ,";
        QTest::newRow("Qwen2 ffn_norm") << "qwen2_mqa_f16" << "ffn_norm" << "attn_residual" << "· γ,";
        QTest::newRow("Gemma 3 attn_post_norm") << "gemma3_sliding_bf16" << "attn_post_norm" << "output" << "· (1 + w),";
        QTest::newRow("Gemma 3 ffn_post_norm") << "gemma3_sliding_bf16" << "ffn_post_norm" << "ffn_output" << "· (1 + w),";
    }

    void anRmsNormShowsEachTokensRootMeanSquare()
    {
        QFETCH(QString, folder);
        QFETCH(QString, id);
        QFETCH(QString, inputId);
        QFETCH(QString, formula);
        Session s;
        QVERIFY(testing::openHfFolder(s, qPrintable(folder), QStringLiteral("The cat sat on the mat, 狗咬了人")));
        LayerNormView v(&s);
        v.resize(1100, 800);
        QVERIFY(goTo(s, qPrintable(id), 0, "decoder_self"));
        QVERIFY2(v.hasStage(), qPrintable(id));
        QVERIFY(v.isRmsNorm());
        QCOMPARE(v.inputStageId(), inputId);
        // The model's input belongs to no layer.
        const std::optional<int> inputLayer = inputId == u"input" ? std::nullopt : std::optional<int>(0);
        const Stage* input = s.fullTrace()->find(inputId.toStdString(), std::nullopt, inputLayer, Block::DecoderSelf);
        const Stage* output = s.fullTrace()->find(id.toStdString(), std::nullopt, 0, Block::DecoderSelf);
        QVERIFY(input && output);
        const Eigen::MatrixXd x = input->main().values.cast<double>();
        const Eigen::MatrixXd y = output->main().values.cast<double>();
        const auto n = static_cast<std::size_t>(x.rows());
        QCOMPARE(v.inputRms().size(), n);
        QCOMPARE(v.outputRms().size(), n);
        QCOMPARE(v.inputMeans().size(), n);
        for (std::size_t r = 0; r < n; ++r) {
            const auto row = static_cast<Eigen::Index>(r);
            const double rmsIn = std::sqrt(x.row(row).array().square().sum() / static_cast<double>(x.cols()));
            const double rmsOut = std::sqrt(y.row(row).array().square().sum() / static_cast<double>(y.cols()));
            QVERIFY2(std::abs(v.inputRms()[r] - rmsIn) <= 1e-5 * std::max(1.0, rmsIn),
                     qPrintable(QStringLiteral("row %1: %2, by hand %3").arg(r).arg(v.inputRms()[r]).arg(rmsIn)));
            QVERIFY(std::abs(v.outputRms()[r] - rmsOut) <= 1e-6 * std::max(1.0, rmsOut));
            QVERIFY(std::abs(v.inputMeans()[r] - x.row(row).mean()) <= 1e-6 * std::max(1.0, std::abs(x.row(row).mean())));
            QVERIFY(std::abs(v.outputMeans()[r] - y.row(row).mean()) <= 1e-6);
        }
        QVERIFY(v.inputVariances().empty());
        // The input is named as the modern decoders' formulas name it (X in every layer, not Y).
        if (inputId == u"input") {
            QCOMPARE(plotTitleText(v.inputView()->plot()), QStringLiteral("Before: X, the layer's input"));
            QCOMPARE(v.variancePlot()->plottable(0)->name(), QStringLiteral("before: X"));
        }
        // The bars are those numbers; the dashed line is at 1 and named for the RMS.
        auto* before = qobject_cast<QCPBars*>(v.variancePlot()->plottable(0));
        auto* after = qobject_cast<QCPBars*>(v.variancePlot()->plottable(1));
        QVERIFY(before && after);
        QCOMPARE(before->data()->size(), static_cast<int>(n));
        for (int i = 0; i < static_cast<int>(n); ++i) {
            QCOMPARE(before->data()->at(i)->value, v.inputRms()[static_cast<std::size_t>(i)]);
            QCOMPARE(after->data()->at(i)->value, v.outputRms()[static_cast<std::size_t>(i)]);
        }
        QCOMPARE(v.variancePlot()->graph(0)->data()->at(0)->value, 1.0);
        QVERIFY(v.variancePlot()->graph(0)->name().contains(QStringLiteral("RMS")));
        QVERIFY(plotTitleText(v.variancePlot()).startsWith(QStringLiteral("Root mean square")));
        const QString caption = v.captionLabel()->text();
        QVERIFY2(caption.startsWith(QStringLiteral("RMSNorm(x) = x / √(mean(x²) + ε) ") + formula), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("subtracts no mean")) && !caption.contains(QStringLiteral("LN(x)")), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("ε = 10⁻⁶")), qPrintable(caption)); // the folders' rms_norm_eps
        QVERIFY(!v.grab().isNull());
        // Back on a LayerNorm model, the same view shows variances again.
        s.setConfig(seededConfig(NormPlacement::Pre));
        QVERIFY(goTo(s, "attn_norm", 0, "encoder_self"));
        QVERIFY(v.hasStage() && !v.isRmsNorm());
        QVERIFY(v.inputRms().empty());
        QVERIFY(plotTitleText(v.variancePlot()).startsWith(QStringLiteral("Variance")));
        QVERIFY(v.variancePlot()->graph(0)->name().contains(QStringLiteral("variance 1")));
    }

    // Presenter mode and slides (a projected window): the caption keeps its first line, the
    // formula, and leaves the room under it to the plots (at 1024 × 768 the whole caption took
    // a third of the height and squashed the plots); back on the desk, all of it again.
    void aProjectedWindowShowsTheFormulaLineOnly()
    {
        Session s;
        QVERIFY(testing::openHfFolder(s, "llama_gqa_tied_f32", QStringLiteral("The cat sat on the mat.")));
        LayerNormView v(&s);
        v.resize(1000, 700);
        v.show();
        QVERIFY(goTo(s, "attn_norm", 0, "decoder_self"));
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("Unlike LayerNorm")));
        setProjected(&v, true, 24);
        QTRY_VERIFY(!v.captionLabel()->text().contains(QLatin1Char('\n')));
        QVERIFY2(v.captionLabel()->text().startsWith(QStringLiteral("RMSNorm(x) = x / √(mean(x²) + ε) · γ,")), qPrintable(v.captionLabel()->text()));
        setProjected(&v, false);
        QTRY_VERIFY(v.captionLabel()->text().contains(QStringLiteral("Unlike LayerNorm")));
    }

    void learnedGammaAndBetaAndALogAxis()
    {
        // A seeded Pre-LN model, changed by hand and opened as a model file: encoder layer 1's
        // feed-forward output × 20 makes its output (the input of layer 2's first LayerNorm)
        // large, and that LayerNorm's γ = 2, β = 0.5 for every feature.
        Seq2SeqModel m = seededModel(seededConfig(NormPlacement::Pre));
        m.weights.encoder[0].ffn.linear2Weight *= 20.0f;
        m.weights.encoder[0].ffn.linear2Bias *= 20.0f;
        m.weights.encoder[1].norm1.gamma.setConstant(2.0f);
        m.weights.encoder[1].norm1.beta.setConstant(0.5f);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.safetensors"));
        saveModel(m, path.toStdString());
        Session s;
        QString error;
        QVERIFY2(s.importModel(path, &error), qPrintable(error));
        LayerNormView v(&s);
        QVERIFY(goTo(s, "attn_norm", 1, "encoder_self"));
        QVERIFY(v.hasStage());
        QCOMPARE(v.inputStageId(), QStringLiteral("layer_output"));

        // Before: large variances, by hand, on a log axis that holds 1 and the largest.
        const Stage* input = s.fullTrace()->find("layer_output", std::nullopt, 0, Block::EncoderSelf);
        QVERIFY(input);
        const Eigen::MatrixXf& x = input->main().values;
        std::vector<double> mu, var;
        rowStatistics(x, mu, var);
        for (std::size_t r = 0; r < var.size(); ++r)
            QVERIFY(std::abs(v.inputVariances()[r] - var[r]) < 1e-5 * std::max(1.0, var[r]));
        const double largest = *std::max_element(var.begin(), var.end());
        QVERIFY2(largest > 10, qPrintable(QString::number(largest)));
        QCustomPlot* p = v.variancePlot();
        QCOMPARE(p->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(p->yAxis->label().contains(QStringLiteral("log")));
        QVERIFY(p->yAxis->range().lower > 0);
        QVERIFY(p->yAxis->range().contains(1.0));
        QVERIFY(p->yAxis->range().contains(largest));
        auto* before = qobject_cast<QCPBars*>(p->plottable(0));
        int r = 0;
        for (auto it = before->data()->constBegin(); it != before->data()->constEnd(); ++it, ++r)
            QCOMPARE(it->value, v.inputVariances()[r]);

        // After: γ·(x − μ)/√(σ² + ε) + β by hand; every row has mean β = 0.5 and variance
        // γ²·σ²/(σ² + ε) ≈ 4.
        const Eigen::MatrixXf& y = v.outputView()->matrix().values;
        double worstCell = 0;
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            for (Eigen::Index c = 0; c < x.cols(); ++c)
                worstCell = std::max(worstCell, std::abs(y(i, c) - (2.0 * (x(i, c) - mu[i]) / std::sqrt(var[i] + v.epsilon()) + 0.5)));
        }
        QVERIFY2(worstCell < 1e-4, qPrintable(QStringLiteral("LN(x) differs from the hand computation by %1").arg(worstCell)));
        double worst = 0;
        QString where = largestDifference(v.outputMeans(), std::vector<double>(mu.size(), 0.5), &worst);
        QVERIFY2(worst < 1e-4, qPrintable(QStringLiteral("output means vs β: ") + where));
        where = largestDifference(v.outputVariances(), std::vector<double>(mu.size(), 4.0), &worst);
        QVERIFY2(worst < 1e-3, qPrintable(QStringLiteral("output variances vs γ²: ") + where));
        // The caption says γ and β are learned, with their ranges.
        const QString caption = v.captionLabel()->text();
        QVERIFY2(caption.contains(QStringLiteral("learned \u03B3 (from 2.00 to 2.00) and \u03B2 (from 0.50 to 0.50)")),
                 qPrintable(caption));
    }

    void finalNormOfTheStack()
    {
        // Seeded models have final norms: encoder_output = LN(the last layer's output).
        Session s;
        s.setConfig(seededConfig(NormPlacement::Pre));
        QVERIFY(s.model()->weights.encoderNorm);
        LayerNormView v(&s);
        QVERIFY(goTo(s, "encoder_output", std::nullopt, ""));
        QVERIFY(v.hasStage());
        QCOMPARE(v.inputStageId(), QStringLiteral("layer_output"));
        const int last = s.model()->spec.encoderLayers - 1;
        const Stage* input = s.fullTrace()->find("layer_output", std::nullopt, last, Block::EncoderSelf);
        QVERIFY(input);
        QVERIFY(v.inputView()->matrix().values == input->main().values);
        std::vector<double> mu, var;
        rowStatistics(input->main().values, mu, var);
        double worst = 0;
        const QString where = largestDifference(v.inputMeans(), mu, &worst);
        QVERIFY2(worst < 1e-5, qPrintable(where));
    }

    void sharedColourScale()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Pre));
        LayerNormView v(&s);
        QVERIFY(goTo(s, "attn_norm", 0, "encoder_self"));
        const auto range = [](HeatmapView* h) { return qobject_cast<QCPColorMap*>(h->plot()->plottable(0))->dataRange(); };
        const double inMax = v.inputView()->matrix().values.cwiseAbs().maxCoeff();
        const double outMax = v.outputView()->matrix().values.cwiseAbs().maxCoeff();
        QVERIFY(inMax != outMax);
        const double both = std::max(inMax, outMax);
        // One symmetric range for both by default ...
        QVERIFY(v.sharedScaleBox()->isChecked());
        QCOMPARE(range(v.inputView()).upper, both);
        QCOMPARE(range(v.inputView()).lower, -both);
        QCOMPARE(range(v.outputView()).upper, both);
        QCOMPARE(range(v.outputView()).lower, -both);
        // ... and each its own when unticked.
        v.sharedScaleBox()->setChecked(false);
        QCOMPARE(range(v.inputView()).upper, inMax);
        QCOMPARE(range(v.outputView()).upper, outMax);
        QCOMPARE(range(v.outputView()).lower, -outMax);
    }

    void titlesNameTheInputAsTheFormulaDoes_data()
    {
        QTest::addColumn<NormPlacement>("norm");
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("block");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("legend");
        QTest::newRow("post residual") << NormPlacement::Post << "attn_norm" << 0 << "encoder_self"
                                       << "Before: R\u2081 = X + SA(X)" << "After: N\u2081 = LN\u2081(R\u2081)" << "before: R\u2081";
        QTest::newRow("pre encoder layer 2") << NormPlacement::Pre << "attn_norm" << 1 << "encoder_self"
                                             << "Before: X, the output of layer 1" << "After: N\u2081 = LN\u2081(X)" << "before: X";
        QTest::newRow("pre decoder layer 1") << NormPlacement::Pre << "attn_norm" << 0 << "decoder_self"
                                             << "Before: Y, the layer's input" << "After: N\u2081 = LN\u2081(Y)" << "before: Y";
    }

    void titlesNameTheInputAsTheFormulaDoes()
    {
        QFETCH(NormPlacement, norm);
        QFETCH(QString, id);
        QFETCH(int, layer);
        QFETCH(QString, block);
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QString, legend);
        Session s;
        s.setConfig(seededConfig(norm));
        LayerNormView v(&s);
        QVERIFY(goTo(s, qPrintable(id), layer, qPrintable(block)));
        QCOMPARE(plotTitleText(v.inputView()->plot()), before);
        QCOMPARE(plotTitleText(v.outputView()->plot()), after);
        QCOMPARE(v.meanPlot()->plottable(0)->name(), legend);
        QCOMPARE(v.variancePlot()->plottable(0)->name(), legend);
    }

    void followsTheStep()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post));
        LayerNormView v(&s);
        QVERIFY(goTo(s, "attn_norm", 1, "encoder_self"));
        QCOMPARE(v.inputStageId(), QStringLiteral("attn_residual"));
        const std::vector<double> before = v.inputMeans();
        // Same layer and block: only stepChanged.
        QSignalSpy traces(&s, &Session::traceChanged);
        QVERIFY(goTo(s, "ffn_norm", 1, "encoder_self"));
        QCOMPARE(traces.count(), 0);
        QCOMPARE(v.stageId(), QStringLiteral("ffn_norm"));
        QCOMPARE(v.inputStageId(), QStringLiteral("ffn_residual"));
        QVERIFY(v.inputMeans() != before);
        QVERIFY(plotTitleText(v.outputView()->plot()).contains(QStringLiteral("N\u2082")));
        QVERIFY(plotTitleText(v.inputView()->plot()).contains(QStringLiteral("R\u2082")));
        // A new sentence: the numbers follow.
        s.setSentence(QStringLiteral("a b c"));
        QCOMPARE(v.stageId(), QStringLiteral("ffn_norm"));
        QCOMPARE(static_cast<int>(v.inputMeans().size()), 3);
        QCOMPARE(v.tokens(), (std::vector<QString>{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
    }

    void stepsWithoutALayerNormShowAMessage()
    {
        Session s; // one attention block: there is no LayerNorm at all
        LayerNormView v(&s);
        QVERIFY(!v.hasStage());
        QVERIFY(!v.messageLabel()->isHidden());
        QVERIFY(v.messageLabel()->text().contains(QStringLiteral("Transformer")));
        QVERIFY(v.inputMeans().empty());

        s.setConfig(seededConfig(NormPlacement::Post));
        QVERIFY(goTo(s, "attn_norm", 0, "decoder_self"));
        QVERIFY(v.hasStage());
        QVERIFY(v.messageLabel()->isHidden());
        QVERIFY(v.meanPlot()->isVisibleTo(&v));

        // A step of the same model that is not a LayerNorm.
        QVERIFY(goTo(s, "weights", 0, "cross"));
        QVERIFY(!v.hasStage());
        QVERIFY(!v.messageLabel()->isHidden());
        QVERIFY(!v.meanPlot()->isVisibleTo(&v));

        // Back to one attention block, from a LayerNorm step.
        QVERIFY(goTo(s, "ffn_norm", 1, "decoder_self"));
        QVERIFY(v.hasStage());
        Config c = s.config();
        c.model = ModelKind::None;
        s.setConfig(c);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QVERIFY(!v.hasStage());
        QVERIFY(!v.messageLabel()->isHidden());
        QVERIFY(v.outputMeans().empty());
    }

    void redrawsWhenShownAgain()
    {
        // Hidden inside a shown window, the view waits for its next show.
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post));
        QVERIFY(goTo(s, "attn_norm", 0, "encoder_self"));
        QWidget window;
        auto* v = new LayerNormView(&s, &window);
        window.resize(800, 600);
        v->resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        v->hide();
        QVERIFY(goTo(s, "ffn_norm", 0, "encoder_self"));
        QCOMPARE(v->stageId(), QStringLiteral("attn_norm"));
        v->show();
        QCOMPARE(v->stageId(), QStringLiteral("ffn_norm"));
    }

    void chineseDoesNotBreakIt()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post));
        s.setSentence(QStringLiteral("我喜欢小狗"));
        LayerNormView v(&s);
        QVERIFY(goTo(s, "attn_norm", 0, "encoder_self"));
        QVERIFY(v.hasStage());
        QCOMPARE(v.tokens().front(), QStringLiteral("我"));
        const std::vector<double> means = v.inputMeans();
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QVERIFY(v.hasStage());
        QCOMPARE(v.inputMeans(), means);
        QVERIFY(!v.captionLabel()->text().isEmpty());
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("LN(x)")));
        // The plots' fonts carry the Simplified Chinese face, so the token labels are not boxes.
        for (QCustomPlot* p : {v.meanPlot(), v.variancePlot(), v.inputView()->plot()})
            QVERIFY2(chineseFontProblem(p, p != v.inputView()->plot()).isEmpty(), qPrintable(chineseFontProblem(p, true)));
    }

    void looksRight()
    {
        Session s;
        s.setConfig(seededConfig(NormPlacement::Post));
        LayerNormView v(&s);
        QVERIFY(goTo(s, "attn_norm", 0, "encoder_self"));
        v.resize(1000, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        testing::settle();
        for (QCustomPlot* p : {v.meanPlot(), v.variancePlot()}) {
            // Titles fit their plots, and the legend sits under the data, never on it.
            auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
            QVERIFY(title);
            const int width = QFontMetrics(title->font()).horizontalAdvance(title->text());
            QVERIFY2(width < p->width(), qPrintable(QStringLiteral("title %1 px in a %2 px plot").arg(width).arg(p->width())));
            QVERIFY(p->legend->visible());
            QCOMPARE(p->legend->itemCount(), 3);
            QVERIFY(!p->legend->outerRect().intersects(p->axisRect()->outerRect().adjusted(0, 0, 0, -1)));
        }
        for (HeatmapView* h : {v.inputView(), v.outputView()}) {
            auto* title = qobject_cast<QCPTextElement*>(h->plot()->plotLayout()->element(0, 0));
            const int width = QFontMetrics(title->font()).horizontalAdvance(title->text());
            QVERIFY2(width < h->width(), qPrintable(QStringLiteral("heatmap title %1 px in %2 px").arg(width).arg(h->width())));
        }
        if (qEnvironmentVariableIsSet("ATTNLAB_SCREENSHOTS")) {
            const QString dir = qEnvironmentVariable("ATTNLAB_SCREENSHOTS");
            v.grab().save(dir + QStringLiteral("/layernorm-post.png"));
            Config c = s.config();
            c.norm = NormPlacement::Pre;
            s.setConfig(c);
            QVERIFY(goTo(s, "attn_norm", 1, "encoder_self"));
            testing::settle();
            v.grab().save(dir + QStringLiteral("/layernorm-pre.png"));
        }
    }
};

QTEST_MAIN(TestLayerNormView)
#include "tst_layernormview.moc"
