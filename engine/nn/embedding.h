#pragma once
/// Token embeddings and positional encodings (docs/engine.md, sections 3 and 4).

#include "core/config.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace attnlab {

/// E (n x d): row i is the seeded embedding of tokens[i]. The same token string always gets
/// the same row for a seed, whatever sentence it stands in.
Eigen::MatrixXf tokenEmbeddings(const std::vector<std::string>& tokens, int dModel, std::uint64_t seed);

/// The factor s in X = E*s + P: sqrt(d_model) when enabled, else 1.
float embeddingScale(int dModel, bool enabled);

/// P (n x d) for positions 0..n-1.
///   sinusoidal: P[pos, 2i] = sin(pos / 10000^(2i/d)), P[pos, 2i+1] = cos(same angle)
///   learned:    a seeded table, uniform in [-1, 1)
///   none:       zeros
Eigen::MatrixXf positionalEncoding(PositionalEncoding kind, int n, int dModel, std::uint64_t seed);

} // namespace attnlab
