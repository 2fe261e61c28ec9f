#include "lessons/modelbanner.h"

#include "session/modelsfolder.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

ModelBanner::ModelBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_reveal(new QPushButton(this))
    , m_retry(new QPushButton(this))
{
    setObjectName(QStringLiteral("ModelBanner"));
    setFrameShape(QFrame::StyledPanel);
    // Amber, as the lesson's notes: the lesson plays on, with fewer steps.
    setStyleSheet(QStringLiteral("#ModelBanner { background: #fff4dc; border: 1px solid #c98a00; border-radius: 4px; }"
                                 "#ModelBanner QLabel { color: #4a3200; }"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(8, 6, 8, 6);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::MarkdownText);
    m_text->setOpenExternalLinks(true); // the hub's page of the model
    m_text->setTextInteractionFlags(Qt::TextBrowserInteraction); // the folder's path can be copied
    column->addWidget(m_text);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_problem->hide();
    column->addWidget(m_problem);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_reveal);
    buttons->addWidget(m_retry);
    buttons->addStretch(1);
    column->addLayout(buttons);
    for (QPushButton* b : {m_reveal, m_retry})
        b->setFocusPolicy(Qt::NoFocus); // the stepping keys stay where they were
    m_text->installEventFilter(this);
    m_problem->installEventFilter(this);
    connect(m_reveal, &QPushButton::clicked, this, &ModelBanner::reveal);
    connect(m_retry, &QPushButton::clicked, this, &ModelBanner::retryRequested);
    retranslate();
    setVisible(false);
}

void ModelBanner::setMarkdown(const QString& markdown)
{
    m_markdown = markdown;
    m_text->setText(markdown);
    m_problem->clear();
    m_problem->hide();
    setVisible(!markdown.isEmpty());
    fitText();
}

void ModelBanner::fitText()
{
    for (QLabel* label : {m_text, m_problem}) {
        // A label's height for a width never goes below its minimum height: measure without it.
        const int before = label->minimumHeight();
        label->setMinimumHeight(0);
        const int height = label->isHidden() ? 0 : std::max(label->heightForWidth(label->width()), 0);
        label->setMinimumHeight(height == before ? before : height);
    }
}

bool ModelBanner::eventFilter(QObject* watched, QEvent* event)
{
    // A label's width is settled when it is resized itself: its height follows from it.
    if (event->type() == QEvent::Resize)
        fitText();
    return QFrame::eventFilter(watched, event);
}

QString ModelBanner::markdown() const
{
    return isHidden() ? QString() : m_markdown;
}

void ModelBanner::reveal()
{
    QString error;
    if (ModelsFolder::reveal(&error)) {
        m_problem->hide();
        return;
    }
    m_problem->setText(tr("The Models folder cannot be shown: %1").arg(error));
    m_problem->show();
    fitText();
}

void ModelBanner::retranslate()
{
    m_reveal->setText(tr("Open the Models folder"));
    m_retry->setText(tr("Look again"));
    m_reveal->setToolTip(tr("Show the Models folder in the file manager (it is made when missing)"));
    m_retry->setToolTip(tr("Look for the model in the Models folder again, after downloading it"));
}

void ModelBanner::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate(); // the player writes the text again in the new language
}

} // namespace attnlab
