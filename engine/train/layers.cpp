#include "train/layers.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace attnlab::train {

template <typename T>
Linear<T> Linear<T>::rows(Eigen::Index first, Eigen::Index count) const
{
    Linear r = *this;
    r.w = w + first;
    r.dw = dw + first;
    r.b = b ? b + first : nullptr;
    r.db = db ? db + first : nullptr;
    r.out = count;
    return r;
}

// --- linear ---

template <typename T>
void linearForward(const Mat<T>& x, const Linear<T>& p, Mat<T>& y)
{
    // y: (n x out) = x (n x in) · Wᵀ (in x out)
    y.noalias() = x * p.weight().transpose();
    if (p.b)
        y.rowwise() += Eigen::Map<const RowVec<T>>(p.b, p.out);
}

template <typename T>
void linearBackward(const Mat<T>& x, const Mat<T>& dy, const Linear<T>& p, Mat<T>* dx)
{
    // dW: (out x in) += dYᵀ (out x n) · X (n x in)
    p.weightGrad().noalias() += dy.transpose() * x;
    if (p.db)
        Eigen::Map<RowVec<T>>(p.db, p.out) += dy.colwise().sum();
    // dX: (n x in) = dY (n x out) · W (out x in)
    if (dx)
        dx->noalias() = dy * p.weight();
}

// --- LayerNorm ---

template <typename T>
void layerNormForward(const Mat<T>& x, const Norm<T>& p, NormCache<T>& c, Mat<T>& y)
{
    const Eigen::Index d = x.cols();
    // mean, variance: (n) per row; the variance biased (÷ d), as PyTorch's LayerNorm.
    const Vec<T> mean = x.rowwise().mean();
    c.xhat = x.colwise() - mean;
    const Vec<T> var = c.xhat.array().square().rowwise().sum() / T(d);
    c.rstd = (var.array() + p.eps).rsqrt();
    c.xhat = c.rstd.asDiagonal() * c.xhat;
    const Eigen::Map<const RowVec<T>> gamma(p.gamma, d);
    y = c.xhat.array().rowwise() * gamma.array();
    if (p.beta)
        y.rowwise() += Eigen::Map<const RowVec<T>>(p.beta, d);
}

template <typename T>
void layerNormBackward(const Mat<T>& dy, const Norm<T>& p, const NormCache<T>& c, Mat<T>& dx)
{
    const Eigen::Index d = dy.cols();
    Eigen::Map<RowVec<T>>(p.dgamma, d) += (dy.array() * c.xhat.array()).colwise().sum().matrix();
    if (p.dbeta)
        Eigen::Map<RowVec<T>>(p.dbeta, d) += dy.colwise().sum();
    // g = dy∘γ: the gradient reaching x̂. x̂ depends on every x of its row through the mean and
    // the variance, hence the two row means subtracted.
    const Mat<T> g = dy.array().rowwise() * Eigen::Map<const RowVec<T>>(p.gamma, d).array();
    const Vec<T> meanG = g.rowwise().mean();
    const Vec<T> meanGX = (g.array() * c.xhat.array()).rowwise().sum() / T(d);
    dx = (g.colwise() - meanG) - meanGX.asDiagonal() * c.xhat;
    dx = c.rstd.asDiagonal() * dx;
}

// --- activation ---

namespace {

/// Φ(x), the standard normal CDF.
template <typename T>
T normalCdf(T x)
{
    return T(0.5) * (T(1) + std::erf(x * T(std::numbers::sqrt2 / 2)));
}

} // namespace

template <typename T>
void activationForward(Activation a, const Mat<T>& x, Mat<T>& y)
{
    if (a == Activation::Relu)
        y = x.cwiseMax(T(0));
    else
        y = x.unaryExpr([](T v) { return v * normalCdf(v); });
}

template <typename T>
void activationBackward(Activation a, const Mat<T>& x, const Mat<T>& dy, Mat<T>& dx)
{
    if (a == Activation::Relu) {
        dx = (x.array() > T(0)).select(dy, T(0));
        return;
    }
    // d/dx x·Φ(x) = Φ(x) + x·φ(x), φ the standard normal density.
    const T invSqrt2Pi = T(0.5 * std::numbers::inv_sqrtpi * std::numbers::sqrt2);
    dx = dy.binaryExpr(x, [invSqrt2Pi](T g, T v) { return g * (normalCdf(v) + v * invSqrt2Pi * std::exp(T(-0.5) * v * v)); });
}

