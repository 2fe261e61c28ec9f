#include "nn/embedding.h"

#include "core/random.h"
#include "position/scheme.h"

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
    return positionScheme(kind).table(n, dModel, seed);
}

} // namespace attnlab
