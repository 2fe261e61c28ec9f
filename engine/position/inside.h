#pragma once
/// The position schemes that act inside attention instead of adding a vector to X
/// (docs/position-schemes.md): RoPE rotates each head's q and k, ALiBi adds a bias to each
/// head's scores, relative positions (Shaw et al.) add a learned key per distance to the scores
/// and a learned value per distance to the outputs. nn/attention.cpp applies them between the
/// projections and the kernel.

#include "core/model_spec.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

/// The stages a position scheme adds inside attention, in order: rope_angles, q_rotated,
/// k_rotated for rope; position_bias for alibi; relative_keys, relative_values, position_scores
/// for relative; xl_w_r, xl_u, xl_v, memory, content_scores, position_scores, content_bias,
/// position_bias for xl; none for the others.
std::vector<std::string> positionStageIds(PositionalEncoding scheme);
/// Every scheme's (for a stage list that is not about one run).
std::vector<std::string> allPositionStageIds();

/// RoPE's angles θ_{pos,i} = pos / B^(2i/d_k) for pos = 0 … n−1, i = 0 … d_k/2 − 1 (n x d_k/2).
Eigen::MatrixXf ropeAngles(int n, int dK, double base);

/// x (n x d_k) rotated pair by pair: row pos, pair (2i, 2i+1) turned by angles(pos, i):
/// (x_2i, x_2i+1) → (x_2i·cos θ − x_2i+1·sin θ, x_2i·sin θ + x_2i+1·cos θ).
Eigen::MatrixXf ropeRotate(const Eigen::MatrixXf& x, const Eigen::MatrixXf& angles);

/// ALiBi's slope m_h of each of `heads` heads: 2^(−8h/H) for h = 1 … H when H is a power of two;
/// otherwise those of the closest power of two below H, then every other slope of twice that
/// many (the ALiBi paper's reference code).
std::vector<double> alibiSlopes(int heads);

/// The bias −m·|i − j| of query i and key j (m x n; queries and keys at positions 0, 1, …).
Eigen::MatrixXf alibiBias(int queries, int keys, double slope);

/// Transformer-XL's seeded parameters, one of each per head: W_R (d_k x d_model) projects the
/// sinusoid R_{i−j}; u and v (1 x d_k) are the content and position biases.
struct XlTables {
    std::vector<Eigen::MatrixXf> wR;
    std::vector<Eigen::RowVectorXf> u, v;
};

/// The seeded parameters for `heads` heads: W_R N(0, 1/d_model), u and v N(0, 1), from the streams
/// "#xl_w_r", "#xl_u", "#xl_v" of `seed`.
XlTables xlTables(int heads, int dK, int dModel, std::uint64_t seed);

/// The app's sinusoid (docs/engine.md, section 4) at the relative distances first … last
/// (rows: Δ = first, first + 1, …), d_model wide: R[Δ, 2t] = sin(Δ / 10000^(2t/d)), R[Δ, 2t+1] = cos(…).
Eigen::MatrixXf xlDistanceSinusoid(int first, int last, int dModel);

/// One Transformer-XL segment: its queries are rows start … start + length − 1 of the input, its
/// keys the `memory` rows before start, then the segment's own.
struct XlSegment {
    int start = 0;
    int length = 0;
    int memory = 0;
    int firstKey() const { return start - memory; }
    int keys() const { return memory + length; }
};

/// The segments of an n-token input with segments of L tokens and M rows of memory (the last
/// may be shorter than L; segment τ's memory is min(M, τ·L) rows).
std::vector<XlSegment> xlSegments(int n, int segment, int memory);

/// Shaw et al.'s learned tables, shared by the heads: row r of each holds distance r − K.
struct RelativeTables {
    Eigen::MatrixXf keys;   ///< a^K ((2K+1) x d_k)
    Eigen::MatrixXf values; ///< a^V ((2K+1) x d_k)
    int maxDistance = 0;    ///< K
};

/// The seeded tables for K and d_k: every entry N(0, 1), from the streams "#relative_keys" and
/// "#relative_values" of `seed` (so q·a^K is about as large as q·k).
RelativeTables relativeTables(int maxDistance, int dK, std::uint64_t seed);

/// The row of a^K / a^V for query i and key j: clip(j − i, −K, K) + K.
int relativeRow(int i, int j, int maxDistance);

/// P (m x n): P_ij = q_i · a^K_clip(j−i), for queries and keys at positions 0, 1, ….
Eigen::MatrixXf relativeScores(const Eigen::MatrixXf& q, int keys, const RelativeTables& t);

/// Σ_j α_ij a^V_clip(j−i) for every query i (m x d_k): the weights summed per clipped distance,
/// times a^V.
Eigen::MatrixXf relativeValues(const Eigen::MatrixXf& weights, const RelativeTables& t);

} // namespace attnlab
