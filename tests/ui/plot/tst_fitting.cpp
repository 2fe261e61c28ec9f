// Texts that fit their boxes (ui/plot/fitting.h): here, the number ticks of a colour scale. In a
// short heatmap with projected type (the All heads tab in presenter mode at 1024 × 768) the scale
// kept its five labels 0, 0.25, 0.5, 0.75, 1 and drew them over each other.

#include "plot/fitting.h"

#include <qcustomplot.h>

#include <QtTest>

class TestFitting : public QObject {
    Q_OBJECT
private slots:
    void aShortColourScaleDrawsFewerTicks_data()
    {
        QTest::addColumn<int>("height");
        QTest::newRow("short") << 110;
        QTest::newRow("tall") << 600;
    }

    void aShortColourScaleDrawsFewerTicks()
    {
        QFETCH(int, height);
        QCustomPlot plot;
        plot.resize(220, height);
        auto* scale = new QCPColorScale(&plot);
        plot.plotLayout()->addElement(0, 1, scale);
        scale->setDataRange(QCPRange(0, 1));
        QFont big = scale->axis()->tickLabelFont();
        big.setPixelSize(22);
        scale->axis()->setTickLabelFont(big);
        QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
        ticker->setTickStep(0.25);
        scale->axis()->setTicker(ticker);
        attnlab::keepTextsFitting(&plot);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        plot.replot(QCustomPlot::rpImmediateRefresh); // the second uses the counts the first set

        QVector<double> drawn;
        for (double t : scale->axis()->tickVector()) {
            if (scale->axis()->range().contains(t))
                drawn << t;
        }
        QVERIFY(drawn.size() >= 2);
        const int line = QFontMetrics(big).height();
        for (int i = 1; i < drawn.size(); ++i) {
            const double apart = std::abs(scale->axis()->coordToPixel(drawn[i]) - scale->axis()->coordToPixel(drawn[i - 1]));
            QVERIFY2(apart >= line, qPrintable(QStringLiteral("ticks %1 and %2 are %3 px apart, a line is %4")
                                                   .arg(drawn[i - 1]).arg(drawn[i]).arg(apart).arg(line)));
        }
        if (height > 400)
            QCOMPARE(drawn.size(), 5); // room for every quarter
    }
};

QTEST_MAIN(TestFitting)
#include "tst_fitting.moc"
