// Generation with a key/value cache for the gated decoders (pretrained/generate.h): one position
// a step, each layer's keys and values kept per key/value head, the arithmetic of nn/blocks.h.

#include "pretrained/generate.h"

#include "families/family.h"
#include "families/gated.h"
#include "nn/blocks.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {

Eigen::MatrixXf rms(const Eigen::MatrixXf& x, const Eigen::VectorXf& gamma, float eps)
{
    return normalize(x, LayerNormWeights{gamma, {}}, NormKind::RmsNorm, eps).output;
}

/// Each head's columns of p (1 x heads·d_k) normalised (optionally) and turned by RoPE.
Eigen::MatrixXf prepareHeads(Eigen::MatrixXf p, int heads, int dK, const Eigen::VectorXf* gamma, float eps, const Eigen::MatrixXf& angles)
{
    for (int h = 0; h < heads; ++h) {
        Eigen::MatrixXf head = p.middleCols(h * dK, dK);
        if (gamma)
            head = rms(head, *gamma, eps);
        p.middleCols(h * dK, dK) = ropeRotate(head, angles, RopeLayout::HalfSplit);
    }
    return p;
}

} // namespace

std::unique_ptr<KvCache> makeKvCache(const PretrainedWeights& weights)
{
    if (modelFamily(weights.config.family).layerKind == FamilyLayer::Gated)
        return std::make_unique<GatedCache>(weights);
    return std::make_unique<Gpt2Cache>(weights);
}

GatedCache::GatedCache(const PretrainedWeights& weights)
    : m_w(weights)
{
    const HfConfig& c = weights.config;
    if (modelFamily(c.family).layerKind != FamilyLayer::Gated || !weights.outputTable())
        throw std::invalid_argument("a gated decoder's cache needs a gated decoder with its head");
    for (std::size_t i = 0; i < weights.layers.size(); ++i) {
        m_omega.push_back(detail::gatedInverseFrequencies(c, static_cast<int>(i)));
        m_keys.emplace_back(0, c.kvHeads * c.headDim);
        m_values.emplace_back(0, c.kvHeads * c.headDim);
    }
}

// limits: maths kernel
Eigen::RowVectorXf GatedCache::step(int id)
{
    const HfConfig& c = m_w.config;
    if (m_length >= c.positions)
        throw std::invalid_argument("the model has no position after " + std::to_string(c.positions) + " tokens");
    const int dK = c.headDim;
    const int group = c.heads / c.kvHeads;
    // Gemma scales by query_pre_attn_scalar^−½ instead of head_dim^−½.
    const float scale = c.queryPreAttnScalar > 0.0 ? static_cast<float>(1.0 / std::sqrt(c.queryPreAttnScalar))
                                                   : 1.0f / std::sqrt(static_cast<float>(dK));
    const float eps = c.layerNormEps;
    const FfnActivation act = c.gegluTanh ? ffnActivation(Activation::GeluTanh) : siluActivation();
    Eigen::MatrixXf x = m_w.tokens.map().row(id);
    if (c.scaleEmbeddings)
        x *= c.embeddingScale;
    for (std::size_t l = 0; l < m_w.layers.size(); ++l) {
        const PretrainedLayer& w = m_w.layers[l];
        // RoPE's angles at this position: t·ω_i (the layer's ω: Gemma's sliding layers have their own base).
        const std::vector<double>& omega = m_omega[l];
        Eigen::MatrixXf angles(1, static_cast<Eigen::Index>(omega.size()));
        for (std::size_t i = 0; i < omega.size(); ++i)
            angles(0, static_cast<Eigen::Index>(i)) = static_cast<float>(m_length * omega[i]);
        const Eigen::MatrixXf n1 = rms(x, w.norm1.gamma, eps);
        const Eigen::MatrixXf q = prepareHeads(w.attention.q.apply(n1), c.heads, dK, c.qkNorm ? &w.qNorm : nullptr, eps, angles);
        // The cache grows by one row: this position's key (normalised, turned) and value.
        Eigen::MatrixXf& k = m_keys[l];
        Eigen::MatrixXf& v = m_values[l];
        k.conservativeResize(m_length + 1, Eigen::NoChange);
        v.conservativeResize(m_length + 1, Eigen::NoChange);
        k.row(m_length) = prepareHeads(w.attention.k.apply(n1), c.kvHeads, dK, c.qkNorm ? &w.kNorm : nullptr, eps, angles);
        v.row(m_length) = w.attention.v.apply(n1);
        // A sliding layer's query t sees the keys t − W < j ≤ t only: the last W rows of its cache.
        const int window = c.slidingWindow(static_cast<int>(l));
        const Eigen::Index first = window > 0 ? std::max<Eigen::Index>(0, m_length + 1 - window) : 0;
        const Eigen::Index seen = m_length + 1 - first;
        Eigen::MatrixXf concat(1, c.heads * dK);
        for (int h = 0; h < c.heads; ++h) {
            // scores (1 x seen) = q_h · K_gᵀ · scale, g = h / group: every cached key is at or before this position.
            const int g = h / group;
            const Eigen::RowVectorXf scores = (q.middleCols(h * dK, dK) * k.block(first, g * dK, seen, dK).transpose()) * scale;
            concat.middleCols(h * dK, dK) = softmaxRow(scores) * v.block(first, g * dK, seen, dK);
        }
        Eigen::MatrixXf o = w.attention.output.apply(concat);
        if (c.sandwichNorms)
            o = rms(o, w.attentionOutputNorm.gamma, eps);
        x += o;
        const Eigen::MatrixXf n2 = rms(x, w.norm2.gamma, eps);
        const Eigen::MatrixXf gate = w.gate.apply(n2).unaryExpr([&](float a) { return act.apply(a); });
        Eigen::MatrixXf f = w.down.apply(gate.cwiseProduct(w.up.apply(n2)));
        if (c.sandwichNorms)
            f = rms(f, w.ffnOutputNorm.gamma, eps);
        x += f;
    }
    ++m_length;
    const Eigen::MatrixXf out = rms(x, m_w.finalNorm.gamma, eps);
    return out * m_w.outputTable()->map().transpose();
}

} // namespace attnlab
