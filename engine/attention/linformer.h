#pragma once
/// Linformer's pieces (docs/attention-kinds.md), for its kernel and the cost measurement.

#include "attention/common.h"

#include <vector>

namespace attnlab {

/// A seeded K x n projection with entries N(0, 1/K) (E or F).
Eigen::MatrixXf linformerProjection(int k, Eigen::Index n, SplitMix64 gen);

struct LinformerHead {
    Eigen::MatrixXf kProjected; ///< E·K_h (K x d_k)
    Eigen::MatrixXf vProjected; ///< F·V_h (K x d_k)
    Eigen::MatrixXf scores;     ///< Q_h·K'_hᵀ (n x K), before scaling
    Eigen::MatrixXf weights;    ///< softmax of the scaled scores (n x K)
    Eigen::MatrixXf z;          ///< A_h·V'_h (n x d_k)
};

/// One head; padding keys' rows of K and V are zeroed before projecting; c multiplies the scores.
LinformerHead linformerHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& e,
                            const Eigen::MatrixXf& f, const std::vector<char>& padding, float c);

} // namespace attnlab
