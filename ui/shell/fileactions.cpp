#include "shell/fileactions.h"

#include "views/sessionview.h"

#include "export/compareexport.h"
#include "export/exporter.h"
#include "export/exportname.h"
#include "export/figureexport.h"
#include "lessons/deck.h"
#include "lessons/lessonplayer.h"
#include "session/autosave.h"
#include "session/messages.h"
#include "session/session.h"
#include "widgets/statedictdialog.h"
#include "shell/modelsmenu.h"
#include "shell/viewstack.h"
#include "views/compareview.h"
#include "views/heatmapview.h"
#include "views/multiheadview.h"
#include "views/stageview.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>

namespace attnlab {

namespace {

constexpr int kMaxRecent = 8;
const char* kSessionFilter = QT_TRANSLATE_NOOP("attnlab::FileActions", "Attention Lab sessions (*.attnlab.json *.json)");
const char* kWeightsFilter = QT_TRANSLATE_NOOP("attnlab::FileActions", "safetensors weights (*.safetensors)");
const char* kModelFilter = QT_TRANSLATE_NOOP("attnlab::FileActions", "Models and PyTorch state dicts (*.safetensors)");

QString fileName(const QString& path)
{
    return QFileInfo(path).fileName();
}

/// Where the session is kept between runs; empty when the system has no place for app data.
QString lastSessionPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return dir.isEmpty() ? QString() : dir + QStringLiteral("/last-session.attnlab.json");
}

/// The lesson playing and its step, or nullopt (no player, or no lesson).
std::optional<LessonPlace> placeOf(const LessonPlayer* lessons)
{
    if (!lessons || !lessons->isActive())
        return std::nullopt;
    return LessonPlace{lessons->currentPath(), lessons->stepIndex()};
}

} // namespace

FileActions::FileActions(Session* session, ViewStack* views, LessonPlayer* lessons, QWidget* window)
    : QObject(window)
    , m_session(session)
    , m_views(views)
    , m_lessons(lessons)
    , m_window(window)
    , m_models(new ModelsMenu(session, this, window))
{
    connect(m_models, &ModelsMenu::statusReported, this, &FileActions::statusReported);
}

