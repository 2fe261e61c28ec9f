#include "nn/transformer.h"

#include "core/stage_builder.h"
#include "nn/messages.h"

#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {

using detail::addStage;
using detail::numberedLabels;
using detail::putMatrix;


std::string str(long long v)
{
    return std::to_string(v);
}

std::string shape(Eigen::Index rows, Eigen::Index cols)
{
    return str(rows) + " x " + str(cols);
}

void checkNorm(const LayerNormWeights& w, Eigen::Index d, const std::string& name)
{
    if (w.gamma.size() == d && w.beta.size() == d)
        return;
    if (name.empty()) // layerNorm's own
        throw Error(say(nnMessage("the_layer_norm_width"), w.gamma.size(), w.beta.size(), d));
    throw Error(say(nnMessage("layer_norm_width"), name, w.gamma.size(), w.beta.size(), d));
}

void checkFeedForward(const FeedForwardWeights& w, Eigen::Index d, Eigen::Index dFF)
{
    if (w.linear1Weight.rows() != dFF || w.linear1Weight.cols() != d || w.linear1Bias.size() != dFF)
        throw Error(say(nnMessage("linear1_shape"), shape(w.linear1Weight.rows(), w.linear1Weight.cols()), w.linear1Bias.size(),
                        shape(dFF, d), dFF));
    if (w.linear2Weight.rows() != d || w.linear2Weight.cols() != dFF || w.linear2Bias.size() != d)
        throw Error(say(nnMessage("linear2_shape"), shape(w.linear2Weight.rows(), w.linear2Weight.cols()), w.linear2Bias.size(),
                        shape(d, dFF), d));
}

void checkAttention(const AttentionWeights& w, Eigen::Index d, const std::string& name)
{
    if (w.inProjWeight.rows() != 3 * d || w.inProjWeight.cols() != d || w.inProjBias.size() != 3 * d || w.outProjWeight.rows() != d
        || w.outProjWeight.cols() != d || w.outProjBias.size() != d)
        throw Error(say(nnMessage("attention_projection_shape"), name, shape(w.inProjWeight.rows(), w.inProjWeight.cols()),
                        shape(w.outProjWeight.rows(), w.outProjWeight.cols()), shape(3 * d, d), shape(d, d), 3 * d, d));
}

void checkEncoderWeights(const EncoderLayerWeights& w, const ModelSpec& o)
{
    checkAttention(w.selfAttn, o.dModel, "self_attn");
    checkFeedForward(w.ffn, o.dModel, o.feedForwardWidth());
    checkNorm(w.norm1, o.dModel, "norm1");
    checkNorm(w.norm2, o.dModel, "norm2");
}

void checkDecoderWeights(const DecoderLayerWeights& w, const ModelSpec& o)
{
    checkAttention(w.selfAttn, o.dModel, "self_attn");
    checkAttention(w.crossAttn, o.dModel, "multihead_attn");
    checkFeedForward(w.ffn, o.dModel, o.feedForwardWidth());
    checkNorm(w.norm1, o.dModel, "norm1");
    checkNorm(w.norm2, o.dModel, "norm2");
    checkNorm(w.norm3, o.dModel, "norm3");
}

void checkMask(const BoolMatrix& blocked, Eigen::Index queries, Eigen::Index keys, const char* name)
{
    if (blocked.rows() != queries || blocked.cols() != keys)
        throw std::invalid_argument(std::string(name) + " is " + shape(blocked.rows(), blocked.cols()) + " but must be "
                                    + shape(queries, keys) + " (queries x keys)");
}

/// The stream's shape and labels against the options (the weights are checked where they are used).
void checkStream(const Eigen::MatrixXf& x, const Labels& tokens, const ModelSpec& o, const char* name)
{
    if (x.rows() < 1 || x.cols() != o.dModel)
        throw std::invalid_argument(std::string(name) + " is " + shape(x.rows(), x.cols()) + " but must have at least one row and d_model ("
                                    + str(o.dModel) + ") columns");
    if (!tokens || static_cast<Eigen::Index>(tokens->size()) != x.rows())
        throw std::invalid_argument(std::string(name) + " needs one label per row (" + str(x.rows()) + ")");
}

