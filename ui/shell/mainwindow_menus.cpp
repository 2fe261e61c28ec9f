// The main window's menus (File, View, Go); made again on a language change (retranslate()).

#include "shell/mainwindow.h"

#include "shell/deskmenus.h"
#include "shell/fileactions.h"
#include "shell/languages.h"
#include "shell/presentermode.h"
#include "shell/stepkeys.h"
#include "widgets/comparebar.h"
#include "widgets/stagenavigator.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>

namespace attnlab {

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_files->addTo(file);
    m_files->addModelsMenu(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_compare->toggleAction());
    buildPresenterMenu(view);
    // A closed panel comes back from here (ticked while open), where it was.
    QMenu* panels = view->addMenu(tr("P&anels"));
    for (QDockWidget* dock : {m_navDock, m_lessonDock, m_settingsDock, m_inspectorDock})
        panels->addAction(dock->toggleViewAction());
    panels->addSeparator();
    panels->addAction(tr("Show &all panels"), this, [this] {
        for (QDockWidget* dock : {m_navDock, m_lessonDock, m_settingsDock, m_inspectorDock})
            dock->show();
    });
    QAction* reset = panels->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayout"));
    view->addSeparator();
    m_languageMenu = view->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(m_languageMenu);
    for (const QString& code : LanguageManager::available()) {
        QAction* a = m_languageMenu->addAction(LanguageManager::nativeName(code));
        a->setCheckable(true);
        a->setData(code);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] { emit languageRequested(code); });
    }

    // Every stepping key is listed (after the tab, where menus show shortcuts); StepKeys acts on
    // them, so the actions carry no shortcut of their own.
    m_goMenu = menuBar()->addMenu(tr("&Go"));
    const auto addStep = [this](const QString& text, StepKey key) {
        QAction* a = m_goMenu->addAction(text + QLatin1Char('\t') + StepKeys::keysText(key));
        connect(a, &QAction::triggered, this, [this, key] { stepKey(key); });
    };
    addStep(tr("&Next step"), StepKey::Next);
    addStep(tr("&Previous step"), StepKey::Previous);
    addStep(tr("&First stage"), StepKey::First);
    addStep(tr("&Last stage"), StepKey::Last);
    addStep(tr("Next &head"), StepKey::NextHead);
    addStep(tr("Previous h&ead"), StepKey::PreviousHead);
    QAction* play = m_goMenu->addAction(tr("&Auto-play"));
    play->setShortcut(Qt::Key_P);
    connect(play, &QAction::triggered, this, [this] { m_navigator->setPlaying(!m_navigator->isPlaying()); });
    m_desk->addTo(menuBar(), view); // Edit (undo, redo), the zoom in View, Help
}

void MainWindow::buildPresenterMenu(QMenu* view)
{
    m_presenterAction = view->addAction(tr("&Presenter mode"));
    m_presenterAction->setCheckable(true);
    m_presenterAction->setShortcut(Qt::Key_F11);
    m_presenterAction->setShortcutContext(Qt::ApplicationShortcut);
    connect(m_presenterAction, &QAction::toggled, this, &MainWindow::setPresenterMode);
    // Esc, the language switch and --presenter change the mode too: the tick follows it.
    connect(m_presenter, &PresenterMode::toggled, m_presenterAction, &QAction::setChecked);

    QAction* blackout = view->addAction(tr("&Black screen") + QLatin1Char('\t') + StepKeys::keysText(StepKey::Blackout));
    blackout->setEnabled(false);
    connect(m_presenter, &PresenterMode::toggled, blackout, &QAction::setEnabled);
    connect(blackout, &QAction::triggered, this, [this] { stepKey(StepKey::Blackout); });

    // With several screens: where presenter mode goes (the controls stay on the other one).
    m_screenMenu = view->addMenu(tr("Presenter &screen"));
    // Queued: when a projector goes, the list of screens has lost it by then.
    const auto once = static_cast<Qt::ConnectionType>(Qt::QueuedConnection | Qt::UniqueConnection); // menus are made again on a language change
    connect(qApp, &QGuiApplication::screenAdded, this, &MainWindow::listScreens, once);
    connect(qApp, &QGuiApplication::screenRemoved, this, &MainWindow::listScreens, once);
    listScreens();
    view->addSeparator();
}

void MainWindow::listScreens()
{
    m_presenter->listScreens(m_screenMenu);
}

} // namespace attnlab
