#include "shell/mainwindow.h"

#include "views/cellinspector.h"
#include "widgets/decoderpanel.h"
#include "views/feedforwardview.h"
#include "views/layernormview.h"
#include "widgets/formulabanner.h"
#include "views/kernelregressionview.h"
#include "views/multiheadview.h"
#include "views/positionalview.h"
#include "views/scalingview.h"
#include "shell/languages.h"
#include "lessons/lessonplayer.h"
#include "lessons/deck.h"
#include "export/exporter.h"
#include "views/heatmapview.h"

#include <qcustomplot.h>
#include "session/session.h"
#include "widgets/settingspanel.h"
#include "widgets/stagenavigator.h"
#include "session/stages.h"
#include "views/stageview.h"
#include "views/tokensview.h"

#include <QAction>
#include <QActionGroup>
#include <QClipboard>
#include <QInputDialog>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab {

namespace {

constexpr int kMaxRecent = 8;
const char* kSessionFilter = QT_TRANSLATE_NOOP("attnlab::MainWindow", "Attention Lab sessions (*.attnlab.json *.json)");
const char* kWeightsFilter = QT_TRANSLATE_NOOP("attnlab::MainWindow", "safetensors weights (*.safetensors)");

} // namespace

MainWindow::MainWindow(Session* session, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_sentence(new QLineEdit(this))
    , m_message(new QLabel(this))
    , m_counter(new QLabel(this))
    , m_banner(new FormulaBanner(session, this))
    , m_tabs(new QTabWidget(this))
    , m_stack(new QStackedWidget(this))
    , m_tokensView(new TokensView(session, this))
    , m_stageView(new StageView(session, this))
    , m_positionalView(new PositionalEncodingView(session, this))
    , m_concatView(new MultiHeadView(session, this))
    , m_headsView(new MultiHeadView(session, this))
    , m_kernelView(new KernelRegressionView(session, this))
    , m_scalingView(new SoftmaxScalingView(session, this))
    , m_decoder(new DecoderPanel(session, this))
    , m_layerNormView(new LayerNormView(session, this))
    , m_ffnView(new FeedForwardView(session, this))
    , m_navigator(new StageNavigator(session, this))
    , m_settings(new SettingsPanel(session, this))
    , m_inspector(new CellInspector(session, this))
    , m_lessons(new LessonPlayer(session, this))
    , m_debounce(new QTimer(this))
    , m_normalFont(QApplication::font())
{
    setWindowTitle(tr("Attention Lab"));
    setObjectName(QStringLiteral("MainWindow"));

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    auto* top = new QHBoxLayout;
    auto* sentenceLabel = new QLabel(this);
    m_sentenceLabel = sentenceLabel;
    sentenceLabel->setBuddy(m_sentence);
    top->addWidget(sentenceLabel);
    m_sentence->setText(session->sentence());
    m_sentence->setPlaceholderText(tr("Type a sentence in any language, e.g. \u72D7\u54AC\u4E86\u4EBA or <sos> Je vais bien"));
    m_sentence->setClearButtonEnabled(true);
    m_sentence->setMaxLength(100000);
    top->addWidget(m_sentence, 1);
    m_counter->setVisible(false);
    top->addWidget(m_counter);
    layout->addLayout(top);
    layout->addWidget(m_decoder);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    layout->addWidget(m_banner);

    m_concatView->setMode(MultiHeadView::Mode::Concat);
    for (QWidget* w : {static_cast<QWidget*>(m_tokensView), static_cast<QWidget*>(m_stageView), static_cast<QWidget*>(m_positionalView),
                       static_cast<QWidget*>(m_concatView), static_cast<QWidget*>(m_kernelView), static_cast<QWidget*>(m_scalingView),
                       static_cast<QWidget*>(m_layerNormView), static_cast<QWidget*>(m_ffnView)})
        m_stack->addWidget(w);
    // A stack is as wide as its widest page: an explicit minimum keeps one view's controls
    // (at presenter-mode type sizes) from pushing the window past the projector's edge.
    for (int i = 0; i < m_stack->count(); ++i)
        m_stack->widget(i)->setMinimumSize(320, 240);
    m_headsView->setMinimumSize(320, 240);
    m_tabs->addTab(m_stack, tr("Stage"));
    m_tabs->addTab(m_headsView, tr("All heads"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        // The tab follows the lesson's view and the lesson's view follows the tab.
        if (index == 1 && m_session->view() != u"heads")
            m_session->setView(QStringLiteral("heads"));
        else if (index == 0 && m_session->view() == u"heads")
            m_session->setView(QStringLiteral("stage"));
    });
    m_tabs->setFocusPolicy(Qt::NoFocus);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    auto* navDock = new QDockWidget(tr("Stages"), this);
    navDock->setObjectName(QStringLiteral("StagesDock"));
    navDock->setWidget(m_navigator);
    addDockWidget(Qt::LeftDockWidgetArea, navDock);
    auto* lessonDock = new QDockWidget(tr("Lessons"), this);
    lessonDock->setObjectName(QStringLiteral("LessonsDock"));
    lessonDock->setWidget(m_lessons);
    addDockWidget(Qt::LeftDockWidgetArea, lessonDock);
    tabifyDockWidget(navDock, lessonDock);
    navDock->raise();
    connect(m_lessons, &LessonPlayer::stateChanged, this, [lessonDock, this] {
        if (m_lessons->isActive())
            lessonDock->raise(); // a lesson in progress is in front
    });
    connect(m_lessons, &LessonPlayer::openRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open lesson"), QString(), tr("Lessons (*.md);;All files (*)"));
        if (!path.isEmpty())
            m_lessons->openLessonFile(path);
    });
    connect(m_lessons, &LessonPlayer::exportRequested, this, &MainWindow::exportLessonDialog);
    auto* settingsDock = new QDockWidget(tr("Settings"), this);
    settingsDock->setObjectName(QStringLiteral("SettingsDock"));
    settingsDock->setWidget(m_settings);
    addDockWidget(Qt::RightDockWidgetArea, settingsDock);
    auto* inspectorDock = new QDockWidget(tr("How was this computed?"), this);
    inspectorDock->setObjectName(QStringLiteral("InspectorDock"));
    inspectorDock->setWidget(m_inspector);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
    // The inspector's tables need the height more than the settings form does.
    resizeDocks({settingsDock, inspectorDock}, {360, 520}, Qt::Vertical);
    resizeDocks({settingsDock}, {340}, Qt::Horizontal);
    resizeDocks({navDock}, {250}, Qt::Horizontal);

    // Recompute after a short pause in typing, so fast typists never wait for the engine.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(40);
    connect(m_sentence, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { m_session->setSentence(m_sentence->text()); });
    // Enter (or Escape) leaves the text box, so the arrow keys step through the stages again.
    connect(m_sentence, &QLineEdit::returnPressed, this, [this] {
        m_debounce->stop();
        m_session->setSentence(m_sentence->text());
        m_stageView->setFocus();
    });
    connect(session, &Session::traceChanged, this, &MainWindow::showMessages);
    connect(session, &Session::errorOccurred, this, &MainWindow::showError);
    connect(session, &Session::stepChanged, this, &MainWindow::showStep);
    connect(session, &Session::viewChanged, this, &MainWindow::showStep);
    connect(session, &Session::stepChanged, this, &MainWindow::updateCounter);
    connect(m_lessons, &LessonPlayer::stateChanged, this, &MainWindow::updateCounter);
    const auto labelSentence = [this] {
        // A Transformer's sentence is its encoder's source.
        m_sentenceLabel->setText(m_session->isModel() ? tr("&Source:") : tr("&Sentence:"));
    };
    labelSentence();
    connect(session, &Session::inputChanged, this, [this, labelSentence] {
        if (m_sentence->text() != m_session->sentence())
            m_sentence->setText(m_session->sentence()); // a session file was opened
        labelSentence();
    });
    connect(session, &Session::traceChanged, this, &MainWindow::showStep);
    connect(session, &Session::traceChanged, this, labelSentence);
    connect(m_settings, &SettingsPanel::openModelRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), QString(), tr("Attention Lab models (*.safetensors)"));
        if (!path.isEmpty())
            importModel(path);
    });
    connect(m_settings, &SettingsPanel::openWeightsRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open weights"), QString(), tr(kWeightsFilter));
        if (!path.isEmpty())
            importWeights(path);
    });
    connect(m_settings, &SettingsPanel::saveWeightsRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save weights"), QStringLiteral("weights.safetensors"), tr(kWeightsFilter));
        if (!path.isEmpty())
            saveWeights(path);
    });
    connect(m_settings, &SettingsPanel::openMaskRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open mask"), QString(), tr("Mask files (*.mask *.txt);;All files (*)"));
        if (!path.isEmpty())
            openMask(path);
    });

    buildMenus();
    buildShortcuts();
    showStep();
    showMessages();
    // Start with the keys on the stages (click the sentence box, or Ctrl+L, to type).
    m_stageView->setFocusPolicy(Qt::StrongFocus);
    m_stageView->setFocus();
    auto* typeShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    connect(typeShortcut, &QShortcut::activated, this, [this] {
        m_sentence->setFocus();
        m_sentence->selectAll();
    });
    resize(1400, 900);
}

