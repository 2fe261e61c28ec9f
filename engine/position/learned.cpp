// Learned positions, as BERT's position embeddings start out: a seeded table, uniform in
// [-1, 1), one row per position (the same rows for a seed whatever the sentence).

#include "position/scheme.h"

#include "core/random.h"

#include <string>

namespace attnlab {

Eigen::MatrixXf learnedPositions(int n, int dModel, std::uint64_t seed)
{
    Eigen::MatrixXf p(n, dModel);
    for (int pos = 0; pos < n; ++pos) {
        SplitMix64 rng = stream("#pos" + std::to_string(pos), seed);
        for (int j = 0; j < dModel; ++j)
            p(pos, j) = rng.symmetric(1.0f);
    }
    return p;
}

} // namespace attnlab
