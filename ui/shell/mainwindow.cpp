#include "shell/mainwindow.h"

#include "session/messages.h"
#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/languages.h"
#include "shell/presentermode.h"
#include "shell/viewstack.h"
#include "views/cellinspector.h"
#include "views/stageview.h"
#include "widgets/decoderpanel.h"
#include "widgets/errorbanner.h"
#include "widgets/formulabanner.h"
#include "widgets/settingspanel.h"
#include "widgets/stagenavigator.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab {

MainWindow::MainWindow(Session* session, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_sentence(new QLineEdit(this))
    , m_warnings(new QLabel(this))
    , m_banner(new FormulaBanner(session, this))
    , m_errors(new ErrorBanner(session, this))
    , m_views(new ViewStack(session, this))
    , m_decoder(new DecoderPanel(session, this))
    , m_navigator(new StageNavigator(session, this))
    , m_settings(new SettingsPanel(session, this))
    , m_inspector(new CellInspector(session, this))
    , m_lessons(new LessonPlayer(session, this))
    , m_debounce(new QTimer(this))
    , m_files(new FileActions(session, m_views, m_lessons, this))
    , m_presenter(new PresenterMode(session, m_lessons, this))
{
    setWindowTitle(tr("Attention Lab"));
    setObjectName(QStringLiteral("MainWindow"));
    buildCentralWidget();
    buildDocks();
    connectInput();

    connect(session, &Session::traceChanged, this, &MainWindow::showMessages);
    connect(session, &Session::errorOccurred, this, &MainWindow::showError);
    connect(session, &Session::stepChanged, m_views, &ViewStack::showStep);
    connect(session, &Session::viewChanged, m_views, &ViewStack::showStep);
    connect(session, &Session::stepChanged, m_presenter, &PresenterMode::updateCounter);
    connect(m_lessons, &LessonPlayer::stateChanged, m_presenter, &PresenterMode::updateCounter);
    labelSentence();
    connect(session, &Session::inputChanged, this, [this] {
        if (m_sentence->text() != m_session->sentence())
            m_sentence->setText(m_session->sentence()); // a session file was opened
        labelSentence();
    });
    connect(session, &Session::traceChanged, m_views, &ViewStack::showStep);
    connect(session, &Session::traceChanged, this, &MainWindow::labelSentence);

    connect(m_files, &FileActions::statusReported, this, &MainWindow::showStatus);
    connect(m_settings, &SettingsPanel::openModelRequested, m_files, &FileActions::openModelDialog);
    connect(m_settings, &SettingsPanel::openWeightsRequested, m_files, &FileActions::openWeightsDialog);
    connect(m_settings, &SettingsPanel::saveWeightsRequested, m_files, &FileActions::saveWeightsDialog);
    connect(m_settings, &SettingsPanel::openMaskRequested, m_files, &FileActions::openMaskDialog);

    buildMenus();
    buildShortcuts();
    m_views->showStep();
    showMessages();
    // Start with the keys on the stages (click the sentence box, or Ctrl+L, to type).
    stageView()->setFocusPolicy(Qt::StrongFocus);
    stageView()->setFocus();
    resize(1400, 900);
}

void MainWindow::buildCentralWidget()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    auto* top = new QHBoxLayout;
    m_sentenceLabel = new QLabel(this);
    m_sentenceLabel->setBuddy(m_sentence);
    top->addWidget(m_sentenceLabel);
    m_sentence->setText(m_session->sentence());
    m_sentence->setPlaceholderText(tr("Type a sentence in any language, e.g. \u72D7\u54AC\u4E86\u4EBA or <sos> Je vais bien"));
    m_sentence->setClearButtonEnabled(true);
    m_sentence->setMaxLength(100000);
    top->addWidget(m_sentence, 1);
    top->addWidget(m_presenter->counter());
    layout->addLayout(top);
    layout->addWidget(m_decoder);
    m_warnings->setWordWrap(true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_warnings);
    layout->addWidget(m_banner);
    layout->addWidget(m_errors);
    layout->addWidget(m_views, 1);
    setCentralWidget(central);
}

void MainWindow::buildDocks()
{
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
    connect(m_lessons, &LessonPlayer::openRequested, m_files, &FileActions::openLessonDialog);
    connect(m_lessons, &LessonPlayer::exportRequested, m_files, &FileActions::exportLessonDialog);
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
}

