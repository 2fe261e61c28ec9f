#pragma once
/// The most probable entries of one row of a probability matrix (the output probabilities: one
/// row per decoder position, one column per vocabulary token), for the top-k view.

#include <Eigen/Core>

#include <vector>

namespace attnlab {

struct RankedEntry {
    int index = 0;      ///< the column (a vocabulary id)
    float value = 0;    ///< its probability
    bool operator==(const RankedEntry&) const = default;
};

/// The k largest entries of row `row` of `m`, largest first; equal values keep the lower column
/// first (the order argmax would pick). NaN entries are skipped. k is clamped to the row's
/// length; a row outside `m` or k <= 0 gives nothing.
std::vector<RankedEntry> topK(const Eigen::MatrixXf& m, int row, int k);

/// The 1-based rank of column `column` in row `row` of `m` (1: the largest; ties as in topK), or 0
/// when the row or column lies outside `m`.
int rankOf(const Eigen::MatrixXf& m, int row, int column);

} // namespace attnlab
