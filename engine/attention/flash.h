#pragma once
/// FlashAttention (Dao et al. 2022, Algorithm 1; docs/attention-kinds.md): full softmax attention,
/// exact, computed tile by tile — B_r queries against B_c keys at a time — with the online softmax
/// of Milakov & Gimelshein (2018), so that no n × n matrix is ever held. For the kind's kernel
/// (flash.cpp) and the cost measurement (measure.cpp).

#include "nn/mask.h"

#include <Eigen/Core>

#include <vector>

namespace attnlab {

/// One head of FlashAttention, and, when recorded, what each row held after each key block.
struct FlashHead {
    Eigen::MatrixXf z;          ///< Z_h (m x d_k): the output, O_i after the last key block
    Eigen::VectorXf rowMax;     ///< m_i (m): the final running maximum (−∞ for a row whose keys are all hidden)
    Eigen::VectorXf rowSum;     ///< ℓ_i (m): the final running sum of exp(s_ij − m_i)
    /// Recorded only: m_i after key block t (m x T_c; −∞ while row i has seen no key).
    Eigen::MatrixXf runningMax;
    /// Recorded only: ℓ_i after key block t (m x T_c; 0 while row i has seen no key).
    Eigen::MatrixXf runningSum;
    /// Recorded only: O_i after key block t (m x T_c·d_k; block t in columns t·d_k .. (t+1)·d_k − 1):
    /// softmax attention over the keys of blocks 0 .. t, as Algorithm 1 keeps it.
    Eigen::MatrixXf partialOutput;
    /// Recorded only: the tiles computed, in order (m x n: cell (i, j) holds the 1-based number of
    /// its tile; 0 where the mask hides the cell). A tile whose cells are all hidden is skipped.
    Eigen::MatrixXf tiles;
    std::vector<Eigen::Index> emptyRows; ///< rows with no visible key (their output is 0)
};

/// FlashAttention on one head: for each block of `queryBlock` query rows, for each block of
/// `keyBlock` keys in order,
///   S = c·Q_i·K_jᵀ (hidden cells −∞),  m̃ = rowmax(S),  P̃ = exp(S − m̃),  ℓ̃ = rowsum(P̃),
///   m_new = max(m, m̃),  ℓ_new = e^(m − m_new)·ℓ + e^(m̃ − m_new)·ℓ̃,
///   O ← diag(ℓ_new)⁻¹·(diag(ℓ)·e^(m − m_new)·O + e^(m̃ − m_new)·P̃·V_j),
/// starting from m = −∞, ℓ = 0, O = 0. q (m x d_k), k and v (n x d_k); `blocked` (m x n, true =
/// hidden) or null for no mask. With `record`, the per-block values are kept (FlashHead).
/// queryBlock and keyBlock must be at least 1.
FlashHead flashHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, float c, const BoolMatrix* blocked,
                    int queryBlock, int keyBlock, bool record);

} // namespace attnlab
