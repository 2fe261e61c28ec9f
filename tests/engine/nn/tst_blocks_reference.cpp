// The typed blocks of issue 30 (nn/blocks.h: RMSNorm and LayerNorm, the gated FFN, grouped-query
// attention with head_dim ≠ d_model / heads, q/k/v biases, per-head q/k norms, half-split RoPE)
// against an independent PyTorch implementation written from Hugging Face's modeling_llama /
// modeling_qwen3 semantics (scripts/make_block_goldens.py, tests/reference/blocks/blocks.json).

#include "nn/blocks.h"
#include "position/inside.h"
#include "support/goldens.h"
#include "support/reference.h"

#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

const nlohmann::json& golden()
{
    static const nlohmann::json kGolden = readJson(ATTNLAB_TEST_DATA "/blocks/blocks.json");
    return kGolden;
}

Eigen::VectorXf vec(const nlohmann::json& v)
{
    Eigen::VectorXf out(static_cast<Eigen::Index>(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i)
        out(static_cast<Eigen::Index>(i)) = v[i].get<float>();
    return out;
}

/// x·Wᵀ + b as a block takes a linear layer (b empty: none).
Projection linear(Eigen::MatrixXf w, Eigen::VectorXf b = {})
{
    return [w = std::move(w), b = std::move(b)](const Eigen::MatrixXf& x) {
        Eigen::MatrixXf y = x * w.transpose();
        if (b.size() > 0)
            y.rowwise() += b.transpose();
        return y;
    };
}

const Eigen::MatrixXf& mainOf(const StageList& stages, const char* id, std::optional<int> head = std::nullopt)
{
    const Stage* s = findStage(stages, id, head);
    if (!s)
        throw std::runtime_error(std::string("no stage ") + id);
    return s->main().values;
}

/// Layer 0's self-attention in decoder_self, reading attn_norm.
AttentionBlockContext context(const Labels& tokens, int dModel)
{
    AttentionBlockContext c;
    c.queryLabels = c.keyLabels = tokens;
    c.featureLabels = labels(dModel, "d");
    c.layer = 0;
    c.block = Block::DecoderSelf;
    c.queryInput = c.keyValueInput = {"attn_norm", std::nullopt, 0, Block::DecoderSelf};
    return c;
}

bool holds(const Stage& s, const char* name)
{
    return std::any_of(s.matrices.begin(), s.matrices.end(), [&](const LabeledMatrix& m) { return m.name == name; });
}

} // namespace

class TestBlocksReference : public QObject {
    Q_OBJECT

private slots:
    void rmsNormAndLayerNorm()
    {
        const auto& g = golden()["norm"];
        const Eigen::MatrixXf x = matrix(g["x"]);
        const float eps = g["eps"].get<float>();
        const NormResult rms = normalize(x, {vec(g["weight"]), {}}, NormKind::RmsNorm, eps);
        expectClose(rms.output, matrix(g["rms_output"]), "RMSNorm output");
        expectClose(rms.meanSquare, vec(g["rms_mean_square"]), "RMSNorm mean square");
        QCOMPARE(rms.mean.size(), Eigen::Index(0)); // an RMSNorm states no mean
        const NormResult ln = normalize(x, {vec(g["weight"]), vec(g["bias"])}, NormKind::LayerNorm, eps);
        expectClose(ln.output, matrix(g["layer_output"]), "LayerNorm output");
        expectClose(ln.mean, vec(g["layer_mean"]), "LayerNorm mean");
        expectClose(ln.variance, vec(g["layer_variance"]), "LayerNorm variance");
        // The stage says which statistics it holds.
        Stage s;
        putNormStatistics(s, rms, labels(x.rows(), "t"));
        QVERIFY(holds(s, "mean_square") && !holds(s, "mean") && !holds(s, "variance"));
        Stage l;
        putNormStatistics(l, ln, labels(x.rows(), "t"));
        QVERIFY(holds(l, "mean") && holds(l, "variance") && !holds(l, "mean_square"));
    }

