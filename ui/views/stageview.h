#pragma once
// The current stage's matrix as a labelled heatmap (Q, K, V, X, scores, mask, weights,
// outputs): the current head for per-head stages, with its shape; clicking a cell selects it.

#include "views/sessionview.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace attnlab {

class HeatmapView;
class Session;
struct Stage;

class StageView : public SessionView {
    Q_OBJECT
public:
    explicit StageView(Session* session, QWidget* parent = nullptr);

    HeatmapView* heatmap() const { return m_heatmap; }
    QCheckBox* sharedScaleBox() const { return m_shared; }
    /// The stage shown (null for steps without a matrix, such as "tokens").
    const Stage* stage() const;
    /// The title drawn above the heatmap (also used for exports).
    QString title() const { return m_title; }
    /// The heatmap's plot: the stage view exports as one vector plot with its title and colour bar.
    QList<QCustomPlot*> exportedPlots() const override;

private:
    void refresh() override;
    void retranslate() override;

    QComboBox* m_matrixChoice;
    QCheckBox* m_shared;
    QLabel* m_shape;
    HeatmapView* m_heatmap;
    QString m_title;
};

} // namespace attnlab
