#pragma once
/// Position schemes: how the model is told where each token stands (docs/engine.md, section 4).
/// Each scheme is one file in this folder; schemes.cpp lists them, one line each.

#include "core/config.h"

#include <Eigen/Core>

#include <cstdint>
#include <string_view>
#include <vector>

namespace attnlab {

struct PositionScheme {
    PositionalEncoding kind;
    /// The positional_encoding stage's formula, in Unicode math.
    std::string_view formula;
    /// P (n x d) for positions 0..n−1, added to the scaled embeddings: X = E·s + P.
    Eigen::MatrixXf (*table)(int n, int dModel, std::uint64_t seed);
};

/// Every scheme, in the order the settings offer them.
const std::vector<PositionScheme>& positionSchemes();
/// The scheme of `kind` (every PositionalEncoding has one).
const PositionScheme& positionScheme(PositionalEncoding kind);

// The schemes' tables, one per file.
Eigen::MatrixXf sinusoidalPositions(int n, int dModel, std::uint64_t seed);
Eigen::MatrixXf learnedPositions(int n, int dModel, std::uint64_t seed);
Eigen::MatrixXf noPositions(int n, int dModel, std::uint64_t seed);

} // namespace attnlab
