// Transformer-XL (Dai et al. 2019): the input is cut into segments; each segment attends its own
// tokens and a memory of the rows before it, with scores built from relative distances only:
// (a) q_i·k_j + (b) q_i·W_R R_{i−j} + (c) u·k_j + (d) v·W_R R_{i−j}. This file holds the
// scheme's parameters and its segments; nn/xl_heads.cpp computes the block.

#include "position/inside.h"

#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnlab {

XlTables xlTables(int heads, int dK, int dModel, std::uint64_t seed)
{
    XlTables t;
    const double spread = 1.0 / std::sqrt(static_cast<double>(dModel)); // W_R ~ N(0, 1/d_model)
    for (int h = 0; h < heads; ++h) {
        const std::string head = std::to_string(h);
        NormalStream w(stream("#xl_w_r" + head, seed)), u(stream("#xl_u" + head, seed)), v(stream("#xl_v" + head, seed));
        Eigen::MatrixXf wR(dK, dModel);
        for (int r = 0; r < dK; ++r) {
            for (int c = 0; c < dModel; ++c)
                wR(r, c) = static_cast<float>(spread * w.next());
        }
        Eigen::RowVectorXf uh(dK), vh(dK);
        for (int c = 0; c < dK; ++c) {
            uh(c) = static_cast<float>(u.next());
            vh(c) = static_cast<float>(v.next());
        }
        t.wR.push_back(std::move(wR));
        t.u.push_back(std::move(uh));
        t.v.push_back(std::move(vh));
    }
    return t;
}

Eigen::MatrixXf xlDistanceSinusoid(int first, int last, int dModel)
{
    Eigen::MatrixXf r = Eigen::MatrixXf::Zero(last - first + 1, dModel);
    for (int t = 0; 2 * t < dModel; ++t) {
        const double divisor = std::pow(10000.0, 2.0 * t / dModel);
        for (int delta = first; delta <= last; ++delta) {
            // Negative distances (keys after the query, hidden by the causal mask) as written:
            // sin is odd, cos even.
            const double angle = delta / divisor;
            r(delta - first, 2 * t) = static_cast<float>(std::sin(angle));
            if (2 * t + 1 < dModel)
                r(delta - first, 2 * t + 1) = static_cast<float>(std::cos(angle));
        }
    }
    return r;
}

std::vector<XlSegment> xlSegments(int n, int segment, int memory)
{
    std::vector<XlSegment> out;
    for (int start = 0; start < n; start += segment)
        out.push_back({start, std::min(segment, n - start), std::min(memory, start)});
    return out;
}

} // namespace attnlab
