#include "explain/top_k.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

/// a comes before b: a larger value, or the same value in a lower column.
bool before(const RankedEntry& a, const RankedEntry& b)
{
    return a.value > b.value || (a.value == b.value && a.index < b.index);
}

} // namespace

std::vector<RankedEntry> topK(const Eigen::MatrixXf& m, int row, int k)
{
    if (row < 0 || row >= m.rows() || k <= 0)
        return {};
    std::vector<RankedEntry> all;
    all.reserve(static_cast<std::size_t>(m.cols()));
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (!std::isnan(m(row, c)))
            all.push_back({static_cast<int>(c), m(row, c)});
    }
    const auto n = std::min(all.size(), static_cast<std::size_t>(k));
    // Only the first k need sorting: a vocabulary has thousands of entries, a view shows ten.
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(), before);
    all.resize(n);
    return all;
}

int rankOf(const Eigen::MatrixXf& m, int row, int column)
{
    if (row < 0 || row >= m.rows() || column < 0 || column >= m.cols())
        return 0;
    const RankedEntry self{column, m(row, column)};
    int rank = 1;
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
        if (!std::isnan(m(row, c)) && before({static_cast<int>(c), m(row, c)}, self))
            ++rank;
    }
    return rank;
}

} // namespace attnlab
