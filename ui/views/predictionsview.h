#pragma once
// What a pretrained model predicts (issue 12 §5), from the rows of its `probabilities` stage:
// - BERT: at each [MASK] of the input, the 10 likeliest tokens as bars (fill-mask); without a
//   [MASK], a hint to type one and the bars of the chosen position;
// - GPT-2: the 10 likeliest next tokens after the chosen position (the last token unless the
//   user picks another), and the generation stepper (views/generationpanel.h) that appends
//   GPT-2's choices to the sentence.
// The studio shows it first on a pretrained model's probabilities step (a tab of its own beside
// "Stage", whose heatmap and top-k bars stay a click away). Positions count from 1 on screen
// ([CLS] is 1); the command line's fill-mask counts from 0. A folder without a head (BertModel)
// gets a message instead. Painted (PredictionBars), exported as its figure.

#include "views/captionedview.h"
#include "views/predictionbars.h"

#include <memory>

class QComboBox;
class QLabel;
class QScrollArea;

namespace attnlab {

class GenerationPanel;
class KvCachePanel;
struct PretrainedModel;
struct Seq2SeqModel;
struct Trace;

class PredictionsView : public CaptionedView {
    Q_OBJECT
public:
    explicit PredictionsView(Session* session, QWidget* parent = nullptr);

    /// How many tokens each block shows.
    static constexpr int kTopK = 10;

    PredictionBars* bars() const { return m_bars; }
    /// The position whose predictions are shown (GPT-2; BERT without a [MASK]).
    QComboBox* positionBox() const { return m_position; }
    /// "Type [MASK] in the sentence …" (BERT without a [MASK]).
    QLabel* hintLabel() const { return m_hint; }
    /// GPT-2's generation stepper (hidden for BERT).
    GenerationPanel* generation() const { return m_generation; }
    /// The key/value cache a decoder keeps (views/kvcachepanel.h; hidden for BERT).
    KvCachePanel* kvCache() const { return m_kvCache; }
    /// The position shown, 0-based, or −1 (masks only, or nothing to show).
    int row() const;
    void setRow(int row);

    QList<QAction*> windowActions() const override;
    QSize figureSize() const override;
    void paintFigure(QPainter& painter) const override;
    FigureName figureName() const override;

private:
    void refresh() override;
    void retranslate() override;
    void applyPalette() override;
    /// The model's message when it has no predictions to show, or empty.
    QString unavailableText(const PretrainedModel* model) const;
    /// Fills the position box with the text's tokens and chooses the row to show.
    void listPositions(const Trace& trace, const PretrainedModel& model);
    /// The block of `row`'s probabilities: the top-k, the text's own token marked.
    PredictionBlock rowBlock(const Trace& trace, const PretrainedModel& model, int row) const;
    /// One block per [MASK] (BERT).
    std::vector<PredictionBlock> maskBlocks(const Trace& trace, const PretrainedModel& model) const;
    /// "… the capital [MASK] of france …": the tokens around `position`.
    QString context(const Trace& trace, const PretrainedModel& model, int position) const;
    void updateCaption(bool gpt2, bool masks, const QString& family);

    QLabel* m_positionLabel;
    QComboBox* m_position;
    QLabel* m_hint;
    QScrollArea* m_scroll;
    PredictionBars* m_bars;
    GenerationPanel* m_generation;
    KvCachePanel* m_kvCache;
    bool m_followEnd = true; ///< GPT-2: show the last position, also when the text grows
    std::weak_ptr<const Seq2SeqModel> m_listedModel; ///< the model whose positions the box lists
};

} // namespace attnlab