QWidget* MainWindow::currentStageWidget() const
{
    return m_stack->currentWidget();
}

QWidget* MainWindow::visibleView() const
{
    return m_tabs->currentIndex() == 1 ? static_cast<QWidget*>(m_headsView) : currentStageWidget();
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session\u2026"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(), tr(kSessionFilter));
        if (!path.isEmpty())
            openSession(path);
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] {
        QString path = m_sessionPath;
        if (path.isEmpty())
            path = QFileDialog::getSaveFileName(this, tr("Save session"), QStringLiteral("lesson.attnlab.json"), tr(kSessionFilter));
        if (!path.isEmpty())
            saveSession(path);
    });
    file->addAction(tr("Save session &as\u2026"), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save session as"), QStringLiteral("lesson.attnlab.json"), tr(kSessionFilter));
        if (!path.isEmpty())
            saveSession(path);
    });
    file->addSeparator();
    file->addAction(tr("Open &weights\u2026"), this, [this] { emit m_settings->openWeightsRequested(); });
    file->addAction(tr("Save weights\u2026"), this, [this] { emit m_settings->saveWeightsRequested(); });
    file->addAction(tr("Open &mask\u2026"), this, [this] { emit m_settings->openMaskRequested(); });
    file->addSeparator();
    file->addAction(tr("Open mo&del\u2026"), this, [this] { emit m_settings->openModelRequested(); });
    file->addAction(tr("Save model as\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save model"), QStringLiteral("model.safetensors"),
                                                          tr("Attention Lab models (*.safetensors)"));
        if (!path.isEmpty())
            saveModel(path);
    });
    file->addSeparator();
    file->addAction(tr("&Export view as image\u2026"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportViewDialog);
    file->addAction(tr("Export matrix as &CSV\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export matrix as CSV"), QStringLiteral("matrix.csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportCurrentCsv(path);
    });
    file->addAction(tr("Export &all stages\u2026"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all stages into a folder"));
        if (dir.isEmpty())
            return;
        bool ok = false;
        const QString format = QInputDialog::getItem(this, tr("Export all stages"), tr("Image format:"),
                                                     {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}, 0, false, &ok);
        if (ok)
            exportAllStagesTo(dir, format);
    });
    file->addAction(tr("C&opy image"), QKeySequence::Copy, this, &MainWindow::copyImage);
    file->addAction(tr("Export &lesson\u2026"), this, &MainWindow::exportLessonDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    rebuildRecentMenu();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* presenter = view->addAction(tr("&Presenter mode"));
    presenter->setCheckable(true);
    presenter->setShortcut(Qt::Key_F11);
    presenter->setShortcutContext(Qt::ApplicationShortcut);
    connect(presenter, &QAction::toggled, this, &MainWindow::setPresenterMode);

    m_languageMenu = view->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(this);
    for (const QString& code : LanguageManager::available()) {
        QAction* a = m_languageMenu->addAction(LanguageManager::nativeName(code));
        a->setCheckable(true);
        a->setData(code);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] { emit languageRequested(code); });
    }

    QMenu* go = menuBar()->addMenu(tr("&Go"));
    go->addAction(tr("&Next step"), this, &MainWindow::next);
    go->addAction(tr("&Previous step"), this, &MainWindow::previous);
    go->addAction(tr("&First stage"), this, [this] { m_session->setStep(0); });
    go->addAction(tr("&Last stage"), this, [this] { m_session->setStep(static_cast<int>(m_session->steps().size()) - 1); });
    go->addAction(tr("Next &head"), QKeySequence(Qt::Key_Down), this, [this] { m_session->setHead(m_session->head() + 1); });
    go->addAction(tr("Previous h&ead"), QKeySequence(Qt::Key_Up), this, [this] { m_session->setHead(m_session->head() - 1); });
    QAction* play = go->addAction(tr("&Auto-play"));
    play->setShortcut(Qt::Key_P);
    connect(play, &QAction::triggered, this, [this] { m_navigator->setPlaying(!m_navigator->isPlaying()); });
}

