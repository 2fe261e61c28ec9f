// Encoder and decoder layers (docs/transformer-layers.md): LayerNorm, GELU, ReLU, the residual
// and the feed-forward network by hand; the order, layer and block of every stage a layer
// appends; mask merging, option and loader errors; and every stage of every golden case written
// by scripts/gen_transformer_reference.py (PyTorch's nn.Transformer* modules, step by step),
// among them the masks a model run makes from --mask and --pad-to (issue 28 §5).

#include "io/fileio.h"
#include "support/reference.h"
#include "io/trace_json.h"
#include "model/state_dict.h"
#include "nn/transformer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;
using attnlab::testing::compare;
using attnlab::testing::jsonFloat;
using attnlab::testing::jsonMatrix;
using attnlab::testing::readJson;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(attnlab::NormPlacement)

namespace {

std::string transformerDir()
{
    return ATTNLAB_TEST_DATA "/transformer";
}

/// "0", "1", ...: row labels for n tokens.
Labels positions(Eigen::Index n)
{
    auto v = std::make_shared<std::vector<std::string>>();
    for (Eigen::Index i = 0; i < n; ++i)
        v->push_back(std::to_string(i));
    return v;
}

/// Deterministic, irregular values in about [-scale, scale]: sin of a per-matrix sequence.
Eigen::MatrixXf wave(Eigen::Index rows, Eigen::Index cols, float phase, float scale = 0.5f)
{
    Eigen::MatrixXf m(rows, cols);
    for (Eigen::Index r = 0; r < rows; ++r) {
        for (Eigen::Index c = 0; c < cols; ++c)
            m(r, c) = scale * std::sin(phase + 1.37f * float(r) + 0.61f * float(c * c + 1));
    }
    return m;
}

Eigen::VectorXf waveVector(Eigen::Index n, float phase, float scale = 0.1f)
{
    return wave(n, 1, phase, scale).col(0);
}

AttentionWeights attention(int d, float phase)
{
    AttentionWeights w;
    w.inProjWeight = wave(3 * d, d, phase, 1.0f / std::sqrt(float(d)));
    w.inProjBias = waveVector(3 * d, phase + 1);
    w.outProjWeight = wave(d, d, phase + 2, 1.0f / std::sqrt(float(d)));
    w.outProjBias = waveVector(d, phase + 3);
    return w;
}

LayerNormWeights norm(int d, float phase)
{
    return LayerNormWeights{(1.0f + waveVector(d, phase).array()).matrix(), waveVector(d, phase + 1)};
}

FeedForwardWeights feedForward(int d, int dFF, float phase)
{
    return FeedForwardWeights{wave(dFF, d, phase), waveVector(dFF, phase + 1), wave(d, dFF, phase + 2), waveVector(d, phase + 3)};
}

EncoderLayerWeights encoderWeights(int d, int dFF, float phase)
{
    return EncoderLayerWeights{attention(d, phase), feedForward(d, dFF, phase + 10), norm(d, phase + 20), norm(d, phase + 30)};
}

DecoderLayerWeights decoderWeights(int d, int dFF, float phase)
{
    return DecoderLayerWeights{attention(d, phase),        attention(d, phase + 5), feedForward(d, dFF, phase + 10),
                               norm(d, phase + 20),         norm(d, phase + 30),     norm(d, phase + 40)};
}

/// One encoder and one decoder layer, no final norms (nn.TransformerEncoderLayer and DecoderLayer).
ModelSpec options(int d, int heads, int dFF, NormPlacement placement, Activation act = Activation::Relu)
{
    ModelSpec o;
    o.encoderLayers = 1;
    o.decoderLayers = 1;
    o.finalNorms = false;
    o.dModel = d;
    o.heads = heads;
    o.dFF = dFF;
    o.norm = placement;
    o.activation = act;
    return o;
}

/// The ids of the stages, with the attention blocks' stages written as one "<block>" entry.
QStringList outline(const StageList& stages)
{
    QStringList out;
    for (const auto& s : stages) {
        const bool attention = s.id != "mask" && isPerHeadStage(s.id);
        if (s.id == "q" && s.head == 0)
            out << QString("<%1>").arg(QString::fromLatin1(toString(s.block)));
        else if (!(attention || s.id == "mask" || s.id == "concat" || s.id == "output"))
            out << QString::fromStdString(s.id);
    }
    return out;
}

QString maxDiff(const Eigen::MatrixXf& got, const Eigen::MatrixXf& want)
{
    const auto d = compare(got, want);
    if (!d.problem.empty())
        return QString::fromStdString(d.problem);
    return QString("max |diff| %1 at (%2, %3)").arg(double(d.max), 0, 'g', 3).arg(d.row).arg(d.col);
}

/// The FormatError message of `f`, or "!..." when something else happened.
template <typename F>
QString formatErrorOf(F f)
{
    try {
        f();
    } catch (const FormatError& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("!another exception: ") + QString::fromStdString(e.what());
    }
    return QStringLiteral("!no exception");
}

template <typename F>
QString invalidArgumentOf(F f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("!another exception: ") + QString::fromStdString(e.what());
    }
    return QStringLiteral("!no exception");
}

Tensor tensorOf(const Eigen::MatrixXf& m)
{
    Tensor t{"F32", {m.rows(), m.cols()}, {}};
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            t.values.push_back(m(r, c));
    }
    return t;
}

Tensor tensorOf(const Eigen::VectorXf& v)
{
    return Tensor{"F32", {v.size()}, std::vector<float>(v.data(), v.data() + v.size())};
}

/// The state dict of an nn.TransformerEncoderLayer (d = 4, d_ff = 8) under `prefix`.
void addEncoderLayer(TensorFile& f, const std::string& prefix, float phase = 0)
{
    const EncoderLayerWeights w = encoderWeights(4, 8, phase);
    f.tensors[prefix + "self_attn.in_proj_weight"] = tensorOf(w.selfAttn.inProjWeight);
    f.tensors[prefix + "self_attn.in_proj_bias"] = tensorOf(w.selfAttn.inProjBias);
    f.tensors[prefix + "self_attn.out_proj.weight"] = tensorOf(w.selfAttn.outProjWeight);
    f.tensors[prefix + "self_attn.out_proj.bias"] = tensorOf(w.selfAttn.outProjBias);
    f.tensors[prefix + "linear1.weight"] = tensorOf(w.ffn.linear1Weight);
    f.tensors[prefix + "linear1.bias"] = tensorOf(w.ffn.linear1Bias);
    f.tensors[prefix + "linear2.weight"] = tensorOf(w.ffn.linear2Weight);
    f.tensors[prefix + "linear2.bias"] = tensorOf(w.ffn.linear2Bias);
    f.tensors[prefix + "norm1.weight"] = tensorOf(w.norm1.gamma);
    f.tensors[prefix + "norm1.bias"] = tensorOf(w.norm1.beta);
    f.tensors[prefix + "norm2.weight"] = tensorOf(w.norm2.gamma);
    f.tensors[prefix + "norm2.bias"] = tensorOf(w.norm2.beta);
}

