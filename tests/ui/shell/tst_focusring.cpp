// Every Tab stop of the studio shows where the keyboard is (issue 28 §1: 19 of 24 changed no
// pixel at 1024 × 768): the widget's picture changes when it takes the focus, and the ring goes
// with the focus. In presenter mode nothing interactive is projected: no ring.

#include "shell/focusring.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "support/settle.h"
#include "views/stageview.h"

#include <QApplication>
#include <QImage>
#include <QScreen>
#include <QSettings>
#include <QtTest>

using namespace attnlab;

namespace {

/// The window's picture around `w` (a few pixels beyond it: a ring may be drawn outside).
QImage around(MainWindow& win, QWidget* w)
{
    testing::settle();
    win.repaint(); // what the screen shows: the window's backing store, every child as painted
    const QRect r = QRect(w->mapTo(&win, QPoint(0, 0)), w->size()).adjusted(-4, -4, 4, 4);
    return win.screen()->grabWindow(win.winId(), r.x(), r.y(), r.width(), r.height()).toImage();
}

} // namespace

class TestFocusRing : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_focusring"));
        QSettings().clear();
    }

    void everyTabStopShowsItsFocus_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("least");
        QTest::newRow("1024 x 768: one column of panels") << QSize(1024, 740) << 5;
    }

    void everyTabStopShowsItsFocus()
    {
        QFETCH(QSize, size);
        QFETCH(int, least);
        Session s;
        MainWindow w(&s);
        w.resize(size);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QStringList unseen;
        int stops = 0;
        QWidget* first = nullptr;
        // Walk the Tab chain once around, as a keyboard user does.
        for (int i = 0; i < 80; ++i) {
            testing::settle(); // a Tab stop hidden behind a panel's tab passes the focus on
            QWidget* now = QApplication::focusWidget();
            if (!now)
                break;
            if (now == first)
                break;
            if (!first)
                first = now;
            ++stops;
            QVERIFY2(!now->visibleRegion().isEmpty(), qPrintable(QStringLiteral("a Tab stop off the screen: %1").arg(QString::fromLatin1(now->metaObject()->className()))));
            // The picture with the focus, then with the focus elsewhere (on the window itself).
            const QImage focused = around(w, now);
            w.setFocus(Qt::OtherFocusReason);
            const QImage unfocused = around(w, now);
            if (focused == unfocused)
                unseen << QStringLiteral("%1 \"%2\"").arg(QString::fromLatin1(now->metaObject()->className()), now->objectName());
            now->setFocus(Qt::OtherFocusReason);
            QTest::keyClick(now, Qt::Key_Tab);
        }
        QVERIFY2(stops >= least, qPrintable(QString::number(stops))); // at least the view, the head, the speed, the panels' tabs, the sentence
        QVERIFY2(unseen.isEmpty(), qPrintable(QStringLiteral("%1 of %2 Tab stops show no focus: %3").arg(unseen.size()).arg(stops).arg(unseen.join(u", "))));
    }

    void noRingIsProjected()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto* ring = w.findChild<FocusRing*>();
        QVERIFY(ring);
        w.stageView()->setFocus(Qt::TabFocusReason);
        testing::settle();
        QVERIFY(ring->isVisible());
        w.setPresenterMode(true);
        testing::settle();
        QVERIFY(!ring->isVisible());
        w.setPresenterMode(false);
        testing::settle();
        QVERIFY(ring->isVisible());
    }
};

QTEST_MAIN(TestFocusRing)
#include "tst_focusring.moc"
