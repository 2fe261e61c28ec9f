// Full softmax attention (docs/engine.md, section 6), head by head:
//   S_h = Q_h·K_hᵀ,  S'_h = S_h / √d_k,  S''_h = S'_h + M,  A_h = softmax(S''_h),  Z_h = A_h·V_h.

#include "attention/kind.h"

#include "core/stage_builder.h"
#include "nn/softmax.h"

#include <cmath>

namespace attnlab {

void fullAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    using detail::addStage;
    using detail::putMatrix;
    const auto& [q, k, v, blocked, scaleScores, queries, keys, headDims, layer, block, kind, options, seed, given, qStage, kStage,
                 scoreBias] = in;
    Eigen::MatrixXf& concat = out.concat;
    std::vector<Message>& warnings = out.warnings;
    const int heads = static_cast<int>(q.size());
    const auto dK = static_cast<int>(headDims->size());
    const auto key = [&](const char* id, std::optional<int> head = std::nullopt) { return in.key(id, head); };

    // scores: S_h (m x n) = Q_h (m x d_k) · K_hᵀ (d_k x n).
    std::vector<Eigen::MatrixXf> scores(heads);
    for (int h = 0; h < heads; ++h) {
        scores[h].noalias() = q[h] * k[h].transpose();
        putMatrix(addStage(stages, key("scores", h), "Scores Q·Kᵀ", "S_h = Q_h·K_hᵀ", {key(in.qStage, h), key(in.kStage, h)}), "S_h",
                  scores[h], queries, keys);
    }
    // scaled: S'_h = S_h / √d_k keeps the scores' variance near 1 whatever d_k is.
    const float c = scaleScores ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(dK))) : 1.0f;
    for (int h = 0; h < heads; ++h) {
        scores[h] *= c;
        putMatrix(addStage(stages, key("scaled", h), "Scaled scores", scaleScores ? "S'_h = S_h / √d_k" : "S'_h = S_h  (scaling off)",
                           {key("scores", h)}),
                  "S'_h", scores[h], queries, keys);
    }
    // position_bias (ALiBi): B_h = −m_h·|i − j|, added to the scaled scores (not divided by √d_k).
    if (in.scoreBias) {
        for (int h = 0; h < heads; ++h) {
            const Eigen::MatrixXf& bias = (*in.scoreBias)[static_cast<std::size_t>(h)];
            putMatrix(addStage(stages, key("position_bias", h), "Position bias", "B_h,ij = −m_h·|i − j|"), "B_h", bias, queries, keys);
            scores[h] += bias;
        }
    }
    // mask: M (m x n), 0 where allowed and -inf where hidden; the same for every head.
    const Eigen::MatrixXf mask = additiveMask(blocked);
    putMatrix(addStage(stages, key("mask"), "Mask", "M_ij = −∞ if key j is hidden from query i, else 0"), "M",
              mask, queries, keys);
    const bool anyMasked = blocked.any();
    for (int h = 0; h < heads; ++h) {
        if (anyMasked)
            scores[h] += mask;
        std::vector<StageKey> inputs{key("scaled", h), key("mask")};
        if (in.scoreBias)
            inputs.insert(inputs.begin() + 1, key("position_bias", h));
        putMatrix(addStage(stages, key("masked_scores", h), "Masked scores", in.scoreBias ? "S''_h = S'_h + B_h + M" : "S''_h = S'_h + M",
                           std::move(inputs)),
                  "S''_h", scores[h], queries, keys);
    }
    // weights: A_h = softmax of each row of S''_h; each row sums to 1.
    std::vector<Eigen::MatrixXf> a(heads);
    std::vector<Eigen::Index> emptyRows;
    for (int h = 0; h < heads; ++h) {
        a[h] = rowSoftmax(scores[h], h == 0 ? &emptyRows : nullptr); // every head has the same mask
        putMatrix(addStage(stages, key("weights", h), "Attention weights", "A_h = softmax(S''_h)  (row-wise)",
                           {key("masked_scores", h)}),
                  "A_h", a[h], queries, keys);
    }
    for (const auto row : emptyRows) {
        warnings.push_back(messages::allKeysMasked(block, layer, row, (*queries)[static_cast<std::size_t>(row)]));
    }
    // head_output: Z_h (m x d_k) = A_h (m x n) · V_h (n x d_k), into its columns of C.
    for (int h = 0; h < heads; ++h) {
        concat.middleCols(h * dK, dK).noalias() = a[h] * v[h];
        putMatrix(addStage(stages, key("head_output", h), "Head output", "Z_h = A_h·V_h", {key("weights", h), key("v", h)}), "Z_h",
                  concat.middleCols(h * dK, dK), queries, headDims);
    }
}

} // namespace attnlab
