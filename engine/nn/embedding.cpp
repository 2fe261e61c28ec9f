#include "nn/embedding.h"

#include "core/random.h"

#include <cmath>

namespace attnlab {

Eigen::MatrixXf tokenEmbeddings(const std::vector<std::string>& tokens, int dModel, std::uint64_t seed)
{
    // Uniform in [-sqrt(3/d), sqrt(3/d)) has mean 0 and variance 1/d, as the paper's embedding
    // matrix is initialised: after the sqrt(d) scaling the tokens have unit variance, the
    // same size as the positional encoding added to them.
    const float bound = static_cast<float>(std::sqrt(3.0 / dModel));
    Eigen::MatrixXf e(static_cast<Eigen::Index>(tokens.size()), dModel);
    for (Eigen::Index i = 0; i < e.rows(); ++i) {
        SplitMix64 rng = stream(tokens[static_cast<std::size_t>(i)], seed);
        for (Eigen::Index j = 0; j < dModel; ++j)
            e(i, j) = rng.symmetric(bound);
    }
    return e;
}

float embeddingScale(int dModel, bool enabled)
{
    return enabled ? static_cast<float>(std::sqrt(static_cast<double>(dModel))) : 1.0f;
}

Eigen::MatrixXf positionalEncoding(PositionalEncoding kind, int n, int dModel, std::uint64_t seed)
{
    Eigen::MatrixXf p = Eigen::MatrixXf::Zero(n, dModel);
    switch (kind) {
    case PositionalEncoding::None:
        break;
    case PositionalEncoding::Sinusoidal:
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
        break;
    case PositionalEncoding::Learned:
        for (int pos = 0; pos < n; ++pos) {
            SplitMix64 rng = stream("#pos" + std::to_string(pos), seed);
            for (int j = 0; j < dModel; ++j)
                p(pos, j) = rng.symmetric(1.0f);
        }
        break;
    }
    return p;
}

} // namespace attnlab
