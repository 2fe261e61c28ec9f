#pragma once
// A comparison of two inputs as one picture (issue 10 §2): the stage's title and the caption
// (what A and B are, how B was lined up, how large A − B is) over A, B and A − B side by side,
// each with its colour scale. PNG, SVG or PDF; the studio's File ▸ Export view while comparing and
// `attention-lab-cli export … --compare …` draw it alike.

#include "export/exporter.h"
#include "views/comparefigure.h"

namespace attnlab {

/// The width and height a comparison is drawn at when none is given (three heatmaps in a row).
constexpr int kCompareExportWidth = 1800;
constexpr int kCompareExportHeight = 720;

/// Draws `figure` at options.width × options.height logical pixels in offscreen heatmaps (never
/// shown) and saves it as options.format. Where B or A − B is missing, its place says why
/// (figure.problem). Needs a QApplication whose font lists "Noto Sans CJK SC" for Chinese tokens.
ExportResult exportComparison(const CompareFigure& figure, const ExportOptions& options, const QString& path);

} // namespace attnlab