/// All attention cells of a computation must fit the limit a single trace has.
void checkCells(std::int64_t cells)
{
    if (cells > ConfigLimits::maxAttentionCells)
        throw Error(say(nnMessage("layer_cells"), cells, ConfigLimits::maxAttentionCells));
}

/// Appends one layer's own stages (not its attention blocks) with their labels, inputs and
/// the module of their weights.
class LayerStages {
public:
    /// `modulePrefix` names the layer in the model file: "encoder.layers.0.".
    LayerStages(StageList& stages, std::optional<int> layer, std::string modulePrefix, Labels rows, Labels dims)
        : m_stages(stages)
        , m_layer(layer)
        , m_prefix(std::move(modulePrefix))
        , m_rows(std::move(rows))
        , m_dims(std::move(dims))
    {
    }

    /// The key of this layer's stage `id` in `block`.
    StageKey key(const char* id, Block block) const { return {id, std::nullopt, m_layer, block}; }

    /// A stage whose main matrix is (n x d) or, with `cols`, has those column labels; `module`
    /// ("linear1") is the layer's module whose weights it used, if any.
    void add(const StageKey& key, std::string title, std::string formula, std::vector<StageKey> inputs, std::string name,
             const Eigen::MatrixXf& values, const char* module = nullptr, Labels cols = nullptr)
    {
        putMatrix(addStage(m_stages, key, std::move(title), std::move(formula), std::move(inputs), moduleName(module)),
                  std::move(name), values, m_rows, cols ? std::move(cols) : m_dims);
    }

    /// A LayerNorm stage: the output, then the mean and variance (n x 1) of its input.
    void addNorm(const StageKey& key, std::string title, std::string formula, const StageKey& input, const char* module,
                 std::string name, const LayerNormResult& r)
    {
        Stage& s = addStage(m_stages, key, std::move(title), std::move(formula), {input}, moduleName(module));
        putMatrix(s, std::move(name), r.output, m_rows, m_dims);
        detail::putNormStatistics(s, r.mean, r.variance, m_rows);
    }

private:
    std::string moduleName(const char* module) const { return module ? m_prefix + module : std::string(); }

    StageList& m_stages;
    std::optional<int> m_layer;
    std::string m_prefix;
    Labels m_rows;
    Labels m_dims;
};

/// ffn_hidden then ffn_output on `x` (the FFN's input: the stage `input`, named `in` in the
/// formula); returns F. Both stages are in `block`.
Eigen::MatrixXf feedForwardStages(const Eigen::MatrixXf& x, const StageKey& input, const std::string& in, const LayerParts& parts,
                                  const ModelSpec& o, LayerStages& out)
{
    const Block block = parts.block;
    const Eigen::MatrixXf hidden = parts.hidden(x);
    out.add(out.key("ffn_hidden", block), "Feed-forward hidden layer",
            std::string("H = ") + activationName(o.activation) + "(" + in + "·W_1ᵀ + b_1)", {input}, "H", hidden,
            parts.modules[2].c_str(), numberedLabels(static_cast<int>(hidden.cols()), "f"));
    Eigen::MatrixXf f = parts.output(hidden);
    out.add(out.key("ffn_output", block), "Feed-forward output", "F = H·W_2ᵀ + b_2", {out.key("ffn_hidden", block)}, "F", f,
            parts.modules[3].c_str());
    return f;
}

/// The stage that feeds layer `layer` of a stack in `block`: the embeddings' input for the
/// first layer, the previous layer's output for the others.
StageKey layerInput(int layer, Block block)
{
    if (layer == 0)
        return {"input", std::nullopt, std::nullopt, block};
    return {"layer_output", std::nullopt, layer - 1, block};
}

} // namespace

