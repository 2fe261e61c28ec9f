// The one conversion from engine matrices to QCustomPlot data.

#include "plot/plotting.h"

#include <qcustomplot.h>

#include <QtTest>

#include <cmath>
#include <limits>

class TestPlotting : public QObject {
    Q_OBJECT
private slots:
    void cellsKeepTheirRowAndColumn()
    {
        Eigen::MatrixXf m(2, 3);
        m << 1, 2, 3, 4, 5, -std::numeric_limits<float>::infinity();
        QCPColorMapData data(1, 1, QCPRange(0, 1), QCPRange(0, 1));
        attnlab::fillColorMapData(&data, m);
        QCOMPARE(data.keySize(), 3); // columns along the key (x) axis
        QCOMPARE(data.valueSize(), 2);
        QCOMPARE(data.cell(0, 0), 1.0);
        QCOMPARE(data.cell(2, 0), 3.0);
        QCOMPARE(data.cell(1, 1), 5.0);
        QVERIFY(std::isnan(data.cell(2, 1))); // masked: NaN, drawn in the gradient's NaN colour
        // Cell centres sit on integer coordinates.
        QCOMPARE(data.keyRange().lower, 0.0);
        QCOMPARE(data.keyRange().upper, 2.0);
        QCOMPARE(data.valueRange().upper, 1.0);
    }

    void gradientsDrawMaskedCellsDistinctly()
    {
        for (const auto& g : {attnlab::viridisGradient(), attnlab::divergingGradient()}) {
            QCOMPARE(g.nanHandling(), QCPColorGradient::nhNanColor);
            QVERIFY(g.nanColor() != g.colorStops().first());
        }
        // Viridis starts dark purple and ends yellow.
        QCOMPARE(attnlab::viridisGradient().colorStops().first(), QColor(0x440154));
        QCOMPARE(attnlab::viridisGradient().colorStops().last(), QColor(0xFDE725));
    }
};

QTEST_MAIN(TestPlotting)
#include "tst_plotting.moc"
