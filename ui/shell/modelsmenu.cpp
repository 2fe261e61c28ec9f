#include "shell/modelsmenu.h"

#include "lesson/requirement.h"
#include "session/messages.h"
#include "session/modelsfolder.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/getmodelsdialog.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QUrl>

namespace attnlab {

namespace {

/// A menu text shows '&' as itself only when doubled.
QString menuText(QString text)
{
    return text.replace(QLatin1Char('&'), QStringLiteral("&&"));
}

QAction* addInfo(QMenu* menu, const QString& text)
{
    QAction* a = menu->addAction(menuText(text));
    a->setEnabled(false);
    return a;
}

} // namespace

ModelsMenu::ModelsMenu(Session* session, FileActions* files, QWidget* window)
    : QObject(files)
    , m_session(session)
    , m_files(files)
    , m_window(window)
{
}

QMenu* ModelsMenu::insertInto(QMenu* file, QAction* before)
{
    auto* menu = new QMenu(tr("Mo&dels"), file);
    file->insertMenu(before, menu);
    menu->setToolTipsVisible(true); // why a folder cannot be opened
    // Read again at every opening: a model downloaded meanwhile appears.
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { fill(menu); });
    fill(menu); // a menu with entries from the start (keyboard navigation, the shortcut sheet)
    return menu;
}

void ModelsMenu::fill(QMenu* menu)
{
    menu->clear();
    const ModelCatalog catalog = ModelsFolder::scan();
    const bool opened = m_session->config().model == ModelKind::File;
    for (const ModelFolderInfo& m : catalog.models) {
        const QString path = QFile::decodeName(m.path.c_str());
        QAction* a = menu->addAction(menuText(ModelsFolder::describe(m)));
        a->setData(path);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setCheckable(true);
        a->setChecked(opened && !m_session->modelPath().isEmpty() && QDir(m_session->modelPath()) == QDir(path));
        connect(a, &QAction::triggered, this, [this, path] { m_files->importModel(path); });
    }
    for (const SkippedModelFolder& s : catalog.skipped)
        addInfo(menu, tr("%1 \u2014 not a model folder Attention Lab opens").arg(QString::fromStdString(s.name)))->setToolTip(QString::fromStdString(s.reason));
    if (catalog.models.empty()) {
        // What to download, as links that open the hub's pages, then where to put it.
        const QStringList hint = ModelsFolder::downloadHint();
        addInfo(menu, hint.value(0));
        for (const char* name : {"gpt2", "bert-base-uncased"}) {
            const KnownModel* known = knownModel(name);
            const QString page = QStringLiteral("huggingface.co/") + QString::fromUtf8(known->hubId.data(), qsizetype(known->hubId.size()));
            const QUrl url(QStringLiteral("https://") + page);
            QAction* a = menu->addAction(menuText(tr("Download %1 from %2").arg(QString::fromUtf8(name), page)));
            a->setData(url);
            a->setToolTip(url.toString());
            connect(a, &QAction::triggered, this, [this, url] {
                if (!QDesktopServices::openUrl(url))
                    emit statusReported(tr("No web browser could open %1").arg(url.toString()), true);
            });
        }
        for (const QString& line : hint.mid(1))
            addInfo(menu, line);
    }
    menu->addSeparator();
    menu->addAction(tr("&Get models\u2026"), this, &ModelsMenu::getModels)
        ->setToolTip(tr("Download a model (%1) from the Hugging Face Hub or a mirror into the Models folder").arg(modelFamilyNames()));
    // The folder's address opens it, as "Open the Models folder" does.
    QAction* where = menu->addAction(menuText(tr("Models folder: %1").arg(QDir::toNativeSeparators(ModelsFolder::path()))), this,
                                     &ModelsMenu::reveal);
    where->setToolTip(tr("Show this folder in the file manager (made first when missing)"));
    menu->addAction(tr("&Open the Models folder"), this, &ModelsMenu::reveal);
    menu->addAction(tr("&Set Models folder\u2026"), this, &ModelsMenu::chooseDialog);
}

bool ModelsMenu::choose(const QString& dir)
{
    const QFileInfo info(dir);
    if (dir.isEmpty() || (info.exists() && !info.isDir()) || (!info.exists() && !QDir().mkpath(dir))) {
        emit statusReported(tr("Cannot use %1 as the Models folder: it is not a folder that exists or can be made")
                                .arg(QDir::toNativeSeparators(dir)),
                            true);
        return false;
    }
    ModelsFolder::choose(dir);
    const auto count = static_cast<int>(ModelsFolder::scan().models.size());
    emit statusReported(tr("Models folder: %1 (models found: %2)").arg(QDir::toNativeSeparators(ModelsFolder::path())).arg(count), false);
    return true;
}

void ModelsMenu::chooseDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Set Models folder"), ModelsFolder::path());
    if (!dir.isEmpty())
        choose(dir);
}

GetModelsDialog* ModelsMenu::getModels()
{
    if (!m_dialog)
        m_dialog = new GetModelsDialog(m_window); // modeless: the studio stays usable
    m_dialog->refresh();
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
    return m_dialog;
}

void ModelsMenu::reveal()
{
    QString error;
    if (!ModelsFolder::reveal(&error))
        emit statusReported(tr("The Models folder cannot be shown: %1").arg(error), true);
}

} // namespace attnlab
