// Generation with a key/value cache for the gated decoders (pretrained/generate.h): one position
// a step, each layer's keys and values kept per key/value head, the arithmetic of nn/blocks.h.

#include "pretrained/generate.h"

#include "families/family.h"
#include "families/gated.h"
#include "nn/blocks.h"

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
    , m_omega(detail::gatedInverseFrequencies(weights.config))
{
    const HfConfig& c = weights.config;
    if (modelFamily(c.family).layerKind != FamilyLayer::Gated || !weights.outputTable())
        throw std::invalid_argument("a gated decoder's cache needs a gated decoder with its head");
    for (std::size_t i = 0; i < weights.layers.size(); ++i) {
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
    const float scale = 1.0f / std::sqrt(static_cast<float>(dK));
    const float eps = c.layerNormEps;
    // RoPE's angles at this position: t·ω_i.
    Eigen::MatrixXf angles(1, static_cast<Eigen::Index>(m_omega.size()));
    for (std::size_t i = 0; i < m_omega.size(); ++i)
        angles(0, static_cast<Eigen::Index>(i)) = static_cast<float>(m_length * m_omega[i]);
    const FfnActivation silu = siluActivation();
    Eigen::MatrixXf x = m_w.tokens.map().row(id);
    for (std::size_t l = 0; l < m_w.layers.size(); ++l) {
        const PretrainedLayer& w = m_w.layers[l];
        const Eigen::MatrixXf n1 = rms(x, w.norm1.gamma, eps);
        const Eigen::MatrixXf q = prepareHeads(w.attention.q.apply(n1), c.heads, dK, c.qkNorm ? &w.qNorm : nullptr, eps, angles);
        // The cache grows by one row: this position's key (normalised, turned) and value.
        Eigen::MatrixXf& k = m_keys[l];
        Eigen::MatrixXf& v = m_values[l];
        k.conservativeResize(m_length + 1, Eigen::NoChange);
        v.conservativeResize(m_length + 1, Eigen::NoChange);
        k.row(m_length) = prepareHeads(w.attention.k.apply(n1), c.kvHeads, dK, c.qkNorm ? &w.kNorm : nullptr, eps, angles);
        v.row(m_length) = w.attention.v.apply(n1);
        Eigen::MatrixXf concat(1, c.heads * dK);
        for (int h = 0; h < c.heads; ++h) {
            // scores (1 x t+1) = q_h · K_gᵀ / √d_k, g = h / group: every cached key is at or before this position.
            const int g = h / group;
            const Eigen::RowVectorXf scores = (q.middleCols(h * dK, dK) * k.middleCols(g * dK, dK).transpose()) * scale;
            concat.middleCols(h * dK, dK) = softmaxRow(scores) * v.middleCols(g * dK, dK);
        }
        x += w.attention.output.apply(concat);
        const Eigen::MatrixXf n2 = rms(x, w.norm2.gamma, eps);
        const Eigen::MatrixXf gate = w.gate.apply(n2).unaryExpr([&](float a) { return silu.apply(a); });
        x += w.down.apply(gate.cwiseProduct(w.up.apply(n2)));
    }
    ++m_length;
    const Eigen::MatrixXf out = rms(x, m_w.finalNorm.gamma, eps);
    return out * m_w.outputTable()->map().transpose();
}

} // namespace attnlab
