// The studio on the screens of a classroom: three screens side by side (a 1024 × 768 projector,
// a 1280 × 720 one and a 1920 × 1080 monitor; the offscreen platform reads them from a
// configuration file). On each, the window opens within the screen, and in the normal layout and
// in presenter mode the whole heatmap, its colour scale and the formula lie on the screen,
// nothing cut by the window or a panel. Presenter mode goes to a chosen screen while the docks
// stay on the other, and comes back.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "widgets/warningline.h"
#include "shell/presentermode.h"
#include "shell/screenfit.h"
#include "support/screens.h"
#include "views/heatmapview.h"
#include "views/stageview.h"
#include "widgets/formulabanner.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QScreen>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

using namespace attnlab;
using namespace attnlab::testing;

class TestScreens : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_screens"));
        QCOMPARE(QGuiApplication::screens().size(), 3);
    }

    void fitInto_data()
    {
        QTest::addColumn<QRect>("wanted");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("fitted");
        const QRect screen(1024, 0, 1280, 720);
        QTest::newRow("fits: stays") << QRect(1100, 50, 800, 600) << screen << QRect(1100, 50, 800, 600);
        QTest::newRow("too large: the whole screen") << QRect(1024, 0, 1400, 900) << screen << screen;
        QTest::newRow("too wide, off the left") << QRect(900, 100, 1500, 500) << screen << QRect(1024, 100, 1280, 500);
        QTest::newRow("off the bottom right: moved in") << QRect(2000, 600, 400, 300) << screen << QRect(1904, 420, 400, 300);
        QTest::newRow("above the top") << QRect(1200, -50, 300, 200) << screen << QRect(1200, 0, 300, 200);
        QTest::newRow("no screen: as asked") << QRect(5, 5, 3000, 2000) << QRect() << QRect(5, 5, 3000, 2000);
    }

    void fitInto()
    {
        QFETCH(QRect, wanted);
        QFETCH(QRect, available);
        QFETCH(QRect, fitted);
        QCOMPARE(attnlab::fitInto(wanted, available), fitted);
    }

    void frameMargins()
    {
        // A title bar of 24 and borders of 2: the frame is larger than the window by these.
        const QRect window(100, 124, 800, 600);
        const QRect frame(98, 100, 804, 626);
        QCOMPARE(attnlab::frameMargins(frame, window), QMargins(2, 24, 2, 2));
        QCOMPARE(attnlab::frameMargins(window, window), QMargins());
    }

    void windowOpensWithinTheScreen_data()
    {
        QTest::addColumn<QString>("screen");
        QTest::addColumn<QRect>("saved"); // a geometry saved earlier, or none
        for (const char* name : {"projector-1024", "projector-1280", "monitor-1920"}) {
            QTest::addRow("%s, first start", name) << name << QRect();
            QTest::addRow("%s, saved on a larger screen", name) << name << QRect(-200, 300, 2600, 1500);
        }
    }

    void windowOpensWithinTheScreen()
    {
        QFETCH(QString, screen);
        QFETCH(QRect, saved);
        QScreen* s = screenNamed(screen);
        QVERIFY(s);
        Session session;
        MainWindow w(&session);
        // What the window asks for: the place saved last time, or its size at a first start.
        if (saved.isValid())
            w.setGeometry(saved.translated(s->geometry().topLeft()));
        else
            w.resize(1400, 900);
        openOn(w, s);
        const QString wrong = outside(w, s->availableGeometry());
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        // As large as it was asked to be where there is room (1400 × 900 the first time).
        if (!saved.isValid() && s->availableGeometry().width() >= 1400)
            QCOMPARE(w.size(), QSize(1400, 900));
    }

    void panelsBecomeTabsOnASmallScreen()
    {
        QScreen* small = screenNamed(QStringLiteral("projector-1024"));
        QScreen* large = screenNamed(QStringLiteral("monitor-1920"));
        Session session;
        MainWindow w(&session);
        openOn(w, small);
        QVERIFY(w.docksInOneColumn());
        auto* settings = w.findChild<QDockWidget*>(QStringLiteral("SettingsDock"));
        QCOMPARE(w.dockWidgetArea(settings), Qt::LeftDockWidgetArea);
        // A wide but short projector (1280 × 720): one column too, the view needs the width for
        // its captions and titles to take fewer of the lines it lacks (issue 28 §3).
        QScreen* short720 = screenNamed(QStringLiteral("projector-1280"));
        w.setScreen(short720);
        w.fitToScreen(short720);
        QVERIFY(w.docksInOneColumn());
        w.setScreen(small);
        w.fitToScreen(small);
        // Moved to a large screen: two columns again; a layout saved there, back on the small one:
        // one column.
        w.setScreen(large);
        w.fitToScreen(large);
        QVERIFY(!w.docksInOneColumn());
        QCOMPARE(w.dockWidgetArea(settings), Qt::RightDockWidgetArea);
        const QByteArray twoColumns = w.saveState();
        w.setScreen(small);
        w.fitToScreen(small);
        QVERIFY(w.docksInOneColumn());
        QVERIFY(w.restoreState(twoColumns));
        QVERIFY(!w.docksInOneColumn());
        w.fitToScreen(small);
        QVERIFY(w.docksInOneColumn());
        QVERIFY(outside(w, small->availableGeometry()).isEmpty());
        // Floated by the user: it stays floating.
        w.setScreen(large);
        w.fitToScreen(large);
        settings->setFloating(true);
        w.setScreen(small);
        w.fitToScreen(small);
        QVERIFY(settings->isFloating());
    }

    void wholeHeatmapScaleAndFormulaShow_data()
    {
        QTest::addColumn<QString>("screen");
        QTest::addColumn<bool>("presenter");
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<int>("step");
        const char* lessons[][2] = {{"look-ahead mask", ":/lessons/en/04-look-ahead-mask.md"},
                                    {"Transformer decoder", ":/lessons/en/11-decoder-attentions.md"},
                                    {"Transformer decoder (Chinese)", ":/lessons/zh/11-decoder-attentions.md"}};
        for (const char* name : {"projector-1024", "projector-1280", "monitor-1920"}) {
            for (bool presenter : {false, true}) {
                for (const auto& l : lessons)
                    QTest::addRow("%s, %s, %s", name, presenter ? "presenter" : "normal", l[0]) << name << presenter << l[1] << 3;
            }
        }
    }

    void wholeHeatmapScaleAndFormulaShow()
    {
        QFETCH(QString, screen);
        QFETCH(bool, presenter);
        QFETCH(QString, lesson);
        QFETCH(int, step);
        QScreen* s = screenNamed(screen);
        Session session;
        MainWindow w(&session);
        openOn(w, s);
        QVERIFY(w.lessonPlayer()->openLessonFile(lesson));
        w.lessonPlayer()->goToStep(step);
        QCOMPARE(w.visibleView(), static_cast<QWidget*>(w.stageView())); // a heatmap step
        if (presenter)
            presentOn(w, s);
        settle(w);
        const QRect room = presenter ? s->geometry() : s->availableGeometry();
        const QString wrong = outside(w, room);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        QVERIFY(!presenter || w.geometry() == s->geometry());

        QString why;
        QCustomPlot* plot = w.stageView()->heatmap()->plot();
        QVERIFY2(shownWhole(plot, plot->rect(), room, &why), qPrintable(QStringLiteral("heatmap: ") + why));
        // The cells and the colour scale inside the plot, at a size one can read.
        const QRect cells = plot->axisRect()->rect();
        QVERIFY2(plot->rect().contains(cells) && cells.width() >= 150 && cells.height() >= 120, qPrintable(text(cells)));
        QCPColorScale* scale = nullptr;
        for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
            if (auto* c = qobject_cast<QCPColorScale*>(e))
                scale = c;
        }
        QVERIFY(scale);
        QVERIFY2(shownWhole(plot, scale->outerRect(), room, &why), qPrintable(QStringLiteral("colour scale: ") + why));
        QVERIFY2(scale->outerRect().left() >= cells.right(), "the colour scale overlaps the cells");

        QLabel* formula = w.banner()->formulaLabel();
        QVERIFY(!formula->text().isEmpty());
        QVERIFY2(shownWhole(formula, formula->rect(), room, &why), qPrintable(QStringLiteral("formula: ") + why));
        // Its text whole: wrapped lines need their height, unwrapped text its width.
        QVERIFY2(formula->height() >= formula->heightForWidth(formula->width()),
                 qPrintable(QStringLiteral("formula cut: %1 < %2").arg(formula->height()).arg(formula->heightForWidth(formula->width()))));
    }

    void noStepWidensTheWindowPastTheScreen_data()
    {
        QTest::addColumn<QString>("screen");
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<bool>("presenter");
        for (const char* screen : {"projector-1024", "projector-1280"}) {
            for (const char* lesson : {"en/01-query-key-value", "en/02-kernel-regression", "en/03-scaled-dot-product", "en/06-multi-head",
                                       "en/07-positional-encoding", "en/09-add-and-norm", "en/10-feed-forward",
                                       "en/13-teacher-forcing-vs-generation", "zh/07-positional-encoding", "zh/13-teacher-forcing-vs-generation"}) {
                QTest::addRow("%s, %s, normal", screen, lesson) << screen << QString::fromLatin1(lesson) << false;
                QTest::addRow("%s, %s, presenter", screen, lesson) << screen << QString::fromLatin1(lesson) << true;
            }
        }
    }

    void noStepWidensTheWindowPastTheScreen()
    {
        // Every view a lesson shows (PE plots, the heads grid, LayerNorm, the FFN, kernel
        // regression, softmax scaling, generation), on the small projectors.
        QFETCH(QString, screen);
        QFETCH(QString, lesson);
        QFETCH(bool, presenter);
        QScreen* s = screenNamed(screen);
        Session session;
        MainWindow w(&session);
        openOn(w, s);
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/%1.md").arg(lesson)));
        if (presenter) {
            w.presenter()->setScreenChoice(s->name());
            w.setPresenterMode(true);
        }
        const QRect room = presenter ? s->geometry() : s->availableGeometry();
        for (int i = 0; i < static_cast<int>(w.lessonPlayer()->lesson()->steps.size()); ++i) {
            w.lessonPlayer()->goToStep(i);
            settle(w);
            const QString wrong = outside(w, room);
            QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("step %1: ").arg(i + 1) + wrong));
        }
    }

    void windowStaysPutWhenItsContentChanges_data()
    {
        QTest::addColumn<QString>("screen");
        for (const char* name : {"projector-1024", "projector-1280", "monitor-1920"})
            QTest::addRow("%s", name) << name;
    }

    // Issue 11 §2: switching the language at run time moved the window and made it taller than
    // the screen; filling the inspector made it taller; a warning pushed the heatmap down.
    void windowStaysPutWhenItsContentChanges()
    {
        QFETCH(QString, screen);
        QScreen* s = screenNamed(screen);
        LanguageManager languages;
        Session session;
        MainWindow w(&session);
        openOn(w, s);
        session.setStepId(QStringLiteral("weights"));
        settle(w);
        const QRect placed = w.geometry();
        const auto heatmapTop = [&w] { return w.stageView()->heatmap()->mapTo(&w, QPoint(0, 0)).y(); };
        const auto check = [&](const char* what) {
            settle(w);
            QVERIFY2(w.geometry() == placed, qPrintable(QStringLiteral("%1: %2, was %3").arg(QLatin1String(what), text(w.geometry()), text(placed))));
            const QString wrong = outside(w, s->availableGeometry());
            QVERIFY2(wrong.isEmpty(), qPrintable(QLatin1String(what) + QStringLiteral(": ") + wrong));
        };
        for (const QString& code : {QStringLiteral("zh_CN"), QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            QVERIFY(languages.setLanguage(code));
            w.setCurrentLanguage(code);
            check("language switch");
        }
        // The inspector at its fullest: a weight of the last row, a value in a wide matrix.
        for (const char* stage : {"weights", "scores", "output", "embeddings", "pe"}) {
            session.setStepId(QString::fromLatin1(stage));
            session.selectCell(5, 5);
            check(stage);
        }
        session.setStepId(QStringLiteral("weights"));
        settle(w);
        const int before = heatmapTop();
        // Warnings go to the status bar: the view stays where it was.
        Config c = session.config();
        c.maxTokens = 4;
        session.setConfig(c);
        QVERIFY(!session.trace()->warnings.empty());
        check("a warning");
        QVERIFY(w.warningLine()->isVisible());
        QCOMPARE(heatmapTop(), before);
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    void presenterModeOnAnotherScreen()
    {
        QScreen* laptop = screenNamed(QStringLiteral("projector-1280"));
        QScreen* projector = screenNamed(QStringLiteral("projector-1024"));
        Session session;
        MainWindow w(&session);
        openOn(w, laptop);
        const QRect before = w.geometry();
        QList<QDockWidget*> open;
        for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
            if (d->toggleViewAction()->isChecked())
                open << d;
        }
        QCOMPARE(open.size(), 4);

        // The View menu offers every screen, and automatic.
        QMenu* menu = w.screenMenu();
        QVERIFY(menu->menuAction()->isVisible());
        QCOMPARE(menu->actions().size(), 4);
        QAction* pick = nullptr;
        for (QAction* a : menu->actions()) {
            if (a->text().contains(projector->name()))
                pick = a;
        }
        QVERIFY(pick && pick->text().contains(QStringLiteral("1024 \u00D7 768")));
        pick->trigger();
        QCOMPARE(w.presenter()->screenChoice(), projector->name());

        w.setPresenterMode(true);
        settle(w);
        QCOMPARE(w.screen(), projector);
        QCOMPARE(w.geometry(), projector->geometry());
        QVERIFY(w.presenter()->controlsApart());
        // Every open dock on the laptop, side by side, in normal type.
        for (QDockWidget* d : open) {
            QVERIFY2(d->isFloating() && d->isVisible(), qPrintable(d->objectName()));
            QVERIFY2(laptop->availableGeometry().contains(d->frameGeometry()), qPrintable(d->objectName() + text(d->frameGeometry())));
            QCOMPARE(d->font().pointSizeF(), QApplication::font().pointSizeF());
        }
        QVERIFY(w.font().pointSizeF() >= 16);

        // Back: docked again, the window where it was.
        w.setPresenterMode(false);
        settle(w);
        for (QDockWidget* d : open) {
            QVERIFY2(!d->isFloating() && d->isVisible(), qPrintable(d->objectName()));
        }
        QCOMPARE(w.screen(), laptop);
        QCOMPARE(w.geometry(), before);
        QVERIFY(!w.presenter()->controlsApart());
        // Another screen chosen while presenting: the presentation moves there at once.
        w.setPresenterMode(true);
        w.presenter()->setScreenChoice(QStringLiteral("monitor-1920"));
        QCOMPARE(w.screen()->name(), QStringLiteral("monitor-1920"));
        QCOMPARE(w.geometry(), w.screen()->geometry());
        QVERIFY(w.presenter()->controlsApart());
        w.setPresenterMode(false);
        QCOMPARE(w.screen(), laptop);
    }

    void automaticPresenterScreenIsAnotherOne()
    {
        QScreen* laptop = screenNamed(QStringLiteral("monitor-1920"));
        Session session;
        MainWindow w(&session);
        openOn(w, laptop);
        QVERIFY(w.presenter()->screenChoice().isEmpty());
        QVERIFY(w.presenter()->targetScreen() != laptop);
        // A screen that is not there (unplugged since it was chosen): automatic again.
        w.presenter()->setScreenChoice(QStringLiteral("gone"));
        QVERIFY(w.presenter()->targetScreen() != laptop);
        w.presenter()->setScreenChoice(laptop->name());
        QCOMPARE(w.presenter()->targetScreen(), laptop);
        w.setPresenterMode(true);
        QVERIFY(!w.presenter()->controlsApart()); // the same screen: the side docks step aside
        QCOMPARE(w.geometry(), laptop->geometry());
    }
};

int main(int argc, char** argv)
{
    return runOnClassroomScreens<TestScreens>(argc, argv);
}

#include "tst_screens.moc"
