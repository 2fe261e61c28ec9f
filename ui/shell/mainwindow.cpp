#include "shell/mainwindow.h"

#include "session/messages.h"
#include "lessons/lessonplayer.h"
#include "shell/deskmenus.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/focusring.h"
#include "shell/languages.h"
#include "shell/presentermode.h"
#include "shell/screenfit.h"
#include "shell/stepkeys.h"
#include "shell/viewstack.h"
#include "views/cellinspector.h"
#include "views/compareview.h"
#include "views/stageview.h"
#include "widgets/comparebar.h"
#include "widgets/computingindicator.h"
#include "widgets/decoderpanel.h"
#include "widgets/errorbanner.h"
#include "widgets/formscroll.h"
#include "widgets/formulabanner.h"
#include "widgets/segmentbox.h"
#include "widgets/settingspanel.h"
#include "widgets/stagenavigator.h"
#include "widgets/warningline.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

MainWindow::MainWindow(Session* session, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_sentence(new QLineEdit(this))
    , m_warnings(new WarningLine(this))
    , m_banner(new FormulaBanner(session, this))
    , m_errors(new ErrorBanner(session, this))
    , m_views(new ViewStack(session, this))
    , m_decoder(new DecoderPanel(session, this))
    , m_compare(new CompareBar(session, this))
    , m_navigator(new StageNavigator(session, this))
    , m_settings(new SettingsPanel(session, this))
    , m_inspector(new CellInspector(session, this))
    , m_lessons(new LessonPlayer(session, this))
    , m_debounce(new QTimer(this))
    , m_files(new FileActions(session, m_views, m_lessons, this))
    , m_presenter(new PresenterMode(session, m_lessons, this))
    , m_keys(new StepKeys(this, [this](StepKey key) { return stepKey(key); }))
    , m_desk(new DeskMenus(this, session, m_files)) // Edit, zoom, Help, heatmaps' right-click menu
    , m_focusRing(new FocusRing(this))              // where the keyboard is, on every widget
{
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

    retranslate(); // the texts, and the menus
    connect(m_keys, &StepKeys::fieldLeft, this, &MainWindow::focusView);
    connect(m_compare, &CompareBar::editingDone, this, &MainWindow::focusView);
    addAction(m_compare->toggleAction()); // Ctrl+D, whatever has the focus
    m_views->showStep();
    showMessages();
    // Start with the keys on the stages (click the sentence box, or Ctrl+L, to type). The
    // stepping keys work wherever the focus is (StepKeys); this is only where it starts.
    stageView()->setFocusPolicy(Qt::StrongFocus);
    stageView()->setFocus();
    resize(1400, 900);
    fitToScreen(screen());
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
    m_sentence->setClearButtonEnabled(true);
    m_sentence->setMaxLength(100000);
    top->addWidget(m_sentence, 1);
    top->addWidget(new ComputingIndicator(m_session, this)); // while a large model computes the trace
    top->addWidget(m_compare->toggleButton());
    top->addWidget(m_presenter->counter());
    layout->addLayout(top);
    auto* segmentB = new SegmentBox(m_session, central); // BERT's second sentence
    layout->addWidget(segmentB);
    layout->addWidget(m_decoder);
    layout->addWidget(m_compare);
    statusBar()->addWidget(m_warnings, 1); // in the status bar: a warning never pushes the view down
    layout->addWidget(m_banner);
    layout->addWidget(m_errors);
    layout->addWidget(m_views, 1);
    layout->addWidget(m_presenter->caption());
    setCentralWidget(central);
    // What a projection does not need: the view, its caption and the counter are the slide.
    // Nor its fields: B's sentence and setting, the decoder's input (their keys still work).
    m_presenter->setClutter({m_sentenceLabel, m_sentence, segmentB, m_compare->toggleButton(), m_compare, m_decoder, m_views->tabBar()});
    // A comparison's three heatmaps keep 60 % of a projector's height (cells a back row can read
    // at 1024 × 768); a longer caption is shown in pages.
    m_presenter->setView(m_views, [this] {
        return m_views->visibleView() == static_cast<QWidget*>(m_views->compareView()) ? 0.6 : 0.0;
    });
    // Back from presenting: the panels that come and go as they are now (a step may have opened
    // or closed an encoder–decoder or BERT meanwhile).
    connect(m_presenter, &PresenterMode::toggled, this, [this, segmentB](bool on) {
        if (!on) {
            m_decoder->sync();
            segmentB->follow();
        }
    });
    // The status bar shows while it has something to say (a message, a warning), never in
    // presenter mode; it comes and goes at the bottom, so the view's top never moves.
    connect(statusBar(), &QStatusBar::messageChanged, this, &MainWindow::updateStatusBar);
    connect(m_presenter, &PresenterMode::toggled, this, &MainWindow::updateStatusBar);
    connect(m_presenter, &PresenterMode::toggled, m_focusRing, &FocusRing::setSuppressed); // nothing interactive is projected
    // Comparison switched on or off while presenting: the bar as comparison has it afterwards.
    connect(m_presenter, &PresenterMode::toggled, m_compare, [this](bool on) { m_compare->setVisible(m_session->isComparing() && !on); });
}

void MainWindow::buildDocks()
{
    m_navDock = new QDockWidget(tr("Stages"), this);
    m_navDock->setObjectName(QStringLiteral("StagesDock"));
    m_navDock->setWidget(m_navigator);
    m_lessonDock = new QDockWidget(tr("Lessons"), this);
    m_lessonDock->setObjectName(QStringLiteral("LessonsDock"));
    m_lessonDock->setWidget(m_lessons);
    connect(m_lessons, &LessonPlayer::stateChanged, this, [this] {
        if (m_lessons->isActive())
            m_lessonDock->raise(); // a lesson in progress is in front
        // A step whose model is missing shows a placeholder, not an earlier step's picture.
        const QString missing = m_lessons->missingModel();
        m_views->setPlaceholder(missing.isEmpty() ? QString()
                                                  : tr("This step needs the model %1, which the Models folder does not have: "
                                                       "its text is in the Lessons panel. File \u25B8 Models says where to get it.")
                                                        .arg(missing));
    });
    connect(m_lessons, &LessonPlayer::openRequested, m_files, &FileActions::openLessonDialog);
    connect(m_lessons, &LessonPlayer::exportRequested, m_files, &FileActions::exportLessonDialog);
    m_settingsDock = new QDockWidget(tr("Settings"), this);
    m_settingsDock->setObjectName(QStringLiteral("SettingsDock"));
    // The form scrolls inside its dock: every row it gains (attention kinds, limits) must not make
    // the window taller than a 720-pixel projector.
    auto* settingsScroll = new FormScrollArea(m_settings, m_settingsDock);
    m_settingsDock->setWidget(settingsScroll);
    m_inspectorDock = new QDockWidget(tr("How was this computed?"), this);
    m_inspectorDock->setObjectName(QStringLiteral("InspectorDock"));
    m_inspectorDock->setWidget(m_inspector); // it scrolls inside: filling it never makes the window taller
    placeDocks();
}

void MainWindow::connectInput()
{
    // Recompute after a short pause in typing, so fast typists never wait for the engine.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(40);
    connect(m_sentence, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { m_session->setSentence(m_sentence->text()); });
    // Enter (or Escape, see StepKeys) leaves the text box, so the arrow keys step again.
    connect(m_sentence, &QLineEdit::returnPressed, this, [this] {
        m_debounce->stop();
        m_session->setSentence(m_sentence->text());
        focusView();
    });
    auto* typeShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    connect(typeShortcut, &QShortcut::activated, this, [this] {
        m_sentence->setFocus(Qt::ShortcutFocusReason);
        m_sentence->selectAll();
        m_keys->startTyping(m_sentence);
    });
}

void MainWindow::labelSentence()
{
    // A Transformer's sentence is its encoder's source.
    const bool translates = m_session->isModel() && m_session->model() && m_session->model()->spec.architecture == Architecture::EncoderDecoder;
    m_sentenceLabel->setText(translates ? tr("&Source:") : tr("&Sentence:"));
}

bool MainWindow::stepKey(StepKey key)
{
    // While the projector is black only B and Esc act, and nothing changes behind the black.
    if (m_presenter->isBlackedOut()) {
        if (key == StepKey::Blackout || key == StepKey::Escape)
            m_presenter->setBlackout(false);
        return true;
    }
    switch (key) {
    case StepKey::Next:
        next();
        return true;
    case StepKey::Previous:
        previous();
        return true;
    case StepKey::First:
        if (m_lessons->isActive())
            m_lessons->goToStep(0);
        else
            m_session->setStep(0);
        return true;
    case StepKey::Last:
        if (m_lessons->isActive())
            m_lessons->goToStep(static_cast<int>(m_lessons->lesson()->steps.size()) - 1);
        else
            m_session->setStep(static_cast<int>(m_session->steps().size()) - 1);
        return true;
    case StepKey::NextHead:
        m_session->setHead(m_session->head() + 1);
        return true;
    case StepKey::PreviousHead:
        m_session->setHead(m_session->head() - 1);
        return true;
    case StepKey::Blackout:
        if (!m_presenter->isOn())
            return false; // B is only a key for the projector
        m_presenter->setBlackout(true);
        return true;
    case StepKey::Escape:
        if (m_presenter->isOn())
            setPresenterMode(false);
        else
            focusView(); // leave whatever has the focus so the arrows step again
        return true;
    }
    return false;
}

void MainWindow::focusView()
{
    m_views->visibleView()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::next()
{
    // A projected caption in pages shows its next page before the lesson steps on.
    if (m_presenter->turnCaptionPage(1))
        return;
    if (m_lessons->isActive())
        m_lessons->next();
    else
        m_session->nextStep();
}

void MainWindow::previous()
{
    if (m_presenter->turnCaptionPage(-1))
        return;
    if (m_lessons->isActive())
        m_lessons->previous();
    else
        m_session->previousStep();
}

void MainWindow::showMessages()
{
    QStringList warnings;
    for (const auto& w : m_session->trace()->warnings)
        warnings << messageText(w);
    m_warnings->setWarnings(warnings);
    // An input error's message goes as soon as its cause has: the input computes again.
    if (!m_errorStatus.isEmpty() && m_session->error().isEmpty()) {
        if (statusBar()->currentMessage() == m_errorStatus)
            statusBar()->clearMessage();
        m_errorStatus.clear();
    }
    updateStatusBar();
}

QLabel* MainWindow::messageLabel() const
{
    return m_errors->label();
}

void MainWindow::showError(const QString& message)
{
    // The error banner above the views shows it (the previous result stays on screen, so
    // nothing the user had is lost); the status bar repeats it for a moment, or until the input
    // computes again.
    m_errorStatus = message;
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
    m_language = code;
    const QString lessons = code.startsWith(QStringLiteral("zh")) ? QStringLiteral("zh") : QStringLiteral("en");
    m_lessons->setLanguage(lessons);
    // A lesson in progress continues at the same step, in its twin of the new language when shipped.
    if (m_lessons->isActive()) {
        const QString twin = LessonPlayer::shippedTwin(m_lessons->currentPath(), lessons);
        if (twin != m_lessons->currentPath())
            m_lessons->openLessonAt(twin, m_lessons->stepIndex());
    }
    tickLanguage();
}

void MainWindow::tickLanguage()
{
    for (QAction* a : m_languageMenu->actions())
        a->setChecked(a->data().toString() == m_language);
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void MainWindow::retranslate()
{
    // The one language switch: every widget writes its texts again where it stands (the views,
    // panels and banners on the same event); nothing is rebuilt, moved or resized.
    setWindowTitle(tr("Attention Lab"));
    m_sentence->setPlaceholderText(tr("Type a sentence in any language, e.g. \u72D7\u54AC\u4E86\u4EBA or <sos> Je vais bien"));
    labelSentence();
    m_navDock->setWindowTitle(tr("Stages"));
    m_lessonDock->setWindowTitle(tr("Lessons"));
    m_settingsDock->setWindowTitle(tr("Settings"));
    m_inspectorDock->setWindowTitle(tr("How was this computed?"));
    // The menus are made again: their actions only call slots and hold no state but the
    // presenter tick and the language tick, which follow.
    const QList<QMenu*> old = menuBar()->findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly);
    menuBar()->clear();
    qDeleteAll(old);
    buildMenus();
    {
        const QSignalBlocker block(m_presenterAction);
        m_presenterAction->setChecked(m_presenter->isOn());
    }
    tickLanguage();
    showMessages();
    m_presenter->updateCounter();
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

void MainWindow::updateStatusBar()
{
    // QStatusBar draws a message over its widgets: the warnings and a message never show at once.
    // A message holds the bar for its few seconds and the warnings come back after it; the hint
    // on how to step on, which stays until the first step, gives way to a warning at once.
    const bool warnings = !m_warnings->warnings().isEmpty();
    const QString message = statusBar()->currentMessage();
    if (warnings && !message.isEmpty() && message == m_hint) {
        statusBar()->clearMessage(); // messageChanged: here again
        return;
    }
    m_warnings->setVisible(warnings && message.isEmpty());
    // Always there outside presenter mode, so that a message's coming and going never moves the
    // view under the pointer; presenter mode projects no status bar.
    const bool show = !m_presenter->isOn();
    if (show && statusBar()->isHidden()) {
        statusBar()->show();
        // Its height for the type it has now: it keeps the height it last measured, and the
        // type changed while it was hidden (presenter mode's large type), a strip 8 px taller
        // than before came back.
        QEvent relayout(QEvent::LayoutRequest);
        QCoreApplication::sendEvent(statusBar(), &relayout);
    } else if (!show) {
        statusBar()->hide();
    }
}

void MainWindow::startAtFirstStage()
{
    m_session->setStep(0);
    m_hint = tr("Press \u2192 (or Space, or click Next \u25B6) to go through the stages one by one.");
    statusBar()->showMessage(m_hint);
    auto* once = new QObject(this);
    connect(m_session, &Session::stepChanged, once, [this, once] {
        statusBar()->clearMessage();
        once->deleteLater();
    });
}

void MainWindow::start(const QString& sentence)
{
    if (!sentence.isEmpty())
        m_session->setSentence(sentence);
    else if (restoreLastSession())
        return;
    else
        m_session->setSentence(LanguageManager::defaultSentence(m_language));
    startAtFirstStage();
}

void MainWindow::setAutosave(Autosave* autosave)
{
    m_files->setAutosave(autosave);
}

} // namespace attnlab
