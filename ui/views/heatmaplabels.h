#pragma once
// The token labels on a heatmap's axes: as many as fit without overlap, whatever the number of
// tokens (1024 rows are labelled every k-th), and for a vocabulary the columns where the
// probability is. The ticker keeps every label it is given and draws those that fit
// (plot/fitting.h, fitTickLabels); these functions give it no more than the axis can hold, so
// the fitting works on a few dozen labels, never on thousands.

#include "core/trace.h"

#include <string>
#include <vector>

class QCPAxis;
class QFont;

namespace attnlab {

/// Per axis at 100 %: the fewest labels offered (more than this overlap on a small plot).
inline constexpr int kMaxLabelledCells = 24;
/// Among too many probability columns, a column gets its label from this value on.
inline constexpr float kLabelledProbability = 0.05f;

/// The width of the widest of `labels` in `font`, in pixels.
int widestLabel(const std::vector<std::string>& labels, const QFont& font);

/// Labels the rows of a heatmap on `axis` (vertical) with `labels`, rows `cell` pixels high:
/// every k-th, k the fewest rows that hold a label a line apart, then only those that do not
/// touch (fitTickLabels). `cell` 0 (not laid out): at most kMaxLabelledCells × `zoom`.
void labelHeatmapRows(QCPAxis* axis, const std::vector<std::string>& labels, double cell, double zoom);

/// Labels the columns of `m` on `axis` (horizontal, above the cells), columns `cell` pixels
/// wide: upright when each label (`widest` pixels at most) fits its cell, else slanted, every
/// k-th, k the fewest columns a slanted label needs; for probabilities over too many columns
/// (a vocabulary), the columns that reach kLabelledProbability, the likelier first.
void labelHeatmapColumns(QCPAxis* axis, const LabeledMatrix& m, bool probabilities, double cell, double zoom, int widest);

} // namespace attnlab
