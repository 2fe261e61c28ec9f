#include "views/tokensview.h"

#include "session/messages.h"
#include "session/session.h"
#include "text/tokenizer.h"

#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QStyledItemDelegate>
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

constexpr int kLinesRole = Qt::UserRole + 1; // the card's small lines, a QStringList
constexpr int kPadding = 10;
constexpr double kTokenScale = 2.2; // the token's type against the view's

/// Paints a token as a card: the token large, its position, kind and id small under it. The
/// sizes follow the view's font, so presenter mode's large type makes larger cards.
class TokenCard : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static QFont tokenFont(const QFont& base)
    {
        QFont f = base;
        f.setPointSizeF(base.pointSizeF() * kTokenScale);
        return f;
    }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const QFontMetrics big(tokenFont(option.font));
        const QFontMetrics small(option.font);
        int width = big.horizontalAdvance(index.data().toString());
        const QStringList lines = index.data(kLinesRole).toStringList();
        for (const QString& line : lines)
            width = std::max(width, small.horizontalAdvance(line));
        return {std::max(width, big.height()) + 2 * kPadding, big.height() + static_cast<int>(lines.size()) * small.lineSpacing() + 2 * kPadding};
    }

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        painter->save();
        const QRect card = option.rect.adjusted(1, 1, -1, -1);
        const bool selected = option.state & QStyle::State_Selected;
        painter->setPen(QPen(selected ? option.palette.color(QPalette::Highlight) : option.palette.color(QPalette::Mid), selected ? 3 : 1));
        painter->setBrush(option.palette.color(QPalette::Base));
        painter->drawRoundedRect(card, 6, 6);
        const QFont big = tokenFont(option.font);
        const int bigHeight = QFontMetrics(big).height();
        painter->setFont(big);
        painter->setPen(option.palette.color(QPalette::Text));
        painter->drawText(QRect(card.left(), card.top() + kPadding - 1, card.width(), bigHeight), Qt::AlignCenter, index.data().toString());
        painter->setFont(option.font);
        painter->setPen(option.palette.color(QPalette::PlaceholderText));
        const int lineHeight = QFontMetrics(option.font).lineSpacing();
        int y = card.top() + kPadding - 1 + bigHeight;
        for (const QString& line : index.data(kLinesRole).toStringList()) {
            painter->drawText(QRect(card.left(), y, card.width(), lineHeight), Qt::AlignCenter, line);
            y += lineHeight;
        }
        painter->restore();
    }
};

} // namespace

TokensView::TokensView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_summary(new QLabel(this))
    , m_strip(new QListWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    layout->addWidget(m_strip, 1);
    // Left to right, wrapping onto the next line: the sentence reads as a sentence.
    m_strip->setViewMode(QListView::IconMode);
    m_strip->setFlow(QListView::LeftToRight);
    m_strip->setWrapping(true);
    m_strip->setResizeMode(QListView::Adjust);
    m_strip->setMovement(QListView::Static);
    m_strip->setSpacing(6);
    m_strip->setFrameShape(QFrame::NoFrame);
    m_strip->setItemDelegate(new TokenCard(m_strip));
    refresh();
}

QStringList TokensView::cardLines(const QListWidget* strip, int i)
{
    const QListWidgetItem* item = strip->item(i);
    return item ? item->data(kLinesRole).toStringList() : QStringList();
}

void TokensView::refresh()
{
    const auto& trace = *session()->trace();
    // A model with a closed vocabulary gives each token its embedding row's id.
    const std::shared_ptr<const Seq2SeqModel>& model = session()->model();
    const std::vector<std::string>* vocab = model && !model->openVocabulary() ? &model->srcVocab : nullptr;
    m_strip->clear();
    for (int i = 0; i < static_cast<int>(trace.tokens.size()); ++i) {
        const std::string& t = trace.tokens[static_cast<std::size_t>(i)];
        const QString token = QString::fromStdString(t);
        QStringList lines{QStringLiteral("#%1").arg(i + 1), kindOf(token)};
        if (i < static_cast<int>(trace.tokenIds.size())) {
            // A pretrained model's subword: its vocabulary id, and BERT's segment.
            QString id = tr("id %1").arg(trace.tokenIds[static_cast<std::size_t>(i)]);
            if (i < static_cast<int>(trace.segmentIds.size()))
                id += QStringLiteral(" · ") + (trace.segmentIds[static_cast<std::size_t>(i)] == 0 ? tr("segment A") : tr("segment B"));
            lines << id;
        } else if (vocab) {
            const auto at = std::find(vocab->begin(), vocab->end(), t);
            lines << (at == vocab->end() ? tr("not in the vocabulary") : tr("id %1").arg(at - vocab->begin()));
        } else {
            lines << (t.size() == 1 ? tr("1 UTF-8 byte") : tr("%1 UTF-8 bytes").arg(t.size()));
        }
        auto* item = new QListWidgetItem(token, m_strip);
        item->setData(kLinesRole, lines);
        item->setToolTip(tr("Token %1 of %2: \u201C%3\u201D").arg(i + 1).arg(trace.tokens.size()).arg(token));
    }
    const int n = static_cast<int>(trace.tokens.size());
    QString summary = n == 1 ? tr("1 token. It becomes one row of every matrix that follows.")
                             : tr("%1 tokens. Each becomes one row of every matrix that follows.").arg(n);
    for (const auto& w : trace.warnings)
        summary += QStringLiteral("\n") + messageText(w);
    m_summary->setText(summary);
}

} // namespace attnlab
