#include "compare/matching.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace attnlab {

namespace {

std::vector<int> identity(Eigen::Index n)
{
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    return order;
}

/// How B's axis of length `nb` with labels `lb` lines up with A's (length `na`, labels `la`),
/// and B's index for each of A's.
AxisMatch matchAxis(Eigen::Index na, const Labels& la, Eigen::Index nb, const Labels& lb, std::vector<int>& order)
{
    if (na != nb) {
        order.clear();
        return AxisMatch::None;
    }
    order = identity(na);
    const bool labelled = la && lb && static_cast<Eigen::Index>(la->size()) == na && static_cast<Eigen::Index>(lb->size()) == nb;
    if (!labelled || *la == *lb)
        return AxisMatch::Same;
    if (auto p = labelPermutation(*la, *lb)) {
        order = std::move(*p);
        return AxisMatch::ByToken;
    }
    return AxisMatch::ByPosition;
}

} // namespace

std::optional<std::vector<int>> labelPermutation(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    if (a.size() != b.size())
        return std::nullopt;
    // Each label's positions in b, in order; A's k-th occurrence of a label takes the k-th.
    std::map<std::string, std::vector<int>> where;
    for (std::size_t i = 0; i < b.size(); ++i)
        where[b[i]].push_back(static_cast<int>(i));
    std::map<std::string, std::size_t> used;
    std::vector<int> order;
    order.reserve(a.size());
    for (const auto& label : a) {
        const auto it = where.find(label);
        std::size_t& k = used[label];
        if (it == where.end() || k >= it->second.size())
            return std::nullopt; // a label b lacks, or has fewer of
        order.push_back(it->second[k++]);
    }
    return order; // as many labels, each matched once: every index of b is used exactly once
}

MatrixDifference difference(const LabeledMatrix& a, const LabeledMatrix& b)
{
    MatrixDifference d;
    const Eigen::MatrixXf& va = a.values;
    const Eigen::MatrixXf& vb = b.values;
    d.rows = matchAxis(va.rows(), a.rowLabels, vb.rows(), b.rowLabels, d.rowOrder);
    d.cols = matchAxis(va.cols(), a.colLabels, vb.cols(), b.colLabels, d.colOrder);
    if (!d.aligned())
        return d;
    // matched = P_r · B · P_cᵀ, written out: A's cell (i, j) gets B's (rowOrder[i], colOrder[j]).
    d.matched.resize(va.rows(), va.cols());
    d.difference.resize(va.rows(), va.cols());
    for (Eigen::Index i = 0; i < va.rows(); ++i) {
        for (Eigen::Index j = 0; j < va.cols(); ++j) {
            const float x = va(i, j);
            const float y = vb(d.rowOrder[static_cast<std::size_t>(i)], d.colOrder[static_cast<std::size_t>(j)]);
            d.matched(i, j) = y;
            // Masked in both (−∞ and −∞): no difference, rather than ∞ − ∞ = NaN.
            const float diff = x == y ? 0.0f : x - y;
            d.difference(i, j) = diff;
            if (std::isinf(diff)) {
                ++d.infiniteCells;
            } else if (std::isfinite(diff) && (d.largestRow < 0 || std::abs(diff) > d.largest)) {
                d.largest = std::abs(diff);
                d.largestRow = i;
                d.largestCol = j;
            }
        }
    }
    return d;
}

Matching matchingOf(const MatrixDifference& d)
{
    if (!d.aligned())
        return Matching::ShapesDiffer;
    if (d.rows == AxisMatch::ByPosition || d.cols == AxisMatch::ByPosition)
        return Matching::ByPosition;
    if (d.rows == AxisMatch::ByToken || d.cols == AxisMatch::ByToken)
        return Matching::ByToken;
    return Matching::Same;
}

float sharedMaxAbs(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b)
{
    float m = 0;
    for (const Eigen::MatrixXf* v : {&a, &b}) {
        for (Eigen::Index i = 0; i < v->size(); ++i) {
            const float x = v->data()[i];
            if (std::isfinite(x))
                m = std::max(m, std::abs(x));
        }
    }
    return m;
}

bool zeroUpToRounding(const MatrixDifference& d, float scale)
{
    if (!d.aligned() || d.infiniteCells > 0)
        return false;
    for (Eigen::Index i = 0; i < d.difference.size(); ++i) {
        if (std::isnan(d.difference.data()[i]))
            return false;
    }
    return d.largest <= 1e-5f * std::max(1.0f, scale);
}

} // namespace attnlab
