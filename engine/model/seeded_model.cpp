// Seeded models: the encoder–decoder (or encoder stack) a Config describes, with weights drawn
// from the seed as PyTorch initialises them (docs/model-format.md).

#include "model/model.h"

#include "core/random.h"

#include <cmath>

namespace attnlab {

namespace {

std::string str(long long v) { return std::to_string(v); }

// --- Seeded weights ---

/// A sub-seed per named tensor, so that every layer gets its own numbers.
std::uint64_t subSeed(std::uint64_t seed, const std::string& name) { return mixSeed(seed ^ fnv1a64(name)); }

/// Uniform in ±1/√fan_in, as PyTorch's nn.Linear initialises weight and bias.
Eigen::MatrixXf seededLinear(const std::string& name, int rows, int cols, int fanIn, std::uint64_t seed)
{
    SplitMix64 s = stream(name, seed);
    const float bound = 1.0f / std::sqrt(static_cast<float>(fanIn));
    Eigen::MatrixXf m(rows, cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            m(r, c) = s.symmetric(bound);
    }
    return m;
}

FeedForwardWeights seededFeedForward(const std::string& prefix, int d, int dFF, std::uint64_t seed)
{
    FeedForwardWeights w;
    w.linear1Weight = seededLinear(prefix + "linear1.weight", dFF, d, d, seed);
    w.linear1Bias = seededLinear(prefix + "linear1.bias", dFF, 1, d, seed);
    w.linear2Weight = seededLinear(prefix + "linear2.weight", d, dFF, dFF, seed);
    w.linear2Bias = seededLinear(prefix + "linear2.bias", d, 1, dFF, seed);
    return w;
}

LayerNormWeights unitNorm(int d) { return {Eigen::VectorXf::Ones(d), Eigen::VectorXf::Zero(d)}; }

AttentionWeights seededAttention(const std::string& name, int d, std::uint64_t seed)
{
    AttentionWeights w = presetWeights(WeightsPreset::Seeded, d, subSeed(seed, name));
    w.source = "seeded";
    return w;
}

} // namespace

Seq2SeqModel seededModel(const ModelSpec& spec)
{
    spec.validate();
    Seq2SeqModel m;
    ModelSpec& o = m.spec;
    o = spec;
    o.dFF = spec.feedForwardWidth();
    o.finalNorms = true;
    o.tokenizer = ModelTokenizer::Words;
    o.lowercase = false;
    const int d = o.dModel;
    for (int i = 0; i < o.encoderLayers; ++i) {
        const std::string p = "encoder.layers." + str(i) + ".";
        EncoderLayerWeights w;
        w.selfAttn = seededAttention(p + "self_attn", d, o.seed);
        w.ffn = seededFeedForward(p, d, o.feedForwardWidth(), o.seed);
        w.norm1 = unitNorm(d);
        w.norm2 = unitNorm(d);
        m.weights.encoder.push_back(std::move(w));
    }
    for (int i = 0; i < o.decoderLayers; ++i) {
        const std::string p = "decoder.layers." + str(i) + ".";
        DecoderLayerWeights w;
        w.selfAttn = seededAttention(p + "self_attn", d, o.seed);
        w.crossAttn = seededAttention(p + "multihead_attn", d, o.seed);
        w.ffn = seededFeedForward(p, d, o.feedForwardWidth(), o.seed);
        w.norm1 = unitNorm(d);
        w.norm2 = unitNorm(d);
        w.norm3 = unitNorm(d);
        m.weights.decoder.push_back(std::move(w));
    }
    m.weights.encoderNorm = unitNorm(d);
    if (o.decoderLayers > 0)
        m.weights.decoderNorm = unitNorm(d);
    m.weights.source = "seeded";
    m.name = "Seeded encoder–decoder";
    m.source = "seeded";
    return m;
}

} // namespace attnlab
