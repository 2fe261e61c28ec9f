#include "views/explanationtable.h"

#include "plot/plotting.h"

#include <QHeaderView>

#include <cmath>
#include <limits>

namespace attnlab {

QString explanationNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("\u2212\u221E") : QStringLiteral("\u221E");
    if (v == 0.0)
        return QStringLiteral("0");
    return minusSigned(QString::number(v, 'g', 4));
}

namespace {

/// A right-aligned number cell that keeps the exact value, with the long form as its tooltip.
QTableWidgetItem* numberItem(double v)
{
    auto* item = new QTableWidgetItem(explanationNumber(v));
    item->setData(Qt::UserRole, v);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setToolTip(std::isfinite(v) ? QString::number(v, 'g', 9) : explanationNumber(v));
    return item;
}

} // namespace

ExplanationTable::ExplanationTable(QWidget* parent)
    : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    verticalHeader()->setVisible(false);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8); // a compact ledger
    horizontalHeader()->setStretchLastSection(true);
    setWordWrap(false);
}

void ExplanationTable::start(const QStringList& headers)
{
    clearSpans();
    clear();
    setRowCount(0);
    setColumnCount(static_cast<int>(headers.size()));
    setHorizontalHeaderLabels(headers);
}

int ExplanationTable::addTermRow(const QString& label, const std::vector<double>& numbers)
{
    const int row = rowCount();
    insertRow(row);
    setItem(row, 0, new QTableWidgetItem(label));
    for (std::size_t c = 0; c < numbers.size(); ++c) {
        if (!std::isnan(numbers[c])) // NaN: an empty cell
            setItem(row, static_cast<int>(c) + 1, numberItem(numbers[c]));
    }
    return row;
}

int ExplanationTable::addLedgerRow(const QString& label, double value, bool emphasised)
{
    const int cols = columnCount();
    const int row = rowCount();
    insertRow(row);
    auto* first = new QTableWidgetItem(label);
    first->setToolTip(label); // the label may be elided in a narrow panel
    setItem(row, 0, first);
    setItem(row, cols - 1, numberItem(value));
    if (emphasised)
        emphasiseRow(row);
    if (cols > 2)
        setSpan(row, 0, 1, cols - 1); // the explanation reads across the term columns
    return row;
}

void ExplanationTable::emphasiseRow(int row)
{
    QFont bold = font();
    bold.setBold(true);
    for (int c = 0; c < columnCount(); ++c) {
        if (QTableWidgetItem* it = item(row, c))
            it->setFont(bold);
    }
}

void ExplanationTable::finish()
{
    // Numbers take the width they need; the first column (labels, and the ledger rows that
    // span it) takes the rest.
    QHeaderView* header = horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (columnCount() > 0)
        header->setSectionResizeMode(0, QHeaderView::Stretch);
    // Every row shown, none behind a scroll bar: the table is as tall as its rows (the inspector
    // scrolls as a whole when its panel is shorter).
    int height = 2 * frameWidth() + (header->isHidden() ? 0 : header->sizeHint().height());
    for (int r = 0; r < rowCount(); ++r)
        height += rowHeight(r);
    setFixedHeight(height);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scrollToTop();
}

double ExplanationTable::number(int row, int column) const
{
    const QTableWidgetItem* it = item(row, column);
    if (!it)
        return std::numeric_limits<double>::quiet_NaN();
    const QVariant v = it->data(Qt::UserRole);
    return v.isValid() ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace attnlab