    void gatedFeedForward()
    {
        const auto& g = golden()["gated_ffn"];
        const Eigen::MatrixXf x = matrix(g["x"]);
        StageList stages;
        const BlockPlace place{0, Block::DecoderSelf, labels(x.rows(), "t"), "model.layers.0."};
        const Eigen::MatrixXf f = feedForwardBlock(x, {FfnKind::Gated, siluActivation()}, linear(matrix(g["w_gate"])),
                                                   linear(matrix(g["w_up"]), vec(g["b_up"])), linear(matrix(g["w_down"]), vec(g["b_down"])),
                                                   {"ffn_norm", std::nullopt, 0, Block::DecoderSelf}, "N_2",
                                                   {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"}, place, stages);
        expectClose(mainOf(stages, "ffn_gate"), matrix(g["gate"]), "ffn_gate");
        expectClose(mainOf(stages, "ffn_up"), matrix(g["up"]), "ffn_up");
        expectClose(mainOf(stages, "ffn_hidden"), matrix(g["hidden"]), "ffn_hidden = silu(G) ⊙ U");
        expectClose(f, matrix(g["output"]), "ffn_output");
        QCOMPARE(QString::fromStdString(findStage(stages, "ffn_gate", std::nullopt)->module), QStringLiteral("model.layers.0.mlp.gate_proj"));
    }

    void groupedQueryAttention()
    {
        const auto& g = golden()["attention"];
        const Eigen::MatrixXf x = matrix(g["x"]);
        const int n = g["n"], heads = g["heads"], kvHeads = g["kv_heads"], headDim = g["head_dim"];
        AttentionShape shape;
        shape.heads = heads;
        shape.kvHeads = kvHeads;
        shape.headDim = headDim;
        shape.qkNorm = NormKind::RmsNorm;
        shape.normEps = g["eps"].get<float>();
        shape.rope = RopeLayout::HalfSplit;
        shape.ropeBase = g["rope_base"].get<double>();
        AttentionBlockWeights w{linear(matrix(g["wq"]), vec(g["bq"])), linear(matrix(g["wk"]), vec(g["bk"])),
                                linear(matrix(g["wv"]), vec(g["bv"])), linear(matrix(g["wo"])), {vec(g["q_norm"]), {}},
                                {vec(g["k_norm"]), {}}};
        const Labels tokens = labels(n, "t");
        const AttentionBlockContext c = context(tokens, g["d_model"].get<int>());
        StageList stages;
        std::vector<Message> warnings;
        const Eigen::MatrixXf out = groupedAttention(x, w, shape, true, causalMask(n), c, stages, warnings);
        const auto qRotated = perHead(g["q_rotated"]), kRotated = perHead(g["k_rotated"]);
        const auto weights = perHead(g["weights"]), headOutput = perHead(g["head_output"]);
        for (int h = 0; h < heads; ++h) {
            const QString head = QStringLiteral(" of head %1").arg(h);
            expectClose(mainOf(stages, "q_rotated", h), qRotated[static_cast<std::size_t>(h)], "q_rotated (normed, rotated)" + head);
            // Query head h reads KV head h / (heads / kvHeads): its scores say so.
            const int g = h / (heads / kvHeads);
            const Stage* scores = findStage(stages, "scores", h);
            QVERIFY(scores && scores->kvHead == g && scores->inputs.at(1).id == "k_rotated" && scores->inputs.at(1).head == g);
            expectClose(mainOf(stages, "weights", h), weights[static_cast<std::size_t>(h)], "weights" + head);
            expectClose(mainOf(stages, "head_output", h), headOutput[static_cast<std::size_t>(h)], "head_output" + head);
        }
        // k and its norm and rotation are one stage per key/value head, which says it is its own.
        for (int g = 0; g < kvHeads; ++g) {
            expectClose(mainOf(stages, "k_rotated", g), kRotated[static_cast<std::size_t>(g)], QStringLiteral("k_rotated of KV head %1").arg(g));
            QVERIFY(findStage(stages, "k", g)->kvHead == g && findStage(stages, "k_norm", g)->kvHead == g);
        }
        QVERIFY(!findStage(stages, "k", kvHeads) && !findStage(stages, "v", kvHeads) && findStage(stages, "q_norm", heads - 1));
        expectClose(mainOf(stages, "concat"), matrix(g["concat"]), "concat");
        expectClose(out, matrix(g["output"]), "output");
        QVERIFY(warnings.empty());
    }

    void halfSplitIsInterleavedOnPermutedFeatures()
    {
        // By hand: d_k = 4, one position at angle θ for pair 0 and φ for pair 1. Half-split turns
        // (x0, x2) by θ and (x1, x3) by φ; interleaved turns (x0, x1) by θ and (x2, x3) by φ.
        Eigen::MatrixXf angles(1, 2);
        angles << 0.5f, 1.25f;
        Eigen::MatrixXf x(1, 4);
        x << 1.0f, 2.0f, 3.0f, 4.0f;
        const Eigen::MatrixXf half = ropeRotate(x, angles, RopeLayout::HalfSplit);
        const double t = 0.5, p = 1.25;
        QVERIFY(std::abs(half(0, 0) - static_cast<float>(1 * std::cos(t) - 3 * std::sin(t))) < 1e-6f);
        QVERIFY(std::abs(half(0, 2) - static_cast<float>(3 * std::cos(t) + 1 * std::sin(t))) < 1e-6f);
        QVERIFY(std::abs(half(0, 1) - static_cast<float>(2 * std::cos(p) - 4 * std::sin(p))) < 1e-6f);
        QVERIFY(std::abs(half(0, 3) - static_cast<float>(4 * std::cos(p) + 2 * std::sin(p))) < 1e-6f);
        QCOMPARE(ropeRotate(x, angles, RopeLayout::Interleaved), ropeRotate(x, angles));
    }

    void kvHeadsMustDivideHeads()
    {
        const Labels tokens = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"t0", "t1"});
        const AttentionBlockContext c = context(tokens, 6);
        StageList stages;
        std::vector<Message> warnings;
        // 3 query heads of d_k = 2, K and V of 2 heads: 2 does not divide 3.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attentionHeads(Eigen::MatrixXf::Ones(2, 6), Eigen::MatrixXf::Ones(2, 4),
                                                                       Eigen::MatrixXf::Ones(2, 4), 3, true, causalMask(2), c, stages,
                                                                       warnings));
        QVERIFY(stages.empty());
    }
};

QTEST_APPLESS_MAIN(TestBlocksReference)
#include "tst_blocks_reference.moc"
