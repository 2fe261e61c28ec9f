#pragma once
// The head view (the picture people know from BertViz): for the chosen query token, a line to
// every key it attends in one layer, one colour per head (the heads' colours of the multi-head
// view), thickness and opacity the weight (HeadLines). Above it the layer (and the block, for an
// encoder–decoder); beside it a legend whose check boxes switch heads on and off. The layer and
// block follow the studio's step; the token follows a cell clicked in this block's weights.

#include "views/attentionview.h"

#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attnlab {

class HeadLines;

class HeadView : public AttentionView {
    Q_OBJECT
public:
    explicit HeadView(Session* session, QWidget* parent = nullptr);

    HeadLines* lines() const { return m_lines; }
    /// The layer shown, 1-based as on screen.
    QSpinBox* layerBox() const { return m_layerBox; }
    /// The legend's check box of 0-based `head`, or null.
    QCheckBox* headBox(int head) const;
    int headBoxCount() const { return static_cast<int>(m_headBoxes.size()); }
    /// 0-based layer shown.
    int layer() const;
    void setLayer(int layer);

    QSize figureSize() const override;
    void paintFigure(QPainter& painter) const override;
    FigureName figureName() const override;

private:
    void refresh() override;
    void showBlock() override;
    void retranslate() override;
    void applyPalette() override;
    void showLayer();
    void rebuildLegend(int heads);
    void followStep();
    void followSelection(int row);
    void updateCaption();
    /// "Layer 2 of encoder self-attention" (or the block alone for one attention block).
    QString placeText() const;
    /// Paints the legend of the shown heads in one row (the exported figure's).
    void paintLegend(QPainter& p, const QRect& r) const;

    QLabel* m_layerLabel;
    QSpinBox* m_layerBox;
    HeadLines* m_lines;
    QWidget* m_legend;
    QGridLayout* m_legendLayout;
    QPushButton* m_allHeads;
    QPushButton* m_noHeads;
    std::vector<QCheckBox*> m_headBoxes;
};

} // namespace attnlab
