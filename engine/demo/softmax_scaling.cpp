#include "demo/softmax_scaling.h"

#include "core/random.h"
#include "demo/messages.h"
#include "nn/softmax.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attnlab {

namespace {

/// softmax(scale · s): the row scaled first, then the one softmax.
std::vector<double> scaledSoftmax(const std::vector<double>& s, double scale)
{
    std::vector<double> x(s.size());
    for (std::size_t j = 0; j < s.size(); ++j)
        x[j] = s[j] * scale;
    return softmaxRow(x).weights;
}

double maxOf(const std::vector<double>& v)
{
    return *std::max_element(v.begin(), v.end());
}

/// Sample variance with n − 1 in the denominator (two passes: the mean first).
double sampleVariance(const std::vector<double>& v)
{
    double mean = 0;
    for (double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return ss / static_cast<double>(v.size() - 1);
}

/// Var(q·k) and Var(q·k/√d) at each d of `dims`, over varianceSamples independent pairs. q·k
/// over the first d components is a running sum, read off at each d.
void addVariances(ScalingStatistics& st)
{
    using S = SoftmaxScaling;
    const std::size_t nd = st.dims.size();
    std::vector<std::vector<double>> dots(nd), scaledDots(nd);
    NormalStream pairs(stream("softmax-scaling-variance", S::seed));
    std::vector<double> q(S::maxDim), k(S::maxDim);
    for (int s = 0; s < S::varianceSamples; ++s) {
        for (double& x : q)
            x = pairs.next();
        for (double& x : k)
            x = pairs.next();
        double dot = 0;
        std::size_t next = 0;
        for (int c = 0; c < S::maxDim; ++c) {
            dot += q[c] * k[c];
            if (c + 1 == st.dims[next]) {
                dots[next].push_back(dot);
                scaledDots[next].push_back(dot / std::sqrt(static_cast<double>(st.dims[next])));
                ++next;
            }
        }
    }
    for (std::size_t i = 0; i < nd; ++i) {
        st.varianceUnscaled.push_back(sampleVariance(dots[i]));
        st.varianceScaled.push_back(sampleVariance(scaledDots[i]));
    }
}

/// The mean largest weight at each d of `dims`: maxProbSamples rows of `keys` scores each.
void addMeanLargestWeights(ScalingStatistics& st)
{
    using S = SoftmaxScaling;
    const std::size_t nd = st.dims.size();
    st.meanMaxUnscaled.assign(nd, 0.0);
    st.meanMaxScaled.assign(nd, 0.0);
    NormalStream rows(stream("softmax-scaling-rows", S::seed));
    std::vector<double> q(S::maxDim);
    Eigen::MatrixXd keys(S::keys, S::maxDim);
    std::vector<double> row(S::keys);
    for (int s = 0; s < S::maxProbSamples; ++s) {
        for (double& x : q)
            x = rows.next();
        for (int j = 0; j < S::keys; ++j) {
            for (int c = 0; c < S::maxDim; ++c)
                keys(j, c) = rows.next();
        }
        for (std::size_t i = 0; i < nd; ++i) {
            // scores: (keys) = K[:, :d] (keys x d) · q[:d] (d)
            const int d = st.dims[i];
            for (int j = 0; j < S::keys; ++j) {
                double dot = 0;
                for (int c = 0; c < d; ++c)
                    dot += q[c] * keys(j, c);
                row[j] = dot;
            }
            st.meanMaxUnscaled[i] += maxOf(scaledSoftmax(row, 1.0)) / S::maxProbSamples;
            st.meanMaxScaled[i] += maxOf(scaledSoftmax(row, 1.0 / std::sqrt(static_cast<double>(d)))) / S::maxProbSamples;
        }
    }
}

} // namespace

ScalingExample scalingExample()
{
    using S = SoftmaxScaling;
    ScalingExample ex;
    NormalStream normal(stream("softmax-scaling-example", S::exampleSeed));
    ex.q.resize(S::maxDim);
    for (int c = 0; c < S::maxDim; ++c)
        ex.q(c) = normal.next();
    ex.keys.resize(S::keys, S::maxDim);
    for (int j = 0; j < S::keys; ++j) {
        for (int c = 0; c < S::maxDim; ++c)
            ex.keys(j, c) = normal.next();
    }
    return ex;
}

ScalingRow scalingRow(const ScalingExample& example, int d)
{
    if (d < 1 || d > example.q.size() || example.keys.cols() != example.q.size())
        throw Error(say(demoMessage("scaling_d_k"), d, example.q.size()));
    ScalingRow r;
    // scores: (keys) = K[:, :d] (keys x d) · q[:d] (d)
    for (Eigen::Index j = 0; j < example.keys.rows(); ++j)
        r.scores.push_back(example.keys.row(j).head(d).dot(example.q.head(d)));
    r.unscaled = scaledSoftmax(r.scores, 1.0);
    r.scaled = scaledSoftmax(r.scores, 1.0 / std::sqrt(static_cast<double>(d)));
    r.largestUnscaled = maxOf(r.unscaled);
    r.largestScaled = maxOf(r.scaled);
    return r;
}

ScalingStatistics scalingStatistics()
{
    ScalingStatistics st;
    for (int d = 1; d <= SoftmaxScaling::maxDim; d *= 2)
        st.dims.push_back(d);
    addVariances(st);
    addMeanLargestWeights(st);
    return st;
}

} // namespace attnlab
