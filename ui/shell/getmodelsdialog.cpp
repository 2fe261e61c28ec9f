#include "shell/getmodelsdialog.h"

#include "hub/catalogue.h"
#include "hub/downloadtext.h"
#include "session/messages.h"
#include "lessons/deck.h"
#include "session/modeldownloads.h"
#include "session/modelsfolder.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attnlab {

namespace {

enum Column {
    ModelColumn,
    SizeColumn,
    LicenceColumn,
    UseColumn,
    LessonsColumn,
    HereColumn,
};

constexpr int kBarSteps = 1000;

/// The shipped lessons that need each model, by number ("15, 17"), read once.
const QMap<QString, QStringList>& lessonsByModel()
{
    static const QMap<QString, QStringList> map = [] {
        QMap<QString, QStringList> m;
        const QDir dir(QStringLiteral(":/lessons/en"));
        for (const QString& f : dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name)) {
            try {
                const Lesson lesson = readLessonFile(dir.filePath(f));
                if (lesson.requirement)
                    m[QString::fromStdString(lesson.requirement->name)] << QString::number(f.left(2).toInt());
            } catch (const std::exception&) {
                // A shipped lesson always reads (tests/ui/lessons check it); nothing to list otherwise.
            }
        }
        return m;
    }();
    return map;
}

void setBar(QProgressBar* bar, qint64 done, qint64 total)
{
    bar->setRange(0, total > 0 ? kBarSteps : 0); // a busy bar while the size is not known
    if (total > 0)
        bar->setValue(static_cast<int>(std::min<qint64>(kBarSteps, done * kBarSteps / total)));
}

} // namespace

GetModelsDialog::GetModelsDialog(QWidget* parent)
    : QDialog(parent)
    , m_intro(new QLabel(this))
    , m_list(new QTreeWidget(this))
    , m_details(new QLabel(this))
    , m_repoLabel(new QLabel(this))
    , m_repo(new QLineEdit(this))
    , m_revisionLabel(new QLabel(this))
    , m_revision(new QLineEdit(QStringLiteral("main"), this))
    , m_endpointLabel(new QLabel(this))
    , m_endpoint(new QLineEdit(this))
    , m_tokenLabel(new QLabel(this))
    , m_token(new QLineEdit(this))
    , m_fileText(new QLabel(this))
    , m_fileBar(new QProgressBar(this))
    , m_overallText(new QLabel(this))
    , m_overallBar(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_download(new QPushButton(this))
    , m_cancel(new QPushButton(this))
    , m_close(new QPushButton(this))
{
    setObjectName(QStringLiteral("GetModelsDialog"));
    auto* layout = new QVBoxLayout(this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);
    m_list->setRootIsDecorated(false);
    m_list->setColumnCount(HereColumn + 1);
    m_list->header()->setSectionResizeMode(UseColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    layout->addWidget(m_list, 1);
    m_details->setWordWrap(true); // the selected model's use in full (the column may cut it)
    layout->addWidget(m_details);

    auto* form = new QFormLayout;
    form->addRow(m_repoLabel, m_repo);
    form->addRow(m_revisionLabel, m_revision);
    form->addRow(m_endpointLabel, m_endpoint);
    form->addRow(m_tokenLabel, m_token);
    layout->addLayout(form);
    m_token->setEchoMode(QLineEdit::Password);

    for (QWidget* w : {static_cast<QWidget*>(m_fileText), static_cast<QWidget*>(m_fileBar), static_cast<QWidget*>(m_overallText),
                       static_cast<QWidget*>(m_overallBar)})
        layout->addWidget(w);
    for (QProgressBar* bar : {m_fileBar, m_overallBar})
        bar->setTextVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse); // an error can be copied
    layout->addWidget(m_status);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_download, QDialogButtonBox::ActionRole);
    buttons->addButton(m_cancel, QDialogButtonBox::ActionRole);
    buttons->addButton(m_close, QDialogButtonBox::RejectRole);
    layout->addWidget(buttons);
    m_download->setDefault(true);

    connect(m_download, &QPushButton::clicked, this, &GetModelsDialog::startDownload);
    connect(m_cancel, &QPushButton::clicked, this, [] { ModelDownloads::instance()->cancel(ModelDownloads::instance()->running()); });
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &GetModelsDialog::updateButtons);
    connect(m_repo, &QLineEdit::textChanged, this, &GetModelsDialog::updateButtons);
    ModelDownloads* downloads = ModelDownloads::instance();
    connect(downloads, &ModelDownloads::started, this, [this] {
        refresh();
        updateButtons();
    });
    connect(downloads, &ModelDownloads::progressed, this, &GetModelsDialog::showProgress);
    connect(downloads, &ModelDownloads::finished, this, &GetModelsDialog::showFinished);

    retranslate();
    m_list->setCurrentItem(m_list->topLevelItem(0));
    if (!downloads->running().isEmpty())
        showProgress(downloads->running(), downloads->progress());
    resize(1000, 620);
}

