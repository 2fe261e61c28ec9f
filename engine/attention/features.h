#pragma once
/// Kernel (feature-map) attention, shared by performer and linear (docs/attention-kinds.md):
///   Z = φ(Q)·(φ(K)ᵀ·V) / (φ(Q)·(φ(K)ᵀ·1))
/// computed without any n x n matrix; with a causal mask row i uses only keys ≤ i (prefix sums).

#include "attention/common.h"

namespace attnlab {

struct FeatureAttention {
    Eigen::MatrixXf z;          ///< n x d_k
    Eigen::MatrixXf kv;         ///< M x d_k: Σ_j φ(k_j)ᵀ·v_j over every key that is not padding
    Eigen::VectorXf normalizer; ///< n: φ(q_i)·Σ_j φ(k_j) over the keys row i may use
};

/// The attention of queries' features `phiQ` (n x M) on keys' features `phiK` (n x M) and values
/// `v` (n x d_k). Padding keys are left out of every sum; with mask.causal, row i sums keys ≤ i
/// (chunk by chunk: the earlier chunks' sums plus the chunk's own masked product).
FeatureAttention featureAttend(const Eigen::MatrixXf& phiQ, const Eigen::MatrixXf& phiK, const Eigen::MatrixXf& v,
                               const detail::UserMask& mask);

/// The attention matrix the features imply, for display: D⁻¹·(φ(Q)·φ(K)ᵀ ⊙ allowed).
Eigen::MatrixXf impliedWeights(const Eigen::MatrixXf& phiQ, const Eigen::MatrixXf& phiK, const Eigen::VectorXf& normalizer,
                               const detail::UserMask& mask);

/// Performer's Ω (M x d_k): Gaussian blocks of d_k rows made orthogonal by QR (with the sign fix),
/// each row rescaled to the norm of an independent Gaussian d_k-vector.
Eigen::MatrixXf orthogonalRandomFeatures(int m, int dK, SplitMix64 gen);

/// One head of FAVOR+: the features φ(x) = exp(Ω·x̂ − ‖x̂‖²/2) / √M (x̂ = x / d_k^{1/4}) of its
/// queries and keys, and the attention they give. While every exponent stays below 30 this is all
/// float; beyond, it is computed in double with a constant subtracted inside exp (one per query
/// row, one for all keys, which cancel in the output), and the features are those shifted ones.
struct PerformerHead {
    Eigen::MatrixXf phiQ; ///< n x M
    Eigen::MatrixXf phiK; ///< n x M
    FeatureAttention attention;
};
PerformerHead performerHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& omega,
                            const detail::UserMask& mask);

/// Linear attention's features: φ(x) = elu(x) + 1, element by element.
Eigen::MatrixXf eluFeatures(const Eigen::MatrixXf& x);

} // namespace attnlab
