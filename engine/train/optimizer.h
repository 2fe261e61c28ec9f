#pragma once
/// Adam in PyTorch's form (torch.optim.Adam, no weight decay), the paper's learning-rate schedule
/// and global gradient-norm clipping (torch.nn.utils.clip_grad_norm_); docs/training.md.

#include "train/layers.h"

#include <optional>

namespace attnlab::train {

/// The learning rate of update t = 1, 2, …:
///   warmup 0:    lr_t = rate (a constant; 1e-3 without --lr)
///   warmup W>0:  lr_t = peak·min(t/W, √(W/t)), rising linearly to `peak` at t = W, then falling
///                as 1/√t. Without --lr the peak is the paper's d_model^−0.5·W^−0.5, so that
///                lr_t = d_model^−0.5·min(t^−0.5, t·W^−1.5) (section 5.3).
struct Schedule {
    std::optional<double> rate; ///< --lr: the constant rate, or the peak with warm-up
    int warmup = 0;             ///< --warmup W
    int dModel = 64;

    double at(int t) const;
    /// Throws std::invalid_argument for a rate that is not positive or a negative warm-up.
    void validate() const;
};

/// m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²;
/// θ ← θ − lr/(1 − β1^t) · m / (√v / √(1 − β2^t) + ε)        (β 0.9/0.98, ε 1e-9: the paper's)
class Adam {
public:
    explicit Adam(Eigen::Index size, double beta1 = 0.9, double beta2 = 0.98, double eps = 1e-9);

    /// Update t (counted from 1) of `params` with gradient `grad` at rate lr.
    void step(Vec<float>& params, const Vec<float>& grad, double lr);
    int steps() const { return m_t; }

private:
    Vec<float> m_m, m_v;
    double m_beta1, m_beta2, m_eps;
    int m_t = 0;
};

/// The global norm √(Σ g²) of `grad` (in double); with maxNorm, every entry is scaled by
/// min(1, maxNorm/(norm + 1e-6)) as clip_grad_norm_ does. Returns the norm before clipping.
double clipGradient(Vec<float>& grad, std::optional<double> maxNorm);

} // namespace attnlab::train