void GetModelsDialog::retranslate()
{
    setWindowTitle(tr("Get models"));
    m_intro->setText(tr("A real model shows what trained attention heads do. Attention Lab fetches only the files it reads, checks each "
                        "against the hub's checksum and puts the model in your Models folder, %1. A download that stops goes on "
                        "from where it stopped the next time.")
                         .arg(QDir::toNativeSeparators(ModelsFolder::path())));
    m_list->setHeaderLabels({tr("Model"), tr("Download"), tr("Licence"), tr("Good for"), tr("Lessons"), tr("In your Models folder")});
    m_repoLabel->setText(tr("Another model (owner/name):"));
    m_repo->setPlaceholderText(tr("e.g. openai-community/gpt2"));
    m_revisionLabel->setText(tr("Revision:"));
    m_endpointLabel->setText(tr("From (hub or mirror):"));
    m_tokenLabel->setText(tr("Access token:"));
    m_download->setText(tr("&Download"));
    m_cancel->setText(tr("&Cancel download"));
    m_close->setText(tr("Close"));
    m_close->setToolTip(tr("Downloads go on after the dialog is closed"));
    const bool fromEnvironment = HubAddress::endpointSource() == HubAddress::Source::Environment;
    m_endpoint->setText(HubAddress::endpoint());
    m_endpoint->setReadOnly(fromEnvironment);
    m_endpoint->setToolTip(fromEnvironment ? tr("HF_ENDPOINT is set in the environment: models come from %1").arg(HubAddress::endpoint())
                                           : tr("https://huggingface.co, or a mirror with the same API (such as https://hf-mirror.com)"));
    const bool tokenFromEnvironment = HubAddress::tokenSource() == HubAddress::Source::Environment;
    m_token->setEnabled(!tokenFromEnvironment);
    m_token->setText(tokenFromEnvironment ? QString() : HubAddress::token());
    m_token->setPlaceholderText(tokenFromEnvironment ? tr("from HF_TOKEN") : tr("only for gated models (optional; kept for your user)"));
    fillList();
    updateButtons();
}

void GetModelsDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void GetModelsDialog::fillList()
{
    const QString current = selectedName();
    const bool another = m_list->currentItem() && m_list->currentItem()->data(ModelColumn, Qt::UserRole).toString().isEmpty();
    m_list->clear();
    for (const RecommendedModel& m : ModelCatalogue::recommended()) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(ModelColumn, m.name);
        item->setToolTip(ModelColumn, m.repo);
        item->setData(ModelColumn, Qt::UserRole, m.name);
        item->setData(ModelColumn, Qt::UserRole + 1, m.repo);
        item->setText(SizeColumn, tr("about %1").arg(DownloadText::bytes(m.bytes)));
        item->setText(LicenceColumn, m.licence);
        item->setText(UseColumn, ModelCatalogue::useText(m));
        item->setToolTip(UseColumn, ModelCatalogue::useText(m));
        const QStringList lessons = lessonsByModel().value(m.name);
        item->setText(LessonsColumn, lessons.join(QStringLiteral(", ")));
    }
    auto* other = new QTreeWidgetItem(m_list);
    other->setText(ModelColumn, tr("Another model\u2026"));
    other->setText(UseColumn, tr("any %1 on the hub: type its owner/name below").arg(modelFamilyNames()));
    refresh();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        const QString name = item->data(ModelColumn, Qt::UserRole).toString();
        if ((another && name.isEmpty()) || (!another && !current.isEmpty() && name == current))
            m_list->setCurrentItem(item);
    }
    for (int c = 0; c < HereColumn; ++c) {
        if (c != UseColumn)
            m_list->resizeColumnToContents(c);
    }
}

void GetModelsDialog::refresh()
{
    const ModelCatalog catalog = ModelsFolder::scan();
    ModelDownloads* downloads = ModelDownloads::instance();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        const QString name = item->data(ModelColumn, Qt::UserRole).toString();
        if (name.isEmpty())
            continue;
        const bool here = std::any_of(catalog.models.begin(), catalog.models.end(), [&](const ModelFolderInfo& m) { return m.name == name.toStdString(); });
        const qint64 partial = ModelDownload::partialBytes(ModelsFolder::path(), name);
        QString state = QStringLiteral("\u2014");
        if (here)
            state = tr("\u2714 yes");
        else if (downloads->isBusy(name))
            state = downloads->running() == name ? tr("downloading\u2026") : tr("waiting\u2026");
        else if (partial > 0)
            state = tr("%1 so far; Download goes on").arg(DownloadText::bytes(partial));
        item->setText(HereColumn, state);
    }
    m_list->resizeColumnToContents(HereColumn);
}