/// The stack's final output stage (`id` = encoder_output or decoder_output): LN(x) with its
/// statistics (the LayerNorm `module`), or x itself without a final norm. `last` is the last
/// layer's output stage.
Eigen::MatrixXf stackOutput(const char* id, const char* title, const char* name, const Eigen::MatrixXf& x, const StageKey& last,
                            const LayerNormWeights* finalNorm, float eps, const std::string& module, const Labels& tokens,
                            const Labels& dims, StageList& stages)
{
    LayerStages out(stages, std::nullopt, {}, tokens, dims);
    const StageKey key{id};
    if (!finalNorm) {
        out.add(key, title, std::string(name) + " = output of the last layer", {last}, name, x);
        return x;
    }
    LayerNormResult r = layerNorm(x, *finalNorm, eps);
    out.addNorm(key, title, std::string(name) + " = LN(output of the last layer)", last, module.c_str(), name, r);
    return std::move(r.output);
}



LayerNormResult layerNorm(const Eigen::MatrixXf& x, const LayerNormWeights& w, float eps)
{
    checkNorm(w, x.cols(), "");
    if (!(eps > 0.0f))
        throw Error(say(nnMessage("norm_eps"), std::to_string(eps)));
    // mean, variance: (n) per row, accumulated in double so that a wide row (d = 2048) loses no digits.
    const Eigen::MatrixXd xd = x.cast<double>();
    const Eigen::VectorXd mean = xd.rowwise().mean();
    const Eigen::MatrixXd centered = xd.colwise() - mean;
    const Eigen::VectorXd variance = centered.array().square().rowwise().mean(); // biased: divided by d
    // ε keeps a constant row (variance 0) from dividing by zero.
    const Eigen::ArrayXd inverseStd = (variance.array() + static_cast<double>(eps)).rsqrt();
    LayerNormResult r;
    // output (n x d) = normalised (n x d) scaled per feature by γ and shifted by β.
    r.output = (centered.array().colwise() * inverseStd).cast<float>().matrix();
    r.output.array().rowwise() *= w.gamma.transpose().array();
    r.output.array().rowwise() += w.beta.transpose().array();
    r.mean = mean.cast<float>();
    r.variance = variance.cast<float>();
    return r;
}

Eigen::MatrixXf residual(const Eigen::MatrixXf& x, const Eigen::MatrixXf& sublayer)
{
    if (x.rows() != sublayer.rows() || x.cols() != sublayer.cols())
        throw Error(say(nnMessage("residual_shapes"), shape(x.rows(), x.cols()), shape(sublayer.rows(), sublayer.cols())));
    return x + sublayer;
}

float gelu(float x)
{
    // Φ(x) = (1 + erf(x/√2)) / 2, the standard normal CDF: the exact GELU, not the tanh approximation.
    return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752440f));
}

float geluTanh(float x)
{
    // GPT-2's gelu_new: x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³))), in float32 as PyTorch computes it.
    const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
    return 0.5f * x * (1.0f + std::tanh(inner));
}

const char* activationName(Activation a)
{
    switch (a) {
    case Activation::Gelu:
        return "GELU";
    case Activation::GeluTanh:
        return "GELU_tanh";
    case Activation::Relu:
        break;
    }
    return "ReLU";
}

Eigen::MatrixXf activate(Activation activation, const Eigen::MatrixXf& x)
{
    switch (activation) {
    case Activation::Gelu:
        return x.unaryExpr([](float v) { return gelu(v); });
    case Activation::GeluTanh:
        return x.unaryExpr([](float v) { return geluTanh(v); });
    case Activation::Relu:
        break;
    }
    return x.cwiseMax(0.0f);
}

Eigen::MatrixXf feedForwardHidden(const Eigen::MatrixXf& x, const FeedForwardWeights& w, Activation activation)
{
    checkFeedForward(w, x.cols(), w.linear1Weight.rows());
    // (n x d_ff) = X (n x d) · W_1ᵀ (d x d_ff) + b_1, then the activation element by element.
    Eigen::MatrixXf h = x * w.linear1Weight.transpose();
    h.rowwise() += w.linear1Bias.transpose();
    return activate(activation, h);
}

Eigen::MatrixXf feedForwardOutput(const Eigen::MatrixXf& hidden, const FeedForwardWeights& w)
{
    checkFeedForward(w, w.linear2Weight.rows(), hidden.cols());
    // (n x d) = H (n x d_ff) · W_2ᵀ (d_ff x d) + b_2.
    Eigen::MatrixXf f = hidden * w.linear2Weight.transpose();
    f.rowwise() += w.linear2Bias.transpose();
    return f;
}

