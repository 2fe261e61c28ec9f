#include "views/predictionsview.h"

#include "core/trace.h"
#include "model/model.h"
#include "session/messages.h"
#include "pretrained/generate.h"
#include "pretrained/model_folder.h"
#include "session/session.h"
#include "text/wordpiece.h"
#include "views/generationpanel.h"
#include "views/kvcachepanel.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

constexpr int kFigureMargin = 16;
constexpr int kFigureWidth = 900;
constexpr int kContext = 4; // tokens each side of a [MASK] in its block's title

const Stage* probabilitiesOf(const Trace& trace)
{
    return trace.find("probabilities", std::nullopt, std::nullopt, Block::None);
}

/// The token of vocabulary id `id` as the studio shows it ("␣the", "##ing").
QString labelOf(const PretrainedModel& model, int id)
{
    const auto& v = *model.vocabulary;
    return id >= 0 && static_cast<std::size_t>(id) < v.size() ? QString::fromStdString(v[static_cast<std::size_t>(id)])
                                                                : QString::number(id);
}

bool writesOn(const PretrainedModel& model)
{
    return model.predictsNextToken();
}

} // namespace

PredictionsView::PredictionsView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_positionLabel(new QLabel(content()))
    , m_position(new QComboBox(content()))
    , m_hint(new QLabel(content()))
    , m_scroll(new QScrollArea(content()))
    , m_bars(new PredictionBars)
    , m_generation(new GenerationPanel(session, content()))
    , m_kvCache(new KvCachePanel(content()))
{
    auto* body = new QVBoxLayout(content());
    body->setContentsMargins(0, 0, 0, 0);
    m_hint->setWordWrap(true);
    m_hint->setTextFormat(Qt::PlainText);
    body->addWidget(m_hint);
    auto* top = new QHBoxLayout;
    top->addWidget(m_positionLabel);
    top->addWidget(m_position);
    top->addStretch(1);
    body->addLayout(top);
    m_positionLabel->setBuddy(m_position);
    // ↑/↓ choose the position while the box has the focus (not the studio's head keys).
    m_position->setProperty(kOwnsArrowKeys, true);
    m_position->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_position->setMaxVisibleItems(20);
    m_scroll->setWidget(m_bars);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setFocusPolicy(Qt::NoFocus);
    body->addWidget(m_scroll, 1);
    body->addWidget(m_generation);
    body->addWidget(m_kvCache);
    setFocusProxy(m_position);

    connect(m_position, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_followEnd = index == m_position->count() - 1;
        requestRefresh();
    });
    retranslate();
    refresh();
}

int PredictionsView::row() const
{
    return m_position->isVisibleTo(this) ? m_position->currentIndex() : -1;
}

void PredictionsView::setRow(int row)
{
    m_position->setCurrentIndex(std::clamp(row, 0, m_position->count() - 1)); // redraws through currentIndexChanged
}

QList<QAction*> PredictionsView::windowActions() const
{
    return m_generation->stepActions();
}

QString PredictionsView::unavailableText(const PretrainedModel* model) const
{
    if (!model)
        return tr("Predictions come from a real model: open a Hugging Face model folder (%1) with File \u25B8 Models or "
                  "File \u25B8 Open model folder\u2026 (docs/pretrained-models.md says which files it needs).")
                  .arg(modelFamilyNames());
    if (!model->hasHead())
        return !model->predictsNextToken()
                   ? tr("This BERT folder has no masked-LM head (a BertModel checkpoint): it computes every layer's "
                        "attention but predicts no tokens. Open a BertForMaskedLM folder, such as bert-base-uncased, "
                        "to see what BERT fills in at [MASK].")
                   : tr("This model folder has no language-model head: it computes every layer's attention but "
                        "predicts no tokens.");
    return {};
}

