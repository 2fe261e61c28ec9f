// Presenter mode on a window with docks on both sides: large type and a high-contrast palette,
// the counter of stages (or of the lesson's steps), the right-hand docks out of the way and
// back again, the window over the whole screen; leaving gives back what was there.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/presentermode.h"

#include <QDockWidget>
#include <QLabel>
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
        QVERIFY(left->isVisible());
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
