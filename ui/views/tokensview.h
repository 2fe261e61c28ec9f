#pragma once
// The tokens step: what the tokenizer made of the sentence, one row per token.

#include "views/sessionview.h"

class QLabel;
class QTableWidget;

namespace attnlab {

class Session;

class TokensView : public SessionView {
    Q_OBJECT
public:
    explicit TokensView(Session* session, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }

private:
    void refresh() override;

    QLabel* m_summary;
    QTableWidget* m_table;
};

} // namespace attnlab
