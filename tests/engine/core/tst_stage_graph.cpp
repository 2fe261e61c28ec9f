// Every stage records the stages it was computed from (Stage::inputs) and the module of its
// weights (Stage::module). The recorded wiring must be the real one: each input exists in the
// trace, and the stage's matrix follows from its inputs' matrices by its formula, checked here by
// hand computations (an exact sum for residuals and X = E·s + P, Q·Kᵀ for scores, the LayerNorm
// formula, γ and β found through the recorded module).

#include "core/trace.h"
#include "model/model.h"
#include "model/shipped.h"
#include "nn/attention.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

Config seeded(NormPlacement norm)
{
    Config c;
    c.model = ModelKind::Seeded;
    c.dModel = 16;
    c.heads = 4;
    c.setLayers(2);
    c.dFF = 32;
    c.norm = norm;
    return c;
}

std::string where(const Stage& s)
{
    return s.id + " (head " + (s.head ? std::to_string(*s.head) : "-") + ", layer " + (s.layer ? std::to_string(*s.layer) : "-")
        + ", block " + std::string(toString(s.block)) + ")";
}

/// The largest |a − b|, and fails with where it is when the shapes differ.
float largestDifference(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return std::numeric_limits<float>::infinity();
    return (a - b).cwiseAbs().maxCoeff();
}

/// LN(x) by hand, row by row, in double.
Eigen::MatrixXf layerNormByHand(const Eigen::MatrixXf& x, const LayerNormWeights& w, double eps)
{
    Eigen::MatrixXf out(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        double mean = 0;
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            mean += x(i, j);
        mean /= static_cast<double>(x.cols());
        double var = 0;
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            var += (x(i, j) - mean) * (x(i, j) - mean);
        var /= static_cast<double>(x.cols());
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            out(i, j) = static_cast<float>((x(i, j) - mean) / std::sqrt(var + eps) * w.gamma(j) + w.beta(j));
    }
    return out;
}

void checkGraph(const Trace& t, const Seq2SeqModel* model)
{
    int residuals = 0, norms = 0, scores = 0;
    for (const Stage& s : t.stages) {
        for (std::size_t i = 0; i < s.inputs.size(); ++i)
            QVERIFY2(t.input(s, i), ("input " + std::to_string(i) + " of " + where(s) + " is not in the trace").c_str());
        const auto in = [&](std::size_t i) -> const Eigen::MatrixXf& { return t.input(s, i)->main().values; };
        if (s.id == "input" || s.id.ends_with("_residual")) {
            // X = E·s + P and every residual R = x + sublayer: exact float32 sums of the two inputs.
            QCOMPARE(s.inputs.size(), std::size_t(2));
            const Eigen::MatrixXf& first = s.id == "input" ? t.input(s, 0)->matrices.at(1).values : in(0);
            const float diff = largestDifference(s.main().values, first + in(1));
            QVERIFY2(diff == 0.0f, (where(s) + ": largest difference " + std::to_string(diff)).c_str());
            ++residuals;
        } else if (s.id == "scores") {
            // S_h = Q_h·K_hᵀ.
            const float diff = largestDifference(s.main().values, in(0) * in(1).transpose());
            QVERIFY2(diff < 1e-5f, (where(s) + ": largest difference " + std::to_string(diff)).c_str());
            ++scores;
        } else if (isLayerNormStage(s.id) && model) {
            // LN of the recorded input with the γ, β of the recorded module.
            const LayerNormWeights* w = layerNormModule(*model, s.module);
            QVERIFY2(w, (where(s) + ": no LayerNorm module '" + s.module + "'").c_str());
            const float diff = largestDifference(s.main().values, layerNormByHand(in(0), *w, model->spec.layerNormEps));
            QVERIFY2(diff < 1e-5f, (where(s) + ": largest difference " + std::to_string(diff)).c_str());
            ++norms;
        }
        if (s.id == "q" && model)
            QVERIFY2(attentionModule(*model, s.module), (where(s) + ": no attention module '" + s.module + "'").c_str());
    }
    QVERIFY(residuals > 0 && scores > 0);
    if (model)
        QVERIFY(norms > 0);
}

} // namespace

