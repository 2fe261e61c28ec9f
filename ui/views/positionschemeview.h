#pragma once
// Where position enters attention, for the schemes that act inside it (issue 14 §2), on the
// scheme's own step:
//   RoPE (rope_angles):   each pair of a head's dimensions as a little clock per position, its hand
//                         at the angle θ_pos,i; beside it the score of one fixed q and k moved along
//                         the sentence (q at m, k at n): constant along each diagonal m − n;
//   ALiBi (position_bias): each head's bias −m_h·d against the distance d, one line per slope,
//                         beside the current head's bias matrix;
//   relative (relative_keys, relative_values): the tables a^K and a^V and which of their rows
//                         each score uses, clip(j − i);
//   Transformer-XL (memory): the segments and their memories as a timeline (click a row, or the
//                         Segment box, to show that segment everywhere), and the weights of every
//                         segment placed at their absolute positions: the attention reaching back
//                         into the previous segment.
// With another scheme it says which schemes have a view here.

#include "views/captionedview.h"

#include <Eigen/Core>

class QCustomPlot;
class QLabel;
class QSpinBox;
class QStackedWidget;

namespace attnlab {

class HeatmapView;
class Session;
struct Trace;

class PositionSchemeView : public CaptionedView {
    Q_OBJECT
public:
    enum class Page { None, Rope, Alibi, Relative, Xl };

    explicit PositionSchemeView(Session* session, QWidget* parent = nullptr);

    /// True for the step this view draws: rope_angles with RoPE, position_bias with ALiBi,
    /// relative_keys and relative_values with relative positions, memory with Transformer-XL.
    static bool claims(const QString& stageId, const Trace& trace);

    Page page() const { return m_page; }
    /// RoPE's clocks (one ellipse and one hand per position and pair).
    QCustomPlot* clocks() const { return m_clocks; }
    /// RoPE: q_m·k_n / √d_k of one q and one k at every pair of positions (m, n).
    HeatmapView* shiftMap() const { return m_shift; }
    const Eigen::MatrixXf& shiftScores() const { return m_shiftScores; }
    /// ALiBi: −m_h·d against d, one graph per head.
    QCustomPlot* slopes() const { return m_slopes; }
    /// ALiBi: the current head's bias.
    HeatmapView* biasMap() const { return m_bias; }
    /// Relative: a^K, a^V and clip(j − i), the table row each score uses.
    HeatmapView* keysMap() const { return m_keys; }
    HeatmapView* valuesMap() const { return m_values; }
    HeatmapView* rowsMap() const { return m_rows; }
    /// Transformer-XL: one row per segment, its memory and its own tokens.
    QCustomPlot* timeline() const { return m_timeline; }
    QSpinBox* segmentBox() const { return m_segment; }
    /// Transformer-XL: every segment's weights at their absolute positions.
    HeatmapView* segmentsMap() const { return m_segments; }
    /// Transformer-XL: the current head's weights of every segment at absolute positions (n × n).
    const Eigen::MatrixXf& assembledWeights() const { return m_assembled; }

private:
    void refresh() override;
    void retranslate() override;
    void showRope(const Trace& t);
    void showAlibi(const Trace& t);
    void showRelative(const Trace& t);
    void showXl(const Trace& full);
    void drawTimeline(const Trace& full);

    QStackedWidget* m_pages;
    QCustomPlot* m_clocks;
    HeatmapView* m_shift;
    QCustomPlot* m_slopes;
    HeatmapView* m_bias;
    HeatmapView* m_keys;
    HeatmapView* m_values;
    HeatmapView* m_rows;
    QCustomPlot* m_timeline;
    QSpinBox* m_segment;
    QLabel* m_segmentLabel = nullptr;
    HeatmapView* m_segments;
    Page m_page = Page::None;
    Eigen::MatrixXf m_shiftScores;
    Eigen::MatrixXf m_assembled;
};

} // namespace attnlab
