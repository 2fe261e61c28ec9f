#include "shell/gettingstarted.h"

#include "shell/shortcutsheet.h"
#include "shell/stepkeys.h"

#include <QDialogButtonBox>
#include <QEvent>
#include <QKeySequence>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace attnlab {

namespace {

const QString kShortcutsLink = QStringLiteral("#shortcuts");

QString row(const QString& keys, const QString& what)
{
    return QStringLiteral("<tr><td style=\"padding-right:16px\"><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
}

QString native(const QKeySequence& keys)
{
    return keys.toString(QKeySequence::NativeText);
}

} // namespace

GettingStarted::GettingStarted(QWidget* parent)
    : QDialog(parent)
    , m_page(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("GettingStarted"));
    auto* layout = new QVBoxLayout(this);
    m_page->setOpenLinks(false); // the one link opens the shortcut sheet, not a page
    connect(m_page, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.toString() == kShortcutsLink)
            emit shortcutsRequested();
    });
    layout->addWidget(m_page);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(680, 640);
    refresh();
}

QString GettingStarted::html()
{
    QString h;
    h += QStringLiteral("<h2>%1</h2>").arg(tr("Getting started"));
    h += QStringLiteral("<h3>%1</h3>").arg(tr("What you see"));
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("Type a sentence in the box at the top. Attention Lab computes attention on it and keeps every "
                     "intermediate result: the tokens, their embeddings, the queries Q, keys K and values V, the scores "
                     "Q\u00B7K\u1D40, their scaling by \u221Ad_k, the mask, the softmax weights A and the output A\u00B7V. "
                     "The <b>Stages</b> panel lists these steps; the picture shows one of them, and the banner above it "
                     "gives its formula. Click a cell to see how it was computed."));
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("In a heatmap, rows are queries (the token that looks) and columns are keys (the tokens it looks "
                     "at); every row of the weights sums to 1. The <b>Settings</b> panel changes the computation (d_model, "
                     "heads, the mask, the positional encoding, the attention kind, a whole Transformer, or a real model "
                     "such as GPT-2, BERT, Llama or Qwen from <i>File \u25B8 Models</i>), and every picture follows at once."));
    h += QStringLiteral("<h3>%1</h3>").arg(tr("Keys (a presentation clicker sends them too)"));
    h += QStringLiteral("<table>");
    h += row(StepKeys::keysText(StepKey::Next), ShortcutSheet::tr("Next step"));
    h += row(StepKeys::keysText(StepKey::Previous), ShortcutSheet::tr("Previous step"));
    h += row(StepKeys::keysText(StepKey::First) + QStringLiteral(" / ") + StepKeys::keysText(StepKey::Last),
             tr("First / last stage"));
    h += row(StepKeys::keysText(StepKey::NextHead) + QStringLiteral(" / ") + StepKeys::keysText(StepKey::PreviousHead),
             tr("Next / previous head"));
    h += row(native(QKeySequence(Qt::Key_F11)), tr("Presenter mode: the picture and the text alone, in large type"));
    h += row(StepKeys::keysText(StepKey::Blackout), ShortcutSheet::tr("Black screen (presenter mode)"));
    h += row(StepKeys::keysText(StepKey::Escape), ShortcutSheet::tr("Leave presenter mode, or give the keys back from a text field"));
    h += row(native(QKeySequence(Qt::CTRL | Qt::Key_L)), tr("Type in the sentence box"));
    h += QStringLiteral("</table>");
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("The keys step wherever the focus is, except in a text field you are typing in. Every shortcut: "
                     "<a href=\"%1\">Help \u25B8 Keyboard shortcuts</a> (%2).")
                      .arg(kShortcutsLink, native(QKeySequence(Qt::CTRL | Qt::Key_F1))));
    h += QStringLiteral("<h3>%1</h3>").arg(tr("Lessons"));
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("The <b>Lessons</b> panel lists the lessons, from queries, keys and values to masks, multi-head "
                     "attention, positions, the whole Transformer, GPT-2 and BERT, efficient attention and training. Pick "
                     "one: each step sets the sentence and the settings and shows one stage beside its explanation, and the "
                     "keys above step through it. <b>Stop lesson</b> brings back your own sentence and settings; <b>Export "
                     "lesson\u2026</b> saves a lesson as a PDF deck to project. The GPT-2 and BERT lessons need the model "
                     "in the Models folder (<i>File \u25B8 Models</i> says where and what to download)."));
    return h;
}

void GettingStarted::refresh()
{
    setWindowTitle(tr("Getting started"));
    m_page->setHtml(html());
}

QString GettingStarted::plainText() const
{
    return m_page->toPlainText();
}

void GettingStarted::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        refresh();
}

} // namespace attnlab