class TestStageGraph : public QObject {
    Q_OBJECT
private slots:
    void singleBlock()
    {
        Request r;
        r.sentence = "The cat sat on the mat";
        r.config.dModel = 16;
        r.config.heads = 4;
        r.config.mask = MaskKind::Causal;
        const Trace t = computeTrace(r);
        checkGraph(t, nullptr);
        // Q, K and V are projections of X; the output reads the concatenation.
        QCOMPARE(t.input(*t.find("q", 2))->id, std::string("input"));
        QCOMPARE(t.input(*t.find("output"))->id, std::string("concat"));
        QCOMPARE(t.find("concat")->inputs.size(), std::size_t(4));
        QCOMPARE(t.find("q", 0)->module, std::string("self_attn"));
    }

    void encoderDecoder_data()
    {
        QTest::addColumn<NormPlacement>("norm");
        QTest::newRow("post-LN") << NormPlacement::Post;
        QTest::newRow("pre-LN") << NormPlacement::Pre;
    }

    void encoderDecoder()
    {
        QFETCH(NormPlacement, norm);
        const Config c = seeded(norm);
        const auto model = std::make_shared<const Seq2SeqModel>(seededModel(c));
        const Trace t = computeModelTrace(model, {"a", "b", "c"}, {"<sos>", "x", "y", "z"}, c);
        checkGraph(t, model.get());

        // What feeds each attention block's queries, by the wiring of docs/transformer-layers.md.
        const auto queryInput = [&](int layer, Block block) { return t.input(*t.find("q", 0, layer, block)); };
        if (norm == NormPlacement::Post) {
            QCOMPARE(queryInput(0, Block::EncoderSelf)->id, std::string("input"));
            QVERIFY((queryInput(1, Block::EncoderSelf)->key() == StageKey{"layer_output", std::nullopt, 0, Block::EncoderSelf}));
            QVERIFY((queryInput(1, Block::Cross)->key() == StageKey{"attn_norm", std::nullopt, 1, Block::DecoderSelf}));
        } else {
            QVERIFY((queryInput(1, Block::EncoderSelf)->key() == StageKey{"attn_norm", std::nullopt, 1, Block::EncoderSelf}));
            QVERIFY((queryInput(0, Block::Cross)->key() == StageKey{"cross_norm", std::nullopt, 0, Block::Cross}));
            // Pre-LN: the first LayerNorm of layer 2 reads layer 1's output.
            QVERIFY((t.input(*t.find("attn_norm", std::nullopt, 1, Block::EncoderSelf))->key() == StageKey{"layer_output", std::nullopt, 0, Block::EncoderSelf}));
        }
        // Cross-attention's keys and values come from the encoder output.
        QCOMPARE(t.input(*t.find("k", 3, 1, Block::Cross))->id, std::string("encoder_output"));
        QCOMPARE(t.find("k", 3, 1, Block::Cross)->module, std::string("decoder.layers.1.multihead_attn"));
        QVERIFY((t.input(*t.find("encoder_output", std::nullopt, std::nullopt, Block::None))->key() == StageKey{"layer_output", std::nullopt, 1, Block::EncoderSelf}));
    }

    void generationStepsShareTheEncoder()
    {
        const auto model = shippedModel();
        Config c;
        c.model = ModelKind::Reversal;
        c.dModel = model->spec.dModel;
        c.heads = model->spec.heads;
        const Generation g = generate(model, {"a", "b", "c"}, c);
        QVERIFY(g.size() >= 2);
        // The same encoder stage object in every step, not a copy.
        const Stage* first = g.step(0)->find("encoder_output", std::nullopt, std::nullopt, Block::None);
        QVERIFY(first);
        for (std::size_t k = 0; k < g.size(); ++k)
            QCOMPARE(g.step(k)->find("encoder_output", std::nullopt, std::nullopt, Block::None), first);
        checkGraph(*g.last(), model.get());
    }
};

QTEST_APPLESS_MAIN(TestStageGraph)
#include "tst_stage_graph.moc"