void FileActions::addTo(QMenu* file)
{
    file->addAction(tr("&Open session\u2026"), QKeySequence::Open, this, &FileActions::openSessionDialog);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save session"), QKeySequence::Save, this, &FileActions::saveSessionDialog);
    file->addAction(tr("Save session &as\u2026"), QKeySequence::SaveAs, this, &FileActions::saveSessionAsDialog);
    file->addSeparator();
    file->addAction(tr("Open &weights\u2026"), this, &FileActions::openWeightsDialog);
    file->addAction(tr("Save weights\u2026"), this, &FileActions::saveWeightsDialog);
    file->addAction(tr("Open &mask\u2026"), this, &FileActions::openMaskDialog);
    file->addSeparator();
    // Mnemonics unique in the menu (Models, added below, has D), so one key triggers the item.
    file->addAction(tr("Ope&n model\u2026"), this, &FileActions::openModelDialog);
    m_openFolder = file->addAction(tr("Open model &folder\u2026"), this, &FileActions::openModelFolderDialog);
    m_openFolder->setStatusTip(tr("A Hugging Face model folder: %1").arg(modelFamilyNames()));
    m_openFolder->setToolTip(m_openFolder->statusTip());
    file->addAction(tr("Save model as\u2026"), this, &FileActions::saveModelDialog);
    file->addSeparator();
    file->addAction(tr("&Export view as image\u2026"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &FileActions::exportViewDialog);
    file->addAction(tr("Export matrix as &CSV\u2026"), this, &FileActions::exportCsvDialog);
    file->addAction(tr("Export all s&tages\u2026"), this, &FileActions::exportAllDialog);
    file->addAction(tr("Cop&y image"), QKeySequence::Copy, this, &FileActions::copyImage);
    file->addAction(tr("Export &lesson\u2026"), this, &FileActions::exportLessonDialog);
    rebuildRecentMenu();
}

void FileActions::addModelsMenu(QMenu* file)
{
    // Right below "Open model folder", which it is a shortcut to.
    const QList<QAction*> actions = file->actions();
    const qsizetype at = actions.indexOf(m_openFolder);
    m_models->insertInto(file, at >= 0 && at + 1 < actions.size() ? actions.at(at + 1) : nullptr);
}

// --- The actions ------------------------------------------------------------------------------

bool FileActions::openSession(const QString& path)
{
    QString error;
    const bool ok = loadWithLesson(path, &error);
    if (ok)
        remember(path);
    return report(ok, error, tr("Opened %1").arg(fileName(path)));
}

bool FileActions::saveSession(const QString& path)
{
    m_session->finishComputing(); // what is written is the trace of the input on screen
    QString error;
    const bool ok = m_session->saveSession(path, &error, lessonPlace());
    if (ok)
        remember(path);
    return report(ok, tr("Could not save the session: %1").arg(error), tr("Saved %1").arg(fileName(path)));
}

bool FileActions::importModel(const QString& path)
{
    QString error;
    // A bare PyTorch state dict cannot say its heads, norm placement, activation and ε: ask.
    std::optional<StateDictOptions> stateDict;
    if (isBareStateDict(QFile::encodeName(path).toStdString())) {
        stateDict = StateDictDialog::ask(fileName(path), m_window);
        if (!stateDict)
            return false; // cancelled: nothing happens
    }
    const bool ok = m_session->importModel(path, &error, stateDict);
    return report(ok, tr("Could not open the model: %1").arg(error), tr("Model from %1").arg(fileName(path)));
}

bool FileActions::saveModel(const QString& path)
{
    m_session->finishComputing();
    QString error;
    const bool ok = m_session->saveModel(path, &error);
    return report(ok, tr("Could not save the model: %1").arg(error), tr("Model saved to %1").arg(fileName(path)));
}

bool FileActions::importWeights(const QString& path)
{
    QString error;
    const bool ok = m_session->importWeights(path, &error);
    return report(ok, tr("Could not open the weights: %1").arg(error),
                  tr("Weights from %1: d_model %2").arg(fileName(path)).arg(m_session->config().dModel));
}

bool FileActions::saveWeights(const QString& path)
{
    m_session->finishComputing();
    QString error;
    const bool ok = m_session->saveWeights(path, &error);
    return report(ok, tr("Could not save the weights: %1").arg(error), tr("Saved the weights to %1").arg(fileName(path)));
}

bool FileActions::openMask(const QString& path)
{
    QString error;
    const bool ok = m_session->importMask(path, &error);
    return report(ok, error, QString()); // the mask shows in the view: no message
}

namespace {

/// The one plot a view exports as its figure (the stage's heatmap), or null when its figure is
/// the whole view (several plots, or a table).
QCustomPlot* figurePlot(QWidget* view)
{
    const auto* v = dynamic_cast<const SessionView*>(view);
    const QList<QCustomPlot*> plots = v ? v->exportedPlots() : QList<QCustomPlot*>();
    return plots.size() == 1 ? plots.front() : nullptr;
}

} // namespace

bool FileActions::exportCurrentView(const QString& path, int dpi)
{
    m_session->finishComputing();
    const auto format = imageFormatForFile(path);
    if (!format)
        return report(false, tr("Choose a file ending in .png, .svg or .pdf"), QString());
    ExportOptions options;
    options.format = *format;
    options.dpi = dpi;
    // A view whose figure is one plot exports that plot; a comparison its three heatmaps as one
    // picture; otherwise the whole view.
    QWidget* view = m_views->visibleView();
    QCustomPlot* plot = figurePlot(view);
    const auto* compare = qobject_cast<CompareView*>(view);
    if (compare && compare->figure()) {
        options.width = kCompareExportWidth;
        options.height = kCompareExportHeight;
    }
    const SessionView* painted = paintedFigure(view); // the model view, the head view
    const ExportResult r = compare && compare->figure() ? exportComparison(*compare->figure(), options, path)
        : painted                                       ? exportFigure(*painted, options, path)
        : plot                                          ? exportPlot(plot, options, path)
                                                        : exportWidget(view, options, path);
    return report(r.ok, tr("The image was not exported: %1").arg(r.error), tr("Exported %1").arg(fileName(path)));
}

bool FileActions::exportCurrentCsv(const QString& path)
{
    m_session->finishComputing();
    const Stage* stage = m_views->stageView()->stage();
    if (!stage)
        return report(false, tr("This step has no matrix to export; pick a stage such as Q\u00B7K\u1D40."), QString());
    const ExportResult r = exportCsv(stage->main(), path);
    return report(r.ok, tr("The matrix was not exported: %1").arg(r.error), tr("Exported %1").arg(fileName(path)));
}

bool FileActions::exportAllStagesTo(const QString& dir, const QString& format)
{
    m_session->finishComputing();
    ExportOptions options;
    options.format = parseImageFormat(format).value_or(ImageFormat::Png);
    const auto& trace = *m_session->fullTrace();
    ExportResult r;
    withProgress(tr("Exporting every stage\u2026"), static_cast<int>(trace.stages.size()),
                 [&](const Progress& progress) { r = exportAllStages(trace, dir, options, progress); });
    const int files = static_cast<int>(r.files.size());
    return report(r.ok,
                  r.cancelled ? tr("Cancelled: %n file(s) were written.", nullptr, files) : tr("The stages were not exported: %1").arg(r.error),
                  tr("Exported %n file(s) to %1", nullptr, files).arg(dir));
}

bool FileActions::exportLesson(const QString& path, bool png)
{
    if (!m_lessons->isActive())
        return report(false, tr("Start a lesson first, then export it."), QString());
    DeckOptions options;
    options.format = png ? DeckOptions::Format::Png : DeckOptions::Format::Pdf;
    const Lesson& lesson = *m_lessons->lesson();
    DeckResult r;
    withProgress(tr("Exporting the lesson\u2026"), static_cast<int>(lesson.steps.size()),
                 [&](const Progress& progress) { r = renderLessonDeck(lesson, path, options, progress); });
    return report(r.ok, tr("The lesson was not exported: %1").arg(r.error), tr("Exported %n page(s) to %1", nullptr, r.pages).arg(path));
}

void FileActions::copyImage()
{
    m_session->finishComputing();
    QWidget* view = m_views->visibleView();
    QCustomPlot* plot = figurePlot(view);
    const SessionView* painted = paintedFigure(view);
    const QPixmap image = painted ? figurePixmap(*painted) : plot ? plot->toPixmap() : view->grab();
    QApplication::clipboard()->setPixmap(image);
    report(true, QString(), tr("The image is on the clipboard."));
}

// --- Sessions kept between runs and recent files ---------------------------------------------

QStringList FileActions::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void FileActions::remember(const QString& sessionPath)
{
    m_sessionPath = sessionPath;
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(sessionPath).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void FileActions::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString& f : files)
        m_recentMenu->addAction(fileName(f), this, [this, f] { openSession(f); })->setToolTip(f);
    m_recentMenu->setEnabled(!files.isEmpty());
}

