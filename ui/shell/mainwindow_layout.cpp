// The main window's panels and geometry: where the docks go (two columns, or one on a small
// projector), View ▸ Reset layout, the layout saved and restored between runs (the user's, never
// presenter mode's), and fitting the window to its screen.

#include "shell/mainwindow.h"

#include "lessons/lessonplayer.h"
#include "shell/presentermode.h"
#include "shell/screenfit.h"

#include <QDockWidget>
#include <QScreen>
#include <QSettings>
#include <QTimer>

#include <algorithm>

namespace attnlab {

void MainWindow::placeDocks()
{
    for (QDockWidget* dock : {m_navDock, m_lessonDock, m_settingsDock, m_inspectorDock}) {
        dock->setFloating(false);
        removeDockWidget(dock); // out of any tab group the user made
    }
    addDockWidget(Qt::LeftDockWidgetArea, m_navDock);
    addDockWidget(Qt::LeftDockWidgetArea, m_lessonDock);
    tabifyDockWidget(m_navDock, m_lessonDock);
    placeRightDocks();
    for (QDockWidget* dock : {m_navDock, m_lessonDock, m_settingsDock, m_inspectorDock})
        dock->show();
    (m_lessons->isActive() ? m_lessonDock : m_navDock)->raise();
}

void MainWindow::resetLayout()
{
    setPresenterMode(false);
    placeDocks();
    if (const QScreen* s = screen())
        arrangeDocks(s->availableGeometry().size());
}

void MainWindow::placeRightDocks()
{
    addDockWidget(Qt::RightDockWidgetArea, m_settingsDock);
    addDockWidget(Qt::RightDockWidgetArea, m_inspectorDock);
    // The inspector's tables need the height more than the settings form does.
    resizeDocks({m_settingsDock, m_inspectorDock}, {360, 520}, Qt::Vertical);
    resizeDocks({m_settingsDock}, {340}, Qt::Horizontal);
    resizeDocks({m_navDock}, {250}, Qt::Horizontal);
}

void MainWindow::arrangeDocks(const QSize& available)
{
    // Two columns of panels beside the view when the screen has room for both and some to spare
    // for the view; otherwise one column, the settings and the inspector as tabs beside the
    // stages and the lessons (a 1024 × 768 projector). A short screen (a 1280 × 720 projector)
    // takes one column too: there the view needs the width, for its captions and titles to take
    // fewer of the lines it lacks.
    constexpr int roomForTheView = 200;
    constexpr int shortScreen = 800;
    const int left = std::max(m_navDock->minimumSizeHint().width(), m_lessonDock->minimumSizeHint().width());
    const int right = std::max(m_settingsDock->minimumSizeHint().width(), m_inspectorDock->minimumSizeHint().width());
    const bool narrow = available.width() < left + right + centralWidget()->minimumSizeHint().width() + roomForTheView
                     || available.height() < shortScreen;
    // Docks the user floated or put elsewhere stay where they are.
    const bool onTheRight = dockWidgetArea(m_settingsDock) == Qt::RightDockWidgetArea && !m_settingsDock->isFloating();
    if (narrow && onTheRight) {
        tabifyDockWidget(m_lessonDock, m_settingsDock);
        tabifyDockWidget(m_settingsDock, m_inspectorDock);
        (m_lessons->isActive() ? m_lessonDock : m_navDock)->raise();
    } else if (!narrow && docksInOneColumn()) {
        placeRightDocks();
    }
}

bool MainWindow::docksInOneColumn() const
{
    return tabifiedDockWidgets(m_lessonDock).contains(m_settingsDock);
}

void MainWindow::saveLayout() const
{
    // The user's layout: while presenting, the one presenter mode will give back, never its
    // full screen and hidden docks.
    const bool presenting = m_presenter->isOn();
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), presenting ? m_presenter->normalGeometry() : saveGeometry());
    settings.setValue(QStringLiteral("windowState"), presenting ? m_presenter->normalState() : saveState());
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

void MainWindow::fitToScreen(QScreen* screen)
{
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    arrangeDocks(available.size());
    const QMargins frame = frameMargins(frameGeometry(), geometry());
    setGeometry(fitInto(geometry(), available.marginsRemoved(frame)));
}

void MainWindow::showWithinScreen()
{
    fitToScreen(screen());
    show();
    activateWindow();
    // Once a window manager has framed the window, its title bar must fit on the screen too.
    QTimer::singleShot(0, this, [this] {
        if (!isPresenterMode())
            fitToScreen(screen());
    });
}

} // namespace attnlab
