#include "nn/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

Eigen::MatrixXf rowSoftmax(const Eigen::MatrixXf& scores, std::vector<Eigen::Index>* emptyRows)
{
    // Whole-matrix operations rather than a loop over rows: the matrices are column-major,
    // so a row is strided in memory while these expressions run down contiguous columns.
    Eigen::VectorXf rowMax = scores.rowwise().maxCoeff();
    for (Eigen::Index i = 0; i < rowMax.size(); ++i) {
        if (!(rowMax(i) > -std::numeric_limits<float>::infinity())) {
            // Every key is masked: softmax is undefined (0/0). The row becomes 0, not NaN:
            // with a max of 0 every exp(-inf - 0) below is exactly 0.
            rowMax(i) = 0.0f;
            if (emptyRows)
                emptyRows->push_back(i);
        }
    }
    // Subtract the row max before exp for numerical stability: the largest term is exp(0) = 1,
    // so nothing overflows; exp(-inf) = 0 makes masked keys vanish exactly.
    Eigen::MatrixXf out = (scores.colwise() - rowMax).array().exp().matrix();
    Eigen::ArrayXf sums = out.rowwise().sum().array();
    sums = (sums > 0.0f).select(sums, 1.0f); // the empty rows: 0 / 1 = 0
    out.array().colwise() /= sums;
    return out;
}

SoftmaxRow softmaxRow(const std::vector<double>& x)
{
    SoftmaxRow r;
    r.exps.assign(x.size(), 0.0);
    r.weights.assign(x.size(), 0.0);
    r.max = -std::numeric_limits<double>::infinity();
    for (double v : x)
        r.max = std::max(r.max, v);
    if (!(r.max > -std::numeric_limits<double>::infinity()))
        return r; // empty, or every entry masked: no weights at all (Σ = 0), not 0/0
    // Subtract the max before exp for numerical stability (unscaled scores reach ±100).
    for (std::size_t j = 0; j < x.size(); ++j) {
        r.exps[j] = std::exp(x[j] - r.max);
        r.sumExp += r.exps[j];
    }
    for (std::size_t j = 0; j < x.size(); ++j)
        r.weights[j] = r.exps[j] / r.sumExp;
    return r;
}

} // namespace attnlab