bool FileActions::restoreLastSession()
{
    if (m_autosave && offerOrphan())
        return true;
    const QString last = lastSessionPath();
    if (last.isEmpty() || !QFileInfo::exists(last))
        return false;
    QString error;
    const bool ok = loadWithLesson(last, &error);
    return report(ok, tr("The last session could not be restored (%1); starting fresh.").arg(error), QString());
}

void FileActions::saveLastSession() const
{
    const QString last = lastSessionPath();
    if (last.isEmpty())
        return;
    QDir().mkpath(QFileInfo(last).absolutePath());
    m_session->saveSession(last, nullptr, lessonPlace()); // best effort: never block closing
}

// --- Work kept after a crash ------------------------------------------------------------------

void FileActions::setAutosave(Autosave* autosave)
{
    m_autosave = autosave;
    if (!autosave)
        return;
    autosave->setLessonPlace([lessons = QPointer<LessonPlayer>(m_lessons)] { return placeOf(lessons); });
    connect(m_lessons, &LessonPlayer::stateChanged, autosave, &Autosave::noteChange);
    connect(autosave, &Autosave::failed, this, [this](const QString& why) {
        report(false, tr("Your work could not be saved automatically: %1").arg(why), QString());
    });
    // A read-only home: said once, at the start; the studio works on without saving.
    QString problems;
    if (!autosave->problem().isEmpty())
        problems = tr("Your work is not saved automatically: %1.").arg(autosave->problem());
    if (const QSettings settings; !settings.isWritable()) {
        problems = appendSentence(
            problems, tr("The settings (the window's layout, recent files, the language) are not kept: '%1' cannot be written.")
                          .arg(settings.fileName()));
    }
    if (!problems.isEmpty())
        report(false, problems, QString());
}

