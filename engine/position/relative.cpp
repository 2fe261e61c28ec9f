// Relative positions (Shaw et al. 2018): no position vector; a learned key a^K and value a^V per
// clipped distance j − i, shared by the heads. e_ij = (q_i·k_j + q_i·a^K_clip(j−i)) / √d_k and
// z_i = Σ_j α_ij (v_j + a^V_clip(j−i)): what a query sees depends on how far away a key is, not
// on where the two stand.

#include "position/inside.h"

#include "core/random.h"

#include <algorithm>

namespace attnlab {

namespace {

Eigen::MatrixXf normalTable(const char* name, int rows, int cols, std::uint64_t seed)
{
    NormalStream normal(stream(name, seed));
    Eigen::MatrixXf t(rows, cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            t(r, c) = static_cast<float>(normal.next());
    }
    return t;
}

} // namespace

RelativeTables relativeTables(int maxDistance, int dK, std::uint64_t seed)
{
    const int rows = 2 * maxDistance + 1;
    return {normalTable("#relative_keys", rows, dK, seed), normalTable("#relative_values", rows, dK, seed), maxDistance};
}

int relativeRow(int i, int j, int maxDistance)
{
    return std::clamp(j - i, -maxDistance, maxDistance) + maxDistance;
}

Eigen::MatrixXf relativeScores(const Eigen::MatrixXf& q, int keys, const RelativeTables& t)
{
    // q_i·a^K_r for every query and every table row (m x (2K+1)), then looked up by distance.
    const Eigen::MatrixXf byRow = q * t.keys.transpose();
    Eigen::MatrixXf p(q.rows(), keys);
    for (int j = 0; j < keys; ++j) {
        for (int i = 0; i < static_cast<int>(q.rows()); ++i)
            p(i, j) = byRow(i, relativeRow(i, j, t.maxDistance));
    }
    return p;
}

Eigen::MatrixXf relativeValues(const Eigen::MatrixXf& weights, const RelativeTables& t)
{
    // W_ir = Σ of α_ij over the keys j at clipped distance r − K, then W·a^V.
    Eigen::MatrixXf perRow = Eigen::MatrixXf::Zero(weights.rows(), t.values.rows());
    for (int j = 0; j < static_cast<int>(weights.cols()); ++j) {
        for (int i = 0; i < static_cast<int>(weights.rows()); ++i)
            perRow(i, relativeRow(i, j, t.maxDistance)) += weights(i, j);
    }
    return perRow * t.values;
}

} // namespace attnlab
