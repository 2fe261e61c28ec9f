#pragma once
// Reference numbers written out by hand, straight from the formulas, in long double and without
// the engine's tricks (no max subtraction, no shared code): what the engine's and the views' tests
// compare against. Long double holds exp(±1000), so the formulas need no rescaling.

#include <Eigen/Core>

#include <cmath>
#include <cstddef>
#include <vector>

namespace attnlab::testing {

/// exp(a·s_j) / Σ_k exp(a·s_k).
inline std::vector<long double> handSoftmax(const std::vector<long double>& s, long double a = 1)
{
    std::vector<long double> p;
    long double sum = 0;
    for (long double x : s) {
        p.push_back(std::exp(a * x));
        sum += p.back();
    }
    for (long double& x : p)
        x /= sum;
    return p;
}

/// s_j = Σ_c q_c k_jc over the first d components, one per row of `keys`.
inline std::vector<long double> handScores(const Eigen::VectorXd& q, const Eigen::MatrixXd& keys, int d)
{
    std::vector<long double> s;
    for (Eigen::Index j = 0; j < keys.rows(); ++j) {
        long double dot = 0;
        for (int c = 0; c < d; ++c)
            dot += static_cast<long double>(q(c)) * keys(j, c);
        s.push_back(dot);
    }
    return s;
}

/// Nadaraya–Watson weights: exp(−(x − x_i)²/2σ²) / Σ_j exp(−(x − x_j)²/2σ²).
inline std::vector<long double> handKernelWeights(double x, const std::vector<double>& keys, double sigma)
{
    std::vector<long double> w;
    long double sum = 0;
    for (double k : keys) {
        const long double d = static_cast<long double>(x) - k;
        w.push_back(std::exp(-d * d / (2.0L * sigma * sigma)));
        sum += w.back();
    }
    for (long double& v : w)
        v /= sum;
    return w;
}

/// f(x) = Σ_i w_i(x) y_i.
inline long double handKernelPrediction(double x, const std::vector<double>& keys, const std::vector<double>& values, double sigma)
{
    const std::vector<long double> w = handKernelWeights(x, keys, sigma);
    long double f = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
        f += w[i] * values[i];
    return f;
}

/// Leave-one-out error: (1/n) Σ_i (y_i − Σ_{j≠i} K_ij y_j / Σ_{j≠i} K_ij)², K_ij = exp(−(x_i − x_j)²/2σ²).
inline double handLeaveOneOut(const std::vector<double>& x, const std::vector<double>& y, double sigma)
{
    long double total = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        long double num = 0, den = 0;
        for (std::size_t j = 0; j < x.size(); ++j) {
            if (j == i)
                continue;
            const long double d = static_cast<long double>(x[i]) - x[j];
            const long double k = std::exp(-d * d / (2.0L * sigma * sigma));
            num += k * y[j];
            den += k;
        }
        total += (y[i] - num / den) * (y[i] - num / den);
    }
    return static_cast<double>(total / x.size());
}

} // namespace attnlab::testing