void MainWindow::buildShortcuts()
{
    // ←/→ and Space step through the stages; PageDown/PageUp are what presentation clickers
    // send. Inside the sentence box ←, →, Space, Home and End keep editing the text (the line
    // edit claims them first); PageUp/PageDown work everywhere.
    const auto bind = [this](QKeySequence key, auto slot) {
        auto* s = new QShortcut(key, this);
        connect(s, &QShortcut::activated, this, slot);
    };
    // While a lesson plays the same keys step through the lesson instead of the stages.
    bind(QKeySequence(Qt::Key_Right), [this] { next(); });
    bind(QKeySequence(Qt::Key_Space), [this] { next(); });
    bind(QKeySequence(Qt::Key_PageDown), [this] { next(); });
    bind(QKeySequence(Qt::Key_Left), [this] { previous(); });
    bind(QKeySequence(Qt::Key_PageUp), [this] { previous(); });
    bind(QKeySequence(Qt::Key_Home), [this] {
        if (m_lessons->isActive())
            m_lessons->goToStep(0);
        else
            m_session->setStep(0);
    });
    bind(QKeySequence(Qt::Key_End), [this] {
        if (m_lessons->isActive())
            m_lessons->goToStep(static_cast<int>(m_lessons->lesson()->steps.size()) - 1);
        else
            m_session->setStep(static_cast<int>(m_session->steps().size()) - 1);
    });
    bind(QKeySequence(Qt::Key_Escape), [this] {
        if (m_presenter)
            setPresenterMode(false);
        else
            m_stageView->setFocus(); // leave the text box so the arrows step again
    });
}