bool FileActions::offerOrphan()
{
    const auto orphan = Autosave::findOrphan(m_autosave->folder());
    if (!orphan)
        return false;
    const QString when = QLocale().toString(orphan->savedAt(), QLocale::ShortFormat);
    QMessageBox box(QMessageBox::Question, tr("Restore unsaved work?"),
                    tr("Attention Lab did not close properly last time. Your work until %1 was saved automatically.").arg(when),
                    QMessageBox::NoButton, m_window);
    box.setObjectName(QStringLiteral("restoreDialog"));
    const QString sentence = orphan->sentence();
    box.setInformativeText((sentence.isEmpty() ? QString() : tr("Sentence: %1").arg(sentence.left(80)) + QStringLiteral("\n\n"))
                           + tr("Restore it, or discard it and open the last saved session?"));
    QPushButton* restore = box.addButton(tr("&Restore"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.exec();
    if (box.clickedButton() == discard)
        orphan->discard();
    if (box.clickedButton() != restore)
        return false; // closed without a choice: offered again at the next start
    QString error;
    if (!loadWithLesson(orphan->file(), &error)) {
        report(false, tr("The unsaved work could not be restored (%1).").arg(error), QString());
        return false;
    }
    // This run's autosave holds the work before the old files go.
    if (m_autosave->saveNow())
        orphan->discard();
    return report(true, QString(), tr("Restored the work saved at %1").arg(when));
}

std::optional<LessonPlace> FileActions::lessonPlace() const
{
    return placeOf(m_lessons);
}

bool FileActions::loadWithLesson(const QString& path, QString* error)
{
    // A shipped lesson comes back in the interface's language (its twin), as a language switch
    // would move it; a lesson file of the teacher's own stays as it is.
    return m_session->loadSession(path, error, [this](const LessonPlace& place) {
        m_lessons->openLessonAt(LessonPlayer::shippedTwin(place.path, m_lessons->language()), place.step, false);
    });
}

// --- The dialogs ------------------------------------------------------------------------------

void FileActions::openSessionDialog()
{
    askThen(Ask::Open, tr("Open session"), QString(), tr(kSessionFilter), &FileActions::openSession);
}

void FileActions::saveSessionDialog()
{
    if (m_sessionPath.isEmpty())
        askThen(Ask::Save, tr("Save session"), QStringLiteral("lesson.attnlab.json"), tr(kSessionFilter), &FileActions::saveSession);
    else
        saveSession(m_sessionPath);
}

void FileActions::saveSessionAsDialog()
{
    askThen(Ask::Save, tr("Save session as"), QStringLiteral("lesson.attnlab.json"), tr(kSessionFilter), &FileActions::saveSession);
}

void FileActions::openWeightsDialog()
{
    askThen(Ask::Open, tr("Open weights"), QString(), tr(kWeightsFilter), &FileActions::importWeights);
}

void FileActions::saveWeightsDialog()
{
    askThen(Ask::Save, tr("Save weights"), QStringLiteral("weights.safetensors"), tr(kWeightsFilter), &FileActions::saveWeights);
}

void FileActions::openMaskDialog()
{
    askThen(Ask::Open, tr("Open mask"), QString(), tr("Mask files (*.mask *.txt);;All files (*)"), &FileActions::openMask);
}

void FileActions::openModelDialog()
{
    askThen(Ask::Open, tr("Open model"), QString(), tr(kModelFilter), &FileActions::importModel);
}

void FileActions::openModelFolderDialog()
{
    // A Hugging Face folder: config.json, model.safetensors and the tokenizer's files.
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Open a model folder (%1)").arg(modelFamilyNames()));
    if (!dir.isEmpty())
        importModel(dir);
}

void FileActions::saveModelDialog()
{
    askThen(Ask::Save, tr("Save model"), QStringLiteral("model.safetensors"), tr(kModelFilter), &FileActions::saveModel);
}

void FileActions::exportViewDialog()
{
    const QString path = askPath(Ask::Save, tr("Export view"), suggestedName(QStringLiteral("png")),
                                 tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return; // cancelled: nothing happens
    int dpi = 150;
    if (imageFormatForFile(path) == ImageFormat::Png) {
        bool ok = false;
        dpi = QInputDialog::getInt(m_window, tr("Export view"), tr("Resolution (dots per inch):"), 150, kMinExportDpi, kMaxExportDpi, 50, &ok);
        if (!ok)
            return;
    }
    exportCurrentView(path, dpi);
}

void FileActions::exportCsvDialog()
{
    askThen(Ask::Save, tr("Export matrix as CSV"), suggestedName(QStringLiteral("csv")), tr("CSV (*.csv)"), &FileActions::exportCurrentCsv);
}

void FileActions::exportAllDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Export all stages into a folder"));
    if (dir.isEmpty())
        return;
    bool ok = false;
    const QString format = QInputDialog::getItem(m_window, tr("Export all stages"), tr("Image format:"),
                                                 {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}, 0, false, &ok);
    if (ok)
        exportAllStagesTo(dir, format);
}

void FileActions::exportLessonDialog()
{
    if (!m_lessons->isActive()) {
        report(false, tr("Start a lesson first, then export it."), QString());
        return;
    }
    QString filter;
    const QString path = askPath(Ask::Save, tr("Export lesson"), suggestedLessonName(),
                                 tr("PDF deck (*.pdf);;PNG images, one per step (folder)"), &filter);
    if (path.isEmpty())
        return; // cancelled: nothing happens
    exportLesson(path, filter.contains(QStringLiteral("PNG")));
}

void FileActions::openLessonDialog()
{
    const QString path = askPath(Ask::Open, tr("Open lesson"), QString(), tr("Lessons (*.md);;All files (*)"));
    if (!path.isEmpty())
        m_lessons->openLessonFile(path);
}

// --- Helpers ----------------------------------------------------------------------------------

QString FileActions::suggestedName(const QString& suffix) const
{
    // What is on screen: the stage, where it is in a Transformer, the head (1-based) or the
    // all-heads grid, and the sentence.
    const Step& step = m_session->currentStep();
    ExportNameParts parts;
    parts.prefix = m_session->isComparing() ? QStringLiteral("compare") : QString();
    parts.stage = step.id;
    if (step.layer)
        parts.layer = *step.layer + 1;
    if (step.block != Block::None && step.layer)
        parts.block = QString::fromLatin1(toString(step.block));
    parts.allHeads = step.perHead && m_views->visibleView() == m_views->headsView();
    if (step.perHead)
        parts.head = m_session->head() + 1;
    parts.text = m_session->sentence();
    // A view of its own figure (the model view, the head view) is named after itself.
    const auto* view = dynamic_cast<const SessionView*>(m_views->visibleView());
    if (const FigureName figure = view ? view->figureName() : FigureName(); !figure.view.isEmpty() && !m_session->isComparing()) {
        parts.stage = figure.view;
        parts.layer = figure.layer;
        parts.block = figure.block != Block::None ? QString::fromLatin1(toString(figure.block)) : QString();
        parts.head.reset();
        parts.allHeads = false;
    }
    return suggestedExportName(parts, suffix);
}

QString FileActions::suggestedLessonName() const
{
    ExportNameParts deck;
    deck.stage = QStringLiteral("lesson");
    if (m_lessons->isActive())
        deck.text = QString::fromStdString(m_lessons->lesson()->title);
    return suggestedExportName(deck, QStringLiteral("pdf"));
}

QString FileActions::askPath(Ask ask, const QString& title, const QString& suggested, const QString& filter,
                             QString* chosenFilter) const
{
    if (ask == Ask::Open)
        return QFileDialog::getOpenFileName(m_window, title, QString(), filter);
    return QFileDialog::getSaveFileName(m_window, title, suggested, filter, chosenFilter);
}

void FileActions::askThen(Ask ask, const QString& title, const QString& suggested, const QString& filter,
                          bool (FileActions::*action)(const QString&))
{
    if (const QString path = askPath(ask, title, suggested, filter); !path.isEmpty())
        (this->*action)(path);
}

bool FileActions::report(bool ok, const QString& failure, const QString& success)
{
    if (!ok)
        emit statusReported(failure, true);
    else if (!success.isEmpty())
        emit statusReported(success, false);
    return ok;
}

void FileActions::withProgress(const QString& label, int maximum, const std::function<void(const Progress&)>& work)
{
    QProgressDialog progress(label, tr("Cancel"), 0, maximum, m_window);
    // Modal to the window, shown only when the work takes longer than 300 ms.
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    work([&](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
}

} // namespace attnlab
