// Full softmax attention (docs/engine.md, section 6), head by head:
//   S_h = Q_h·K_hᵀ,  S'_h = S_h / √d_k,  S''_h = S'_h + M,  A_h = softmax(S''_h),  Z_h = A_h·V_h.
// The position schemes that act on the scores join here (docs/position-schemes.md): ALiBi's bias
// B_h after the scaling, relative positions' q_i·a^K term P_h before it and their a^V in Z_h.

#include "attention/kind.h"

#include "core/stage_builder.h"
#include "nn/softmax.h"
#include "position/inside.h"

#include <cmath>

namespace attnlab {

namespace {

using detail::addStage;
using detail::putMatrix;

/// scores (with relative positions: position_scores first) and scaled, per head; returns S'_h.
std::vector<Eigen::MatrixXf> scaledScores(const KernelInput& in, StageList& stages)
{
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<int>(in.headDims->size());
    std::vector<Eigen::MatrixXf> scores(heads);
    for (int h = 0; h < heads; ++h) {
        // scores: S_h (m x n) = Q_h (m x d_k) · K_hᵀ (d_k x n).
        scores[h].noalias() = in.q[h] * in.k[h].transpose();
        std::vector<StageKey> inputs{in.key(in.qStage, h), in.kvKey(in.kStage, h)};
        if (in.relative) {
            // position_scores: P_h,ij = q_i·a^K_clip(j−i), added before the scaling.
            const Eigen::MatrixXf p = relativeScores(in.q[h], static_cast<int>(in.k[h].rows()), *in.relative);
            putMatrix(addStage(stages, in.key("position_scores", h), "Relative position scores", "P_h,ij = q_i·a^K_clip(j−i, −K, K)",
                               {in.key(in.qStage, h), in.key("relative_keys")}),
                      "P_h", p, in.queries, in.keys);
            scores[h] += p;
            inputs.push_back(in.key("position_scores", h));
        }
        putMatrix(addStage(stages, in.key("scores", h), "Scores Q·Kᵀ", in.relative ? "S_h = Q_h·K_hᵀ + P_h" : "S_h = Q_h·K_hᵀ",
                           std::move(inputs)),
                  "S_h", scores[h], in.queries, in.keys);
    }
    // scaled: S'_h = S_h / √d_k keeps the scores' variance near 1 whatever d_k is.
    // A family may scale by its own constant instead (Gemma 3: query_pre_attn_scalar^−½).
    const bool own = in.scaleScores && in.scoreScale > 0.0f;
    const float c = own ? in.scoreScale : in.scaleScores ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(dK))) : 1.0f;
    const std::string formula = own ? in.scaleFormula : in.scaleScores ? "S'_h = S_h / √d_k" : "S'_h = S_h  (scaling off)";
    for (int h = 0; h < heads; ++h) {
        scores[h] *= c;
        putMatrix(addStage(stages, in.key("scaled", h), "Scaled scores", formula,
                           {in.key("scores", h)}),
                  "S'_h", scores[h], in.queries, in.keys);
    }
    return scores;
}

/// position_bias (ALiBi), mask and masked_scores: S''_h = S'_h (+ B_h) + M, in place.
void maskedScores(const KernelInput& in, std::vector<Eigen::MatrixXf>& scores, StageList& stages)
{
    const int heads = static_cast<int>(scores.size());
    // position_bias (ALiBi): B_h = −m_h·|i − j|, added to the scaled scores (not divided by √d_k).
    if (in.scoreBias) {
        for (int h = 0; h < heads; ++h) {
            const Eigen::MatrixXf& bias = (*in.scoreBias)[static_cast<std::size_t>(h)];
            putMatrix(addStage(stages, in.key("position_bias", h), "Position bias", "B_h,ij = −m_h·|i − j|"), "B_h", bias, in.queries,
                      in.keys);
            scores[h] += bias;
        }
    }
    // mask: M (m x n), 0 where allowed and -inf where hidden; the same for every head.
    const Eigen::MatrixXf mask = additiveMask(in.blocked);
    putMatrix(addStage(stages, in.key("mask"), "Mask", in.maskFormula.empty() ? "M_ij = −∞ if key j is hidden from query i, else 0" : in.maskFormula),
              "M", mask, in.queries,
              in.keys);
    const bool anyMasked = in.blocked.any();
    for (int h = 0; h < heads; ++h) {
        if (anyMasked)
            scores[h] += mask;
        std::vector<StageKey> inputs{in.key("scaled", h), in.key("mask")};
        if (in.scoreBias)
            inputs.insert(inputs.begin() + 1, in.key("position_bias", h));
        putMatrix(addStage(stages, in.key("masked_scores", h), "Masked scores", in.scoreBias ? "S''_h = S'_h + B_h + M" : "S''_h = S'_h + M",
                           std::move(inputs)),
                  "S''_h", scores[h], in.queries, in.keys);
    }
}

} // namespace

void fullAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<int>(in.headDims->size());
    std::vector<Eigen::MatrixXf> scores = scaledScores(in, stages);
    maskedScores(in, scores, stages);

    // weights: A_h = softmax of each row of S''_h; each row sums to 1.
    std::vector<Eigen::MatrixXf> a(heads);
    std::vector<Eigen::Index> emptyRows;
    for (int h = 0; h < heads; ++h) {
        a[h] = rowSoftmax(scores[h], h == 0 ? &emptyRows : nullptr); // every head has the same mask
        putMatrix(addStage(stages, in.key("weights", h), "Attention weights", "A_h = softmax(S''_h)  (row-wise)",
                           {in.key("masked_scores", h)}),
                  "A_h", a[h], in.queries, in.keys);
    }
    for (const auto row : emptyRows)
        out.warnings.push_back(messages::allKeysMasked(in.block, in.layer, row, (*in.queries)[static_cast<std::size_t>(row)]));

    // head_output: Z_h (m x d_k) = A_h (m x n) · V_h (n x d_k), into its columns of C; relative
    // positions add each key's a^V_clip(j−i) with the key's weight.
    for (int h = 0; h < heads; ++h) {
        auto z = out.concat.middleCols(h * dK, dK);
        z.noalias() = a[h] * in.v[h];
        std::vector<StageKey> inputs{in.key("weights", h), in.kvKey("v", h)};
        if (in.relative) {
            z += relativeValues(a[h], *in.relative);
            inputs.push_back(in.key("relative_values"));
        }
        putMatrix(addStage(stages, in.key("head_output", h), "Head output",
                           in.relative ? "Z_h,i = Σ_j A_h,ij·(v_j + a^V_clip(j−i, −K, K))" : "Z_h = A_h·V_h", std::move(inputs)),
                  "Z_h", z, in.queries, in.headDims);
    }
}

} // namespace attnlab
