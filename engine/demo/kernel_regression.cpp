#include "demo/kernel_regression.h"

#include "core/random.h"
#include "nn/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

/// Σ_i w_i · y_i, added left to right.
double weightedSum(const std::vector<double>& w, const std::vector<double>& y)
{
    double f = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
        f += w[i] * y[i];
    return f;
}

} // namespace

double kernelRegressionTruth(double x)
{
    return 2.0 * std::sin(x) + std::pow(x, 0.8);
}

KernelRegressionData kernelRegressionData()
{
    using K = KernelRegression;
    KernelRegressionData d;
    SplitMix64 gen = stream("kernel-regression", K::seed);
    d.x.resize(K::trainingPoints);
    for (double& x : d.x)
        x = K::xMax * gen.uniform53();
    std::sort(d.x.begin(), d.x.end());
    d.y.resize(K::trainingPoints);
    for (int i = 0; i < K::trainingPoints; ++i)
        d.y[i] = kernelRegressionTruth(d.x[i]) + K::noiseSd * boxMuller(gen).first;
    return d;
}

std::vector<double> kernelWeights(double query, const std::vector<double>& keys, double sigma)
{
    // scores: a_i = −(x − x_i)² / (2σ²), one per key
    std::vector<double> a(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const double d = query - keys[i];
        a[i] = -d * d / (2.0 * sigma * sigma);
    }
    // The softmax subtracts the largest score first: with σ = 0.01 every exp(a_i) of a query
    // between points would underflow to 0, and 0/0 is no weight.
    return softmaxRow(a).weights;
}

double kernelPrediction(double query, const KernelRegressionData& data, double sigma)
{
    return weightedSum(kernelWeights(query, data.x, sigma), data.y);
}

std::vector<double> kernelPredictions(const std::vector<double>& queries, const KernelRegressionData& data, double sigma)
{
    std::vector<double> f;
    f.reserve(queries.size());
    for (double x : queries)
        f.push_back(kernelPrediction(x, data, sigma));
    return f;
}

Eigen::MatrixXd kernelWeightMatrix(const std::vector<double>& queries, const std::vector<double>& keys, double sigma)
{
    Eigen::MatrixXd w(static_cast<Eigen::Index>(queries.size()), static_cast<Eigen::Index>(keys.size()));
    for (Eigen::Index r = 0; r < w.rows(); ++r) {
        const std::vector<double> row = kernelWeights(queries[static_cast<std::size_t>(r)], keys, sigma);
        for (Eigen::Index c = 0; c < w.cols(); ++c)
            w(r, c) = row[static_cast<std::size_t>(c)];
    }
    return w;
}

std::vector<double> kernelBump(double query, const std::vector<double>& keys, double sigma, const std::vector<double>& ts,
                               double cap)
{
    // Σ_i K(x, x_i), each term relative to the nearest key's (as the softmax does), so the
    // norm is at least 1 and never underflows.
    double nearest = std::numeric_limits<double>::infinity();
    for (double k : keys)
        nearest = std::min(nearest, (query - k) * (query - k));
    double norm = 0;
    for (double k : keys)
        norm += std::exp(-((query - k) * (query - k) - nearest) / (2 * sigma * sigma));
    std::vector<double> bump;
    bump.reserve(ts.size());
    for (double t : ts) {
        const double e = -((query - t) * (query - t) - nearest) / (2 * sigma * sigma);
        bump.push_back(e > 50 ? cap : std::min(std::exp(e) / norm, cap)); // exp(50) / 50 > any cap drawn
    }
    return bump;
}

double leaveOneOutLoss(const KernelRegressionData& data, double sigma)
{
    const std::size_t n = data.x.size();
    double loss = 0;
    std::vector<double> keys;
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
        // Every point but the i-th predicts y_i.
        keys = data.x;
        values = data.y;
        keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
        values.erase(values.begin() + static_cast<std::ptrdiff_t>(i));
        const double f = weightedSum(kernelWeights(data.x[i], keys, sigma), values);
        loss += (data.y[i] - f) * (data.y[i] - f);
    }
    return loss / static_cast<double>(n);
}

double bandwidthGrid(int v)
{
    return KernelRegression::minSigma * std::pow(10.0, v / 100.0);
}

double fitBandwidth(const KernelRegressionData& data)
{
    using K = KernelRegression;
    // Coarse: every σ of the grid.
    int best = 0;
    double bestLoss = std::numeric_limits<double>::infinity();
    for (int v = 0; v <= K::gridSteps; ++v) {
        const double l = leaveOneOutLoss(data, bandwidthGrid(v));
        if (l < bestLoss) {
            bestLoss = l;
            best = v;
        }
    }
    // Fine: golden-section search in log σ between the best grid point's neighbours.
    double lo = std::log(bandwidthGrid(std::max(best - 1, 0)));
    double hi = std::log(bandwidthGrid(std::min(best + 1, K::gridSteps)));
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int iter = 0; iter < 40; ++iter) {
        const double a = hi - g * (hi - lo);
        const double b = lo + g * (hi - lo);
        if (leaveOneOutLoss(data, std::exp(a)) < leaveOneOutLoss(data, std::exp(b)))
            hi = b;
        else
            lo = a;
    }
    return std::clamp(std::exp((lo + hi) / 2), K::minSigma, K::maxSigma);
}

} // namespace attnlab
