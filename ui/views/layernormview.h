#pragma once
// A LayerNorm stage of a Transformer layer (attn_norm, cross_norm, ffn_norm; encoder_output and
// decoder_output when a final norm is applied), seen as what it does to each token:
//
//     LN(x) = (x − μ) / √(σ² + ε) · γ + β        μ, σ²: mean and biased variance of the row x
//
// Two bar plots, one bar pair per token: the mean and the variance of the LayerNorm's input row
// (the stage's "mean" and "variance" matrices) beside those of its output row (computed here
// from the main matrix, over the d_model features). Before, the means and variances are whatever
// the residual stream made them; after, every token sits on mean 0 and variance 1 (then γ and β
// scale and shift each feature; the seeded models start with γ = 1, β = 0). Under them the
// input and the output as heatmaps side by side (rows = tokens), on one symmetric colour scale
// unless the user unticks it.
//
// An RMSNorm (the modern decoders' attn_norm, ffn_norm, attn_post_norm, ffn_post_norm and
// decoder_output, whose stages hold "mean_square" instead of "mean" and "variance"):
//
//     RMSNorm(x) = x / √(mean(x²) + ε) · γ        (Gemma 3: · (1 + w))
//
// the same layout with the root mean square per token on the right (before: √mean_square;
// after: the output row's; the dashed line at 1 is x / RMS(x) before γ) and each row's mean on
// the left, which RMSNorm does not move to 0 (before: from the input rows, when found).
//
// The input is the stage the trace records as the LayerNorm's input (Stage::inputs), looked up in
// the session's full trace (a Pre-LN layer's input belongs to the previous layer):
//   Post-LN: attn_norm ← attn_residual, cross_norm ← cross_residual, ffn_norm ← ffn_residual
//   Pre-LN:  attn_norm ← the layer's input (input, or the previous layer's layer_output),
//            cross_norm ← attn_residual, ffn_norm ← attn_residual (encoder) / cross_residual (decoder)
//   encoder_output / decoder_output ← the stack's last layer_output
// The layer's input is named as the engine's layer formulas write it: X in an encoder layer, Y in
// a decoder layer. When the input cannot be found only the output heatmap is shown. Steps that
// are not a LayerNorm (and one attention block, which has none) show a short message instead of
// the plots.

#include "core/trace.h"
#include "views/captionedview.h"

#include <QSharedPointer>
#include <QString>
#include <QVector>

#include <utility>
#include <vector>

class QCheckBox;
class QCPAxisTicker;
class QCustomPlot;
class QResizeEvent;

namespace attnlab {

class HeatmapView;
class Session;

class LayerNormView : public CaptionedView {
    Q_OBJECT
public:
    /// ε when the trace has no model (PyTorch's layer_norm_eps default).
    static constexpr double kDefaultEpsilon = 1e-5;

    explicit LayerNormView(Session* session, QWidget* parent = nullptr);

    // --- what is shown ---------------------------------------------------------------------
    /// True when the current step is a LayerNorm stage with its statistics (the plots are shown);
    /// false when the message is shown instead.
    bool hasStage() const { return !m_stageId.isEmpty(); }
    /// The LayerNorm stage shown ("attn_norm", ...), empty when none.
    const QString& stageId() const { return m_stageId; }
    /// The stage whose main matrix is the LayerNorm's input ("attn_residual", "input",
    /// "layer_output", ...), empty when it was not found.
    const QString& inputStageId() const { return m_inputStageId; }
    /// Per token (one per row): the input row's mean μ and biased variance σ² (the stage's
    /// "mean" and "variance"), and the output row's mean and biased variance over its d features.
    const std::vector<double>& inputMeans() const { return m_inMean; }
    const std::vector<double>& inputVariances() const { return m_inVar; }
    const std::vector<double>& outputMeans() const { return m_outMean; }
    const std::vector<double>& outputVariances() const { return m_outVar; }
    /// True when the stage is an RMSNorm (it holds "mean_square"): the right plot shows the root
    /// mean squares instead of the variances.
    bool isRmsNorm() const { return m_rms; }
    /// RMSNorm, per token: √(mean(x²)) of the input row (from the stage's "mean_square") and of
    /// the output row (computed here). Empty for a LayerNorm.
    const std::vector<double>& inputRms() const { return m_inRms; }
    const std::vector<double>& outputRms() const { return m_outRms; }
    /// ε of the LayerNorm (the model's, else kDefaultEpsilon).
    double epsilon() const { return m_eps; }
    /// The token labels of the bars (the stage's row labels).
    const std::vector<QString>& tokens() const { return m_tokens; }

