#pragma once
/// Lining B's matrix up with A's and subtracting (docs/engine.md, section 10).
///
/// Each axis is matched by its labels (tokens for token axes, "d0", "d1", … for features):
///   - the same labels in the same order: index i with index i;
///   - B's labels are A's in another order (the same multiset): by token. B's rows (or columns)
///     are reordered into A's order, duplicates paired in order of occurrence (A's second "the"
///     with B's second "the"). For a permutation matrix P with P[i][order[i]] = 1 this is
///     P·B (rows), B·Pᵀ (columns), P·B·Pᵀ (both);
///   - as many labels but other ones: by position, index i with index i;
///   - another length: no alignment, so no difference.
/// Without positional encoding (and with no mask) self-attention is permutation-equivariant:
/// Attention(P·X) = P·Attention(X), so after matching by token every token-indexed stage of
/// 人咬了狗 equals 狗咬了人's up to float rounding.

#include "core/trace.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

/// How one axis of B is lined up with A's.
enum class AxisMatch {
    Same,       ///< the same labels in the same order (or no labels, the same length)
    ByToken,    ///< B's labels are A's in another order: reordered into A's order
    ByPosition, ///< as many labels, other ones: index i with index i
    None,       ///< another length: no alignment
};

/// For each of `a`'s labels in order, the index in `b` of the same label, duplicates paired in
/// order of occurrence; nothing when `b` is not a reordering of `a` (another length, other labels,
/// or other counts of a label).
std::optional<std::vector<int>> labelPermutation(const std::vector<std::string>& a, const std::vector<std::string>& b);

/// A and B of one stage, lined up.
struct MatrixDifference {
    AxisMatch rows = AxisMatch::None;
    AxisMatch cols = AxisMatch::None;
    /// B's row shown in A's row i (0, 1, 2, … unless ByToken); empty when rows is None.
    std::vector<int> rowOrder;
    /// B's column shown in A's column j; empty when cols is None.
    std::vector<int> colOrder;
    /// B's values in A's order (rows x cols of A): matched(i, j) = B(rowOrder[i], colOrder[j]).
    /// Empty when the shapes cannot be aligned.
    Eigen::MatrixXf matched;
    /// A − matched, cell by cell; a cell where both hold the same infinity (masked in both) is 0,
    /// a cell masked in one only is ±∞. Empty when the shapes cannot be aligned.
    Eigen::MatrixXf difference;
    /// The largest |A − B| over the finite cells of `difference`, and where it is (row, column
    /// of A); -1 when there is none.
    float largest = 0;
    Eigen::Index largestRow = -1;
    Eigen::Index largestCol = -1;
    /// Cells masked in one matrix only (an infinite difference).
    Eigen::Index infiniteCells = 0;

    bool aligned() const { return rows != AxisMatch::None && cols != AxisMatch::None; }
};

/// Lines `b` up with `a` by their labels and subtracts. Never throws: shapes that cannot be
/// aligned give a result whose aligned() is false.
MatrixDifference difference(const LabeledMatrix& a, const LabeledMatrix& b);

/// How a stage as a whole was matched, for a caption.
enum class Matching {
    Same,         ///< every axis Same
    ByToken,      ///< at least one axis ByToken (and none ByPosition or None)
    ByPosition,   ///< at least one axis ByPosition (and none None)
    ShapesDiffer, ///< an axis could not be aligned
};
Matching matchingOf(const MatrixDifference& d);

/// The largest |value| over the finite cells of `a` and `b`: the half-range of a colour scale
/// that A and B share. 0 when they have no finite cell.
float sharedMaxAbs(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b);

/// True when A and B are equal up to float rounding: the shapes align, no cell is masked in one
/// only, and every |A − B| ≤ 1e-5 · max(1, scale), `scale` being the largest |value| of A and B.
bool zeroUpToRounding(const MatrixDifference& d, float scale);

} // namespace attnlab