// --- attention ---

namespace {

template <typename T>
T scoreScale(const AttentionParams<T>& p, Eigen::Index dk)
{
    return p.scale ? T(1) / std::sqrt(T(dk)) : T(1);
}

} // namespace

template <typename T>
void attentionForward(const Mat<T>& xq, const Mat<T>& xkv, const AttentionParams<T>& p, const Segments& seg, bool causal,
                      AttentionCache<T>& c, Mat<T>& out)
{
    const Eigen::Index d = p.outProj.out;
    const Eigen::Index dk = d / p.heads;
    const T scale = scoreScale(p, dk);
    // Q: (m x d), K, V: (n x d)
    linearForward(xq, p.inProj.rows(0, d), c.q);
    linearForward(xkv, p.inProj.rows(d, d), c.k);
    linearForward(xkv, p.inProj.rows(2 * d, d), c.v);
    c.concat.resize(xq.rows(), d);
    c.p.resize(static_cast<std::size_t>(seg.count() * p.heads));
    for (Eigen::Index s = 0; s < seg.count(); ++s) {
        const Eigen::Index q0 = seg.query[s], m = seg.query[s + 1] - q0;
        const Eigen::Index k0 = seg.key[s], n = seg.key[s + 1] - k0;
        for (int h = 0; h < p.heads; ++h) {
            Mat<T>& w = c.p[static_cast<std::size_t>(s * p.heads + h)];
            // scores: (m x n) = Q_h (m x d_k) · K_hᵀ (d_k x n) / √d_k
            w.noalias() = c.q.block(q0, h * dk, m, dk) * c.k.block(k0, h * dk, n, dk).transpose();
            w *= scale;
            for (Eigen::Index i = 0; i < m; ++i) {
                const Eigen::Index keys = causal ? i + 1 : n; // a causal row sees keys 0..i only
                auto row = w.row(i).head(keys);
                // Subtract the row's largest score before exp, for numerical stability.
                row = (row.array() - row.maxCoeff()).exp();
                row /= row.sum();
                w.row(i).tail(n - keys).setZero();
            }
            // C_h: (m x d_k) = P (m x n) · V_h (n x d_k)
            c.concat.block(q0, h * dk, m, dk).noalias() = w * c.v.block(k0, h * dk, n, dk);
        }
    }
    linearForward(c.concat, p.outProj, out);
}

template <typename T>
void attentionBackward(const Mat<T>& xq, const Mat<T>& xkv, const Mat<T>& dout, const AttentionParams<T>& p, const Segments& seg,
                       const AttentionCache<T>& c, Mat<T>& dxq, Mat<T>& dxkv)
{
    const Eigen::Index d = p.outProj.out;
    const Eigen::Index dk = d / p.heads;
    const T scale = scoreScale(p, dk);
    // dC: (m x d) = dOut · W_O
    Mat<T> dconcat;
    linearBackward(c.concat, dout, p.outProj, &dconcat);
    Mat<T> dq = Mat<T>::Zero(c.q.rows(), d), dk_ = Mat<T>::Zero(c.k.rows(), d), dv = Mat<T>::Zero(c.v.rows(), d);
    Mat<T> dp, ds;
    for (Eigen::Index s = 0; s < seg.count(); ++s) {
        const Eigen::Index q0 = seg.query[s], m = seg.query[s + 1] - q0;
        const Eigen::Index k0 = seg.key[s], n = seg.key[s + 1] - k0;
        for (int h = 0; h < p.heads; ++h) {
            const Mat<T>& w = c.p[static_cast<std::size_t>(s * p.heads + h)];
            const auto dc = dconcat.block(q0, h * dk, m, dk);
            // dP: (m x n) = dC_h (m x d_k) · V_hᵀ (d_k x n);  dV_h: (n x d_k) += Pᵀ (n x m) · dC_h
            dp.noalias() = dc * c.v.block(k0, h * dk, n, dk).transpose();
            dv.block(k0, h * dk, n, dk).noalias() += w.transpose() * dc;
            // Softmax backward per row: dS = P∘(dP − Σ_j dP∘P); masked cells have P = 0, so dS = 0 there.
            const Vec<T> rowDot = (dp.array() * w.array()).rowwise().sum();
            ds = (w.array() * (dp.colwise() - rowDot).array()) * scale;
            // dQ_h: (m x d_k) = dS (m x n) · K_h (n x d_k);  dK_h: (n x d_k) = dSᵀ (n x m) · Q_h (m x d_k)
            dq.block(q0, h * dk, m, dk).noalias() += ds * c.k.block(k0, h * dk, n, dk);
            dk_.block(k0, h * dk, n, dk).noalias() += ds.transpose() * c.q.block(q0, h * dk, m, dk);
        }
    }
    linearBackward(xq, dq, p.inProj.rows(0, d), &dxq);
    Mat<T> dxv;
    linearBackward(xkv, dk_, p.inProj.rows(d, d), &dxkv);
    linearBackward(xkv, dv, p.inProj.rows(2 * d, d), &dxv);
    dxkv += dxv;
}

