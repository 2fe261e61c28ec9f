// Zoom and fit of a heatmap (views/heatmapzoom.h): at 100 % the whole matrix fills the view as
// before; zoomed, part of it is shown larger, with every column label a wide matrix could not
// show, and scroll bars; Ctrl + the wheel zooms at the pointer, the wheel alone scrolls.

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

/// The column labels drawn: the ticks inside the part shown.
int labelledColumns(const HeatmapView& v)
{
    auto ticker = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker)
        return -1;
    int n = 0;
    for (const double key : ticker->ticks().keys())
        n += v.plot()->xAxis2->range().contains(key) ? 1 : 0;
    return n;
}

/// Labels the ticker holds at each step between neighbours (1: every column).
double labelStep(const HeatmapView& v)
{
    const QList<double> keys = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>()->ticks().keys();
    return keys.size() > 1 ? keys[1] - keys[0] : 0;
}

void wheel(QWidget* target, QPointF pos, int delta, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent e(pos, target->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
}

void showWide(HeatmapView& v)
{
    v.resize(700, 450);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setMatrix(wide(), QStringLiteral("S"), HeatmapView::Scale::Signed);
    QCoreApplication::processEvents();
    v.plot()->replot(QCustomPlot::rpImmediateRefresh); // lay the axes out
}

} // namespace

class TestHeatmapZoom : public QObject {
    Q_OBJECT
private slots:
    void atFitTheWholeMatrixFillsTheView()
    {
        HeatmapView v;
        showWide(v);
        QCOMPARE(v.zoom()->factor(), 1.0);
        QCOMPARE(v.plot()->size(), v.size());
        QCOMPARE(v.plot()->xAxis->range(), QCPRange(-0.5, 78.5));
        QCOMPARE(v.plot()->yAxis->range(), QCPRange(-0.5, 9.5));
        QVERIFY(!v.zoom()->horizontalBar()->isVisible());
        QVERIFY(!v.zoom()->verticalBar()->isVisible());
    }

    void zoomingInShowsPartLargerWithEveryLabel()
    {
        HeatmapView v;
        showWide(v);
        QVERIFY(labelStep(v) > 1); // 79 columns: not every one labelled at 100 %
        for (int i = 0; i < 6; ++i)
            v.zoom()->zoomIn();
        QCoreApplication::processEvents();
        const double f = std::pow(HeatmapZoom::kStep, 6);
        QCOMPARE(v.zoom()->factor(), f);
        // 1/f of the rows and columns, each f times as large, around the middle of the matrix.
        QCOMPARE(v.plot()->xAxis->range().size(), 79 / f);
        QCOMPARE(v.plot()->yAxis->range().size(), 10 / f);
        // (The labels' margins change with the zoom and move the middle a little.)
        QVERIFY2(std::abs(v.plot()->xAxis->range().center() - 39) < 2, qPrintable(QString::number(v.plot()->xAxis->range().center())));
        QVERIFY(std::abs(v.plot()->yAxis->range().center() - 4.5) < 1);
        QCOMPARE(v.plot()->xAxis2->range(), v.plot()->xAxis->range());
        QCOMPARE(labelStep(v), 1.0); // every column shown is labelled
        QVERIFY(labelledColumns(v) >= 20);
        QVERIFY(v.zoom()->horizontalBar()->isVisible());
        QVERIFY(v.zoom()->horizontalBar()->maximum() > 0);
        // Fit brings the first picture back.
        v.zoom()->fit();
        QCoreApplication::processEvents();
        QCOMPARE(v.plot()->xAxis->range(), QCPRange(-0.5, 78.5));
        QVERIFY(labelStep(v) > 1);
        QVERIFY(!v.zoom()->horizontalBar()->isVisible());
    }