Eigen::MatrixXf encoderLayer(const Eigen::MatrixXf& x, const EncoderLayerWeights& w, const ModelSpec& spec,
                             const BoolMatrix& blocked, const Labels& tokens, int layer, StageList& stages,
                             std::vector<Message>& warnings)
{
    const ModelSpec& o = spec;
    o.validate();
    // Everything is checked before the first stage is appended.
    checkStream(x, tokens, o, "the encoder layer's input");
    checkEncoderWeights(w, o);
    checkMask(blocked, x.rows(), x.rows(), "the mask");
    const Labels dims = numberedLabels(o.dModel);
    LayerParts parts;
    parts.modulePrefix = "encoder.layers." + str(layer) + ".";
    parts.block = Block::EncoderSelf;
    // The self-attention block, on `input` as queries, keys and values.
    parts.attention = [&](const Eigen::MatrixXf& input, const StageKey& inputKey) {
        const AttentionBlockContext c{tokens,      tokens, dims, layer, parts.block, inputKey, inputKey, parts.modulePrefix + "self_attn",
                                      o.attention, o.attentionOptions, o.seed, o.positional, o.positionOptions};
        return attentionBlock(input, input, w.selfAttn, o.heads, o.scaleScores, blocked, c, stages, warnings);
    };
    parts.hidden = [&](const Eigen::MatrixXf& in) { return feedForwardHidden(in, w.ffn, o.activation); };
    parts.output = [&](const Eigen::MatrixXf& h) { return feedForwardOutput(h, w.ffn); };
    parts.norm1 = &w.norm1;
    parts.norm2 = &w.norm2;
    return layerOfParts(x, parts, o, tokens, layer, stages);
}

Eigen::MatrixXf layerOfParts(const Eigen::MatrixXf& x, const LayerParts& parts, const ModelSpec& o, const Labels& tokens,
                             int layer, StageList& stages)
{
    checkStream(x, tokens, o, "the layer's input");
    checkNorm(*parts.norm1, o.dModel, parts.modules[0]);
    checkNorm(*parts.norm2, o.dModel, parts.modules[1]);
    LayerStages out(stages, layer, parts.modulePrefix, tokens, numberedLabels(o.dModel));
    const Block b = parts.block;
    const StageKey in = layerInput(layer, b);
    const auto key = [&](const char* id) { return out.key(id, b); };
    const char* norm1 = parts.modules[0].c_str();
    const char* norm2 = parts.modules[1].c_str();

    if (o.norm == NormPlacement::Post) {
        // attention stages: SA(X), queries, keys and values all from X.
        const Eigen::MatrixXf sa = parts.attention(x, in);
        // attn_residual: R_1 (n x d) = X + SA(X).
        const Eigen::MatrixXf r1 = residual(x, sa);
        out.add(key("attn_residual"), "Residual: input + attention", "R_1 = X + SA(X)", {in, key("output")}, "R_1", r1);
        // attn_norm: N_1 = LN_1(R_1) (Add & Norm).
        const LayerNormResult n1 = layerNorm(r1, *parts.norm1, o.layerNormEps);
        out.addNorm(key("attn_norm"), "Add & Norm (attention)", "N_1 = LN_1(R_1)", key("attn_residual"), norm1, "N_1", n1);
        // ffn_hidden, ffn_output: F = FFN(N_1).
        const Eigen::MatrixXf f = feedForwardStages(n1.output, key("attn_norm"), "N_1", parts, o, out);
        // ffn_residual: R_2 = N_1 + F.
        const Eigen::MatrixXf r2 = residual(n1.output, f);
        out.add(key("ffn_residual"), "Residual: + feed-forward", "R_2 = N_1 + F", {key("attn_norm"), key("ffn_output")}, "R_2", r2);
        // ffn_norm: N_2 = LN_2(R_2), the layer's output.
        LayerNormResult n2 = layerNorm(r2, *parts.norm2, o.layerNormEps);
        out.addNorm(key("ffn_norm"), "Add & Norm (feed-forward)", "N_2 = LN_2(R_2)", key("ffn_residual"), norm2, "N_2", n2);
        out.add(key("layer_output"), "Layer output", "Y = N_2", {key("ffn_norm")}, "Y", n2.output);
        return std::move(n2.output);
    }

    // Pre-LN. attn_norm: N_1 = LN_1(X), the input of self-attention.
    const LayerNormResult n1 = layerNorm(x, *parts.norm1, o.layerNormEps);
    out.addNorm(key("attn_norm"), "Layer norm before attention", "N_1 = LN_1(X)", in, norm1, "N_1", n1);
    // attention stages: SA(N_1).
    const Eigen::MatrixXf sa = parts.attention(n1.output, key("attn_norm"));
    // attn_residual: R_1 = X + SA(N_1); the stream itself stays unnormalised.
    const Eigen::MatrixXf r1 = residual(x, sa);
    out.add(key("attn_residual"), "Residual: input + attention", "R_1 = X + SA(N_1)", {in, key("output")}, "R_1", r1);
    // ffn_norm: N_2 = LN_2(R_1), the input of the feed-forward network.
    const LayerNormResult n2 = layerNorm(r1, *parts.norm2, o.layerNormEps);
    out.addNorm(key("ffn_norm"), "Layer norm before feed-forward", "N_2 = LN_2(R_1)", key("attn_residual"), norm2, "N_2", n2);
    // ffn_hidden, ffn_output: F = FFN(N_2).
    const Eigen::MatrixXf f = feedForwardStages(n2.output, key("ffn_norm"), "N_2", parts, o, out);
    // ffn_residual: R_2 = R_1 + F, the layer's output.
    Eigen::MatrixXf r2 = residual(r1, f);
    out.add(key("ffn_residual"), "Residual: + feed-forward", "R_2 = R_1 + F", {key("attn_residual"), key("ffn_output")}, "R_2", r2);
    out.add(key("layer_output"), "Layer output", "Y = R_2", {key("ffn_residual")}, "Y", r2);
    return r2;
}

