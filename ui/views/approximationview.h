#pragma once
// How far an attention kind is from full attention (issue 13 §2), on the weights step of any
// kind but full: the kind's weights A (sparse: its pattern, masked cells −∞ → 0; linformer: over
// its K projected rows; performer and linear: the weights their features imply) beside full
// softmax attention's weights A^full on the same queries, keys and mask, and the error of each
// query (the L1 distance of its two rows, 0 … 2), for the head chosen. The caption gives the two
// numbers of the trace's approximation: the largest |O − O^full| of the block's output and
// ‖O − O^full‖_F / ‖O^full‖_F. With full attention it says there is nothing to compare.

#include "views/captionedview.h"

#include <optional>

class QCustomPlot;

namespace attnlab {

class ColumnPlot;
class HeatmapView;
class Session;
struct Approximation;
struct Trace;

class ApproximationView : public CaptionedView {
    Q_OBJECT
public:
    explicit ApproximationView(Session* session, QWidget* parent = nullptr);

    /// True on a trace with an attention kind other than full (the three plots are shown).
    bool hasComparison() const { return m_shown; }
    HeatmapView* weights() const { return m_weights; }
    HeatmapView* reference() const { return m_reference; }
    ColumnPlot* error() const { return m_error; }
    /// The block's output against full attention's, as the caption gives it (none without one).
    const std::optional<double>& outputMaxAbs() const { return m_maxAbs; }
    const std::optional<double>& outputRelFro() const { return m_relFro; }

    /// True for a trace the weights step of which this view draws (it holds reference weights).
    static bool claimsWeights(const QString& stageId, const Trace& trace);

private:
    void refresh() override;
    void retranslate() override;

    HeatmapView* m_weights;
    HeatmapView* m_reference;
    ColumnPlot* m_error;
    bool m_shown = false;
    std::optional<double> m_maxAbs;
    std::optional<double> m_relFro;
};

} // namespace attnlab
