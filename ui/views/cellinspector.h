#pragma once
// The cell inspector: explains where the selected number of the current stage came from.
//
//   scores / scaled / mask / masked_scores (i, j): q_i and k_j side by side, their products,
//       Σ = q_i·k_j, ÷ √d_k, + M_ij, and the resulting attention weight A_ij;
//   weights (row i): the row before softmax (S″_i, masked keys marked −∞) and after (A_i) as
//       bar charts, with exp(S″ − max), the weights and the check Σ A_ij = 1;
//   head_output (i, c): the terms A_ij·V_j[c] of Z_i[c];
//   q / k / v (i, c): the largest terms X_i[d]·W[r, d], the bias and the sum;
//   other stages: the value with its row and column labels.
//
// It follows the Session's step, head and selected cell and shows a hint when nothing (or nothing
// valid any more) is selected. The numbers come from the engine's explanations of the Trace
// (explain/cell_explanation.h), which recompute them from the trace alone; the panel formats them.

#include "views/sessionview.h"

#include <QStringList>

#include <QMap>
#include <QString>

#include <vector>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace attnlab {

struct ScoreExplanation;

class ExplanationTable;
class Session;
class SoftmaxBars;
struct Trace;

class CellInspector : public SessionView {
    Q_OBJECT
public:
    /// What the panel currently explains.
    enum class Mode {
        Hint,       ///< nothing (valid) selected
        Score,      ///< a cell of scores, scaled, mask or masked_scores
        WeightsRow, ///< a row of weights
        HeadOutput, ///< a cell of head_output
        Projection, ///< a cell of q, k or v
        Value,      ///< any other stage: one line
    };

    explicit CellInspector(Session* session, QWidget* parent = nullptr);

    Mode mode() const { return m_mode; }
    /// "query “cat” (row 2) · key “mat” (column 5)"; empty in Mode::Hint.
    QString headingText() const;
    /// The explanation under the heading (the hint in Mode::Hint).
    QString summaryText() const;
    /// The table of terms (hidden in Mode::Hint and Mode::Value).
    QTableWidget* table() const;
    /// The before/after-softmax bar charts (visible only in Mode::WeightsRow). Its plottables
    /// are named "scores" (finite S″_ij) and "weights" (A_ij); each masked key has a text item "−∞".
    QCustomPlot* barsPlot() const;
    /// The exact number behind a table cell (as displayed, before rounding), or NaN when the
    /// cell holds text or nothing.
    double tableNumber(int row, int column) const;
    /// The named results shown, unrounded. Keys by mode:
    ///   Score:      "recomputed" (Σ q·k), "trace" (S_ij), "scaled", "mask", "masked", "weight"
    ///   WeightsRow: "max", "sumExp", "sum" (Σ A_ij), "masked" (count of masked keys)
    ///   HeadOutput: "recomputed" (Σ A·V), "trace" (Z_i[c])
    ///   Projection: "bias", "recomputed" (Σ X·W + b), "trace", "omitted" (sum of terms not listed)
    ///   Value:      "trace"
    const QMap<QString, double>& shownValues() const { return m_values; }
    /// shownValues().value(key, NaN).
    double shownValue(const QString& key) const;
    /// The masked keys of the row in Mode::WeightsRow (column indices), else empty.
    const std::vector<int>& maskedKeys() const { return m_maskedKeys; }

private:
    void refresh() override;
    void applyFonts() override;
    void applyPalette() override;
    void explain();
    void showHint();
    void showScore(const Trace& t, const QString& id, int head, int row, int col);
    /// The summary of a score's explanation: S, S′, S″ and A with their numbers.
    QStringList scoreLines(const Trace& t, const ScoreExplanation& e, const QString& id, int head, int i, int j) const;
    void showWeightsRow(const Trace& t, int head, int row, int col);
    void showHeadOutput(const Trace& t, int head, int row, int col);
    void showProjection(const Trace& t, const QString& id, int head, int row, int col);
    void showValue(const Trace& t, const QString& id, int head, int row, int col);
    /// Shows the heading, the summary lines, and the table (and the bar charts when `plot`).
    void present(const QString& heading, const QStringList& lines, bool plot);

    QLabel* m_heading = nullptr;
    QLabel* m_summary = nullptr;
    SoftmaxBars* m_plot = nullptr;
    ExplanationTable* m_table = nullptr;

    Mode m_mode = Mode::Hint;
    QMap<QString, double> m_values;
    std::vector<int> m_maskedKeys;
};

} // namespace attnlab