// limits: maths kernel
Eigen::MatrixXf decoderLayer(const Eigen::MatrixXf& y, const Eigen::MatrixXf& memory, const DecoderLayerWeights& w,
                             const ModelSpec& spec, const BoolMatrix& selfBlocked, const BoolMatrix& crossBlocked,
                             const Labels& targetTokens, const Labels& memoryTokens, int layer, StageList& stages,
                             std::vector<Message>& warnings)
{
    const ModelSpec& o = spec;
    o.validate();
    // Everything is checked before the first stage is appended.
    checkStream(y, targetTokens, o, "the decoder layer's input");
    checkStream(memory, memoryTokens, o, "the memory (encoder output)");
    checkDecoderWeights(w, o);
    checkMask(selfBlocked, y.rows(), y.rows(), "the self-attention mask");
    checkMask(crossBlocked, y.rows(), memory.rows(), "the cross-attention mask");
    const Labels dims = numberedLabels(o.dModel);
    const std::string prefix = "decoder.layers." + str(layer) + ".";
    LayerStages out(stages, layer, prefix, targetTokens, dims);
    const Block bs = Block::DecoderSelf;
    const Block bc = Block::Cross;
    const StageKey in = layerInput(layer, bs);
    const StageKey mem{"encoder_output"};
    const auto self = [&](const char* id) { return out.key(id, bs); };
    const auto cross = [&](const char* id) { return out.key(id, bc); };
    // Self-attention on `input` (usually with the look-ahead mask); cross-attention with queries
    // from `input` and keys and values from the memory.
    const auto selfAttention = [&](const Eigen::MatrixXf& input, const StageKey& inputKey) {
        const AttentionBlockContext c{targetTokens, targetTokens, dims,     layer,    bs,           inputKey,          inputKey,
                                      prefix + "self_attn", o.attention, {}, o.seed, o.positional, o.positionOptions};
        return attentionBlock(input, input, w.selfAttn, o.heads, o.scaleScores, selfBlocked, c, stages, warnings);
    };
    const auto crossAttention = [&](const Eigen::MatrixXf& input, const StageKey& inputKey) {
        // Cross-attention compares target and source positions: no position scheme acts here.
        const AttentionBlockContext c{targetTokens, memoryTokens, dims, layer, bc, inputKey, mem, prefix + "multihead_attn", o.attention, {}, o.seed,
                                      PositionalEncoding::Sinusoidal, {}};
        return attentionBlock(input, memory, w.crossAttn, o.heads, o.scaleScores, crossBlocked, c, stages, warnings);
    };
    LayerParts ffn;
    ffn.block = bs;
    ffn.hidden = [&](const Eigen::MatrixXf& in) { return feedForwardHidden(in, w.ffn, o.activation); };
    ffn.output = [&](const Eigen::MatrixXf& h) { return feedForwardOutput(h, w.ffn); };

    if (o.norm == NormPlacement::Post) {
        // attention stages (decoder_self): SA(Y).
        const Eigen::MatrixXf sa = selfAttention(y, in);
        // attn_residual: R_1 (m x d) = Y + SA(Y);  attn_norm: N_1 = LN_1(R_1).
        const Eigen::MatrixXf r1 = residual(y, sa);
        out.add(self("attn_residual"), "Residual: input + self-attention", "R_1 = Y + SA(Y)", {in, self("output")}, "R_1", r1);
        const LayerNormResult n1 = layerNorm(r1, w.norm1, o.layerNormEps);
        out.addNorm(self("attn_norm"), "Add & Norm (self-attention)", "N_1 = LN_1(R_1)", self("attn_residual"), "norm1", "N_1", n1);
        // attention stages (cross): CA(N_1, Mem).
        const Eigen::MatrixXf ca = crossAttention(n1.output, self("attn_norm"));
        // cross_residual: R_2 = N_1 + CA;  cross_norm: N_2 = LN_2(R_2).
        const Eigen::MatrixXf r2 = residual(n1.output, ca);
        out.add(cross("cross_residual"), "Residual: + cross-attention", "R_2 = N_1 + CA(N_1, Mem)", {self("attn_norm"), cross("output")},
                "R_2", r2);
        const LayerNormResult n2 = layerNorm(r2, w.norm2, o.layerNormEps);
        out.addNorm(cross("cross_norm"), "Add & Norm (cross-attention)", "N_2 = LN_2(R_2)", cross("cross_residual"), "norm2", "N_2",
                    n2);
        // ffn_hidden, ffn_output: F = FFN(N_2);  ffn_residual: R_3 = N_2 + F;  ffn_norm: N_3 = LN_3(R_3).
        const Eigen::MatrixXf f = feedForwardStages(n2.output, cross("cross_norm"), "N_2", ffn, o, out);
        const Eigen::MatrixXf r3 = residual(n2.output, f);
        out.add(self("ffn_residual"), "Residual: + feed-forward", "R_3 = N_2 + F", {cross("cross_norm"), self("ffn_output")}, "R_3", r3);
        LayerNormResult n3 = layerNorm(r3, w.norm3, o.layerNormEps);
        out.addNorm(self("ffn_norm"), "Add & Norm (feed-forward)", "N_3 = LN_3(R_3)", self("ffn_residual"), "norm3", "N_3", n3);
        out.add(self("layer_output"), "Layer output", "Y' = N_3", {self("ffn_norm")}, "Y'", n3.output);
        return std::move(n3.output);
    }

    // Pre-LN. attn_norm: N_1 = LN_1(Y);  attention stages (decoder_self): SA(N_1);  attn_residual: R_1 = Y + SA(N_1).
    const LayerNormResult n1 = layerNorm(y, w.norm1, o.layerNormEps);
    out.addNorm(self("attn_norm"), "Layer norm before self-attention", "N_1 = LN_1(Y)", in, "norm1", "N_1", n1);
    const Eigen::MatrixXf sa = selfAttention(n1.output, self("attn_norm"));
    const Eigen::MatrixXf r1 = residual(y, sa);
    out.add(self("attn_residual"), "Residual: input + self-attention", "R_1 = Y + SA(N_1)", {in, self("output")}, "R_1", r1);
    // cross_norm: N_2 = LN_2(R_1);  attention stages (cross): CA(N_2, Mem);  cross_residual: R_2 = R_1 + CA.
    const LayerNormResult n2 = layerNorm(r1, w.norm2, o.layerNormEps);
    out.addNorm(cross("cross_norm"), "Layer norm before cross-attention", "N_2 = LN_2(R_1)", self("attn_residual"), "norm2", "N_2", n2);
    const Eigen::MatrixXf ca = crossAttention(n2.output, cross("cross_norm"));
    const Eigen::MatrixXf r2 = residual(r1, ca);
    out.add(cross("cross_residual"), "Residual: + cross-attention", "R_2 = R_1 + CA(N_2, Mem)", {self("attn_residual"), cross("output")},
            "R_2", r2);
    // ffn_norm: N_3 = LN_3(R_2);  ffn_hidden, ffn_output: F = FFN(N_3);  ffn_residual: R_3 = R_2 + F.
    const LayerNormResult n3 = layerNorm(r2, w.norm3, o.layerNormEps);
    out.addNorm(self("ffn_norm"), "Layer norm before feed-forward", "N_3 = LN_3(R_2)", cross("cross_residual"), "norm3", "N_3", n3);
    const Eigen::MatrixXf f = feedForwardStages(n3.output, self("ffn_norm"), "N_3", ffn, o, out);
    Eigen::MatrixXf r3 = residual(r2, f);
    out.add(self("ffn_residual"), "Residual: + feed-forward", "R_3 = R_2 + F", {cross("cross_residual"), self("ffn_output")}, "R_3", r3);
    out.add(self("layer_output"), "Layer output", "Y' = R_3", {self("ffn_residual")}, "Y'", r3);
    return r3;
}

