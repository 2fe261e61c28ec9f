#pragma once
/// The sparse kinds' patterns (sliding-window, bigbird, strided; docs/attention-kinds.md), for
/// their kernel (sparse.cpp) and the cost measurement.

#include "attention/common.h"

#include <string>
#include <vector>

namespace attnlab {

/// The kind's global positions, sorted and without repeats. Throws attnlab::Error
/// (global_out_of_range) when one is not a position of the n tokens.
std::vector<int> globalPositions(const AttentionOptions& o, Eigen::Index n);

/// Which keys each of n queries attends under `kind` (sliding-window, bigbird or strided) and the
/// user's mask. BigBird's random keys come from `gen`, row by row, before the mask is applied.
/// `givenKeys`, when not empty, are BigBird's random keys of each row instead.
detail::SparsePattern sparsePattern(AttentionKind kind, const AttentionOptions& o, Eigen::Index n, const detail::UserMask& mask,
                                    SplitMix64 gen, const std::vector<std::vector<int>>& givenKeys = {});

/// The order in which the sparse kernel should take the queries (global rows first, then by
/// residue mod D, so that a tile's rows share their window).
std::vector<int> sparseOrder(AttentionKind kind, const AttentionOptions& o, Eigen::Index n);

/// The mask stage's formula for a sparse kind.
std::string sparseMaskFormula(AttentionKind kind);

} // namespace attnlab
