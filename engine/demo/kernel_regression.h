#pragma once
/// Nadaraya–Watson kernel regression (1964), the oldest attention (lesson 2), as numbers. Training
/// points (x_i, y_i) come from y = 2·sin(x) + x^0.8 + noise; a query x attends to every key x_i with
///
///     w_i(x) = softmax_i(−(x − x_i)² / (2σ²)),     f(x) = Σ_i w_i(x) · y_i
///
/// (a Gaussian kernel: keys x_i, values y_i, query x). The bandwidth σ is fitted in the classic
/// parameterisation exp(−((x − x_i)·w)²/2), i.e. σ = 1/w, by minimising the leave-one-out error.
/// The data come from a fixed SplitMix64 stream: every run sees the same points.

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace attnlab {

/// The demonstration's fixed data and the bandwidths it offers.
struct KernelRegression {
    static constexpr int trainingPoints = 50;
    static constexpr double xMax = 5.0;          ///< x_i uniform in [0, xMax)
    static constexpr double noiseSd = 0.5;       ///< y_i = f(x_i) + N(0, noiseSd²)
    static constexpr std::uint64_t seed = 2024;  ///< the data's seed (stream "kernel-regression")
    static constexpr double minSigma = 0.01;
    static constexpr double maxSigma = 10.0;
    /// The bandwidth grid: σ_v = minSigma · 10^(v / 100), v = 0 .. gridSteps (0.01 .. 10).
    static constexpr int gridSteps = 300;
};

/// The function the data come from: 2·sin(x) + x^0.8.
double kernelRegressionTruth(double x);

/// The training points, sorted by x (so a weight matrix over sorted keys is a band along its
/// diagonal).
struct KernelRegressionData {
    std::vector<double> x; ///< keys x_i, ascending    (trainingPoints)
    std::vector<double> y; ///< values y_i             (trainingPoints)
};

/// The fixed training set: trainingPoints uniform x in [0, xMax), then y = truth + noise
/// (Box–Muller, the cosine output of each pair of uniforms).
KernelRegressionData kernelRegressionData();

/// w_i(x) = softmax_i(−(x − x_i)² / (2σ²)) over `keys`: sums to 1, largest at the nearest key.
std::vector<double> kernelWeights(double query, const std::vector<double>& keys, double sigma);

/// f(x) = Σ_i w_i(x) · y_i.
double kernelPrediction(double query, const KernelRegressionData& data, double sigma);

/// f at each of `queries`.
std::vector<double> kernelPredictions(const std::vector<double>& queries, const KernelRegressionData& data, double sigma);

/// weights: (queries x keys), row r = kernelWeights(queries[r], keys, σ).
Eigen::MatrixXd kernelWeightMatrix(const std::vector<double>& queries, const std::vector<double>& keys, double sigma);

/// The kernel bump the weights sample: K(x, t) / Σ_i K(x, x_i) at each t, K(x, t) =
/// exp(−(x − t)²/2σ²); at t = x_i it is w_i(x). Between keys far apart it can rise to exp of
/// hundreds with a small σ: values above `cap` are returned as `cap`, so nothing overflows.
std::vector<double> kernelBump(double query, const std::vector<double>& keys, double sigma, const std::vector<double>& ts,
                               double cap);

/// (1/n) Σ_i (y_i − Σ_{j≠i} w_j(x_i) y_j)²: how well each point is predicted by the others.
double leaveOneOutLoss(const KernelRegressionData& data, double sigma);

/// σ_v = minSigma · 10^(v / 100), the grid point v (0 .. gridSteps).
double bandwidthGrid(int v);

/// The σ in [minSigma, maxSigma] that minimises leaveOneOutLoss: the best σ of the grid, then a
/// golden-section search in log σ between its neighbours. (The classic presentation learns w by
/// gradient descent on the same loss; a 1-D search reaches the same minimum without a learning rate.)
double fitBandwidth(const KernelRegressionData& data);

} // namespace attnlab
