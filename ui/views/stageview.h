#pragma once
// The current stage's matrix as a labelled heatmap (Q, K, V, X, scores, mask, weights,
// outputs): the current head for per-head stages, with its shape; clicking a cell selects it.

#include "core/model_spec.h"
#include "views/sessionview.h"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace attnlab {

class ColumnPlot;
class HeatmapView;
class TopKView;
class Session;
struct Stage;

class StageView : public SessionView {
    Q_OBJECT
public:
    explicit StageView(Session* session, QWidget* parent = nullptr);

    HeatmapView* heatmap() const { return m_heatmap; }
    /// The bars of an n × 1 stage (error, normalizer, buckets), shown instead of the heatmap.
    ColumnPlot* column() const { return m_column; }
    /// The top-k bars of one position, beside the output probabilities (hidden for other stages).
    TopKView* topK() const { return m_topK; }
    QCheckBox* sharedScaleBox() const { return m_shared; }
    /// "One colour scale for Q·Kᵀ, ÷√d_k and + M" (Session::sharedScoreScale), on those stages.
    QCheckBox* sharedScoresBox() const { return m_sharedScores; }
    /// Scores, Scaled and Masked scores: the stages that may share one colour range.
    static bool isScoreStage(const QString& id);
    /// The value axis's label of an n × 1 stage's bars (error, normalizer; none for buckets).
    static QString columnAxisLabel(const QString& id, AttentionKind kind);
    /// The stage shown (null for steps without a matrix, such as "tokens").
    const Stage* stage() const;
    /// The title drawn above the heatmap (also used for exports).
    QString title() const { return m_title; }
    /// The heatmap's plot: the stage view exports as one vector plot with its title and colour bar;
    /// with the top-k bars beside it (the output probabilities), both; an n × 1 stage's bars.
    QList<QCustomPlot*> exportedPlots() const override;

private:
    void refresh() override;
    void retranslate() override;
    /// Presenter mode starts or ends with a change of type: the title comes or goes.
    void applyFonts() override { requestRefresh(); }
    void resizeEvent(QResizeEvent* event) override;
    /// The top-k bars beside the heatmap or below it, as the view's width and the matrix's shape allow.
    void placeTopK();
    /// The top-k bars' position: the selected row, else the lesson's highlighted one.
    void followHighlightedRow();
    /// The ±range the heatmap shares with other stages or heads, or 0 for the stage's own.
    double sharedRange(const Stage& s) const;

    QComboBox* m_matrixChoice;
    QCheckBox* m_shared;
    QCheckBox* m_sharedScores;
    QLabel* m_shape;
    QBoxLayout* m_plots; ///< the heatmap and the top-k bars: across, or down in a narrow view
    HeatmapView* m_heatmap;
    ColumnPlot* m_column;
    TopKView* m_topK;
    QString m_title;
};

} // namespace attnlab