// --- Golden files ---

std::optional<BoolMatrix> jsonBoolMatrix(const nlohmann::json& v)
{
    if (v.is_null())
        return std::nullopt;
    BoolMatrix m(static_cast<Eigen::Index>(v.size()), v.empty() ? 0 : static_cast<Eigen::Index>(v[0].size()));
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            m(i, j) = v[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)].get<int>() != 0;
    }
    return m;
}

std::optional<BoolVector> jsonBoolVector(const nlohmann::json& v)
{
    if (v.is_null())
        return std::nullopt;
    BoolVector b(static_cast<Eigen::Index>(v.size()));
    for (Eigen::Index i = 0; i < b.size(); ++i)
        b(i) = v[static_cast<std::size_t>(i)].get<int>() != 0;
    return b;
}

/// A 1-D JSON array (mean, variance) as an n x 1 matrix.
Eigen::MatrixXf jsonColumn(const nlohmann::json& v)
{
    Eigen::MatrixXf m(static_cast<Eigen::Index>(v.size()), 1);
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        m(i, 0) = jsonFloat(v[static_cast<std::size_t>(i)]);
    return m;
}

ModelSpec optionsFrom(const nlohmann::json& j)
{
    ModelSpec o;
    o.dModel = j.at("d_model").get<int>();
    o.heads = j.at("heads").get<int>();
    o.dFF = j.at("d_ff").get<int>();
    o.norm = parseNormPlacement(j.at("norm").get<std::string>()).value();
    o.activation = parseActivation(j.at("activation").get<std::string>()).value();
    o.layerNormEps = j.at("eps").get<float>();
    o.encoderLayers = j.at("encoder_layers").get<int>();
    o.decoderLayers = j.at("decoder_layers").get<int>();
    o.finalNorms = j.at("final_norms").get<bool>();
    return o;
}

template <typename M>
bool sameMask(const std::optional<M>& a, const std::optional<M>& b)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a || (a->rows() == b->rows() && a->cols() == b->cols() && *a == *b);
}

/// A case with "mask" (issue 28 §5): the masks a model run makes from the mask kind and the
/// source's tokens (nn/mask.h) must be, cell for cell, the PyTorch arguments the case was computed
/// with: src_mask, src_key_padding_mask and, with a decoder, memory_key_padding_mask.
void checkRunMasks(const nlohmann::json& in, const TransformerInputs& inputs, bool decoder)
{
    const std::string name = in.at("mask").get<std::string>();
    const std::optional<MaskKind> kind = parseMaskKind(name);
    if (!kind)
        throw std::runtime_error("unknown mask '" + name + "'");
    const auto tokens = in.at("src_tokens").get<std::vector<std::string>>();
    const auto n = static_cast<Eigen::Index>(tokens.size());
    const std::optional<BoolVector> padding = keyPaddingMask(*kind, tokens);
    if (!sameMask(sourceAttentionMask(*kind, n), inputs.srcMask))
        throw std::runtime_error("--mask " + name + " makes another src_mask than the case's");
    if (!sameMask(padding, inputs.srcKeyPadding))
        throw std::runtime_error("--mask " + name + " makes another src_key_padding_mask than the case's");
    if (!sameMask(decoder ? padding : std::nullopt, inputs.memoryKeyPadding))
        throw std::runtime_error("--mask " + name + " makes another memory_key_padding_mask than the case's");
}

/// The weights of a case's state dict as the program opens a bare PyTorch state dict
/// (model/state_dict.h), its spec checked against the case's options.
TransformerWeights openedStateDict(const TensorFile& file, const ModelSpec& o)
{
    StateDictOptions so;
    so.heads = o.heads;
    so.norm = o.norm;
    so.activation = o.activation;
    so.layerNormEps = o.layerNormEps;
    Seq2SeqModel m = modelFromStateDict(file, so);
    if (m.spec.dModel != o.dModel || m.spec.dFF != o.dFF || m.spec.encoderLayers != o.encoderLayers
        || m.spec.decoderLayers != o.decoderLayers || m.spec.finalNorms != o.finalNorms)
        throw std::runtime_error("the opened state dict's sizes are not the case's");
    return std::move(m.weights);
}

/// Runs a golden case through the engine: the module's kind decides which function.
StageList runCase(const nlohmann::json& ref, const std::string& name, std::vector<Message>& warnings)
{
    const ModelSpec o = optionsFrom(ref.at("options"));
    const auto& in = ref.at("inputs");
    const std::string kind = ref.at("kind").get<std::string>();
    const TensorFile file = readSafetensors(transformerDir() + "/" + name + ".safetensors");
    const bool runMasks = in.contains("mask");
    TransformerInputs inputs;
    inputs.src = jsonMatrix(in.at("src"));
    if (!in.at("tgt").is_null())
        inputs.tgt = jsonMatrix(in.at("tgt"));
    inputs.srcMask = jsonBoolMatrix(in.at("src_mask"));
    inputs.tgtMask = jsonBoolMatrix(in.at("tgt_mask"));
    inputs.memoryMask = jsonBoolMatrix(in.at("memory_mask"));
    inputs.srcKeyPadding = jsonBoolVector(in.at("src_key_padding"));
    inputs.tgtKeyPadding = jsonBoolVector(in.at("tgt_key_padding"));
    inputs.memoryKeyPadding = jsonBoolVector(in.at("memory_key_padding"));
    const Eigen::Index n = inputs.src.rows();
    const Eigen::Index m = inputs.tgt.rows();

    if (runMasks)
        checkRunMasks(in, inputs, kind == "transformer");

    StageList stages;
    if (kind == "encoder_layer") {
        const BoolMatrix blocked = combineMasks(n, n, inputs.srcMask, inputs.srcKeyPadding);
        // A case with a run's mask opens its file as the program opens a bare layer's state dict.
        const EncoderLayerWeights w = runMasks ? openedStateDict(file, o).encoder.at(0) : encoderLayerWeightsFromTensors(file, o);
        encoderLayer(inputs.src, w, o, blocked, positions(n), 0, stages, warnings);
    } else if (kind == "encoder") {
        // nn.TransformerEncoder: layers.{i}.* and norm.*, opened as a bare state dict.
        TransformerTrace t = computeTransformer(inputs, openedStateDict(file, o), o);
        stages = std::move(t.stages);
        warnings = std::move(t.warnings);
    } else if (kind == "decoder_layer") {
        // "src" is the memory itself.
        const BoolMatrix self = combineMasks(m, m, inputs.tgtMask, inputs.tgtKeyPadding);
        const BoolMatrix cross = combineMasks(m, n, inputs.memoryMask, inputs.memoryKeyPadding);
        decoderLayer(inputs.tgt, inputs.src, decoderLayerWeightsFromTensors(file, o), o, self, cross, positions(m), positions(n), 0,
                     stages, warnings);
    } else if (kind == "transformer") {
        TransformerTrace t = computeTransformer(inputs, runMasks ? openedStateDict(file, o) : transformerWeightsFromTensors(file, o), o);
        stages = std::move(t.stages);
        warnings = std::move(t.warnings);
    } else {
        throw std::runtime_error("unknown kind '" + kind + "'");
    }
    return stages;
}

