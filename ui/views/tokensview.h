#pragma once
// The tokens step: what the tokenizer made of the sentence, as a strip of large token cards
// (the token; its position, counted from 1; its kind; its id in the model's vocabulary, or its
// size in UTF-8 bytes for an open vocabulary), wrapping onto more lines for long sentences.

#include "views/sessionview.h"

class QLabel;
class QListWidget;

namespace attnlab {

class Session;

class TokensView : public SessionView {
    Q_OBJECT
public:
    explicit TokensView(Session* session, QWidget* parent = nullptr);

    /// The strip: one item per token (text: the token; the card's other lines in cardLines()).
    QListWidget* strip() const { return m_strip; }
    /// The small lines under token `i`'s text: "#1", its kind, "id 7" or "3 bytes".
    static QStringList cardLines(const QListWidget* strip, int i);

private:
    void refresh() override;

    QLabel* m_summary;
    QListWidget* m_strip;
};

} // namespace attnlab
