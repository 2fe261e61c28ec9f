#pragma once
/// The position schemes that act inside attention instead of adding a vector to X
/// (docs/position-schemes.md): RoPE rotates each head's q and k, ALiBi adds a bias to each
/// head's scores. nn/attention.cpp applies them between the projections and the kernel.

#include "core/model_spec.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace attnlab {

/// The stages a position scheme adds inside attention, in order: rope_angles, q_rotated,
/// k_rotated for rope; position_bias for alibi; none for the others.
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

} // namespace attnlab
