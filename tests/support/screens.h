#pragma once
// The three screens of a classroom for the offscreen platform (a 1024 × 768 projector, a
// 1280 × 720 one and a 1920 × 1080 monitor, read from a configuration file), and the checks that
// a window and what it shows lie whole on one of them. Shared by tst_screens and the
// comparison's screen test.

#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "views/heatmapview.h"
#include "views/stageview.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QFile>
#include <QScreen>
#include <QTemporaryDir>
#include <QtTest>

namespace attnlab::testing {

inline constexpr char kScreens[] = R"({"screens": [
    {"name": "projector-1024", "x": 0, "y": 0, "width": 1024, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96},
    {"name": "projector-1280", "x": 1024, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96, "logicalBaseDpi": 96},
    {"name": "monitor-1920", "x": 2304, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96}
]})";

inline QScreen* screenNamed(const QString& name)
{
    for (QScreen* s : QGuiApplication::screens()) {
        if (s->name() == name)
            return s;
    }
    return nullptr;
}

inline QString text(const QRect& r)
{
    return QStringLiteral("(%1, %2) %3 x %4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

/// `local` (in `w`'s coordinates) on the screen: inside every ancestor up to the window (not
/// cut off by a layout too small or a panel) and inside `screen`.
inline bool shownWhole(const QWidget* w, QRect local, const QRect& screen, QString* why)
{
    QRect global(w->mapToGlobal(local.topLeft()), local.size());
    for (const QWidget* a = w; a; a = a->parentWidget()) {
        const QRect box(a->mapToGlobal(QPoint(0, 0)), a->size());
        if (!a->isVisible() || !box.contains(global)) {
            *why = QStringLiteral("%1 %2 is outside %3 %4").arg(text(global), QString::fromLatin1(w->metaObject()->className()), text(box),
                                                             QString::fromLatin1(a->metaObject()->className()));
            return false;
        }
        if (a->isWindow())
            break;
    }
    if (!screen.contains(global)) {
        *why = QStringLiteral("%1 is off the screen %2").arg(text(global), text(screen));
        return false;
    }
    return true;
}

/// Empty when the window lies within `room` and is laid out for it (a window whose minimum is
/// larger than the screen is cut off), else what is wrong.
inline QString outside(const MainWindow& w, const QRect& room)
{
    const QSize minimum = w.minimumSizeHint();
    if (minimum.width() > room.width() || minimum.height() > room.height())
        return QStringLiteral("minimum %1 x %2").arg(minimum.width()).arg(minimum.height());
    if (!room.contains(w.frameGeometry()))
        return text(w.frameGeometry()) + QStringLiteral(" on ") + text(room);
    return {};
}

/// Lets the window lay itself out at its new size and draws the heatmap there.
inline void settle(MainWindow& w)
{
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
    w.stageView()->heatmap()->plot()->replot(QCustomPlot::rpImmediateRefresh);
}

/// Opens the window as the application does, on `screen`.
inline void openOn(MainWindow& w, QScreen* screen)
{
    w.setScreen(screen);
    w.showWithinScreen();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCoreApplication::processEvents(); // the second fit, once the window is framed
}

/// Starts presenter mode on `screen` itself (not on another screen than the window's, as the
/// automatic choice would).
inline void presentOn(MainWindow& w, QScreen* screen)
{
    w.presenter()->setScreenChoice(screen->name());
    w.setPresenterMode(true);
}

/// Runs `Test` with the screens of `screensJson` (the offscreen platform's configuration file),
/// whatever platform ctest set.
template <class Test>
int runOnScreens(int argc, char** argv, const char* screensJson)
{
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("screens.json")));
    if (!config.open(QIODevice::WriteOnly) || config.write(screensJson) < 0)
        return 1;
    config.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    Test test;
    return QTest::qExec(&test, argc, argv);
}

/// Runs `test` with the three screens, whatever platform ctest set: the offscreen platform reads
/// them from a file.
template <class Test>
int runOnClassroomScreens(int argc, char** argv)
{
    return runOnScreens<Test>(argc, argv, kScreens);
}

} // namespace attnlab::testing
