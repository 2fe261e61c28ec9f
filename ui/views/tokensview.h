#pragma once
// The tokens step: what the tokenizer made of the sentence, one row per token.

#include <QWidget>

class QLabel;
class QTableWidget;

namespace attnlab {

class Session;

class TokensView : public QWidget {
    Q_OBJECT
public:
    explicit TokensView(Session* session, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }

private:
    void refresh();

    Session* m_session;
    QLabel* m_summary;
    QTableWidget* m_table;
};

} // namespace attnlab