Eigen::MatrixXf encoderStack(const Eigen::MatrixXf& x, const std::vector<EncoderLayerWeights>& layers,
                             const std::optional<LayerNormWeights>& finalNorm, const ModelSpec& spec,
                             const BoolMatrix& blocked, const Labels& tokens, StageList& stages,
                             std::vector<Message>& warnings)
{
    spec.validate();
    if (layers.empty() || static_cast<int>(layers.size()) != spec.encoderLayers)
        throw Error(say(nnMessage("encoder_layers_weights"), layers.size(), spec.encoderLayers));
    checkStream(x, tokens, spec, "the encoder's input");
    checkMask(blocked, x.rows(), x.rows(), "the mask");
    for (const auto& w : layers)
        checkEncoderWeights(w, spec);
    if (finalNorm)
        checkNorm(*finalNorm, spec.dModel, "encoder.norm");
    checkCells(static_cast<std::int64_t>(layers.size()) * x.rows() * x.rows() * spec.heads);
    Eigen::MatrixXf h = x;
    for (std::size_t i = 0; i < layers.size(); ++i)
        h = encoderLayer(h, layers[i], spec, blocked, tokens, static_cast<int>(i), stages, warnings);
    // encoder_output: Mem (n x d) = LN(Y_N) with a final norm, else Y_N.
    const StageKey last = layerInput(static_cast<int>(layers.size()), Block::EncoderSelf);
    return stackOutput("encoder_output", "Encoder output", "Mem", h, last, finalNorm ? &*finalNorm : nullptr, spec.layerNormEps,
                       "encoder.norm", tokens, numberedLabels(spec.dModel), stages);
}