void PredictionsView::refresh()
{
    const auto& model = session()->model();
    const PretrainedModel* p = model ? model->pretrained.get() : nullptr;
    if (const QString why = unavailableText(p); !why.isEmpty()) {
        m_bars->setBlocks({});
        showMessage(why);
        return;
    }
    // The studio makes a pretrained model's head when it is shown (pretrained/trace_detail.h).
    const auto trace = session()->headTrace();
    if (!trace || trace->tokenIds.empty() || !probabilitiesOf(*trace)) {
        m_bars->setBlocks({});
        showMessage(tr("No predictions: the sentence could not be computed. %1").arg(session()->error()));
        return;
    }
    showContent();
    const bool gpt2 = writesOn(*p);
    std::vector<PredictionBlock> blocks = gpt2 ? std::vector<PredictionBlock>{} : maskBlocks(*trace, *p);
    const bool masks = !blocks.empty();
    listPositions(*trace, *p);
    m_positionLabel->setVisible(!masks);
    m_position->setVisible(!masks);
    m_hint->setVisible(!gpt2 && !masks);
    if (!masks)
        blocks.push_back(rowBlock(*trace, *p, m_position->currentIndex()));
    m_bars->setBlocks(std::move(blocks));
    m_generation->setVisible(gpt2);
    m_kvCache->setVisible(gpt2);
    if (gpt2)
        m_kvCache->showCache(kvCacheShape(p->config()), static_cast<int>(trace->tokenIds.size()), p->config().positions);
    updateCaption(gpt2, masks, familyTitle(p));
}

void PredictionsView::listPositions(const Trace& trace, const PretrainedModel& model)
{
    const QSignalBlocker quiet(m_position);
    const int n = static_cast<int>(trace.tokenIds.size());
    // Another model starts at its default position.
    const bool sameModel = m_listedModel.lock() == session()->model();
    m_listedModel = session()->model();
    if (!sameModel)
        m_followEnd = true;
    const int before = sameModel ? m_position->currentIndex() : -1;
    m_position->clear();
    for (int i = 0; i < n; ++i)
        m_position->addItem(QStringLiteral("%1: %2").arg(i + 1).arg(labelOf(model, trace.tokenIds[static_cast<std::size_t>(i)])));
    // GPT-2: the last token unless the user chose another; BERT: the first word after [CLS].
    int row = before;
    if (writesOn(model) && (m_followEnd || before < 0))
        row = n - 1;
    else if (before < 0)
        row = std::min(1, n - 1);
    m_position->setCurrentIndex(std::clamp(row, 0, n - 1));
}

PredictionBlock PredictionsView::rowBlock(const Trace& trace, const PretrainedModel& model, int row) const
{
    const Eigen::MatrixXf& p = probabilitiesOf(trace)->main().values;
    const std::vector<int>& ids = trace.tokenIds;
    // The token the text has at the predicted place: GPT-2 predicts the next one, BERT its own.
    const bool gpt2 = writesOn(model);
    const int there = gpt2 ? row + 1 : row;
    const int textId = there < static_cast<int>(ids.size()) ? ids[static_cast<std::size_t>(there)] : -1;
    PredictionBlock block;
    const QString token = labelOf(model, ids[static_cast<std::size_t>(row)]);
    block.title = gpt2 ? tr("After \u201C%1\u201D (position %2): the likeliest next tokens").arg(token).arg(row + 1)
                       : tr("Position %1 (\u201C%2\u201D): the likeliest tokens there").arg(row + 1).arg(token);
    for (const auto& [id, prob] : topProbabilities(p.row(row), kTopK))
        block.bars.push_back({labelOf(model, id), id, prob, id == textId});
    return block;
}

std::vector<PredictionBlock> PredictionsView::maskBlocks(const Trace& trace, const PretrainedModel& model) const
{
    std::vector<PredictionBlock> blocks;
    const std::optional<int> mask = model.wordPiece ? model.wordPiece->id("[MASK]") : std::nullopt;
    if (!mask)
        return blocks;
    const Eigen::MatrixXf& p = probabilitiesOf(trace)->main().values;
    for (int i = 0; i < static_cast<int>(trace.tokenIds.size()); ++i) {
        if (trace.tokenIds[static_cast<std::size_t>(i)] != *mask)
            continue;
        PredictionBlock block;
        block.title = tr("[MASK] at %1: %2").arg(i + 1).arg(context(trace, model, i));
        for (const auto& [id, prob] : topProbabilities(p.row(i), kTopK))
            block.bars.push_back({labelOf(model, id), id, prob, false});
        blocks.push_back(std::move(block));
    }
    return blocks;
}

