// Zoom and fit of a heatmap (views/heatmapzoom.h): at 100 % the plot fills the view as before;
// zoomed, it is larger than the view, scrolls, and labels the columns a wide matrix could not;
// Ctrl + the wheel zooms at the pointer, the wheel alone scrolls a zoomed heatmap.

#include "views/heatmapview.h"
#include "views/heatmapzoom.h"

#include "core/trace.h"

#include <qcustomplot.h>

#include <QScrollBar>
#include <QtTest>

using namespace attnlab;

namespace {

/// A 10 × 79 matrix, as the output probabilities of a trained model: too wide to label all.
LabeledMatrix wide()
{
    std::vector<std::string> cols;
    for (int i = 0; i < 79; ++i)
        cols.push_back("c" + std::to_string(i));
    std::vector<std::string> rows;
    for (int i = 0; i < 10; ++i)
        rows.push_back("r" + std::to_string(i));
    LabeledMatrix m;
    m.name = "S";
    m.values = Eigen::MatrixXf::Random(10, 79);
    m.rowLabels = std::make_shared<const std::vector<std::string>>(rows);
    m.colLabels = std::make_shared<const std::vector<std::string>>(cols);
    return m;
}

int labelledColumns(const HeatmapView& v)
{
    auto ticker = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? static_cast<int>(ticker->ticks().size()) : -1;
}

void wheel(QWidget* target, QPoint pos, int delta, Qt::KeyboardModifiers modifiers, bool across = false)
{
    QWheelEvent e(pos, target->mapToGlobal(pos), QPoint(), across ? QPoint(delta, 0) : QPoint(0, delta), Qt::NoButton, modifiers,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
}

} // namespace

class TestHeatmapZoom : public QObject {
    Q_OBJECT
private slots:
    void atFitThePlotFillsTheView()
    {
        HeatmapView v;
        v.resize(700, 450);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setMatrix(wide(), QStringLiteral("S"), HeatmapView::Scale::Signed);
        QCoreApplication::processEvents();
        QCOMPARE(v.zoom()->factor(), 1.0);
        QCOMPARE(v.plot()->size(), v.size());
        QVERIFY(!v.zoom()->horizontalScrollBar()->isVisible());
        QVERIFY(!v.zoom()->verticalScrollBar()->isVisible());
    }

    void zoomingInMakesRoomForEveryColumnLabel()
    {
        HeatmapView v;
        v.resize(700, 450);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setMatrix(wide(), QStringLiteral("S"), HeatmapView::Scale::Signed);
        QCoreApplication::processEvents();
        const int atFit = labelledColumns(v);
        QVERIFY2(atFit < 79, qPrintable(QString::number(atFit)));
        for (int i = 0; i < 8; ++i)
            v.zoom()->zoomIn();
        QCoreApplication::processEvents();
        QVERIFY(v.zoom()->factor() > 4);
        QCOMPARE(v.plot()->width(), qRound(v.zoom()->contentsRect().width() * v.zoom()->factor()));
        QCOMPARE(labelledColumns(v), 79);
        QVERIFY(v.zoom()->horizontalScrollBar()->isVisible());
        QVERIFY(v.zoom()->horizontalScrollBar()->maximum() > 0);
        // Fit brings the first picture back.
        v.zoom()->fit();
        QCoreApplication::processEvents();
        QCOMPARE(v.plot()->size(), v.size());
        QCOMPARE(labelledColumns(v), atFit);
    }

    void theFactorStaysWithinItsLimits()
    {
        HeatmapView v;
        v.resize(400, 300);
        v.show();
        for (int i = 0; i < 30; ++i)
            v.zoom()->zoomIn();
        QCOMPARE(v.zoom()->factor(), HeatmapZoom::kMaxFactor);
        for (int i = 0; i < 30; ++i)
            v.zoom()->zoomOut();
        QCOMPARE(v.zoom()->factor(), HeatmapZoom::kMinFactor);
    }

    void ctrlWheelZoomsAtThePointerAndTheWheelScrolls()
    {
        HeatmapView v;
        v.resize(600, 400);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setMatrix(wide(), QStringLiteral("S"), HeatmapView::Scale::Signed);
        QCoreApplication::processEvents();
        // At fit the wheel alone does nothing to the zoom.
        wheel(v.plot(), QPoint(300, 200), 120, Qt::NoModifier);
        QCOMPARE(v.zoom()->factor(), 1.0);
        // Two notches with Ctrl at the right-hand part of the plot: 1.25² and that point stays put.
        const QPoint at(500, 300);
        const double x = v.plot()->xAxis->pixelToCoord(at.x());
        wheel(v.plot(), at, 240, Qt::ControlModifier);
        QCOMPARE(v.zoom()->factor(), HeatmapZoom::kStep * HeatmapZoom::kStep);
        QCoreApplication::processEvents();
        const QPoint onPlot = v.plot()->mapFrom(v.zoom()->viewport(), at);
        QVERIFY2(std::abs(v.plot()->xAxis->pixelToCoord(onPlot.x()) - x) < 1.0,
                 qPrintable(QStringLiteral("%1 vs %2").arg(v.plot()->xAxis->pixelToCoord(onPlot.x())).arg(x)));
        // Zoomed, the wheel scrolls down, Shift + the wheel across.
        QScrollBar* down = v.zoom()->verticalScrollBar();
        QScrollBar* across = v.zoom()->horizontalScrollBar();
        down->setValue(0);
        across->setValue(0);
        wheel(v.plot(), QPoint(10, 10), -120, Qt::NoModifier);
        QVERIFY(down->value() > 0);
        wheel(v.plot(), QPoint(10, 10), -120, Qt::ShiftModifier);
        QVERIFY(across->value() > 0);
        // Ctrl + the wheel back: fit again.
        wheel(v.plot(), at, -600, Qt::ControlModifier);
        QCOMPARE(v.zoom()->factor(), 1.0);
    }

    void clickedCellsAreStillFoundWhenZoomedAndScrolled()
    {
        HeatmapView v;
        v.resize(600, 400);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setMatrix(wide(), QStringLiteral("S"), HeatmapView::Scale::Signed);
        v.zoom()->setFactor(4);
        QCoreApplication::processEvents();
        v.zoom()->horizontalScrollBar()->setValue(v.zoom()->horizontalScrollBar()->maximum());
        v.zoom()->verticalScrollBar()->setValue(v.zoom()->verticalScrollBar()->maximum());
        QCoreApplication::processEvents();
        QSignalSpy clicked(&v, &HeatmapView::cellClicked);
        // The pixel of cell (row 9, column 78), the last one, wherever the plot has scrolled to.
        const QPoint cell(qRound(v.plot()->xAxis->coordToPixel(78)), qRound(v.plot()->yAxis->coordToPixel(9)));
        QVERIFY(v.zoom()->viewport()->rect().contains(v.plot()->mapTo(v.zoom()->viewport(), cell)));
        QTest::mouseClick(v.plot(), Qt::LeftButton, Qt::NoModifier, cell);
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.first().at(0).toInt(), 9);
        QCOMPARE(clicked.first().at(1).toInt(), 78);
    }
};

QTEST_MAIN(TestHeatmapZoom)
#include "tst_heatmapzoom.moc"