    void theFactorStaysWithinItsLimits()
    {
        HeatmapView v;
        showWide(v);
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
        showWide(v);
        const QRect area = v.plot()->axisRect()->rect();
        // At fit the wheel alone does nothing to the zoom.
        wheel(v.plot(), area.center(), 120, Qt::NoModifier);
        QCOMPARE(v.zoom()->factor(), 1.0);
        // Two notches with Ctrl in the lower right part of the cells: 1.25², that cell stays put.
        const QPointF at(area.left() + area.width() * 0.8, area.top() + area.height() * 0.7);
        const double x = v.plot()->xAxis->pixelToCoord(at.x());
        const double y = v.plot()->yAxis->pixelToCoord(at.y());
        wheel(v.plot(), at, 240, Qt::ControlModifier);
        QCOMPARE(v.zoom()->factor(), HeatmapZoom::kStep * HeatmapZoom::kStep);
        QCoreApplication::processEvents();
        v.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(std::abs(v.plot()->xAxis->pixelToCoord(at.x()) - x) < 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(v.plot()->xAxis->pixelToCoord(at.x())).arg(x)));
        QVERIFY2(std::abs(v.plot()->yAxis->pixelToCoord(at.y()) - y) < 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(v.plot()->yAxis->pixelToCoord(at.y())).arg(y)));
        // Zoomed, the wheel scrolls (down: later rows), Shift + the wheel across.
        v.zoom()->verticalBar()->setValue(0);
        v.zoom()->horizontalBar()->setValue(0);
        QCOMPARE(v.plot()->yAxis->range().lower, -0.5);
        wheel(v.plot(), area.center(), -120, Qt::NoModifier);
        QVERIFY(v.plot()->yAxis->range().lower > 0);
        wheel(v.plot(), area.center(), -120, Qt::ShiftModifier);
        QVERIFY(v.plot()->xAxis->range().lower > 2);
        // Ctrl + the wheel back: fit again, the whole matrix.
        wheel(v.plot(), at, -1200, Qt::ControlModifier);
        QCOMPARE(v.zoom()->factor(), 1.0);
        QCOMPARE(v.plot()->xAxis->range(), QCPRange(-0.5, 78.5));
    }

    void scrolledToTheEndTheLastCellIsClicked()
    {
        HeatmapView v;
        showWide(v);
        v.zoom()->setFactor(4);
        QCoreApplication::processEvents();
        v.zoom()->horizontalBar()->setValue(v.zoom()->horizontalBar()->maximum());
        v.zoom()->verticalBar()->setValue(v.zoom()->verticalBar()->maximum());
        QCoreApplication::processEvents();
        QCOMPARE(v.plot()->xAxis->range().upper, 78.5);
        QCOMPARE(v.plot()->yAxis->range().upper, 9.5);
        v.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QSignalSpy clicked(&v, &HeatmapView::cellClicked);
        const QPoint cell(qRound(v.plot()->xAxis->coordToPixel(78)), qRound(v.plot()->yAxis->coordToPixel(9)));
        QVERIFY(v.plot()->axisRect()->rect().contains(cell));
        QTest::mouseClick(v.plot(), Qt::LeftButton, Qt::NoModifier, cell);
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.first().at(0).toInt(), 9);
        QCOMPARE(clicked.first().at(1).toInt(), 78);
    }

    void theZoomSurvivesADrawOfTheSameShape()
    {
        // Another head, or a selection: the heatmap draws again, the part shown stays.
        HeatmapView v;
        showWide(v);
        v.zoom()->setFactor(2);
        v.zoom()->horizontalBar()->setValue(v.zoom()->horizontalBar()->maximum());
        const QCPRange shown = v.plot()->xAxis->range();
        v.setSelectedCell(3, 70);
        v.setMatrix(wide(), QStringLiteral("S, head 2"), HeatmapView::Scale::Signed);
        QCOMPARE(v.plot()->xAxis->range(), shown);
        QCOMPARE(v.zoom()->factor(), 2.0);
        // A matrix of another shape (the next stage) is shown whole.
        LabeledMatrix q = wide();
        q.values = Eigen::MatrixXf::Random(10, 8);
        q.colLabels = std::make_shared<const std::vector<std::string>>(8, "d");
        v.setMatrix(q, QStringLiteral("Q"), HeatmapView::Scale::Signed);
        QCOMPARE(v.zoom()->factor(), 1.0);
        QCOMPARE(v.plot()->xAxis->range(), QCPRange(-0.5, 7.5));
        QVERIFY(!v.zoom()->horizontalBar()->isVisible());
    }
};

QTEST_MAIN(TestHeatmapZoom)
#include "tst_heatmapzoom.moc"