QString PredictionsView::context(const Trace& trace, const PretrainedModel& model, int position) const
{
    // The words around the mask, as read: "##" pieces joined to their word, [CLS]/[SEP] left out.
    const int n = static_cast<int>(trace.tokenIds.size());
    const auto piece = [&](int i) { return i >= 0 && i < n && labelOf(model, trace.tokenIds[static_cast<std::size_t>(i)]).startsWith(u"##"); };
    // Whole words: the context widens to the start of its first word and the end of its last.
    int first = std::max(0, position - kContext);
    while (first > 0 && piece(first))
        --first;
    int last = std::min(n - 1, position + kContext);
    while (piece(last + 1))
        ++last;
    QString text;
    for (int i = first; i <= last; ++i) {
        const int id = trace.tokenIds[static_cast<std::size_t>(i)];
        const QString token = labelOf(model, id);
        if (i != position && (token == u"[CLS]" || token == u"[SEP]" || token == u"[PAD]"))
            continue;
        if (token.startsWith(u"##") && !text.isEmpty())
            text += token.mid(2);
        else
            text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + token;
    }
    const bool cutBefore = first > 1;     // more than [CLS] left out
    const bool cutAfter = last < n - 2;   // more than the last [SEP]
    return (cutBefore ? QStringLiteral("\u2026 ") : QString()) + text + (cutAfter ? QStringLiteral(" \u2026") : QString());
}

void PredictionsView::updateCaption(bool gpt2, bool masks, const QString& family)
{
    if (gpt2)
        captionLabel()->setText(tr("What %2 expects next: the %1 likeliest tokens after the chosen position, from its "
                                   "row of the probabilities (the softmax of the logits). A bar's length is its "
                                   "probability on a scale up to 100 %; \u2423 marks a leading space; the outlined bar "
                                   "is the token the text has next.")
                                    .arg(kTopK)
                                    .arg(family));
    else
        captionLabel()->setText(tr("What BERT fills in: at each [MASK], the %1 likeliest tokens from that position's row "
                                   "of the masked-LM head's probabilities. A bar's length is its probability on a scale "
                                   "up to 100 %. Positions count from 1, [CLS] being 1, as everywhere in the studio (fill-mask --json and "
                                   "the trace JSON count from 0).")
                                    .arg(kTopK)
                                + (masks ? QString() : tr(" The outlined bar is the token the text has there.")));
}

void PredictionsView::retranslate()
{
    m_positionLabel->setText(tr("Position:"));
    m_position->setToolTip(tr("The token whose row of the probabilities is shown (counted from 1, as everywhere in the studio; "
                              "the trace JSON counts from 0); \u2191/\u2193 choose another"));
    m_hint->setText(tr("Type [MASK] in the sentence to see what BERT fills in. Meanwhile, the likeliest tokens at one "
                       "position:"));
}

void PredictionsView::applyPalette()
{
    m_bars->update();
}

// --- Export ---------------------------------------------------------------------------------

QSize PredictionsView::figureSize() const
{
    if (m_bars->blocks().empty())
        return {};
    const int width = kFigureWidth - 2 * kFigureMargin;
    const int line = QFontMetrics(font()).height();
    return {kFigureWidth, 2 * kFigureMargin + line + 12 + m_bars->heightFor(width, font())};
}

void PredictionsView::paintFigure(QPainter& p) const
{
    const QSize size = figureSize();
    if (size.isEmpty())
        return;
    p.save();
    const int width = size.width() - 2 * kFigureMargin;
    const int line = QFontMetrics(font()).height();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(Qt::black);
    const auto& model = session()->model();
    const bool gpt2 = model && model->pretrained && writesOn(*model->pretrained);
    const QString title = tr("%1 on \u201C%2\u201D").arg(gpt2 ? QStringLiteral("GPT-2") : QStringLiteral("BERT"), session()->sentence());
    p.drawText(QRect(kFigureMargin, kFigureMargin, width, line + 4), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(title, Qt::ElideRight, width));
    p.setFont(font());
    QPalette light;
    light.setColor(QPalette::WindowText, Qt::black);
    m_bars->paintBlocks(p, QRect(kFigureMargin, kFigureMargin + line + 12, width, size.height() - line - 12 - 2 * kFigureMargin), light);
    p.restore();
}

FigureName PredictionsView::figureName() const
{
    return {QStringLiteral("predictions"), std::nullopt, Block::None};
}

} // namespace attnlab
