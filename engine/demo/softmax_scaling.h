#pragma once
/// Why attention divides the scores by √d_k (lesson 3), as numbers. With q and k of d_k independent
/// components of mean 0 and variance 1, the score q·k = Σ_c q_c k_c is a sum of d_k products of
/// variance 1: its variance is d_k. Large scores push softmax into saturation (one weight ≈ 1, the
/// others ≈ 0); dividing by √d_k brings the variance back to 1 for every d_k.
///
/// Every vector comes from a fixed SplitMix64 stream (standard normal components, Box–Muller), so
/// the numbers are the same on every run. Smaller d_k use the leading components of the same
/// maxDim-dimensional vectors: a smaller d_k looks at the same q and keys in fewer dimensions.

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace attnlab {

/// The demonstration's fixed sizes and seeds.
struct SoftmaxScaling {
    static constexpr int keys = 10;                ///< n: keys in a row
    static constexpr int maxDim = 1024;            ///< d_k runs over 1, 2, 4, ..., maxDim
    static constexpr int varianceSamples = 2000;   ///< (q, k) pairs behind each variance
    static constexpr int maxProbSamples = 500;     ///< rows behind each mean largest weight
    static constexpr std::uint64_t seed = 2017;    ///< the statistics' seed
    /// The example row's seed: picked (among 1..200) as a row whose largest weight grows step by
    /// step with d_k, as the mean over many rows does; the mean curve shows it is the rule.
    static constexpr std::uint64_t exampleSeed = 5;
};

/// One query and SoftmaxScaling::keys keys with standard normal components (stream
/// "softmax-scaling-example" under exampleSeed: q first, then the keys row by row).
struct ScalingExample {
    Eigen::VectorXd q;    ///< (maxDim)
    Eigen::MatrixXd keys; ///< (keys x maxDim); d_k = d uses the first d columns
};

/// The example (11 264 normal numbers: cheap).
ScalingExample scalingExample();

/// The example's row of scores at d_k = d, and its softmax without and with the scaling.
struct ScalingRow {
    std::vector<double> scores;   ///< s_j = q·k_j over the first d components   (keys)
    std::vector<double> unscaled; ///< softmax(s)                                  (keys)
    std::vector<double> scaled;   ///< softmax(s / √d)                             (keys)
    double largestUnscaled = 0;   ///< max_j unscaled_j
    double largestScaled = 0;     ///< max_j scaled_j
};

/// Throws std::invalid_argument unless 1 ≤ d ≤ the example's dimension.
ScalingRow scalingRow(const ScalingExample& example, int d);

/// What happens over d_k = 1, 2, 4, ..., maxDim, from fresh random vectors (not the example).
struct ScalingStatistics {
    std::vector<int> dims;                ///< 1, 2, 4, ..., maxDim: the x of the curves
    /// Sample variance (n − 1 in the denominator) of q·k and of q·k/√d_k over varianceSamples
    /// pairs (stream "softmax-scaling-variance"), one per dims.
    std::vector<double> varianceUnscaled;
    std::vector<double> varianceScaled;
    /// The mean over maxProbSamples rows of keys scores (stream "softmax-scaling-rows") of the
    /// largest softmax weight, without and with ÷√d_k, one per dims.
    std::vector<double> meanMaxUnscaled;
    std::vector<double> meanMaxScaled;
};

/// The statistics: about 10 million normal numbers, a few tenths of a second. The same every
/// time; the studio computes them once, off the GUI thread.
ScalingStatistics scalingStatistics();

} // namespace attnlab
