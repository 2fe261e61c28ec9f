#pragma once
// The feed-forward network's hidden layer of a Transformer layer (stage ffn_hidden):
//
//     H (n x d_ff) = act(X·W₁ᵀ + b₁),   FFN(X) = H·W₂ᵀ + b₂:   d_model → d_ff → d_model
//
// H as a heatmap (rows = tokens, columns = hidden units, signed scale); per token, the fraction
// of its d_ff hidden units the activation switched off (ReLU: exactly 0; GELU, which is smooth:
// negative or zero); and a histogram of all n·d_ff hidden values, so ReLU's spike at 0 and
// GELU's small negative values (never below about −0.17) are visible. The histogram's bars are
// split into the switched-off part and the rest.
//
// A gated FFN (the modern decoders' SwiGLU and GeGLU: ffn_gate, ffn_up, ffn_hidden):
//
//     G = N·W_gateᵀ,  U = N·W_upᵀ,  H = act(G) ⊙ U,  FFN(N) = H·W_downᵀ     act: SiLU or GELU_tanh
//
// G, U and H side by side (one unit's cell outlined in all three), and the two summaries of the
// gate act(G) instead of H: the share of each token's units whose gate is at or below 0 (closed,
// or flipping a little of U), and the histogram of all gate values (SiLU never below about
// −0.28). The view shows on the ffn_gate, ffn_up and ffn_hidden steps.
//
// The view shows the ffn_hidden stage of the current layer's block (the session projects one
// layer and block at a time); without one (one attention block, a cross-attention step) it shows
// a short message instead.

#include "core/config.h"
#include "core/trace.h"
#include "views/captionedview.h"

#include <QString>

#include <vector>

class QCustomPlot;
class QResizeEvent;

namespace attnlab {

class HeatmapView;
class Session;

class FeedForwardView : public CaptionedView {
    Q_OBJECT
public:
    /// Bins of the histogram of hidden values.
    static constexpr int kBins = 40;

    explicit FeedForwardView(Session* session, QWidget* parent = nullptr);

    // --- what is shown ---------------------------------------------------------------------
    /// True when an ffn_hidden stage is shown (false: the message is shown instead).
    bool hasStage() const { return m_hidden.values.size() > 0; }
    /// True for a gated FFN (the block has ffn_gate and ffn_up): the summaries are the gate's.
    bool isGated() const { return m_gated; }
    /// A gated FFN's G and U as drawn (empty otherwise).
    const LabeledMatrix& gate() const { return m_gate; }
    const LabeledMatrix& up() const { return m_up; }
    /// The activation's name in the formulas: "ReLU", "GELU", "SiLU", "GELU_tanh".
    const QString& activationName() const { return m_actName; }
    /// H (n x d_ff) as drawn.
    const LabeledMatrix& hidden() const { return m_hidden; }
    Activation activation() const { return m_activation; }
    int dModel() const { return m_dModel; }
    int dFF() const { return static_cast<int>(m_hidden.values.cols()); }
    /// Per token: the fraction of its d_ff hidden values that are switched off: exactly 0 for
    /// ReLU, ≤ 0 for GELU; a gated FFN's: of its gate values act(G), ≤ 0.
    const std::vector<double>& zeroFractions() const { return m_zeroFractions; }
    /// The same over all n·d_ff values.
    double overallZeroFraction() const { return m_overallZero; }
    /// kBins + 1 ascending bin edges from min(H) to max(H); bin i holds edges[i] ≤ h < edges[i+1]
    /// (the last bin also holds h = edges[kBins]).
    const std::vector<double>& histogramEdges() const { return m_edges; }
    /// Values per bin (they sum to n·d_ff).
    const std::vector<int>& histogramCounts() const { return m_counts; }
    /// Of those, the switched-off values (== 0 for ReLU, ≤ 0 for GELU).
    const std::vector<int>& histogramOffCounts() const { return m_offCounts; }

    // --- widgets ---------------------------------------------------------------------------
    HeatmapView* hiddenView() const { return m_heatmap; }
    /// A gated FFN's G and U (hidden for a plain FFN).
    HeatmapView* gateView() const { return m_gateView; }
    HeatmapView* upView() const { return m_upView; }
    /// Bars per token (plottable 0) and the dashed line of the overall fraction (graph 0).
    QCustomPlot* zeroPlot() const { return m_zeroPlot; }
    /// Stacked bars per bin: switched off (plottable 0) under the rest (plottable 1); a dashed
    /// line at h = 0.
    QCustomPlot* histogramPlot() const { return m_histPlot; }
    // captionLabel(): d_model → d_ff → d_model with the numbers, and the activation;
    // messageLabel(): shown instead of the plots when there is no ffn_hidden stage.

private:
    void setUpZeroPlot();
    void setUpHistogramPlot();
    void refresh() override;
    void showNoStage();
    void readGate(const Trace& trace);
    const Eigen::MatrixXf& summarised() const { return m_gated ? m_gateActivation : m_hidden.values; }
    bool isOff(float value) const;
    void countSwitchedOff();
    void countHistogram();
    void writeCaption();
    void writeGatedCaption();
    void drawHeatmaps(const Stage& hidden);
    void drawZeroFractions();
    void drawHistogram();
    void retranslate() override;
    void applyFonts() override;
    void resizeEvent(QResizeEvent* event) override;

    HeatmapView* m_heatmap;
    HeatmapView* m_gateView;
    HeatmapView* m_upView;
    QCustomPlot* m_zeroPlot;
    QCustomPlot* m_histPlot;

    // Copies of what is drawn.
    LabeledMatrix m_hidden;
    Activation m_activation = Activation::Relu;
    bool m_gated = false;
    LabeledMatrix m_gate;
    LabeledMatrix m_up;
    Eigen::MatrixXf m_gateActivation; ///< act(G), what a gated FFN's summaries count
    QString m_actName;
    int m_dModel = 0;
    std::vector<QString> m_tokens;
    std::vector<double> m_zeroFractions;
    double m_overallZero = 0;
    std::vector<double> m_edges;
    std::vector<int> m_counts;
    std::vector<int> m_offCounts;
};

} // namespace attnlab
