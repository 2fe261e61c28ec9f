#pragma once
// The k most probable next tokens at one position of the output probabilities, as horizontal
// bars with their tokens and probabilities: readable where the n × vocabulary heatmap is not.
// The model's choice (the argmax) is marked, and so is the token that really follows (the
// teacher-forced target, or the generated token) when the decoder's input shows it. Positions
// count from 1 on screen; the view keeps a copy of what it draws.

#include "core/trace.h"
#include "explain/top_k.h"

#include <QWidget>

#include <vector>

class QCustomPlot;
class QLabel;
class QSpinBox;

namespace attnlab {

class TopKView : public QWidget {
    Q_OBJECT
public:
    explicit TopKView(QWidget* parent = nullptr);

    /// Shows row row() of `m` (probabilities: one row per position, one column per token).
    void setMatrix(const LabeledMatrix& m);
    /// A masked language model's probabilities (BERT's): each position's own fill-in, so no
    /// "next token" is named or outlined. Off by default.
    void setMaskedLanguageModel(bool on);
    /// The position shown, 0-based (the spin box shows it 1-based).
    int row() const;
    void setRow(int row);
    int k() const;
    void setK(int k);

    /// What the bars show, most probable first.
    const std::vector<RankedEntry>& entries() const { return m_entries; }
    /// The column the model picks (argmax of the row), or -1.
    int chosenColumn() const { return m_entries.empty() ? -1 : m_entries.front().index; }
    /// The column of the token that follows this position in the decoder's input, or -1 (the last
    /// position, a token the vocabulary lacks, a masked language model).
    int nextColumn() const;
    /// The texts beside the bars, in the bars' order ("0.87  ◀ argmax").
    QStringList barTexts() const;

    QCustomPlot* plot() const { return m_plot; }
    QSpinBox* positionSpin() const { return m_position; }
    QSpinBox* kSpin() const { return m_k; }

signals:
    /// The user picked another position (0-based).
    void rowChanged(int row);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void redraw();
    void retranslate();
    QString label(const Labels& labels, int i) const;

    QLabel* m_positionLabel;
    QSpinBox* m_position;
    QLabel* m_kLabel;
    QSpinBox* m_k;
    QCustomPlot* m_plot;
    QLabel* m_note;
    LabeledMatrix m_matrix;
    std::vector<RankedEntry> m_entries;
    bool m_maskedLm = false;
};

} // namespace attnlab
