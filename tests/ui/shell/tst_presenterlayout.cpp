// Presenter mode leaves no trace on the studio's window (issue 28 §1): after F11 and Esc every
// panel, the view, the formula banner and the tab bar are where and as large as they were; the
// layout saved at quit is the user's, never the presenter's; View ▸ Reset layout gives back the
// first start's arrangement.

#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "session/session.h"
#include "support/settle.h"
#include "views/heatmapview.h"
#include "widgets/comparebar.h"
#include "views/stageview.h"

#include <qcustomplot.h>

#include <QAction>
#include <QDockWidget>
#include <QScreen>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

#include <cmath>
#include <map>

using namespace attnlab;

namespace {

/// Where every part of the window is: the open docks, the central widget, the tabs.
std::map<QString, QRect> layoutOf(MainWindow& w)
{
    testing::settle();
    std::map<QString, QRect> parts;
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        if (d->isVisible() && !d->visibleRegion().isEmpty()) // not behind another dock's tab
            parts[QStringLiteral("dock ") + d->objectName()] = d->geometry();
    }
    parts[QStringLiteral("central")] = w.centralWidget()->geometry();
    // The heatmap's cells: the same room for the numbers as before.
    QCustomPlot* plot = w.stageView()->heatmap()->plot();
    parts[QStringLiteral("heatmap cells")] = plot->axisRect()->rect();
    // Their numbers: how many, and how large (in hundredths of a point).
    int numbers = 0;
    int size = 0;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible()) {
            ++numbers;
            size = static_cast<int>(std::lround(t->font().pointSizeF() * 100));
        }
    }
    parts[QStringLiteral("cell numbers (count, size)")] = QRect(0, 0, numbers, size);
    QTabBar* bar = w.tabs()->tabBar();
    parts[QStringLiteral("last tab")] = bar->tabRect(bar->count() - 1);
    return parts;
}

QString differences(const std::map<QString, QRect>& before, const std::map<QString, QRect>& after)
{
    QStringList out;
    const auto text = [](const QRect& r) { return QStringLiteral("(%1, %2) %3 x %4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()); };
    for (const auto& [name, rect] : before) {
        const auto it = after.find(name);
        if (it == after.end())
            out << name + QStringLiteral(" is gone");
        else if (it->second != rect)
            out << QStringLiteral("%1: %2 -> %3").arg(name, text(rect), text(it->second));
    }
    for (const auto& [name, rect] : after) {
        if (!before.count(name))
            out << name + QStringLiteral(" appeared");
    }
    return out.join(QStringLiteral("; "));
}

} // namespace

class TestPresenterLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_presenterlayout"));
        QSettings().clear();
    }

    void leavingRestoresTheWindow_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("compare");
        QTest::newRow("1400 x 900") << QSize(1400, 900) << false;
        QTest::newRow("1024 x 768") << QSize(1024, 740) << false;
        QTest::newRow("comparing, 1400 x 900") << QSize(1400, 900) << true;
        QTest::newRow("comparing, 1024 x 768") << QSize(1024, 740) << true;
    }

    void leavingRestoresTheWindow()
    {
        QFETCH(QSize, size);
        QFETCH(bool, compare);
        Session s;
        MainWindow w(&s);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        s.setStepId(QStringLiteral("weights"));
        if (compare)
            w.findChild<CompareBar*>()->toggleAction()->trigger();
        const auto before = layoutOf(w);
        const QRect geometry = w.geometry();
        for (int round = 0; round < 2; ++round) {
            w.setPresenterMode(true);
            testing::settle();
            QVERIFY(w.presenter()->isOn());
            w.setPresenterMode(false);
            const auto after = layoutOf(w);
            QVERIFY2(before == after, qPrintable(differences(before, after)));
            QCOMPARE(w.geometry(), geometry);
        }
    }

    void theSavedLayoutIsTheUsers()
    {
        QSettings().clear();
        QByteArray state;
        QByteArray geometry;
        {
            Session s;
            MainWindow w(&s);
            w.resize(1200, 800);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            state = w.saveState();
            geometry = w.saveGeometry();
            w.setPresenterMode(true);
            testing::settle();
            w.close(); // quit while presenting
        }
        QCOMPARE(QSettings().value(QStringLiteral("windowState")).toByteArray(), state);
        QCOMPARE(QSettings().value(QStringLiteral("geometry")).toByteArray(), geometry);
        Session s;
        MainWindow w(&s);
        w.restoreLayout();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.isFullScreen());
    }

    void resetLayoutGivesBackTheFirstArrangement()
    {
        QSettings().clear();
        Session s;
        MainWindow w(&s);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto first = layoutOf(w);
        // The user drags panels about: one floats, one is closed.
        const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
        QVERIFY(docks.size() >= 2);
        docks[0]->setFloating(true);
        docks[1]->close();
        QVERIFY(differences(first, layoutOf(w)) != QString());
        auto* reset = w.findChild<QAction*>(QStringLiteral("resetLayout"));
        QVERIFY2(reset, "View > Panels > Reset layout");
        reset->trigger();
        const auto after = layoutOf(w);
        QVERIFY2(first == after, qPrintable(differences(first, after)));
    }
};

QTEST_MAIN(TestPresenterLayout)
#include "tst_presenterlayout.moc"