void MainWindow::showStep()
{
    const ViewKind kind = viewKindFor(m_session->stepId(), m_session->view());
    QWidget* w = m_stageView;
    switch (kind) {
    case ViewKind::Tokens:
        w = m_tokensView;
        break;
    case ViewKind::Positional:
        w = m_positionalView;
        break;
    case ViewKind::Concat:
        w = m_concatView;
        break;
    case ViewKind::KernelRegression:
        w = m_kernelView;
        break;
    case ViewKind::SoftmaxScaling:
        w = m_scalingView;
        break;
    case ViewKind::LayerNorm:
        w = m_layerNormView;
        break;
    case ViewKind::FeedForward:
        w = m_ffnView;
        break;
    case ViewKind::Matrix:
    case ViewKind::Heads:
        break;
    }
    m_stack->setCurrentWidget(w);
    m_tabs->setCurrentIndex(kind == ViewKind::Heads ? 1 : 0);
}

void MainWindow::updateCounter()
{
    // The lesson's step while a lesson plays, else the stage: big enough for the back row.
    if (m_lessons->isActive())
        m_counter->setText(tr("Step %1 / %2").arg(m_lessons->stepIndex() + 1).arg(m_lessons->lesson()->steps.size()));
    else
        m_counter->setText(tr("Stage %1 / %2").arg(m_session->step() + 1).arg(m_session->steps().size()));
}

void MainWindow::next()
{
    if (m_lessons->isActive())
        m_lessons->next();
    else
        m_session->nextStep();
}

void MainWindow::previous()
{
    if (m_lessons->isActive())
        m_lessons->previous();
    else
        m_session->previousStep();
}

void MainWindow::exportViewDialog()
{
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view"), QStringLiteral("attention.png"),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter);
    if (path.isEmpty())
        return; // cancelled: nothing happens
    int dpi = 150;
    if (imageFormatForFile(path) == ImageFormat::Png) {
        bool ok = false;
        dpi = QInputDialog::getInt(this, tr("Export view"), tr("Resolution (dots per inch):"), 150, kMinExportDpi, kMaxExportDpi, 50, &ok);
        if (!ok)
            return;
    }
    exportCurrentView(path, dpi);
}

