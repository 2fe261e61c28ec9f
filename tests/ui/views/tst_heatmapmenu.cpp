// The right-click menu of a heatmap (views/heatmapmenu.h): Copy image, Copy value with the cell's
// row and column counted from 1 and their labels, Export…; opened by a real right click.

#include "views/heatmapmenu.h"
#include "views/heatmapview.h"

#include "core/trace.h"

#include <qcustomplot.h>

#include <QClipboard>
#include <QMenu>
#include <QtTest>

#include <limits>

using namespace attnlab;

namespace {

LabeledMatrix weights()
{
    LabeledMatrix m;
    m.name = "A";
    m.values.resize(2, 3);
    m.values << 0.25f, 0.5f, 0.25f, 0.125f, -std::numeric_limits<float>::infinity(), 0.875f;
    m.rowLabels = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"狗", "咬"});
    m.colLabels = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"狗", "咬", "人"});
    return m;
}

QAction* actionNamed(QMenu* menu, const QString& text)
{
    for (QAction* a : menu->actions())
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

} // namespace

class TestHeatmapMenu : public QObject {
    Q_OBJECT
private slots:
    void theValueTextCountsFromOne()
    {
        HeatmapView v;
        v.setMatrix(weights(), QStringLiteral("A"), HeatmapView::Scale::Probability);
        QCOMPARE(HeatmapMenu::cellText(v, 0, 2), QStringLiteral("A = 0.25 (row 1 \u201C狗\u201D, column 3 \u201C人\u201D)"));
        QCOMPARE(HeatmapMenu::cellText(v, 1, 2), QStringLiteral("A = 0.875 (row 2 \u201C咬\u201D, column 3 \u201C人\u201D)"));
        QCOMPARE(HeatmapMenu::cellText(v, 1, 1), QStringLiteral("A = \u2212\u221E (row 2 \u201C咬\u201D, column 2 \u201C咬\u201D)"));
        QVERIFY(HeatmapMenu::cellText(v, 2, 0).isEmpty());
        QVERIFY(HeatmapMenu::cellText(v, -1, -1).isEmpty());
    }

    void aRightClickOpensTheMenuAndCopiesTheClickedCell()
    {
        QWidget window;
        auto* v = new HeatmapView(&window);
        v->resize(600, 400);
        window.resize(600, 400);
        int exports = 0;
        HeatmapMenu menu(&window, [&exports] { ++exports; });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        v->setMatrix(weights(), QStringLiteral("A"), HeatmapView::Scale::Probability);
        QCoreApplication::processEvents();
        // A right click on cell (row 2, column 3), as the mouse sends it.
        const QPoint cell(qRound(v->plot()->xAxis->coordToPixel(2)), qRound(v->plot()->yAxis->coordToPixel(1)));
        QContextMenuEvent click(QContextMenuEvent::Mouse, cell, v->plot()->mapToGlobal(cell));
        QApplication::sendEvent(v->plot(), &click);
        QMenu* m = menu.menu();
        QVERIFY(m);
        QVERIFY(m->isVisible());
        QStringList texts;
        for (QAction* a : m->actions())
            if (!a->isSeparator())
                texts << a->text().remove(QLatin1Char('&'));
        QCOMPARE(texts, (QStringList{QStringLiteral("Copy image"), QStringLiteral("Copy value"), QStringLiteral("Export\u2026")}));
        QVERIFY(m->toolTipsVisible());
        QCOMPARE(actionNamed(m, QStringLiteral("Copy value"))->toolTip(), QStringLiteral("A = 0.875 (row 2 \u201C咬\u201D, column 3 \u201C人\u201D)"));
        actionNamed(m, QStringLiteral("Copy value"))->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("A = 0.875 (row 2 \u201C咬\u201D, column 3 \u201C人\u201D)"));
        actionNamed(m, QStringLiteral("Copy image"))->trigger();
        const QImage image = QApplication::clipboard()->image();
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 500);
        actionNamed(m, QStringLiteral("Export\u2026"))->trigger();
        QCOMPARE(exports, 1);
        m->close();
    }

    void aClickBesideTheCellsHasNoValueToCopy()
    {
        QWidget window;
        auto* v = new HeatmapView(&window);
        v->resize(600, 400);
        HeatmapMenu menu(&window, {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        v->setMatrix(weights(), QStringLiteral("A"), HeatmapView::Scale::Probability);
        QCoreApplication::processEvents();
        QContextMenuEvent click(QContextMenuEvent::Mouse, QPoint(2, 2), v->plot()->mapToGlobal(QPoint(2, 2)));
        QApplication::sendEvent(v->plot(), &click);
        QVERIFY(menu.menu());
        QVERIFY(!actionNamed(menu.menu(), QStringLiteral("Copy value"))->isEnabled());
        menu.menu()->close();
    }

    void heatmapsOfAnotherWindowAreLeftAlone()
    {
        QWidget window;
        HeatmapMenu menu(&window, {});
        HeatmapView other; // its own window
        other.resize(300, 200);
        other.show();
        QContextMenuEvent click(QContextMenuEvent::Mouse, QPoint(150, 100), other.plot()->mapToGlobal(QPoint(150, 100)));
        QApplication::sendEvent(other.plot(), &click);
        QVERIFY(!menu.menu());
    }
};

QTEST_MAIN(TestHeatmapMenu)
#include "tst_heatmapmenu.moc"
