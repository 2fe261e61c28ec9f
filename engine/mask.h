#pragma once
/// Attention masks (docs/engine.md, section 7): which keys each query may not see.

#include "config.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// n x n, true = key j is hidden from query i (PyTorch's boolean attn_mask convention).
using BoolMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;

/// The blocked cells for a mask kind. `custom` is required (n x n) for MaskKind::Custom and
/// ignored otherwise. Throws std::invalid_argument when the custom mask is missing or its size
/// differs from the token count.
BoolMatrix blockedCells(MaskKind kind, const std::vector<std::string>& tokens, const std::optional<BoolMatrix>& custom);

/// The additive mask M: 0 where allowed, -infinity where blocked.
Eigen::MatrixXf additiveMask(const BoolMatrix& blocked);

/// Parses a mask file: n lines of n values 0 or 1 (spaces or commas between), '#' comments,
/// blank lines ignored. Throws std::invalid_argument naming the line and what is wrong.
BoolMatrix parseMaskText(std::string_view text);

} // namespace attnlab