    // --- widgets ---------------------------------------------------------------------------
    /// Mean per token: input bars (plottable 0), output bars (plottable 1), the dashed line at 0
    /// (graph 0) and a dot on each output bar (graph 1).
    QCustomPlot* meanPlot() const { return m_meanPlot; }
    /// Variance per token (an RMSNorm's: the root mean square): input bars (plottable 0), output
    /// bars (plottable 1), the dashed line at 1 (graph 0) and the dots (graph 1). A linear axis
    /// from 0, or a log axis when a value exceeds 10.
    QCustomPlot* variancePlot() const { return m_variancePlot; }
    /// The LayerNorm's input (hidden when it was not found) and its output.
    HeatmapView* inputView() const { return m_inputView; }
    HeatmapView* outputView() const { return m_outputView; }
    /// One symmetric colour range for both heatmaps (on by default).
    QCheckBox* sharedScaleBox() const { return m_shared; }
    // captionLabel(): the formula with ε, and what the plots show; messageLabel(): shown instead
    // of the plots when there is no LayerNorm stage to show.

private:
    void setUpLayout();
    void refresh() override;
    void showNoStage();
    void readStatistics(const LabeledMatrix& mean, const LabeledMatrix& variance);
    void readRmsStatistics(const LabeledMatrix& meanSquare);
    void writeRmsCaption();
    void readModel(const Trace& trace, const Stage& stage);
    void findInput(const Stage& stage);
    void writeCaption();
    void drawStatistics();
    void drawMeans(const QVector<double>& keys);
    void drawVariances(const QVector<double>& keys);
    void drawHeatmaps();
    void retranslate() override;
    void applyFonts() override;
    void resizeEvent(QResizeEvent* event) override;

    QCustomPlot* m_meanPlot;
    QCustomPlot* m_variancePlot;
    QCheckBox* m_shared;
    HeatmapView* m_inputView;
    HeatmapView* m_outputView;
    QSharedPointer<QCPAxisTicker> m_linearTicker; ///< the variance axis' two tickers
    QSharedPointer<QCPAxisTicker> m_logTicker;

    // Copies of what is drawn.
    QString m_stageId;
    QString m_inputStageId;
    LabeledMatrix m_output;
    LabeledMatrix m_input; ///< empty when the input was not found
    QString m_outputFormula; ///< the stage's formula, e.g. "N₁ = LN₁(R₁)"
    QString m_inputTitle;    ///< what the input is, e.g. "R₁ = X + SA(X)"
    QString m_inputName;     ///< the input as the formulas name it, e.g. "R₁", "X"
    std::vector<QString> m_tokens;
    std::vector<double> m_inMean;
    std::vector<double> m_inVar;
    std::vector<double> m_outMean;
    std::vector<double> m_outVar;
    std::vector<double> m_inRms;
    std::vector<double> m_outRms;
    bool m_rms = false;
    bool m_normPlusOne = false; ///< Gemma 3's RMSNorm multiplies by (1 + w)
    double m_eps = kDefaultEpsilon;
    bool m_preNorm = false;
    /// γ and β of this LayerNorm, when the model is known: whether they are 1 and 0, and their ranges.
    bool m_knownAffine = false;
    bool m_identityAffine = true;
    std::pair<double, double> m_gammaRange{1, 1};
    std::pair<double, double> m_betaRange{0, 0};
};

} // namespace attnlab
