#pragma once
/// The layers of an encoder–decoder Transformer for training: each forward function next to
/// its backward function, in the order of the math, shapes in the comments (as llm.c's
/// train_gpt2.c). Rows are tokens. A batch is packed: the rows of all its sequences one after
/// another, no padding; only attention needs to know where a sequence starts (Segments). The
/// row-wise layers (linear, LayerNorm, activation, residual) run on every row at once.
///
/// T is float (training) or double (the finite-difference tests and `grad`). Parameters and
/// their gradients live in flat buffers (train/network.h); a backward function *adds* into the
/// gradients of its parameters (a parameter may be used twice, a batch split over threads) and
/// returns the gradient of its input.

#include "core/model_spec.h"

#include <Eigen/Core>

#include <vector>

namespace attnlab::train {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <typename T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <typename T>
using RowVec = Eigen::Matrix<T, 1, Eigen::Dynamic>;

/// A linear layer's weight W (out x in) and bias b (out), and where their gradients go. W is a
/// column-major block with leading dimension `ld` (the in_proj weight's rows [d, 2d) are W_K).
/// A null bias is absent (PyTorch's bias=False, or a file without it): 0, and not trained.
template <typename T>
struct Linear {
    using ConstMap = Eigen::Map<const Mat<T>, 0, Eigen::OuterStride<>>;
    using Map = Eigen::Map<Mat<T>, 0, Eigen::OuterStride<>>;

    const T* w = nullptr;
    T* dw = nullptr;
    const T* b = nullptr;
    T* db = nullptr;
    Eigen::Index out = 0;
    Eigen::Index in = 0;
    Eigen::Index ld = 0;

    ConstMap weight() const { return ConstMap(w, out, in, Eigen::OuterStride<>(ld)); }
    Map weightGrad() const { return Map(dw, out, in, Eigen::OuterStride<>(ld)); }
    /// Rows [first, first + count) of W and b: one of W_Q, W_K, W_V in in_proj.
    Linear rows(Eigen::Index first, Eigen::Index count) const;
};

/// LayerNorm's γ and β (d), and their gradients.
template <typename T>
struct Norm {
    const T* gamma = nullptr;
    T* dgamma = nullptr;
    const T* beta = nullptr; ///< null: absent (0)
    T* dbeta = nullptr;
    Eigen::Index d = 0;
    T eps = T(1e-5);
};

// --- linear: Y = X·Wᵀ + b ---

/// y: (n x out) = x (n x in) · Wᵀ (in x out) + b
template <typename T>
void linearForward(const Mat<T>& x, const Linear<T>& p, Mat<T>& y);
/// dW (out x in) += dYᵀ (out x n) · X (n x in);  db (out) += Σ_rows dY;
/// dx: (n x in) = dY (n x out) · W (out x in), or nothing when dx is null (an input that needs none).
template <typename T>
void linearBackward(const Mat<T>& x, const Mat<T>& dy, const Linear<T>& p, Mat<T>* dx);

// --- LayerNorm: y = (x − mean)/√(var + ε)·γ + β per row ---

template <typename T>
struct NormCache {
    Mat<T> xhat; ///< (n x d) (x − mean)·rstd
    Vec<T> rstd; ///< (n) 1/√(var + ε), the variance biased (divided by d)
};
template <typename T>
void layerNormForward(const Mat<T>& x, const Norm<T>& p, NormCache<T>& cache, Mat<T>& y);
/// dγ += Σ_rows dy∘x̂;  dβ += Σ_rows dy;
/// dx (n x d) = rstd·(g − mean(g) − x̂·mean(g∘x̂)) per row, with g = dy∘γ.
template <typename T>
void layerNormBackward(const Mat<T>& dy, const Norm<T>& p, const NormCache<T>& cache, Mat<T>& dx);

// --- activation: ReLU, or exact GELU x·Φ(x) ---

template <typename T>
void activationForward(Activation a, const Mat<T>& x, Mat<T>& y);
/// dx = dy ∘ act'(x): ReLU' = [x > 0];  GELU' = Φ(x) + x·φ(x).
template <typename T>
void activationBackward(Activation a, const Mat<T>& x, const Mat<T>& dy, Mat<T>& dx);

// --- multi-head attention (PyTorch's nn.MultiheadAttention, no dropout) ---

/// Where each sequence of a packed batch starts: queries [query[s], query[s+1]) attend to keys
/// [key[s], key[s+1]). Both have one entry per sequence plus the end.
struct Segments {
    std::vector<Eigen::Index> query;
    std::vector<Eigen::Index> key;
    Eigen::Index count() const { return static_cast<Eigen::Index>(query.size()) - 1; }
};

template <typename T>
struct AttentionParams {
    Linear<T> inProj;  ///< (3d x d): W_Q, W_K, W_V
    Linear<T> outProj; ///< (d x d): W_O
    int heads = 1;
    bool scale = true; ///< divide the scores by √d_k
};

template <typename T>
struct AttentionCache {
    Mat<T> q, k, v;        ///< (m x d), (n x d), (n x d) all heads side by side
    std::vector<Mat<T>> p; ///< per sequence and head (s·heads + h): the weights (m_s x n_s)
    Mat<T> concat;         ///< (m x d) the heads' outputs side by side
};

/// Q = Xq·W_Qᵀ + b_Q, K = Xkv·W_Kᵀ + b_K, V = Xkv·W_Vᵀ + b_V; per sequence s and head h:
///   scores (m_s x n_s) = Q_h·K_hᵀ/√d_k, −∞ above the diagonal when causal
///   P = softmax of each row;  C_h (m_s x d_k) = P·V_h
/// out (m x d) = C·W_Oᵀ + b_O.
template <typename T>
void attentionForward(const Mat<T>& xq, const Mat<T>& xkv, const AttentionParams<T>& p, const Segments& seg, bool causal,
                      AttentionCache<T>& cache, Mat<T>& out);
/// Per sequence and head: dP = dC_h·V_hᵀ; dV_h = Pᵀ·dC_h; dS = P∘(dP − rowsum(dP∘P))/√d_k;
/// dQ_h = dS·K_h; dK_h = dSᵀ·Q_h. Then the projections' backward. dxq (m x d) and dxkv (n x d)
/// are set; for self-attention (xq = xkv) the caller adds them.
template <typename T>
void attentionBackward(const Mat<T>& xq, const Mat<T>& xkv, const Mat<T>& dout, const AttentionParams<T>& p, const Segments& seg,
                       const AttentionCache<T>& cache, Mat<T>& dxq, Mat<T>& dxkv);

// --- the output head and the loss ---

/// The mean token cross-entropy's share of a batch: Σ over its rows of
///   loss = (1 − ε)·(−log p_y) + (ε/V)·Σ_c (−log p_c),   p = softmax(logits row)
/// (PyTorch's CrossEntropyLoss(label_smoothing = ε)), and dlogits = (p − (1 − ε)·onehot(y) − ε/V)/N.
/// Returns the sum (in double); N is the number of label tokens of the whole batch.
template <typename T>
double crossEntropy(const Mat<T>& logits, const std::vector<int>& labels, double smoothing, double labelTokens, Mat<T>& dlogits);

} // namespace attnlab::train
