#pragma once
/// Softmax, the one place it is written: rows of float matrices for the attention weights and a
/// model's output probabilities, and single rows in double, with their parts kept, for the
/// demonstrations and the cell inspector's explanations.
///
///   softmax(x)_j = exp(x_j − max_k x_k) / Σ_k exp(x_k − max_k x_k)
///
/// Subtracting the row max first is for numerical stability: the largest term is exp(0) = 1, so
/// nothing overflows, and exp(−∞) = 0 makes a masked entry vanish exactly.

#include <Eigen/Core>

#include <vector>

namespace attnlab {

/// Row softmax of `scores` (m x n). A row whose entries are all −∞ gets all-zero weights
/// (not NaN) and its index is appended to `emptyRows`.
Eigen::MatrixXf rowSoftmax(const Eigen::MatrixXf& scores, std::vector<Eigen::Index>* emptyRows = nullptr);

/// One row's softmax in double, taken apart.
struct SoftmaxRow {
    double max = 0;              ///< max_j x_j; −∞ when every entry is −∞
    std::vector<double> exps;    ///< exp(x_j − max); exactly 0 for x_j = −∞        (n)
    double sumExp = 0;           ///< Σ_j exps_j, added left to right
    std::vector<double> weights; ///< exps_j / sumExp; all 0 when every entry is −∞  (n)
};

/// The softmax of `x` (finite entries, or −∞ for masked ones) with its max, exp terms and sum.
/// An empty row gives empty vectors; a row whose entries are all −∞ gives zeros, never NaN.
SoftmaxRow softmaxRow(const std::vector<double>& x);

} // namespace attnlab
