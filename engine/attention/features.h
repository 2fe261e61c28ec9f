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
/// queries and keys, and the attention they give. While every exponent stays below 30 and every
/// row's normaliser above 1e-12 this is all float. Otherwise (large queries and keys: imported
/// weights scaled up) it is computed in double with the features shifted inside exp — key feature
/// r by its largest exponent over the keys, each query row by its largest term — so that nothing
/// overflows and no row loses every term to underflow; the shifts cancel in the output and its
/// normaliser, and the features and normalisers shown are the shifted ones. With a causal mask
/// the keys' shift follows the keys each row reads (a running maximum).
struct PerformerHead {
    Eigen::MatrixXf phiQ; ///< n x M
    Eigen::MatrixXf phiK; ///< n x M
    FeatureAttention attention;
    /// The implied weights D⁻¹·φ(Q)·φ(K)ᵀ on the allowed cells (n x n, rows summing to 1 where a
    /// key is allowed), when asked for.
    Eigen::MatrixXf weights;
    /// The largest |exponent| met in double (0 on the float path): above 2^32 double holds the
    /// exponents to worse than 1e-6, and the result is approximate.
    double largestExponent = 0;
};
PerformerHead performerHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& omega,
                            const detail::UserMask& mask, bool withWeights = false);

/// Exponents beyond this are held by a double to worse than 1e-6 (its spacing there is 2^-20).
inline constexpr double kPerformerExactExponent = 4294967296.0; // 2^32

/// Linear attention's features: φ(x) = elu(x) + 1, element by element.
Eigen::MatrixXf eluFeatures(const Eigen::MatrixXf& x);

} // namespace attnlab
