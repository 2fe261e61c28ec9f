// Presenter mode on a window with docks on both sides: large type and a high-contrast palette,
// the counter of stages (or of the lesson's steps), the right-hand docks out of the way and
// back again, the window over the whole screen; leaving gives back what was there. It says when
// it starts and ends, trims the lesson panel, and blacks the screen out on demand.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/presentermode.h"

#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QMainWindow>
#include <QScreen>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

namespace {

QDockWidget* addDock(QMainWindow& w, Qt::DockWidgetArea area, const QString& name)
{
    auto* dock = new QDockWidget(name, &w);
    dock->setObjectName(name);
    dock->setWidget(new QLabel(name));
    w.addDockWidget(area, dock);
    return dock;
}

} // namespace

class TestPresenterMode : public QObject {
    Q_OBJECT
private slots:
    void entersAndLeaves()
    {
        Session s;
        QMainWindow w;
        auto* lessons = new LessonPlayer(&s, &w);
        QDockWidget* left = addDock(w, Qt::LeftDockWidgetArea, QStringLiteral("left"));
        QDockWidget* settings = addDock(w, Qt::RightDockWidgetArea, QStringLiteral("settings"));
        QDockWidget* closed = addDock(w, Qt::RightDockWidgetArea, QStringLiteral("closed by the user"));
        PresenterMode p(&s, lessons, &w);
        w.setCentralWidget(p.counter());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        closed->hide();
        const qreal normal = w.font().pointSizeF();
        QVERIFY(!p.isOn());
        QVERIFY(!p.counter()->isVisible());

        p.setOn(true);
        QVERIFY(p.isOn());
        QCOMPARE(w.font().pointSizeF(), std::max(16.0, normal * 1.6));
        QCOMPARE(p.counter()->font().pointSizeF(), w.font().pointSizeF() * 1.4);
        QVERIFY(p.counter()->font().bold());
        QCOMPARE(w.palette().color(QPalette::Window), QColor(Qt::white));
        QCOMPARE(w.palette().color(QPalette::Text), QColor(Qt::black));
        QVERIFY(p.counter()->isVisible());
        QCOMPARE(p.counter()->text(), QStringLiteral("Stage %1 / 15").arg(s.step() + 1));
        // One screen: a clean projection, every panel aside (issue 11 §3).
        QVERIFY(!left->isVisible());
        QVERIFY(!settings->isVisible());
        QVERIFY(!closed->isVisible());
        QCOMPARE(w.geometry(), w.screen()->geometry());
        p.setOn(true); // again: nothing changes
        QVERIFY(!settings->isVisible());

        p.setOn(false);
        QVERIFY(!p.isOn());
        QCOMPARE(w.font().pointSizeF(), normal);
        QCOMPARE(w.palette().color(QPalette::Window), QApplication::palette().color(QPalette::Window));
        QVERIFY(!p.counter()->isVisible());
        QVERIFY(left->isVisible());
        QVERIFY(settings->isVisible());
        QVERIFY(!closed->isVisible()); // the user's choice stays
    }

    void announcesItsStateAndClearsTheLessonPanel()
    {
        Session s;
        QMainWindow w;
        auto* lessons = new LessonPlayer(&s, &w);
        w.setCentralWidget(lessons);
        PresenterMode p(&s, lessons, &w);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy toggled(&p, &PresenterMode::toggled);
        const auto shown = [lessons] { return lessons->lessonList()->isVisible(); };
        QVERIFY(shown());
        p.setOn(true);
        QCOMPARE(toggled.size(), 1);
        QCOMPARE(toggled.last().at(0).toBool(), true);
        // In front of the class the player keeps the steps and the explanation only.
        QVERIFY(!shown());
        QVERIFY(lessons->stepList()->isVisible());
        QVERIFY(lessons->explanation()->isVisible());
        p.setOn(true);
        QCOMPARE(toggled.size(), 1); // the same state: no signal
        p.setOn(false);
        QCOMPARE(toggled.size(), 2);
        QCOMPARE(toggled.last().at(0).toBool(), false);
        QVERIFY(shown());
    }

    void blackScreenOnlyWhilePresenting()
    {
        Session s;
        QMainWindow w;
        auto* lessons = new LessonPlayer(&s, &w);
        PresenterMode p(&s, lessons, &w);
        w.setCentralWidget(p.counter());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy changed(&p, &PresenterMode::blackoutChanged);
        p.setBlackout(true); // not presenting: refused
        QVERIFY(!p.isBlackedOut());
        QCOMPARE(changed.size(), 0);
        p.setOn(true);
        p.setBlackout(true);
        QVERIFY(p.isBlackedOut());
        QCOMPARE(changed.size(), 1);
        // It covers the whole window, menus and docks included, and follows its size.
        QCOMPARE(p.blackScreen()->geometry(), w.rect());
        w.resize(w.width() - 40, w.height() - 30);
        QCOMPARE(p.blackScreen()->geometry(), w.rect());
        QCOMPARE(p.blackScreen()->cursor().shape(), Qt::BlankCursor);
        // Leaving presenter mode ends it.
        p.setOn(false);
        QVERIFY(!p.isBlackedOut());
        QCOMPARE(changed.size(), 2);
    }

    void counterFollowsTheStageOrTheLesson()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("small.md"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("---\ntitle: Small\nlanguage: en\nsentence: one two three\n---\n\n"
                "## First\nstage: weights\n\nRow three.\n\n## Second\nstage: mask\n\nThe mask.\n\n## Third\nstage: q\n\nQ.\n");
        f.close();

        Session s;
        QMainWindow w;
        auto* lessons = new LessonPlayer(&s, &w);
        PresenterMode p(&s, lessons, &w);
        s.setStep(0);
        p.updateCounter();
        QCOMPARE(p.counter()->text(), QStringLiteral("Stage 1 / 15"));
        s.setStep(14);
        p.updateCounter();
        QCOMPARE(p.counter()->text(), QStringLiteral("Stage 15 / 15"));
        QVERIFY(lessons->openLessonFile(path));
        lessons->next();
        p.updateCounter();
        QCOMPARE(p.counter()->text(), QStringLiteral("Step 2 / 3"));
        lessons->stop();
        p.updateCounter();
        QVERIFY(p.counter()->text().startsWith(QStringLiteral("Stage ")));
    }
};

QTEST_MAIN(TestPresenterMode)
#include "tst_presentermode.moc"
