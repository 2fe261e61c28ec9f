#pragma once
// The cell inspector's table of terms: a header, rows of numbers ("term rows": a label, then one
// number a column), and "ledger rows" (a label spanning all but the last column, the result in
// the last one). Each number cell keeps its exact value (Qt::UserRole) beside the rounded text.

#include <QStringList>
#include <QTableWidget>

#include <vector>

namespace attnlab {

/// 4 significant digits, U+2212 for minus, "−∞" for minus infinity, "0" only for an exact zero.
QString explanationNumber(double v);

class ExplanationTable : public QTableWidget {
    Q_OBJECT
public:
    explicit ExplanationTable(QWidget* parent = nullptr);

    /// Empties the table and sets its column headers.
    void start(const QStringList& headers);
    /// A label, then `numbers` in the following columns (NaN: an empty cell). Returns the row.
    int addTermRow(const QString& label, const std::vector<double>& numbers);
    /// A label across the term columns and `value` in the last column. Returns the row.
    int addLedgerRow(const QString& label, double value, bool emphasised = false);
    /// Bold text in every cell of `row`.
    void emphasiseRow(int row);
    /// Sizes the columns to their numbers (the label column takes the rest) and scrolls to the top.
    void finish();

    /// The exact number behind a cell, or NaN when the cell holds text or nothing.
    double number(int row, int column) const;
};

} // namespace attnlab
