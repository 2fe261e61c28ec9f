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

Eigen::RowVectorXf GatedCache::step(int id)
{
    return feed({id});
}

// limits: maths kernel
Eigen::RowVectorXf GatedCache::feed(const std::vector<int>& ids)
{
    const HfConfig& c = m_w.config;
    const auto p = static_cast<Eigen::Index>(ids.size());
    if (p == 0)
        throw std::invalid_argument("a cache is fed one token or more");
    if (m_length + p > c.positions)
        throw std::invalid_argument("the model has no position after " + std::to_string(c.positions) + " tokens");
    const int dK = c.headDim;
    const int group = c.heads / c.kvHeads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(dK));
    const float eps = c.layerNormEps;
    const Eigen::Index total = m_length + p; // cached positions once these are in
    // RoPE's angles (p x d_k/2) at these positions: t·ω_i, t = m_length … m_length + p − 1.
    Eigen::MatrixXf angles(p, static_cast<Eigen::Index>(m_omega.size()));
    for (Eigen::Index r = 0; r < p; ++r) {
        for (std::size_t i = 0; i < m_omega.size(); ++i)
            angles(r, static_cast<Eigen::Index>(i)) = static_cast<float>((m_length + r) * m_omega[i]);
    }
    const FfnActivation silu = siluActivation();
    // x (p x d): the tokens' embeddings.
    Eigen::MatrixXf x(p, c.dModel);
    for (Eigen::Index r = 0; r < p; ++r)
        x.row(r) = m_w.tokens.map().row(ids[static_cast<std::size_t>(r)]);
    for (std::size_t l = 0; l < m_w.layers.size(); ++l) {
        const PretrainedLayer& w = m_w.layers[l];
        const Eigen::MatrixXf n1 = rms(x, w.norm1.gamma, eps);
        const Eigen::MatrixXf q = prepareHeads(w.attention.q.apply(n1), c.heads, dK, c.qkNorm ? &w.qNorm : nullptr, eps, angles);
        // The cache grows by p rows: these positions' keys (normalised, turned) and values.
        Eigen::MatrixXf& k = m_keys[l];
        Eigen::MatrixXf& v = m_values[l];
        k.conservativeResize(total, Eigen::NoChange);
        v.conservativeResize(total, Eigen::NoChange);
        k.bottomRows(p) = prepareHeads(w.attention.k.apply(n1), c.kvHeads, dK, c.qkNorm ? &w.kNorm : nullptr, eps, angles);
        v.bottomRows(p) = w.attention.v.apply(n1);
        Eigen::MatrixXf concat(p, c.heads * dK);
        for (int h = 0; h < c.heads; ++h) {
            // scores (p x total) = Q_h · K_gᵀ / √d_k, g = h / group.
            const int g = h / group;
            const Eigen::MatrixXf scores = (q.middleCols(h * dK, dK) * k.middleCols(g * dK, dK).transpose()) * scale;
            for (Eigen::Index r = 0; r < p; ++r) {
                // Row r (position m_length + r) attends the keys at or before it: the first m_length + r + 1.
                const Eigen::Index seen = m_length + r + 1;
                const Eigen::RowVectorXf row = scores.row(r).head(seen);
                concat.block(r, h * dK, 1, dK) = softmaxRow(row) * v.middleCols(g * dK, dK).topRows(seen);
            }
        }
        x += w.attention.output.apply(concat);
        const Eigen::MatrixXf n2 = rms(x, w.norm2.gamma, eps);
        const Eigen::MatrixXf gate = w.gate.apply(n2).unaryExpr([&](float a) { return silu.apply(a); });
        x += w.down.apply(gate.cwiseProduct(w.up.apply(n2)));
    }
    m_length = static_cast<int>(total);
    // logits (V) of the last position only: Out = RMSNorm(x)·γ, Out · W_headᵀ.
    const Eigen::MatrixXf out = rms(x.bottomRows(1), m_w.finalNorm.gamma, eps);
    return out * m_w.outputTable()->map().transpose();
}

} // namespace attnlab
