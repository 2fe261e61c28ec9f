#pragma once
/// The length experiment of issue 14 (docs/position-schemes.md): one query token and one key
/// token `offset` positions apart, moved together along an n-token input. Under a relative
/// scheme (rope, alibi, relative) the score of the pair is the same wherever it stands; under an
/// absolute one (sinusoidal, learned) it changes with the position — which is why a model
/// trained on short inputs meets scores it never saw on long ones.

#include "core/model_spec.h"
#include "nn/weights.h"
#include "position/inside.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace attnlab {

/// What the experiment runs on: two token vectors (d_model wide, no position added) and a block's
/// query and key projections.
struct ShiftPair {
    Eigen::RowVectorXf tokenQ, tokenK;
    const AttentionWeights& weights; ///< W_Q, b_Q: rows 0 … d − 1 of in_proj; W_K, b_K: rows d … 2d − 1
    int heads = 1;
    int offset = 3;                  ///< the key stands `offset` positions after the query
    std::uint64_t seed = 0;          ///< learned positions' and relative tables' seed
    PositionOptions options;         ///< rope's base, relative's K
    const RelativeTables* relative = nullptr; ///< relative: tables to use instead of the seeded ones
};

/// The pre-softmax score (no mask) of each head with the query at p = 0 … n − offset − 1 and the
/// key at p + offset: [head][p], with q = t_q·W_Qᵀ + b_Q and k = t_k·W_Kᵀ + b_K per head:
///   sinusoidal, learned: the position's P added to the tokens first, q·k / √d_k;
///   rope: rotate(q, p)·rotate(k, p + offset) / √d_k;
///   alibi: q·k / √d_k − m_h·offset (the bias is not scaled);
///   relative: (q·k + q·a^K_clip(offset)) / √d_k.
/// Other schemes (none, xl) give q·k / √d_k. Empty rows when n ≤ offset.
std::vector<std::vector<double>> shiftScores(PositionalEncoding scheme, const ShiftPair& pair, int n);

} // namespace attnlab
