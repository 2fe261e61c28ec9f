#include "lessons/modelbanner.h"

#include "hub/downloadtext.h"
#include "session/modeldownloads.h"
#include "session/modelsfolder.h"
#include "widgets/flowlayout.h"

#include <QEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

ModelBanner::ModelBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_progressText(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_download(new QPushButton(this))
    , m_cancel(new QPushButton(this))
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
    m_progressText->setWordWrap(true);
    m_progressText->hide();
    m_progress->setTextVisible(false);
    m_progress->hide();
    column->addWidget(m_progressText);
    column->addWidget(m_progress);
    // The buttons flow onto a second line in a narrow lesson panel rather than widen it.
    auto* row = new QWidget(this);
    auto* buttons = new FlowLayout(row);
    for (QPushButton* b : {m_download, m_cancel, m_reveal, m_retry})
        buttons->addWidget(b);
    column->addWidget(row);
    for (QPushButton* b : {m_download, m_cancel, m_reveal, m_retry})
        b->setFocusPolicy(Qt::NoFocus); // the stepping keys stay where they were
    m_download->hide();
    m_cancel->hide();
    m_text->installEventFilter(this);
    m_problem->installEventFilter(this);
    m_progressText->installEventFilter(this);
    connect(m_reveal, &QPushButton::clicked, this, &ModelBanner::reveal);
    connect(m_retry, &QPushButton::clicked, this, &ModelBanner::retryRequested);
    connect(m_download, &QPushButton::clicked, this, &ModelBanner::download);
    connect(m_cancel, &QPushButton::clicked, this, [this] { ModelDownloads::instance()->cancel(m_name); });
    ModelDownloads* downloads = ModelDownloads::instance();
    connect(downloads, &ModelDownloads::started, this, &ModelBanner::updateDownload);
    connect(downloads, &ModelDownloads::progressed, this, [this](const QString& name, const DownloadProgress& p) {
        if (name != m_name)
            return;
        const bool sized = p.total > 0 && p.phase != DownloadProgress::Phase::Listing;
        m_progress->setRange(0, sized ? 1000 : 0);
        if (sized)
            m_progress->setValue(static_cast<int>(p.done * 1000 / p.total));
        m_progressText->setText(tr("Downloading %1: %2").arg(m_name, DownloadText::overall(p, ModelDownloads::instance()->rate())));
    });
    connect(downloads, &ModelDownloads::finished, this, [this](const QString& name, const DownloadResult& result) {
        if (name != m_name)
            return;
        updateDownload();
        if (result.failure.kind == HubFailure::Kind::Cancelled)
            showProblem(result.failure.message);
        else if (result.failure)
            showProblem(tr("%1 could not be downloaded: %2").arg(m_name, result.failure.message));
        else
            emit retryRequested(); // the model is there: play with it
    });
    retranslate();
    setVisible(false);
}

void ModelBanner::setMarkdown(const QString& markdown)
{
    const bool same = markdown == m_markdown;
    m_markdown = markdown;
    m_text->setText(markdown);
    if (!same) { // a new step of the same lesson keeps what the download said
        m_problem->clear();
        m_problem->hide();
    }
    setVisible(!markdown.isEmpty());
    fitText();
}

void ModelBanner::setDownload(const QString& name, const QString& repo)
{
    m_name = name;
    m_repo = repo;
    updateDownload();
}

void ModelBanner::updateDownload()
{
    const bool busy = !m_name.isEmpty() && ModelDownloads::instance()->isBusy(m_name);
    m_download->setVisible(!m_repo.isEmpty());
    m_download->setEnabled(!busy);
    m_cancel->setVisible(busy);
    m_progress->setVisible(busy);
    m_progressText->setVisible(busy);
    if (busy && ModelDownloads::instance()->running() != m_name)
        m_progressText->setText(tr("%1 waits for another download to finish").arg(m_name));
    else if (busy)
        m_progressText->setText(tr("Downloading %1\u2026").arg(m_name));
    fitText();
}

void ModelBanner::download()
{
    QString error;
    const std::optional<RepoId> repo = HubAddress::parseRepoId(m_repo, &error);
    if (!repo) {
        showProblem(error);
        return;
    }
    m_problem->hide();
    ModelDownloads::instance()->download(*repo, QStringLiteral("main"), m_name);
    updateDownload();
}

void ModelBanner::showProblem(const QString& text)
{
    m_problem->setText(text);
    m_problem->show();
    fitText();
}

void ModelBanner::fitText()
{
    for (QLabel* label : {m_text, m_problem, m_progressText}) {
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
    showProblem(tr("The Models folder cannot be shown: %1").arg(error));
}

void ModelBanner::retranslate()
{
    m_download->setText(tr("Download"));
    m_download->setToolTip(tr("Download the model from the Hugging Face hub into the Models folder, then play the lesson with it"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the download; what arrived is kept, and Download goes on from there"));
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
