// ALiBi (Press et al. 2022): no position vector; each head adds −m_h·|i − j| to its scores, with
// geometric slopes m_h, so far keys lose weight linearly in their distance.

#include "position/inside.h"

#include <cmath>
#include <cstdlib>

namespace attnlab {

namespace {

/// 2^(−8h/H) for h = 1 … H (H a power of two): the first slope is 2^(−8/H), each next one that times it.
std::vector<double> powerOfTwoSlopes(int heads)
{
    std::vector<double> slopes;
    const double start = std::pow(2.0, -8.0 / heads);
    for (int h = 1; h <= heads; ++h)
        slopes.push_back(std::pow(start, h));
    return slopes;
}

} // namespace

std::vector<double> alibiSlopes(int heads)
{
    if (heads < 1)
        return {};
    int closest = 1;
    while (closest * 2 <= heads)
        closest *= 2;
    std::vector<double> slopes = powerOfTwoSlopes(closest);
    if (closest == heads)
        return slopes;
    // The reference code: the closest power of two's slopes, then every other slope of twice as many.
    const std::vector<double> twice = alibiSlopes(2 * closest);
    for (int i = 0; static_cast<int>(slopes.size()) < heads; i += 2)
        slopes.push_back(twice[static_cast<std::size_t>(i)]);
    return slopes;
}

Eigen::MatrixXf alibiBias(int queries, int keys, double slope)
{
    Eigen::MatrixXf bias(queries, keys);
    for (int i = 0; i < queries; ++i) {
        for (int j = 0; j < keys; ++j)
            bias(i, j) = i == j ? 0.0f : static_cast<float>(-slope * std::abs(i - j)); // no −0 on the diagonal
    }
    return bias;
}

} // namespace attnlab
