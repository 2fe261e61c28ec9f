#pragma once
// The model view: every layer × head of one attention block at once, as BertViz's model view
// shows a model. A grid of small pictures of the attention weights (ModelGrid: rows = layers,
// columns = heads), the chosen query token's row framed in all of them; a click (or Enter) opens
// that layer and head in the studio: the Session goes to its weights step and head and shows the
// stage. A model with several blocks (an encoder–decoder) has a block choice; the query token is
// chosen in a list, or follows a cell clicked in a heatmap of the weights.

#include "views/attentionview.h"

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;

namespace attnlab {

class ModelGrid;
struct Trace;

class ModelView : public AttentionView {
    Q_OBJECT
public:
    explicit ModelView(Session* session, QWidget* parent = nullptr);

    ModelGrid* grid() const { return m_grid; }
    QScrollArea* scrollArea() const { return m_scroll; }
    /// The query token framed in every picture (0-based); its choice.
    int queryToken() const;
    QComboBox* tokenBox() const { return m_tokenBox; }
    /// Each picture's colours from 0 to its largest weight (ModelGrid::setStretched).
    QCheckBox* stretchBox() const { return m_stretch; }
    void setQueryToken(int token);

    QSize figureSize() const override;
    void paintFigure(QPainter& painter) const override;
    FigureName figureName() const override;

signals:
    /// The user opened (layer, head) of block(): the studio now shows its attention weights.
    void headOpened(int layer, int head);

private:
    void refresh() override;
    void showBlock() override;
    void retranslate() override;
    void applyFonts() override;
    void applyPalette() override;
    /// Fills the token list from the grid's maps, keeping the chosen position where it still exists.
    void fillTokens();
    /// Outlines the layer and head the studio shows, when its step is this block's weights.
    void showOpened();
    void followSelection(int row);
    void followStep();
    void open(int layer, int head);
    void showEvent(QShowEvent* event) override;
    /// Scrolls the keyboard's cell into view.
    void revealFocusCell();
    void updateCaption();

    ModelGrid* m_grid;
    QScrollArea* m_scroll;
    QLabel* m_tokenLabel;
    QComboBox* m_tokenBox;
    QCheckBox* m_stretch;
    QWidget* m_key; ///< the colour key: 0 … 1
    std::vector<QString> m_tokens; ///< the query tokens listed in m_tokenBox
};

/// Paints the colour key of attention weights, "0 ▭▭▭ 1" (or "0 ▭▭▭ largest" for stretched
/// pictures), into `r`: the model view's key and its exports.
void paintWeightKey(QPainter& painter, const QRect& r, const QColor& text, bool stretched);

} // namespace attnlab