Eigen::MatrixXf decoderStack(const Eigen::MatrixXf& y, const Eigen::MatrixXf& memory, const std::vector<DecoderLayerWeights>& layers,
                             const std::optional<LayerNormWeights>& finalNorm, const ModelSpec& spec,
                             const BoolMatrix& selfBlocked, const BoolMatrix& crossBlocked, const Labels& targetTokens,
                             const Labels& memoryTokens, StageList& stages, std::vector<Message>& warnings)
{
    spec.validate();
    if (layers.empty() || static_cast<int>(layers.size()) != spec.decoderLayers)
        throw Error(say(nnMessage("decoder_layers_weights"), layers.size(), spec.decoderLayers));
    checkStream(y, targetTokens, spec, "the decoder's input");
    checkStream(memory, memoryTokens, spec, "the memory (encoder output)");
    checkMask(selfBlocked, y.rows(), y.rows(), "the self-attention mask");
    checkMask(crossBlocked, y.rows(), memory.rows(), "the cross-attention mask");
    for (const auto& w : layers)
        checkDecoderWeights(w, spec);
    if (finalNorm)
        checkNorm(*finalNorm, spec.dModel, "decoder.norm");
    checkCells(static_cast<std::int64_t>(layers.size()) * y.rows() * (y.rows() + memory.rows()) * spec.heads);
    Eigen::MatrixXf h = y;
    for (std::size_t i = 0; i < layers.size(); ++i)
        h = decoderLayer(h, memory, layers[i], spec, selfBlocked, crossBlocked, targetTokens, memoryTokens,
                         static_cast<int>(i), stages, warnings);
    // decoder_output: (m x d) = LN(Y'_M) with a final norm, else Y'_M.
    const StageKey last = layerInput(static_cast<int>(layers.size()), Block::DecoderSelf);
    return stackOutput("decoder_output", "Decoder output", "Out", h, last, finalNorm ? &*finalNorm : nullptr, spec.layerNormEps,
                       "decoder.norm", targetTokens, numberedLabels(spec.dModel), stages);
}

