#pragma once
// What a comparison of two inputs shows for one stage (issue 10 §2), as data and translated text:
// A's matrix, B's on the same colour scale, and A − B (B lined up with A by compare/matching.h)
// on a diverging scale symmetric around 0; the titles that say what A and B are, how B was
// lined up, and how large the difference is. The studio's comparison view and the exports (the
// studio's and the command line's) draw the same figure.

#include "compare/comparison.h"
#include "compare/matching.h"
#include "views/heatmapview.h"

#include <QString>

#include <optional>

namespace attnlab {

/// A position scheme's name as the interface shows it ("sinusoidal", "RoPE (rotary)", …), translated.
QString positionalName(PositionalEncoding p);

struct CompareFigure {
    QString stageTitle;      ///< "Softmax → weights A — head 1 (encoder layer 1 · self-attention)"
    QString titleA;          ///< "A: 狗咬了人", "A: positional encoding sinusoidal"
    QString titleB;          ///< "B: 人咬了狗", "B: positional encoding none"
    QString titleDifference; ///< "A − B"
    QString plotTitleA;      ///< titleA, a long sentence cut short for the plot's title
    QString plotTitleB;
    LabeledMatrix a;
    std::optional<LabeledMatrix> b;          ///< none when B could not be computed
    std::optional<LabeledMatrix> difference; ///< in A's order and with A's labels; none when not aligned
    HeatmapView::Scale scale = HeatmapView::Scale::Signed; ///< of A and B (Difference for A − B)
    double range = 1;           ///< the half-range A and B share (1 for probabilities)
    double differenceRange = 1; ///< the half-range of A − B: its largest |value| (`range` when zero up to rounding)
    Matching matching = Matching::ShapesDiffer;
    bool zero = false;          ///< A − B is zero up to float rounding
    QString matchingText;       ///< "rows and columns matched by token (B put in A's token order)"
    QString differenceText;     ///< "largest |A − B| = 0.0925 (row 狗, column 人)"
    QString problem;            ///< why there is no B or no A − B (shown in their place); empty when both are drawn

    /// The caption under the stage title: how B was lined up and how large A − B is, after what
    /// A and B are when the plots' titles had to cut a sentence short.
    QString caption() const;
    /// What HeatmapView::setSharedMaxAbs gets for A and B: the shared half-range, 0 for
    /// probabilities (always 0..1) and for all-zero matrices (the heatmap's own ±1).
    double sharedMaxAbs() const { return scale == HeatmapView::Scale::Probability ? 0 : range; }
};

/// What A is and what B is, for titles: "A: 狗咬了人" / "B: 人咬了狗", "A: seed 42" / "B: seed 7".
QString describeA(const Comparison& what, const Config& a, const QString& sentenceA);
QString describeB(const Comparison& what);

/// The figure of stage `a` (A's) beside `b` (B's stage of the same key; null when B has none),
/// whose failure, if any, is `errorB` (in the interface's language). Titles say what A and B are.
CompareFigure compareFigure(const Stage& a, const Stage* b, const Comparison& what, const Config& configA,
                            const QString& sentenceA, const QString& errorB = {});

/// Draws `figure` in three heatmaps: A and B on the shared scale, A − B on the difference scale.
/// A heatmap with nothing to draw (no B, no difference) is hidden; the others are shown.
void showFigure(const CompareFigure& figure, HeatmapView* a, HeatmapView* b, HeatmapView* difference);

} // namespace attnlab