bool MainWindow::exportCurrentView(const QString& path, int dpi)
{
    const auto format = imageFormatForFile(path);
    if (!format) {
        showStatus(tr("Choose a file ending in .png, .svg or .pdf"), true);
        return false;
    }
    ExportOptions options;
    options.format = *format;
    options.dpi = dpi;
    // A single heatmap exports as a vector plot with its title and colour bar; other views as drawn.
    QWidget* view = visibleView();
    const ExportResult r = view == m_stageView ? exportPlot(m_stageView->heatmap()->plot(), options, path) : exportWidget(view, options, path);
    if (!r.ok) {
        showStatus(tr("The image was not exported: %1").arg(r.error), true);
        return false;
    }
    showStatus(tr("Exported %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::exportCurrentCsv(const QString& path)
{
    const Stage* stage = m_stageView->stage();
    if (!stage) {
        showStatus(tr("This step has no matrix to export; pick a stage such as Q\u00B7K\u1D40."), true);
        return false;
    }
    const ExportResult r = exportCsv(stage->main(), path);
    if (!r.ok) {
        showStatus(tr("The matrix was not exported: %1").arg(r.error), true);
        return false;
    }
    showStatus(tr("Exported %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::exportAllStagesTo(const QString& dir, const QString& format)
{
    ExportOptions options;
    options.format = parseImageFormat(format).value_or(ImageFormat::Png);
    const auto& trace = *m_session->fullTrace();
    QProgressDialog progress(tr("Exporting every stage\u2026"), tr("Cancel"), 0, static_cast<int>(trace.stages.size()), this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    const ExportResult r = exportAllStages(trace, dir, options, [&](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    if (!r.ok) {
        showStatus(r.cancelled ? tr("Cancelled: %n file(s) were written.", nullptr, static_cast<int>(r.files.size()))
                               : tr("The stages were not exported: %1").arg(r.error),
                   true);
        return false;
    }
    showStatus(tr("Exported %n file(s) to %1", nullptr, static_cast<int>(r.files.size())).arg(dir), false);
    return true;
}

void MainWindow::copyImage()
{
    QWidget* view = visibleView();
    const QPixmap image = view == m_stageView ? m_stageView->heatmap()->plot()->toPixmap() : view->grab();
    QApplication::clipboard()->setPixmap(image);
    showStatus(tr("The image is on the clipboard."), false);
}

void MainWindow::exportLessonDialog()
{
    if (!m_lessons->isActive()) {
        showStatus(tr("Start a lesson first, then export it."), true);
        return;
    }
    QString filter;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export lesson"), QStringLiteral("lesson.pdf"),
                                                      tr("PDF deck (*.pdf);;PNG images, one per step (folder)"), &filter);
    if (path.isEmpty())
        return; // cancelled: nothing happens
    exportLesson(path, filter.contains(QStringLiteral("PNG")));
}

bool MainWindow::exportLesson(const QString& path, bool png)
{
    if (!m_lessons->isActive()) {
        showStatus(tr("Start a lesson first, then export it."), true);
        return false;
    }
    DeckOptions options;
    options.format = png ? DeckOptions::Format::Png : DeckOptions::Format::Pdf;
    QProgressDialog progress(tr("Exporting the lesson\u2026"), tr("Cancel"), 0, static_cast<int>(m_lessons->lesson()->steps.size()), this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    const DeckResult r = renderLessonDeck(*m_lessons->lesson(), path, options, [&](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    if (!r.ok) {
        showStatus(tr("The lesson was not exported: %1").arg(r.error), true);
        return false;
    }
    showStatus(tr("Exported %n page(s) to %1", nullptr, r.pages).arg(path), false);
    return true;
}

void MainWindow::showMessages()
{
    QStringList warnings;
    for (const auto& w : m_session->trace()->warnings)
        warnings << QStringLiteral("\u26A0 ") + QString::fromStdString(w);
    m_message->setText(warnings.join(QLatin1Char('\n')));
    m_message->setStyleSheet(QStringLiteral("color: #8a5300;"));
    m_message->setVisible(!warnings.isEmpty());
}

void MainWindow::showError(const QString& message)
{
    // Shown inline; the previous result stays on screen so nothing the user had is lost.
    showStatus(message, true);
}

void MainWindow::showStatus(const QString& message, bool isError)
{
    m_message->setText((isError ? QStringLiteral("\u26D4 ") : QString()) + message);
    m_message->setStyleSheet(isError ? QStringLiteral("color: #b00020; font-weight: bold;") : QString());
    m_message->setVisible(true);
    statusBar()->showMessage(message, 8000);
}

bool MainWindow::openSession(const QString& path)
{
    QString error;
    if (!m_session->loadSession(path, &error)) {
        showStatus(error, true);
        return false;
    }
    m_sessionPath = path;
    addRecentFile(path);
    showStatus(tr("Opened %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::saveSession(const QString& path)
{
    QString error;
    if (!m_session->saveSession(path, &error)) {
        showStatus(tr("Could not save the session: %1").arg(error), true);
        return false;
    }
    m_sessionPath = path;
    addRecentFile(path);
    showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::importModel(const QString& path)
{
    QString error;
    if (!m_session->importModel(path, &error)) {
        showStatus(tr("Could not open the model: %1").arg(error), true);
        return false;
    }
    showStatus(tr("Model from %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::saveModel(const QString& path)
{
    QString error;
    if (!m_session->saveModel(path, &error)) {
        showStatus(tr("Could not save the model: %1").arg(error), true);
        return false;
    }
    showStatus(tr("Model saved to %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::importWeights(const QString& path)
{
    QString error;
    if (!m_session->importWeights(path, &error)) {
        showStatus(tr("Could not open the weights: %1").arg(error), true);
        return false;
    }
    showStatus(tr("Weights from %1: d_model %2").arg(QFileInfo(path).fileName()).arg(m_session->config().dModel), false);
    return true;
}

bool MainWindow::saveWeights(const QString& path)
{
    QString error;
    if (!m_session->saveWeights(path, &error)) {
        showStatus(tr("Could not save the weights: %1").arg(error), true);
        return false;
    }
    showStatus(tr("Saved the weights to %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::openMask(const QString& path)
{
    QString error;
    if (!m_session->importMask(path, &error)) {
        showStatus(error, true);
        return false;
    }
    return true;
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString& f : files)
        m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] { openSession(f); })->setToolTip(f);
    m_recentMenu->setEnabled(!files.isEmpty());
}

QString MainWindow::lastSessionPath() const
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return dir.isEmpty() ? QString() : dir + QStringLiteral("/last-session.attnlab.json");
}

void MainWindow::setCurrentLanguage(const QString& code)
{
    m_lessons->setLanguage(code.startsWith(QStringLiteral("zh")) ? QStringLiteral("zh") : QStringLiteral("en"));
    for (QAction* a : m_languageMenu->actions())
        a->setChecked(a->data().toString() == code);
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

bool MainWindow::restoreLastSession()
{
    const QString last = lastSessionPath();
    if (last.isEmpty() || !QFileInfo::exists(last))
        return false;
    QString error;
    if (!m_session->loadSession(last, &error)) {
        showStatus(tr("The last session could not be restored (%1); starting fresh.").arg(error), true);
        return false;
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLayout();
    const QString last = lastSessionPath();
    if (!last.isEmpty()) {
        QDir().mkpath(QFileInfo(last).absolutePath());
        m_session->saveSession(last, nullptr); // best effort: never block closing
    }
    event->accept();
}

void MainWindow::setPresenterMode(bool on)
{
    if (on == m_presenter)
        return;
    m_presenter = on;
    if (on) {
        // Large type and a high-contrast palette for the back row of a classroom.
        QFont big = m_normalFont;
        big.setPointSizeF(std::max(16.0, m_normalFont.pointSizeF() * 1.6));
        setFont(big);
        QPalette p = palette();
        p.setColor(QPalette::Window, Qt::white);
        p.setColor(QPalette::WindowText, Qt::black);
        p.setColor(QPalette::Base, Qt::white);
        p.setColor(QPalette::Text, Qt::black);
        p.setColor(QPalette::AlternateBase, QColor(255, 244, 200));
        p.setColor(QPalette::Highlight, QColor(0, 90, 200));
        setPalette(p);
        QFont counter = big;
        counter.setBold(true);
        counter.setPointSizeF(big.pointSizeF() * 1.4);
        m_counter->setFont(counter);
        m_counter->setStyleSheet(QStringLiteral("color: white; background: #0050c8; padding: 4px 14px; border-radius: 6px;"));
        updateCounter();
        m_counter->setVisible(true);
        // The projector shows the lesson and the view; the settings and inspector docks step aside.
        m_hiddenForPresenter.clear();
        for (QDockWidget* dock : findChildren<QDockWidget*>()) {
            if (dockWidgetArea(dock) == Qt::RightDockWidgetArea && dock->isVisible()) {
                dock->hide();
                m_hiddenForPresenter << dock;
            }
        }
        if (const QScreen* screen = this->screen())
            setGeometry(screen->geometry()); // also without a window manager (projector PCs, Xvfb)
        showFullScreen();
    } else {
        setFont(m_normalFont);
        setPalette(QApplication::palette());
        m_counter->setVisible(false);
        for (QDockWidget* dock : std::as_const(m_hiddenForPresenter))
            dock->show();
        m_hiddenForPresenter.clear();
        showNormal();
    }
}

} // namespace attnlab
