#include "views/tokensview.h"

#include "session/messages.h"
#include "session/session.h"
#include "text/tokenizer.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

/// What kind of token this is, in words a student understands.
QString kindOf(const QString& token)
{
    const std::string s = token.toStdString();
    const auto& special = specialTokens();
    if (std::find(special.begin(), special.end(), s) != special.end())
        return TokensView::tr("special token");
    if (token.size() == 1 && token.at(0).isPunct())
        return TokensView::tr("punctuation");
    const uint c = token.toUcs4().value(0);
    if (token.toUcs4().size() == 1 && ((c >= 0x3400 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || c >= 0x20000))
        return TokensView::tr("CJK character");
    if (token.toUcs4().size() == 1 && (c >= 0x3000 && c <= 0x303F))
        return TokensView::tr("punctuation");
    return TokensView::tr("word");
}

} // namespace

TokensView::TokensView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_summary(new QLabel(this))
    , m_table(new QTableWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    m_table->setColumnCount(4);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    refresh();
}

void TokensView::refresh()
{
    const auto& trace = *session()->trace();
    m_table->setHorizontalHeaderLabels({tr("Position"), tr("Token"), tr("Kind"), tr("UTF-8 bytes")});
    m_table->setRowCount(static_cast<int>(trace.tokens.size()));
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 1.4);
    for (int i = 0; i < static_cast<int>(trace.tokens.size()); ++i) {
        const std::string& t = trace.tokens[static_cast<std::size_t>(i)];
        const QString token = QString::fromStdString(t);
        auto* tokenItem = new QTableWidgetItem(token);
        tokenItem->setFont(big);
        m_table->setItem(i, 0, new QTableWidgetItem(QString::number(i + 1))); // counted from 1
        m_table->setItem(i, 1, tokenItem);
        m_table->setItem(i, 2, new QTableWidgetItem(kindOf(token)));
        m_table->setItem(i, 3, new QTableWidgetItem(QString::number(t.size())));
    }
    m_table->resizeColumnsToContents();
    QString summary = tr("%n token(s). Each becomes one row of every matrix that follows.", nullptr,
                         static_cast<int>(trace.tokens.size()));
    for (const auto& w : trace.warnings)
        summary += QStringLiteral("\n\u26A0 ") + messageText(w);
    m_summary->setText(summary);
}

} // namespace attnlab