// --- loss ---

template <typename T>
double crossEntropy(const Mat<T>& logits, const std::vector<int>& labels, double smoothing, double labelTokens, Mat<T>& dlogits)
{
    const Eigen::Index rows = logits.rows(), vocab = logits.cols();
    dlogits.resize(rows, vocab);
    double total = 0;
    const T uniform = T(smoothing / static_cast<double>(vocab));
    const T invN = T(1.0 / labelTokens);
    for (Eigen::Index i = 0; i < rows; ++i) {
        // log p = z − max − log Σ exp(z − max): the max subtracted for numerical stability.
        const T max = logits.row(i).maxCoeff();
        const RowVec<T> shifted = logits.row(i).array() - max;
        const T logSum = std::log(shifted.array().exp().sum());
        const RowVec<T> logP = shifted.array() - logSum;
        const int y = labels[static_cast<std::size_t>(i)];
        total += -(1.0 - smoothing) * static_cast<double>(logP(y)) - static_cast<double>(uniform) * static_cast<double>(logP.sum());
        // d loss / d z = p − (1 − ε)·onehot(y) − ε/V, over the N label tokens of the batch.
        dlogits.row(i) = (logP.array().exp() - uniform) * invN;
        dlogits(i, y) -= T(1.0 - smoothing) * invN;
    }
    return total;
}

// --- instantiations ---

#define ATTNLAB_TRAIN_LAYERS(T)                                                                                                \
    template struct Linear<T>;                                                                                                 \
    template void linearForward(const Mat<T>&, const Linear<T>&, Mat<T>&);                                                     \
    template void linearBackward(const Mat<T>&, const Mat<T>&, const Linear<T>&, Mat<T>*);                                     \
    template void layerNormForward(const Mat<T>&, const Norm<T>&, NormCache<T>&, Mat<T>&);                                     \
    template void layerNormBackward(const Mat<T>&, const Norm<T>&, const NormCache<T>&, Mat<T>&);                              \
    template void activationForward(Activation, const Mat<T>&, Mat<T>&);                                                       \
    template void activationBackward(Activation, const Mat<T>&, const Mat<T>&, Mat<T>&);                                       \
    template void attentionForward(const Mat<T>&, const Mat<T>&, const AttentionParams<T>&, const Segments&, bool,             \
                                   AttentionCache<T>&, Mat<T>&);                                                               \
    template void attentionBackward(const Mat<T>&, const Mat<T>&, const Mat<T>&, const AttentionParams<T>&, const Segments&,   \
                                    const AttentionCache<T>&, Mat<T>&, Mat<T>&);                                         \
    template double crossEntropy(const Mat<T>&, const std::vector<int>&, double, double, Mat<T>&);

ATTNLAB_TRAIN_LAYERS(float)
ATTNLAB_TRAIN_LAYERS(double)

} // namespace attnlab::train
