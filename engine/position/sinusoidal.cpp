// The sinusoidal positions of "Attention Is All You Need":
//   P[pos, 2i] = sin(pos / 10000^(2i/d)),  P[pos, 2i+1] = cos(pos / 10000^(2i/d)).

#include "position/scheme.h"

#include <cmath>

namespace attnlab {

Eigen::MatrixXf sinusoidalPositions(int n, int dModel, std::uint64_t /*seed*/)
{
    Eigen::MatrixXf p = Eigen::MatrixXf::Zero(n, dModel);
    for (int i = 0; 2 * i < dModel; ++i) {
        // One frequency per (sin, cos) pair of columns; the wavelength 2*pi*divisor grows from 2*pi
        // (i = 0) to 10000 * 2*pi. Computed in double exactly as written in the paper.
        const double divisor = std::pow(10000.0, 2.0 * i / dModel);
        for (int pos = 0; pos < n; ++pos) {
            const double angle = pos / divisor;
            p(pos, 2 * i) = static_cast<float>(std::sin(angle));
            if (2 * i + 1 < dModel)
                p(pos, 2 * i + 1) = static_cast<float>(std::cos(angle));
        }
    }
    return p;
}

} // namespace attnlab