/// As tst_reference.cpp: the mask is exact; the rest goes through GEMMs and reductions whose
/// summation order differs from PyTorch's, so a few float32 ulps of the matrix's largest value.
float tolerance(const std::string& id, const Eigen::MatrixXf& want)
{
    if (id == "mask")
        return 0.0f;
    float scale = 1.0f;
    for (Eigen::Index i = 0; i < want.size(); ++i) {
        if (std::isfinite(want.data()[i]))
            scale = std::max(scale, std::abs(want.data()[i]));
    }
    return 4e-6f * scale;
}

std::string where(std::size_t i, const std::string& id, std::optional<int> layer, const std::string& block, std::optional<int> head)
{
    return "stage " + std::to_string(i) + " " + id + " (layer " + (layer ? std::to_string(*layer) : "null") + ", block "
        + (block.empty() ? "null" : block) + ", head " + (head ? std::to_string(*head) : "null") + ")";
}

} // namespace

class TestTransformer : public QObject {
    Q_OBJECT
private slots:
    // --- One stage at a time, by hand ---

    void layerNormByHand()
    {
        // Two tokens, d = 4: row 0 has mean 2.5 and (biased) variance (1.5² + 0.5² + 0.5² + 1.5²)/4 = 1.25,
        // row 1 mean 0 and variance (4 + 0 + 0 + 4)/4 = 2.
        Eigen::MatrixXf x(2, 4);
        x << 1, 2, 3, 4, -2, 0, 0, 2;
        const float eps = 1e-5f;
        const LayerNormResult r = layerNorm(x, LayerNormWeights{Eigen::VectorXf::Ones(4), Eigen::VectorXf::Zero(4)}, eps);
        QCOMPARE(r.mean(0), 2.5f);
        QCOMPARE(r.mean(1), 0.0f);
        QCOMPARE(r.variance(0), 1.25f);
        QCOMPARE(r.variance(1), 2.0f);
        const double var[2] = {1.25, 2.0};
        const double mean[2] = {2.5, 0.0};
        for (int i = 0; i < 2; ++i) {
            // Each value by hand: (x - mean) / sqrt(var + eps).
            for (int j = 0; j < 4; ++j) {
                const double want = (x(i, j) - mean[i]) / std::sqrt(var[i] + double(eps));
                QVERIFY2(std::abs(r.output(i, j) - want) < 1e-6, qPrintable(QString("(%1, %2): %3 vs %4").arg(i).arg(j).arg(r.output(i, j)).arg(want)));
            }
            // With γ = 1 and β = 0 every row has mean 0 and variance var / (var + eps).
            const double rowMean = r.output.row(i).cast<double>().mean();
            const double rowVar = (r.output.row(i).cast<double>().array() - rowMean).square().mean();
            QVERIFY2(std::abs(rowMean) < 1e-7, qPrintable(QString::number(rowMean)));
            QVERIFY2(std::abs(rowVar - var[i] / (var[i] + eps)) < 1e-6, qPrintable(QString::number(rowVar, 'g', 9)));
        }

        // γ scales and β shifts each feature after normalising.
        Eigen::VectorXf gamma(4), beta(4);
        gamma << 1, 2, -1, 0.5f;
        beta << 0.5f, 0, 1, -2;
        const LayerNormResult g = layerNorm(x, LayerNormWeights{gamma, beta}, eps);
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 4; ++j)
                QCOMPARE(g.output(i, j), r.output(i, j) * gamma(j) + beta(j));
        }
        // A constant row has variance 0: eps keeps the division finite, the output is β.
        const LayerNormResult c = layerNorm(Eigen::MatrixXf::Constant(1, 4, 3.0f), LayerNormWeights{gamma, beta}, eps);
        QCOMPARE(c.variance(0), 0.0f);
        QCOMPARE(Eigen::MatrixXf(c.output), Eigen::MatrixXf(beta.transpose()));
    }

    void activationsByHand()
    {
        QCOMPARE(gelu(0.0f), 0.0f);
        // GELU(x) = x·Φ(x): Φ(1) = 0.8413447, Φ(-1) = 0.1586553, Φ(2) = 0.9772499.
        QVERIFY2(std::abs(gelu(1.0f) - 0.8413447f) < 1e-6f, qPrintable(QString::number(gelu(1.0f), 'g', 9)));
        QVERIFY2(std::abs(gelu(-1.0f) + 0.1586553f) < 1e-6f, qPrintable(QString::number(gelu(-1.0f), 'g', 9)));
        QVERIFY2(std::abs(gelu(2.0f) - 2 * 0.9772499f) < 2e-6f, qPrintable(QString::number(gelu(2.0f), 'g', 9)));
        // Far out it is the identity on the right and 0 on the left, never NaN.
        QCOMPARE(gelu(30.0f), 30.0f);
        QCOMPARE(gelu(-30.0f), -0.0f);
        QCOMPARE(gelu(-std::numeric_limits<float>::max()), -0.0f);

        Eigen::MatrixXf x(1, 4);
        x << -2, -0.5f, 0, 3;
        Eigen::MatrixXf relu(1, 4);
        relu << 0, 0, 0, 3;
        QCOMPARE(activate(Activation::Relu, x), relu);
        const Eigen::MatrixXf g = activate(Activation::Gelu, x);
        for (int j = 0; j < 4; ++j)
            QCOMPARE(g(0, j), gelu(x(0, j)));
    }

    void residualIsTheExactSum()
    {
        const Eigen::MatrixXf x = wave(3, 5, 0.3f, 2.0f);
        const Eigen::MatrixXf s = wave(3, 5, 1.7f, 1e-3f);
        const Eigen::MatrixXf r = residual(x, s);
        for (Eigen::Index i = 0; i < r.size(); ++i)
            QCOMPARE(r.data()[i], x.data()[i] + s.data()[i]);
        QCOMPARE(invalidArgumentOf([&] { residual(x, wave(5, 3, 0)); }),
                 QString("a residual adds two matrices of one shape, not 3 x 5 and 5 x 3"));
    }

    void feedForwardByHand()
    {
        // d = 2, d_ff = 3.  W_1 = [[1, 0], [0, 1], [1, -1]], b_1 = [0, -1, 0.5];  W_2 = [[1, 1, 1], [2, 0, -1]], b_2 = [0.25, 0].
        FeedForwardWeights w;
        w.linear1Weight.resize(3, 2);
        w.linear1Weight << 1, 0, 0, 1, 1, -1;
        w.linear1Bias = Eigen::Vector3f(0, -1, 0.5f);
        w.linear2Weight.resize(2, 3);
        w.linear2Weight << 1, 1, 1, 2, 0, -1;
        w.linear2Bias = Eigen::Vector2f(0.25f, 0);
        Eigen::MatrixXf x(2, 2);
        x << 2, 3, -1, 0.5f;
        // Row 0: pre-activation [2, 2, -0.5] -> ReLU [2, 2, 0] -> F = [2+2+0+0.25, 4-0] = [4.25, 4].
        // Row 1: pre-activation [-1, -0.5, -1] -> ReLU [0, 0, 0] -> F = b_2 = [0.25, 0].
        Eigen::MatrixXf h(2, 3), f(2, 2);
        h << 2, 2, 0, 0, 0, 0;
        f << 4.25f, 4, 0.25f, 0;
        const Eigen::MatrixXf hidden = feedForwardHidden(x, w, Activation::Relu);
        QCOMPARE(hidden, h);
        QCOMPARE(feedForwardOutput(hidden, w), f);
        // GELU keeps a little of the negative side: GELU(-0.5) = -0.5·Φ(-0.5) = -0.1542687.
        const Eigen::MatrixXf g = feedForwardHidden(x, w, Activation::Gelu);
        QVERIFY2(std::abs(g(0, 2) + 0.1542687f) < 1e-6f, qPrintable(QString::number(g(0, 2), 'g', 9)));
        QCOMPARE(g(0, 0), gelu(2.0f));
    }

    // --- A whole layer: the stages, their order and labels, and the invariants between them ---

    void encoderLayerStages_data()
    {
        QTest::addColumn<NormPlacement>("placement");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("post") << NormPlacement::Post
                              << QStringList{"<encoder_self>", "attn_residual", "attn_norm", "ffn_hidden", "ffn_output",
                                             "ffn_residual", "ffn_norm", "layer_output"};
        QTest::newRow("pre") << NormPlacement::Pre
                             << QStringList{"attn_norm", "<encoder_self>", "attn_residual", "ffn_norm", "ffn_hidden",
                                            "ffn_output", "ffn_residual", "layer_output"};
    }
    void encoderLayerStages()
    {
        QFETCH(NormPlacement, placement);
        QFETCH(QStringList, expected);
        const int d = 8, heads = 2, dFF = 12, n = 5;
        const ModelSpec o = options(d, heads, dFF, placement, Activation::Gelu);
        const EncoderLayerWeights w = encoderWeights(d, dFF, 0.5f);
        const Eigen::MatrixXf x = wave(n, d, 2.0f, 1.5f);
        BoolMatrix blocked = BoolMatrix::Constant(n, n, false);
        blocked(1, 3) = true;
        StageList stages;
        std::vector<Message> warnings;
        const Eigen::MatrixXf y = encoderLayer(x, w, o, blocked, positions(n), 3, stages, warnings);

        QCOMPARE(outline(stages), expected);
        QCOMPARE(stages.size(), std::size_t(3 + 8 * heads) + std::size_t(expected.size() - 1));
        QVERIFY(warnings.empty());
        for (const auto& s : stages) {
            QCOMPARE(s.layer, std::optional<int>(3));
            QVERIFY(s.block == Block::EncoderSelf);
            QCOMPARE(std::size_t(s.main().values.rows()), s.main().rowLabels->size());
            QCOMPARE(std::size_t(s.main().values.cols()), s.main().colLabels->size());
            // LayerNorm stages carry the mean and variance of their input, one per token.
            QCOMPARE(s.matrices.size(), std::size_t(isLayerNormStage(s.id) ? 3 : 1));
        }
        const auto find = [&](const char* id) -> const Stage& {
            const Stage* s = findStage(stages, id, std::nullopt, 3, Block::EncoderSelf);
            if (!s)
                qFatal("stage %s missing", id);
            return *s;
        };
        const Eigen::MatrixXf& sa = find("output").main().values;
        const Eigen::MatrixXf& r1 = find("attn_residual").main().values;
        const Stage& n1 = find("attn_norm");
        const Stage& n2 = find("ffn_norm");
        const Eigen::MatrixXf& h = find("ffn_hidden").main().values;
        const Eigen::MatrixXf& f = find("ffn_output").main().values;
        const Eigen::MatrixXf& r2 = find("ffn_residual").main().values;
        QCOMPARE(h.cols(), Eigen::Index(dFF));
        QCOMPARE(find("layer_output").main().values, y);
        // Residuals are exact sums; the norms' statistics are of their inputs.
        const Eigen::MatrixXf& n1In = placement == NormPlacement::Post ? r1 : x;
        QCOMPARE(n1.matrices[1].name, std::string("mean"));
        QCOMPARE(n1.matrices[2].name, std::string("variance"));
        QVERIFY2((n1.matrices[1].values - n1In.rowwise().mean()).cwiseAbs().maxCoeff() < 1e-6f, "mean of LN_1's input");
        QCOMPARE(Eigen::MatrixXf(r1), Eigen::MatrixXf(x + sa));
        QCOMPARE(h, activate(Activation::Gelu, ((placement == NormPlacement::Post ? n1 : n2).main().values
                                                * w.ffn.linear1Weight.transpose()).rowwise()
                                                   + w.ffn.linear1Bias.transpose()));
        if (placement == NormPlacement::Post) {
            QCOMPARE(r2, Eigen::MatrixXf(n1.main().values + f));
            QCOMPARE(y, n2.main().values);
            // Each output row is normalised then scaled: (y - β)/γ has mean 0.
            const Eigen::MatrixXf z = ((y.rowwise() - w.norm2.beta.transpose()).array().rowwise() / w.norm2.gamma.transpose().array()).matrix();
            QVERIFY2(z.rowwise().mean().cwiseAbs().maxCoeff() < 1e-5f, qPrintable(QString::number(z.rowwise().mean().cwiseAbs().maxCoeff())));
        } else {
            QCOMPARE(r2, Eigen::MatrixXf(r1 + f));
            QCOMPARE(y, r2);
        }
        // The attention weights respect the mask and their rows sum to 1.
        const Eigen::MatrixXf& a = findStage(stages, "weights", 1, 3, Block::EncoderSelf)->main().values;
        QCOMPARE(a(1, 3), 0.0f);
        QVERIFY((a.rowwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-5f);
    }

    void decoderLayerStages_data()
    {
        QTest::addColumn<NormPlacement>("placement");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("post") << NormPlacement::Post
                              << QStringList{"<decoder_self>", "attn_residual", "attn_norm", "<cross>", "cross_residual",
                                             "cross_norm", "ffn_hidden", "ffn_output", "ffn_residual", "ffn_norm", "layer_output"};
        QTest::newRow("pre") << NormPlacement::Pre
                             << QStringList{"attn_norm", "<decoder_self>", "attn_residual", "cross_norm", "<cross>",
                                            "cross_residual", "ffn_norm", "ffn_hidden", "ffn_output", "ffn_residual", "layer_output"};
    }
    void decoderLayerStages()
    {
        QFETCH(NormPlacement, placement);
        QFETCH(QStringList, expected);
        const int d = 8, heads = 4, dFF = 6, m = 3, n = 5;
        const ModelSpec o = options(d, heads, dFF, placement);
        const Eigen::MatrixXf y = wave(m, d, 1.0f, 1.0f);
        const Eigen::MatrixXf mem = wave(n, d, 4.0f, 1.0f);
        BoolVector padding = BoolVector::Constant(n, false);
        padding(4) = true;
        const BoolMatrix cross = combineMasks(m, n, std::nullopt, padding);
        StageList stages;
        std::vector<Message> warnings;
        decoderLayer(y, mem, decoderWeights(d, dFF, 0.25f), o, causalMask(m), cross, positions(m), positions(n), 0, stages, warnings);

        QCOMPARE(outline(stages), expected);
        for (const auto& s : stages) {
            const bool crossStage = s.id == "cross_residual" || s.id == "cross_norm";
            if (crossStage)
                QVERIFY(s.block == Block::Cross);
            QVERIFY(s.block == Block::DecoderSelf || s.block == Block::Cross);
            QCOMPARE(s.layer, std::optional<int>(0));
        }
        for (int h = 0; h < heads; ++h) {
            // Self-attention: m x m and causal.  Cross-attention: m x n, the padding key unseen.
            const Eigen::MatrixXf& self = findStage(stages, "weights", h, 0, Block::DecoderSelf)->main().values;
            const Eigen::MatrixXf& ca = findStage(stages, "weights", h, 0, Block::Cross)->main().values;
            QCOMPARE(self.rows(), Eigen::Index(m));
            QCOMPARE(self.cols(), Eigen::Index(m));
            QCOMPARE(self(0, 1), 0.0f);
            QCOMPARE(self(1, 2), 0.0f);
            QCOMPARE(ca.rows(), Eigen::Index(m));
            QCOMPARE(ca.cols(), Eigen::Index(n));
            QCOMPARE(Eigen::VectorXf(ca.col(4)), Eigen::VectorXf(Eigen::VectorXf::Zero(m)));
            QCOMPARE(*findStage(stages, "k", h, 0, Block::Cross)->main().rowLabels, *positions(n));
            QVERIFY((ca.rowwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-5f);
        }
        // The cross-attention's queries come from the decoder stream, its keys from the memory.
        const Eigen::MatrixXf& qIn = findStage(stages, placement == NormPlacement::Post ? "attn_norm" : "cross_norm", std::nullopt, 0,
                                               placement == NormPlacement::Post ? Block::DecoderSelf : Block::Cross)
                                         ->main()
                                         .values;
        const AttentionWeights ca = decoderWeights(d, dFF, 0.25f).crossAttn;
        const Eigen::MatrixXf k0 = ((mem * ca.inProjWeight.middleRows(d, d).transpose()).rowwise() + ca.inProjBias.segment(d, d).transpose())
                                       .leftCols(d / heads);
        const Eigen::MatrixXf q0 = ((qIn * ca.inProjWeight.topRows(d).transpose()).rowwise() + ca.inProjBias.head(d).transpose())
                                       .leftCols(d / heads);
        QVERIFY2((findStage(stages, "k", 0, 0, Block::Cross)->main().values - k0).cwiseAbs().maxCoeff() < 1e-5f, "K from the memory");
        QVERIFY2((findStage(stages, "q", 0, 0, Block::Cross)->main().values - q0).cwiseAbs().maxCoeff() < 1e-5f, "Q from the stream");
    }

    void stacksNumberTheirLayers()
    {
        const int d = 4, heads = 2, dFF = 8, n = 3, m = 2;
        ModelSpec o = options(d, heads, dFF, NormPlacement::Pre);
        o.encoderLayers = 2;
        o.decoderLayers = 3;
        o.finalNorms = true;
        TransformerWeights w;
        w.encoder = {encoderWeights(d, dFF, 1), encoderWeights(d, dFF, 2)};
        w.decoder = {decoderWeights(d, dFF, 3), decoderWeights(d, dFF, 4), decoderWeights(d, dFF, 5)};
        w.encoderNorm = norm(d, 6);
        w.decoderNorm = norm(d, 7);
        TransformerInputs in;
        in.src = wave(n, d, 0.1f, 1.0f);
        in.tgt = wave(m, d, 0.2f, 1.0f);
        in.srcTokens = {"a", "b", "c"};
        in.tgtMask = causalMask(m);
        const TransformerTrace t = computeTransformer(in, w, o);

        std::vector<std::optional<int>> layers;
        for (const auto& s : t.stages) {
            if (s.id == "layer_output")
                layers.push_back(s.layer);
        }
        QCOMPARE(layers, (std::vector<std::optional<int>>{0, 1, 0, 1, 2}));
        const Stage* enc = t.find("encoder_output", std::nullopt, std::nullopt, Block::None);
        const Stage* dec = t.find("decoder_output", std::nullopt, std::nullopt, Block::None);
        QVERIFY(enc && dec);
        QCOMPARE(&t.stages.back(), dec);
        QCOMPARE(enc->matrices.size(), std::size_t(3)); // a final norm: mean and variance too
        QCOMPARE(enc->main().values, t.encoderOutput);
        QCOMPARE(dec->main().values, t.decoderOutput);
        QCOMPARE(*enc->main().rowLabels, in.srcTokens);
        QCOMPARE(*dec->main().rowLabels, (std::vector<std::string>{"1", "2"})); // positions, counted from 1
        // The decoder's cross-attention reads the encoder output (after its final norm).
        const Eigen::MatrixXf& k = t.find("k", 1, 2, Block::Cross)->main().values;
        const AttentionWeights& ca = w.decoder[2].crossAttn;
        const Eigen::MatrixXf want = ((t.encoderOutput * ca.inProjWeight.middleRows(d, d).transpose()).rowwise()
                                      + ca.inProjBias.segment(d, d).transpose())
                                         .rightCols(d / heads);
        QVERIFY2((k - want).cwiseAbs().maxCoeff() < 1e-5f, qPrintable(maxDiff(k, want)));
        // Without final norms the outputs are the last layers' outputs.
        o.finalNorms = false;
        const TransformerTrace plain = computeTransformer(in, w, o);
        QCOMPARE(plain.find("encoder_output", std::nullopt, std::nullopt, Block::None)->matrices.size(), std::size_t(1));
        QCOMPARE(plain.encoderOutput, plain.find("layer_output", std::nullopt, 1, Block::EncoderSelf)->main().values);
        QCOMPARE(plain.decoderOutput, plain.find("layer_output", std::nullopt, 2, Block::DecoderSelf)->main().values);
    }

    void fullyMaskedRowWarnsWithItsBlock()
    {
        const int d = 4, n = 3;
        const ModelSpec o = options(d, 2, 4, NormPlacement::Post);
        BoolMatrix blocked = BoolMatrix::Constant(n, n, false);
        blocked.row(2).setConstant(true);
        StageList stages;
        std::vector<Message> warnings;
        encoderLayer(wave(n, d, 0), encoderWeights(d, 4, 0), o, blocked, positions(n), 1, stages, warnings);
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(warnings[0].text).startsWith("encoder self-attention of layer 1: query 2"), warnings[0].text.c_str());
        QCOMPARE(Eigen::RowVectorXf(findStage(stages, "weights", 0, 1, Block::EncoderSelf)->main().values.row(2)),
                 Eigen::RowVectorXf(Eigen::RowVectorXf::Zero(n)));
        for (const auto& s : stages)
            QVERIFY2(s.main().values.array().isNaN().count() == 0, s.id.c_str());
    }

    // --- The trace: layer and block in JSON, find() ---

    void traceJsonWritesLayerAndBlock()
    {
        Request r;
        r.sentence = "a b c";
        r.config.dModel = 4;
        r.config.heads = 2;
        Trace t = computeTrace(r);
        // An attention trace: layer and block null everywhere, find() as before.
        QVERIFY(t.find("output") != nullptr);
        QCOMPARE(t.find("output"), t.find("output", std::nullopt, std::nullopt, Block::None));
        QCOMPARE(t.find("weights", 1), t.find("weights", 1, std::nullopt, Block::None));
        QVERIFY(t.find("weights", 1, 0, Block::EncoderSelf) == nullptr);
        auto j = nlohmann::ordered_json::parse(traceToJson(t));
        for (const auto& s : j.at("stages")) {
            QVERIFY(s.at("layer").is_null());
            QVERIFY(s.at("block").is_null());
        }
        // Keys in order: id, head, layer, block, ..., then how the stage was made (inputs, module).
        std::vector<std::string> keys;
        for (const auto& [key, value] : j.at("stages")[0].items())
            keys.push_back(key);
        QCOMPARE(keys, (std::vector<std::string>{"id", "head", "layer", "block", "title", "formula", "matrices", "inputs", "module"}));

        // Layer stages in a trace: their layer and block are written.
        const std::size_t outputIndex = t.stages.size() - 1;
        encoderLayer(wave(3, 4, 0), encoderWeights(4, 4, 0), options(4, 2, 4, NormPlacement::Post), BoolMatrix::Constant(3, 3, false),
                     positions(3), 2, t.stages, t.warnings);
        QVERIFY(t.find("ffn_norm") == nullptr);
        QVERIFY(t.find("ffn_norm", std::nullopt, 2, Block::EncoderSelf) != nullptr);
        QCOMPARE(t.find("output"), &t.stages[outputIndex]); // still the single block's output, not the layer's
        j = nlohmann::ordered_json::parse(traceToJson(t));
        const auto& last = j.at("stages").back();
        QCOMPARE(last.at("id").get<std::string>(), std::string("layer_output"));
        QCOMPARE(last.at("layer").get<int>(), 2);
        QCOMPARE(last.at("block").get<std::string>(), std::string("encoder_self"));
        QVERIFY(last.at("head").is_null());
    }

    // --- Masks and options ---

    void combineMasksAsPyTorch()
    {
        BoolMatrix attn = BoolMatrix::Constant(2, 3, false);
        attn(0, 1) = true;
        BoolVector pad = BoolVector::Constant(3, false);
        pad(2) = true;
        const BoolMatrix both = combineMasks(2, 3, attn, pad);
        BoolMatrix want(2, 3);
        want << false, true, true, false, false, true;
        QCOMPARE(both, want);
        QCOMPARE(combineMasks(2, 3, std::nullopt, std::nullopt), BoolMatrix(BoolMatrix::Constant(2, 3, false)));
        QCOMPARE(combineMasks(2, 3, attn, std::nullopt), attn);
        BoolMatrix causal(3, 3);
        causal << false, true, true, false, false, true, false, false, false;
        QCOMPARE(causalMask(3), causal);

        QCOMPARE(invalidArgumentOf([&] { combineMasks(3, 3, attn, std::nullopt, "src_mask"); }),
                 QString("src_mask is 2 x 3 but must be 3 x 3 (queries x keys)"));
        QCOMPARE(invalidArgumentOf([&] { combineMasks(2, 4, std::nullopt, pad, "memory_mask", "memory_key_padding"); }),
                 QString("memory_key_padding has 3 entries but must have 4 (one per key)"));
    }

    void optionsStateTheRule_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("dFF");
        QTest::addColumn<float>("eps");
        QTest::addColumn<int>("encoder");
        QTest::addColumn<int>("decoder");
        QTest::addColumn<QString>("message");
        QTest::newRow("valid") << 16 << 4 << 32 << 1e-5f << 2 << 2 << QString();
        QTest::newRow("d_ff -1") << 16 << 4 << -1 << 1e-5f << 1 << 1 << "d_ff (-1) must be 0 (4·d_model) or between 1 and 8192";
        QTest::newRow("heads") << 10 << 3 << 32 << 1e-5f << 1 << 1 << "d_model (10) must be a multiple of heads (3)";
        QTest::newRow("eps 0") << 16 << 4 << 32 << 0.0f << 1 << 1 << "layer_norm_eps (0) must be a positive number";
        QTest::newRow("eps nan") << 16 << 4 << 32 << std::numeric_limits<float>::quiet_NaN() << 1 << 1 << "layer_norm_eps (nan) must be a positive number";
        QTest::newRow("13 layers") << 16 << 4 << 32 << 1e-5f << 13 << 1 << "encoder_layers (13) must be between 0 and 12";
        QTest::newRow("negative") << 16 << 4 << 32 << 1e-5f << 1 << -1 << "decoder_layers (-1) must be between 0 and 12";
        QTest::newRow("no layer") << 16 << 4 << 32 << 1e-5f << 0 << 0 << "layers (0) must be between 1 and 12";
    }
    void optionsStateTheRule()
    {
        QFETCH(int, d);
        QFETCH(int, heads);
        QFETCH(int, dFF);
        QFETCH(float, eps);
        QFETCH(int, encoder);
        QFETCH(int, decoder);
        QFETCH(QString, message);
        ModelSpec o = options(d, heads, dFF, NormPlacement::Post);
        o.layerNormEps = eps;
        o.encoderLayers = encoder;
        o.decoderLayers = decoder;
        if (message.isEmpty()) {
            QVERIFY(o.problems().empty());
            o.validate();
        } else {
            QCOMPARE(invalidArgumentOf([&] { o.validate(); }), message);
        }
    }

    void badArguments()
    {
        const int d = 4, n = 3;
        const ModelSpec o = options(d, 2, 4, NormPlacement::Post);
        const EncoderLayerWeights w = encoderWeights(d, 4, 0);
        const BoolMatrix none = BoolMatrix::Constant(n, n, false);
        StageList stages;
        std::vector<Message> warnings;
        const auto run = [&](const Eigen::MatrixXf& x, const EncoderLayerWeights& weights, const BoolMatrix& blocked, const ModelSpec& opt) {
            return invalidArgumentOf([&] { encoderLayer(x, weights, opt, blocked, positions(x.rows()), 0, stages, warnings); });
        };
        QCOMPARE(run(wave(n, 5, 0), w, none, o), QString("the encoder layer's input is 3 x 5 but must have at least one row and d_model (4) columns"));
        QCOMPARE(run(wave(n, d, 0), w, BoolMatrix::Constant(n, 2, false), o), QString("the mask is 3 x 2 but must be 3 x 3 (queries x keys)"));
        EncoderLayerWeights shortNorm = w;
        shortNorm.norm2.gamma.resize(3);
        QCOMPARE(run(wave(n, d, 0), shortNorm, none, o), QString("norm2 has 3 weights and 4 biases but d_model is 4"));
        ModelSpec wide = o;
        wide.dFF = 6;
        QCOMPARE(run(wave(n, d, 0), w, none, wide), QString("linear1 is 4 x 4 with 4 biases but must be 6 x 4 (d_ff x d_model) with 6"));
        EncoderLayerWeights narrow = w;
        narrow.selfAttn = attention(2, 0);
        QCOMPARE(run(wave(n, d, 0), narrow, none, o),
                 QString("self_attn.in_proj_weight is 6 x 2 and out_proj.weight 2 x 2 but must be 12 x 4 and 4 x 4 (with biases of 12 and 4) "
                         "for d_model 4"));
        // Pre-LN appends attn_norm before its attention block: the mask is checked before that.
        QCOMPARE(run(wave(n, d, 0), w, BoolMatrix::Constant(n, 2, false), options(d, 2, 4, NormPlacement::Pre)),
                 QString("the mask is 3 x 2 but must be 3 x 3 (queries x keys)"));
        // A decoder's cross-attention mask is checked before its self-attention runs.
        const QString cross = invalidArgumentOf([&] {
            decoderLayer(wave(n, d, 0), wave(5, d, 1), decoderWeights(d, 4, 0), o, causalMask(n), BoolMatrix::Constant(n, 4, false),
                         positions(n), positions(5), 0, stages, warnings);
        });
        QCOMPARE(cross, QString("the cross-attention mask is 3 x 4 but must be 3 x 5 (queries x keys)"));
        QVERIFY(stages.empty()); // nothing appended by a refused call
    }

    // --- Loading state dicts ---

    void loadsAnEncoderLayerByName()
    {
        TensorFile f;
        addEncoderLayer(f, "");
        ModelSpec o = options(4, 2, 8, NormPlacement::Post);
        const EncoderLayerWeights w = encoderLayerWeightsFromTensors(f, o);
        const EncoderLayerWeights want = encoderWeights(4, 8, 0);
        QCOMPARE(w.selfAttn.inProjWeight, want.selfAttn.inProjWeight);
        QCOMPARE(w.ffn.linear1Weight, want.ffn.linear1Weight);
        QCOMPARE(w.ffn.linear2Weight, want.ffn.linear2Weight);
        QCOMPARE(w.ffn.linear2Bias, want.ffn.linear2Bias);
        QCOMPARE(w.norm2.gamma, want.norm2.gamma);
        QCOMPARE(w.norm1.beta, want.norm1.beta);

        // Under a prefix; tensors outside it belong to other modules and are ignored.
        TensorFile p;
        addEncoderLayer(p, "model.layers.0.");
        p.tensors["model.embed.weight"] = tensorOf(wave(5, 4, 0));
        QCOMPARE(encoderLayerWeightsFromTensors(p, o, "model.layers.0.").ffn.linear1Weight, want.ffn.linear1Weight);

        // Biases may be absent (bias=False): they are 0.
        TensorFile nb = f;
        nb.tensors.erase("linear1.bias");
        nb.tensors.erase("norm1.bias");
        const EncoderLayerWeights z = encoderLayerWeightsFromTensors(nb, o);
        QCOMPARE(z.ffn.linear1Bias, Eigen::VectorXf(Eigen::VectorXf::Zero(8)));
        QCOMPARE(z.norm1.beta, Eigen::VectorXf(Eigen::VectorXf::Zero(4)));
    }

    void loaderErrorsNameTheTensor_data()
    {
        QTest::addColumn<QString>("remove");
        QTest::addColumn<QString>("reshape");
        QTest::addColumn<QString>("add");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing norm2.weight") << "norm2.weight" << "" << "" << "missing tensor 'norm2.weight' [4]";
        QTest::newRow("missing linear2.weight") << "linear2.weight" << "" << "" << "missing tensor 'linear2.weight' [4, 8]";
        QTest::newRow("missing attention") << "self_attn.in_proj_weight" << "" << "" << "missing tensor 'self_attn.in_proj_weight' [12, 4]";
        QTest::newRow("linear1 transposed") << "" << "linear1.weight" << "" << "tensor 'linear1.weight' has shape [4, 8] but must be [8, 4]";
        QTest::newRow("norm1 bias") << "" << "norm1.bias" << "" << "tensor 'norm1.bias' has shape [1, 4] but must be [4]";
        QTest::newRow("out_proj") << "" << "self_attn.out_proj.weight" << "" << "tensor 'self_attn.out_proj.weight' has shape [4, 4, 1] but must be [4, 4]";
        QTest::newRow("unknown") << "" << "" << "norm3.weight"
                                 << "unknown tensor 'norm3.weight' [4]: not part of an encoder layer (self_attn.*, linear1.*, linear2.*, norm1.*, norm2.*)";
    }
    void loaderErrorsNameTheTensor()
    {
        QFETCH(QString, remove);
        QFETCH(QString, reshape);
        QFETCH(QString, add);
        QFETCH(QString, message);
        TensorFile f;
        addEncoderLayer(f, "");
        if (!remove.isEmpty())
            QCOMPARE(f.tensors.erase(remove.toStdString()), std::size_t(1));
        if (!reshape.isEmpty()) {
            Tensor& t = f.tensors.at(reshape.toStdString());
            t.shape = t.shape.size() == 1 ? std::vector<std::int64_t>{1, t.shape[0]}
                : t.shape[0] == t.shape[1] ? std::vector<std::int64_t>{t.shape[0], t.shape[1], 1}
                                           : std::vector<std::int64_t>{t.shape[1], t.shape[0]};
        }
        if (!add.isEmpty())
            f.tensors[add.toStdString()] = tensorOf(Eigen::VectorXf(Eigen::VectorXf::Ones(4)));
        const ModelSpec o = options(4, 2, 8, NormPlacement::Post);
        QCOMPARE(formatErrorOf([&] { encoderLayerWeightsFromTensors(f, o); }), message);
    }

    void transformerLoaderErrors()
    {
        TensorFile f;
        addEncoderLayer(f, "encoder.layers.0.", 1);
        addEncoderLayer(f, "encoder.layers.1.", 2);
        f.tensors["encoder.norm.weight"] = tensorOf(Eigen::VectorXf(Eigen::VectorXf::Ones(4)));
        f.tensors["encoder.norm.bias"] = tensorOf(Eigen::VectorXf(Eigen::VectorXf::Zero(4)));
        ModelSpec o = options(4, 2, 8, NormPlacement::Post);
        o.encoderLayers = 2;
        o.decoderLayers = 0;
        o.finalNorms = true;
        const TransformerWeights w = transformerWeightsFromTensors(f, o);
        QCOMPARE(w.encoder.size(), std::size_t(2));
        QCOMPARE(w.encoder[1].ffn.linear1Weight, encoderWeights(4, 8, 2).ffn.linear1Weight);
        QVERIFY(w.encoderNorm && !w.decoderNorm);

        // One layer fewer in the options: the second layer's tensors are unknown.
        o.encoderLayers = 1;
        const QString unknown = formatErrorOf([&] { transformerWeightsFromTensors(f, o); });
        QVERIFY2(unknown.startsWith("unknown tensor 'encoder.layers.1.linear1.bias' [8]: not expected with 1 encoder and 0 decoder "
                                    "layers, d_model 4, d_ff 8, final norms"),
                 qPrintable(unknown));
        // A decoder layer asked for but absent.
        o.encoderLayers = 2;
        o.decoderLayers = 1;
        QCOMPARE(formatErrorOf([&] { transformerWeightsFromTensors(f, o); }),
                 QString("missing tensor 'decoder.layers.0.self_attn.in_proj_weight' [12, 4]"));
        // The final norm missing.
        o.decoderLayers = 0;
        TensorFile noNorm = f;
        noNorm.tensors.erase("encoder.norm.weight");
        QCOMPARE(formatErrorOf([&] { transformerWeightsFromTensors(noNorm, o); }), QString("missing tensor 'encoder.norm.weight' [4]"));
        // Invalid options cannot give shapes.
        o.dFF = -1;
        QCOMPARE(formatErrorOf([&] { transformerWeightsFromTensors(f, o); }),
                 QString("cannot read the weights with these options: d_ff (-1) must be 0 (4·d_model) or between 1 and 8192"));
        // Non-finite values are refused, by name.
        o.dFF = 8;
        TensorFile inf = f;
        inf.tensors.at("encoder.layers.0.linear2.weight").values[3] = std::numeric_limits<float>::infinity();
        QCOMPARE(formatErrorOf([&] { transformerWeightsFromTensors(inf, o); }),
                 QString("tensor 'encoder.layers.0.linear2.weight' holds non-finite values (inf or NaN)"));
    }

    void loaderFileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TensorFile f;
        addEncoderLayer(f, "encoder.layers.0.");
        ModelSpec o = options(4, 2, 8, NormPlacement::Post);
        o.decoderLayers = 0;
        std::string bytes = serializeSafetensors(f);
        const std::string good = dir.filePath("good.safetensors").toStdString();
        writeFileAtomically(good, bytes);
        const TransformerWeights w = loadTransformerWeights(good, o);
        QCOMPARE(w.source, "file:" + good);
        QCOMPARE(w.encoder.size(), std::size_t(1));

        // An unknown dtype is refused by the safetensors reader, by name; the path comes first.
        const auto at = bytes.find("\"F32\"");
        QVERIFY(at != std::string::npos);
        bytes.replace(at, 5, "\"I32\"");
        const std::string bad = dir.filePath("bad.safetensors").toStdString();
        writeFileAtomically(bad, bytes);
        const QString e = formatErrorOf([&] { loadTransformerWeights(bad, o); });
        QVERIFY2(e.startsWith(QString::fromStdString("'" + bad + "': ")) && e.contains("I32"), qPrintable(e));
        const QString missing = formatErrorOf([&] { loadTransformerWeights(dir.filePath("none.safetensors").toStdString(), o); });
        QVERIFY2(!missing.startsWith("!"), qPrintable(missing));
    }

    // --- Every golden case of scripts/gen_transformer_reference.py ---

    void everyStageMatchesPyTorch_data()
    {
        QTest::addColumn<std::string>("name");
        // No silent skip: without the golden files this test fails and says how to make them.
        std::vector<std::string> cases;
        try {
            cases = readJson(transformerDir() + "/cases.json").get<std::vector<std::string>>();
        } catch (const std::exception&) {
        }
        if (cases.empty())
            QTest::newRow("cases.json missing") << std::string();
        for (const auto& name : cases)
            QTest::newRow(name.c_str()) << name;
    }

    void everyStageMatchesPyTorch()
    {
        QFETCH(std::string, name);
        if (name.empty())
            QFAIL(qPrintable(QString::fromStdString("no golden cases in " + transformerDir()
                                                    + "/cases.json: run /usr/bin/python3 scripts/gen_transformer_reference.py")));
        const auto ref = readJson(transformerDir() + "/" + name + ".json");
        std::vector<Message> warnings;
        const StageList stages = runCase(ref, name, warnings);
        QVERIFY2(warnings.empty(), warnings.empty() ? "" : warnings.front().text.c_str());

        const auto& want = ref.at("stages");
        float worst = 0; // the largest |diff| / tolerance, reported when the case passes
        std::string worstWhere;
        for (std::size_t i = 0; i < std::min(want.size(), stages.size()); ++i) {
            const auto& w = want[i];
            const std::string id = w.at("id").get<std::string>();
            const std::optional<int> layer = w.at("layer").is_null() ? std::nullopt : std::optional<int>(w.at("layer").get<int>());
            const std::string block = w.at("block").is_null() ? std::string() : w.at("block").get<std::string>();
            const std::optional<int> head = w.at("head").is_null() ? std::nullopt : std::optional<int>(w.at("head").get<int>());
            const Stage& got = stages[i];
            const std::string here = where(i, id, layer, block, head);
            QVERIFY2(got.id == id && got.layer == layer && toString(got.block) == block && got.head == head,
                     qPrintable(QString::fromStdString("want " + here + ", got " + where(i, got.id, got.layer, std::string(toString(got.block)), got.head))));

            // The main matrix, then a LayerNorm's mean and variance.
            std::vector<std::pair<std::string, Eigen::MatrixXf>> checks{{"data", jsonMatrix(w.at("data"))}};
            if (w.contains("mean")) {
                QVERIFY2(got.matrices.size() == 3, qPrintable(QString::fromStdString(here + ": no mean and variance")));
                checks.emplace_back("mean", jsonColumn(w.at("mean")));
                checks.emplace_back("variance", jsonColumn(w.at("variance")));
            }
            for (std::size_t k = 0; k < checks.size(); ++k) {
                const auto& [what, values] = checks[k];
                const auto d = compare(got.matrices[k].values, values);
                const float tol = tolerance(id, values);
                QVERIFY2(d.problem.empty(), qPrintable(QString::fromStdString(here + " " + what + ": " + d.problem)));
                QVERIFY2(d.max <= tol, qPrintable(QString::fromStdString(here + " " + what + ": max |diff| ")
                                                  + QString::number(double(d.max), 'g', 3) + QString(" at (%1, %2) exceeds ").arg(d.row).arg(d.col)
                                                  + QString::number(double(tol), 'g', 3)));
                if (tol > 0 && d.max / tol > worst) {
                    worst = d.max / tol;
                    worstWhere = here + " " + what;
                }
            }
        }
        // Every stage of the reference, and no other, in the same order.
        QVERIFY2(stages.size() == want.size(),
                 qPrintable(QString("%1 stages, the reference has %2").arg(stages.size()).arg(want.size())));
        qInfo("%s: %zu stages; largest |diff| is %.2f of the tolerance (%s)", name.c_str(), stages.size(), double(worst),
              worstWhere.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTransformer)
#include "tst_transformer.moc"
