// RoPE (Su et al. 2021): the angle of pair i at position pos is pos / B^(2i/d_k); rotating q_m by
// m·θ and k_n by n·θ makes their dot product depend on m − n only.

#include "position/inside.h"

#include <algorithm>
#include <cmath>

namespace attnlab {

std::vector<std::string> positionStageIds(PositionalEncoding scheme)
{
    if (scheme == PositionalEncoding::Rope)
        return {"rope_angles", "q_rotated", "k_rotated"};
    if (scheme == PositionalEncoding::Alibi)
        return {"position_bias"};
    if (scheme == PositionalEncoding::Relative)
        return {"relative_keys", "relative_values", "position_scores"};
    if (scheme == PositionalEncoding::Xl)
        return {"xl_w_r", "xl_u", "xl_v", "memory", "content_scores", "position_scores", "content_bias", "position_bias"};
    return {};
}

std::vector<std::string> allPositionStageIds()
{
    std::vector<std::string> ids;
    for (const PositionalEncoding p : {PositionalEncoding::Rope, PositionalEncoding::Alibi, PositionalEncoding::Relative, PositionalEncoding::Xl}) {
        for (const std::string& id : positionStageIds(p)) {
            if (std::find(ids.begin(), ids.end(), id) == ids.end())
                ids.push_back(id);
        }
    }
    return ids;
}

Eigen::MatrixXf ropeAngles(int n, int dK, double base)
{
    const int pairs = dK / 2;
    Eigen::MatrixXf angles(n, pairs);
    for (int i = 0; i < pairs; ++i) {
        // In double: pos / B^(2i/d_k) loses digits in float for long inputs and small i.
        const double inverseFrequency = std::pow(base, -2.0 * i / dK);
        for (int pos = 0; pos < n; ++pos)
            angles(pos, i) = static_cast<float>(pos * inverseFrequency);
    }
    return angles;
}

Eigen::MatrixXf ropeRotate(const Eigen::MatrixXf& x, const Eigen::MatrixXf& angles)
{
    Eigen::MatrixXf out(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < angles.cols(); ++i) {
        for (Eigen::Index pos = 0; pos < x.rows(); ++pos) {
            const double theta = angles(pos, i);
            const double c = std::cos(theta);
            const double s = std::sin(theta);
            const double a = x(pos, 2 * i);
            const double b = x(pos, 2 * i + 1);
            out(pos, 2 * i) = static_cast<float>(a * c - b * s);
            out(pos, 2 * i + 1) = static_cast<float>(a * s + b * c);
        }
    }
    return out;
}

} // namespace attnlab