void MainWindow::connectInput()
{
    // Recompute after a short pause in typing, so fast typists never wait for the engine.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(40);
    connect(m_sentence, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { m_session->setSentence(m_sentence->text()); });
    // Enter (or Escape) leaves the text box, so the arrow keys step through the stages again.
    connect(m_sentence, &QLineEdit::returnPressed, this, [this] {
        m_debounce->stop();
        m_session->setSentence(m_sentence->text());
        stageView()->setFocus();
    });
    auto* typeShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    connect(typeShortcut, &QShortcut::activated, this, [this] {
        m_sentence->setFocus();
        m_sentence->selectAll();
    });
}

void MainWindow::labelSentence()
{
    // A Transformer's sentence is its encoder's source.
    m_sentenceLabel->setText(m_session->isModel() ? tr("&Source:") : tr("&Sentence:"));
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_files->addTo(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

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
        if (m_presenter->isOn())
            setPresenterMode(false);
        else
            stageView()->setFocus(); // leave the text box so the arrows step again
    });
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

void MainWindow::showMessages()
{
    QStringList warnings;
    for (const auto& w : m_session->trace()->warnings)
        warnings << QStringLiteral("\u26A0 ") + messageText(w);
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    m_warnings->setStyleSheet(QStringLiteral("color: #8a5300;"));
    m_warnings->setVisible(!warnings.isEmpty());
}

QLabel* MainWindow::messageLabel() const
{
    return m_errors->label();
}

void MainWindow::showError(const QString& message)
{
    // The error banner above the views shows it (the previous result stays on screen, so
    // nothing the user had is lost); the status bar repeats it for a moment.
    statusBar()->showMessage(message, 8000);
}

void MainWindow::showStatus(const QString& message, bool isError)
{
    if (isError)
        m_errors->showFileError(message);
    statusBar()->showMessage(message, 8000);
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

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLayout();
    m_files->saveLastSession();
    event->accept();
}

// --- Forwarding to the window's parts -----------------------------------------------------------

StageView* MainWindow::stageView() const
{
    return m_views->stageView();
}

MultiHeadView* MainWindow::headsView() const
{
    return m_views->headsView();
}

QTabWidget* MainWindow::tabs() const
{
    return m_views;
}

QWidget* MainWindow::currentStageWidget() const
{
    return m_views->currentStageWidget();
}

QWidget* MainWindow::visibleView() const
{
    return m_views->visibleView();
}

bool MainWindow::isPresenterMode() const
{
    return m_presenter->isOn();
}

QLabel* MainWindow::counterLabel() const
{
    return m_presenter->counter();
}

void MainWindow::setPresenterMode(bool on)
{
    m_presenter->setOn(on);
}

bool MainWindow::openSession(const QString& path)
{
    return m_files->openSession(path);
}

bool MainWindow::saveSession(const QString& path)
{
    return m_files->saveSession(path);
}

bool MainWindow::importWeights(const QString& path)
{
    return m_files->importWeights(path);
}

bool MainWindow::saveWeights(const QString& path)
{
    return m_files->saveWeights(path);
}

bool MainWindow::importModel(const QString& path)
{
    return m_files->importModel(path);
}

bool MainWindow::saveModel(const QString& path)
{
    return m_files->saveModel(path);
}

bool MainWindow::openMask(const QString& path)
{
    return m_files->openMask(path);
}

bool MainWindow::exportCurrentView(const QString& path, int dpi)
{
    return m_files->exportCurrentView(path, dpi);
}

bool MainWindow::exportCurrentCsv(const QString& path)
{
    return m_files->exportCurrentCsv(path);
}

bool MainWindow::exportAllStagesTo(const QString& dir, const QString& format)
{
    return m_files->exportAllStagesTo(dir, format);
}

void MainWindow::copyImage()
{
    m_files->copyImage();
}

bool MainWindow::exportLesson(const QString& path, bool png)
{
    return m_files->exportLesson(path, png);
}

QStringList MainWindow::recentFiles() const
{
    return m_files->recentFiles();
}

bool MainWindow::restoreLastSession()
{
    return m_files->restoreLastSession();
}

void MainWindow::setAutosave(Autosave* autosave)
{
    m_files->setAutosave(autosave);
}

} // namespace attnlab