TransformerTrace computeTransformer(const TransformerInputs& in, const TransformerWeights& weights, const ModelSpec& spec)
{
    const ModelSpec& o = spec;
    o.validate();
    const bool encoder = o.encoderLayers > 0;
    const bool decoder = o.decoderLayers > 0;
    if (static_cast<int>(weights.encoder.size()) != o.encoderLayers || static_cast<int>(weights.decoder.size()) != o.decoderLayers)
        throw Error(say(nnMessage("transformer_layers_weights"), weights.encoder.size(), weights.decoder.size(), o.encoderLayers,
                        o.decoderLayers));
    if (o.finalNorms && ((encoder && !weights.encoderNorm) || (decoder && !weights.decoderNorm)))
        throw Error(say(nnMessage("final_norms_missing")));

    // Tokens name the rows; positions do when no tokens are given.
    const auto labelsFor = [](const std::vector<std::string>& tokens, Eigen::Index rows, const char* name) -> Labels {
        if (tokens.empty())
            return numberedLabels(static_cast<int>(rows), "");
        if (static_cast<Eigen::Index>(tokens.size()) != rows)
            throw Error(say(nnMessage("tokens_rows"), name, tokens.size(), rows));
        return std::make_shared<const std::vector<std::string>>(tokens);
    };
    const Eigen::Index n = in.src.rows();
    const Eigen::Index m = decoder ? in.tgt.rows() : 0;
    const Labels srcTokens = labelsFor(in.srcTokens, n, "src");
    const Labels tgtTokens = decoder ? labelsFor(in.tgtTokens, m, "tgt") : nullptr;
    checkStream(in.src, srcTokens, o, encoder ? "src" : "src (the memory)");
    if (decoder)
        checkStream(in.tgt, tgtTokens, o, "tgt");

    // Masks first: a wrong-sized mask is a bad request, reported before any work.
    const BoolMatrix srcBlocked = combineMasks(n, n, in.srcMask, in.srcKeyPadding, "src_mask", "src_key_padding");
    BoolMatrix tgtBlocked, memoryBlocked;
    if (decoder) {
        tgtBlocked = combineMasks(m, m, in.tgtMask, in.tgtKeyPadding, "tgt_mask", "tgt_key_padding");
        memoryBlocked = combineMasks(m, n, in.memoryMask, in.memoryKeyPadding, "memory_mask", "memory_key_padding");
    }
    checkCells((static_cast<std::int64_t>(o.encoderLayers) * n * n + static_cast<std::int64_t>(o.decoderLayers) * m * (m + n)) * o.heads);

    TransformerTrace t;
    t.encoderOutput = encoder ? encoderStack(in.src, weights.encoder, o.finalNorms ? weights.encoderNorm : std::nullopt, o,
                                             srcBlocked, srcTokens, t.stages, t.warnings)
                              : in.src;
    if (decoder)
        t.decoderOutput = decoderStack(in.tgt, t.encoderOutput, weights.decoder, o.finalNorms ? weights.decoderNorm : std::nullopt, o,
                                       tgtBlocked, memoryBlocked, tgtTokens, srcTokens, t.stages, t.warnings);
    return t;
}

} // namespace attnlab
