// Generation with a key/value cache for the gated decoders (pretrained/generate.h): one position
// a step, each layer's keys and values kept per key/value head, the arithmetic of nn/blocks.h.

#include "pretrained/generate.h"

#include "families/family.h"
#include "families/gated.h"
#include "nn/blocks.h"
#include "pretrained/messages.h"

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
        throw Error(say(pretrainedMessage("pretrained_no_position"), c.positions));
    const int dK = c.headDim;
    const int group = c.heads / c.kvHeads;
    // Gemma scales by query_pre_attn_scalar^−½ instead of head_dim^−½.
    const float scale = c.queryPreAttnScalar > 0.0 ? static_cast<float>(1.0 / std::sqrt(c.queryPreAttnScalar))
                                                   : 1.0f / std::sqrt(static_cast<float>(dK));
    const float eps = c.layerNormEps;
    const Eigen::Index total = m_length + p; // cached positions once these are in
    const FfnActivation act = c.gegluTanh ? ffnActivation(Activation::GeluTanh) : siluActivation();
    // x (p x d): the tokens' embeddings (Gemma's × √d).
    Eigen::MatrixXf x(p, c.dModel);
    for (Eigen::Index r = 0; r < p; ++r)
        x.row(r) = m_w.tokens.map().row(ids[static_cast<std::size_t>(r)]);
    if (c.scaleEmbeddings)
        x *= c.embeddingScale;
    for (std::size_t l = 0; l < m_w.layers.size(); ++l) {
        const PretrainedLayer& w = m_w.layers[l];
        // RoPE's angles (p x d_k/2) at these positions: t·ω_i, t = m_length … m_length + p − 1 (the
        // layer's ω: Gemma's sliding layers have their own base).
        const std::vector<double>& omega = m_omega[l];
        Eigen::MatrixXf angles(p, static_cast<Eigen::Index>(omega.size()));
        for (Eigen::Index r = 0; r < p; ++r) {
            for (std::size_t i = 0; i < omega.size(); ++i)
                angles(r, static_cast<Eigen::Index>(i)) = static_cast<float>((m_length + r) * omega[i]);
        }
        const Eigen::MatrixXf n1 = rms(x, w.norm1.gamma, eps);
        const Eigen::MatrixXf q = prepareHeads(w.attention.q.apply(n1), c.heads, dK, c.qkNorm ? &w.qNorm : nullptr, eps, angles);
        // The cache grows by p rows: these positions' keys (normalised, turned) and values.
        Eigen::MatrixXf& k = m_keys[l];
        Eigen::MatrixXf& v = m_values[l];
        k.conservativeResize(total, Eigen::NoChange);
        v.conservativeResize(total, Eigen::NoChange);
        k.bottomRows(p) = prepareHeads(w.attention.k.apply(n1), c.kvHeads, dK, c.qkNorm ? &w.kNorm : nullptr, eps, angles);
        v.bottomRows(p) = w.attention.v.apply(n1);
        // A sliding layer's query t sees the keys t − W < j ≤ t only (Gemma 3); the others all j ≤ t.
        const int window = c.slidingWindow(static_cast<int>(l));
        Eigen::MatrixXf concat(p, c.heads * dK);
        for (int h = 0; h < c.heads; ++h) {
            // scores (p x total) = Q_h · K_gᵀ · scale, g = h / group.
            const int g = h / group;
            const Eigen::MatrixXf scores = (q.middleCols(h * dK, dK) * k.middleCols(g * dK, dK).transpose()) * scale;
            for (Eigen::Index r = 0; r < p; ++r) {
                // Row r is position m_length + r: the keys first … m_length + r.
                const Eigen::Index end = m_length + r + 1;
                const Eigen::Index first = window > 0 ? std::max<Eigen::Index>(0, end - window) : 0;
                const Eigen::RowVectorXf row = scores.row(r).segment(first, end - first);
                concat.block(r, h * dK, 1, dK) = softmaxRow(row) * v.block(first, g * dK, end - first, dK);
            }
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
    m_length = static_cast<int>(total);
    // logits (V) of the last position only: Out = RMSNorm(x)·γ, Out · W_headᵀ.
    const Eigen::MatrixXf out = rms(x.bottomRows(1), m_w.finalNorm.gamma, eps);
    return timesTransposed(out, m_w.outputTable()->map());
}

} // namespace attnlab