void GetModelsDialog::select(const QString& name)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(ModelColumn, Qt::UserRole).toString() == name)
            m_list->setCurrentItem(m_list->topLevelItem(i));
    }
}

QString GetModelsDialog::selectedName() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    if (!item)
        return {};
    const QString name = item->data(ModelColumn, Qt::UserRole).toString();
    if (!name.isEmpty())
        return name;
    const auto repo = HubAddress::parseRepoId(m_repo->text(), nullptr);
    return repo ? repo->name : QString();
}

void GetModelsDialog::updateButtons()
{
    const QTreeWidgetItem* item = m_list->currentItem();
    const QString repo = item ? item->data(ModelColumn, Qt::UserRole + 1).toString() : QString();
    m_details->setText(!item ? QString()
                       : repo.isEmpty() ? item->text(UseColumn)
                                        : tr("%1 (%2, %3): %4").arg(item->text(ModelColumn), repo, item->text(LicenceColumn), item->toolTip(UseColumn)));
    const bool another = item && item->data(ModelColumn, Qt::UserRole).toString().isEmpty();
    m_repo->setEnabled(another);
    m_revision->setEnabled(another);
    ModelDownloads* downloads = ModelDownloads::instance();
    const QString name = selectedName();
    m_download->setEnabled(item && (another ? !m_repo->text().trimmed().isEmpty() : true) && !(name.size() && downloads->isBusy(name)));
    m_cancel->setEnabled(!downloads->running().isEmpty());
    if (downloads->running().isEmpty()) {
        m_fileText->clear();
        m_overallText->clear();
        setBar(m_fileBar, 0, 1);
        setBar(m_overallBar, 0, 1);
    }
}

bool GetModelsDialog::startDownload()
{
    QString error;
    if (HubAddress::endpointSource() != HubAddress::Source::Environment) {
        const std::optional<QString> endpoint = HubAddress::checkEndpoint(m_endpoint->text(), &error);
        if (!endpoint) {
            showStatus(error, true);
            return false;
        }
        HubAddress::setEndpoint(*endpoint);
    }
    if (HubAddress::tokenSource() != HubAddress::Source::Environment)
        HubAddress::setToken(m_token->text());
    const QTreeWidgetItem* item = m_list->currentItem();
    if (!item)
        return false;
    const QString name = item->data(ModelColumn, Qt::UserRole).toString();
    const QString typed = name.isEmpty() ? m_repo->text() : item->data(ModelColumn, Qt::UserRole + 1).toString();
    const std::optional<RepoId> repo = HubAddress::parseRepoId(typed, &error);
    const QString revision = name.isEmpty() ? m_revision->text().trimmed() : QStringLiteral("main");
    if (!repo || !HubAddress::checkRevision(revision, &error)) {
        showStatus(error, true);
        return false;
    }
    const QString folder = ModelDownloads::instance()->download(*repo, revision, name);
    showStatus(tr("Downloading %1 into %2\u2026").arg(repo->id(), QDir::toNativeSeparators(QDir(ModelsFolder::path()).filePath(folder))), false);
    refresh();
    updateButtons();
    return true;
}

void GetModelsDialog::showProgress(const QString& name, const DownloadProgress& p)
{
    ModelDownloads* downloads = ModelDownloads::instance();
    if (p.phase == DownloadProgress::Phase::Listing) {
        m_fileText->setText(tr("%1: reading the list of files and config.json\u2026").arg(name));
        setBar(m_fileBar, 0, 0);
        setBar(m_overallBar, 0, 0);
    } else {
        m_fileText->setText(DownloadText::file(p));
        setBar(m_fileBar, p.fileDone, p.fileTotal);
        setBar(m_overallBar, p.done, p.total);
    }
    m_overallText->setText(tr("%1: %2").arg(name, DownloadText::overall(p, downloads->rate())));
    m_cancel->setEnabled(true);
}

void GetModelsDialog::showFinished(const QString& name, const DownloadResult& result)
{
    const QString folder = QDir::toNativeSeparators(result.folder);
    if (result.failure.kind == HubFailure::Kind::Cancelled)
        showStatus(tr("%1: %2").arg(name, result.failure.message), false);
    else if (result.failure)
        showStatus(tr("%1 could not be downloaded: %2").arg(name, result.failure.message), true);
    else if (result.alreadyThere)
        showStatus(tr("%1 is in your Models folder already (%2).").arg(name, folder), false);
    else
        showStatus(tr("%1 is in your Models folder now (%2): File \u25B8 Models opens it, and the lessons that need it play.").arg(name, folder), false);
    refresh();
    updateButtons();
}

void GetModelsDialog::showStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020; font-weight: bold;") : QString());
}

} // namespace attnlab
