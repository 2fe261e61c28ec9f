// Why scale by √d_k: the softmax rows (checked against exp(s_j)/Σ exp(s_k) written out by hand,
// in long double, from the view's own q and keys), saturation without scaling, and the variance
// of q·k (≈ d_k) and of q·k/√d_k (≈ 1). Every vector comes from a fixed generator, so the
// statistical bounds below are checks of fixed numbers and cannot flake. The statistics over d_k
// arrive from a worker thread: the tests that read them wait for them first.

#include "views/scalingview.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include "support/compare.h"
#include "support/handmath.h"
#include "support/settle.h"

#include <QtTest>

#include <cmath>
#include <numeric>

using namespace attnlab;

namespace {

/// s_j = Σ_c q_c k_jc over the view's q and keys, first d components, in long double.
std::vector<long double> handScores(const SoftmaxScalingView& v, int d)
{
    return attnlab::testing::handScores(v.exampleQuery(), v.exampleKeys(), d);
}

using attnlab::testing::handSoftmax;
using attnlab::testing::largestDifference;

double maxOf(const std::vector<double>& v)
{
    return *std::max_element(v.begin(), v.end());
}

int choiceIndex(int dk)
{
    const auto& c = SoftmaxScalingView::kDkChoices;
    return static_cast<int>(std::find(c.begin(), c.end(), dk) - c.begin());
}

} // namespace

class TestScalingView : public QObject {
    Q_OBJECT
private slots:
    // First, while no view has asked for the statistics yet: they are computed in the background,
    // from the first time a view is shown.
    void statisticsArriveFromTheBackground()
    {
        Session s;
        SoftmaxScalingView v(&s);
        const auto notes = [&v] {
            int count = 0;
            for (QCustomPlot* p : {v.variancePlot(), v.maxProbPlot()}) {
                for (int i = 0; i < p->itemCount(); ++i) {
                    auto* t = qobject_cast<QCPItemText*>(p->item(i));
                    count += t && t->text() == QStringLiteral("computing…") ? 1 : 0;
                }
            }
            return count;
        };
        // The example row is there at once; the curves over d_k say "computing…" until they arrive.
        QCOMPARE(int(v.scores().size()), SoftmaxScalingView::kKeys);
        if (!v.hasStatistics()) {
            QVERIFY(v.curveDims().empty() && v.varianceUnscaled().empty());
            QCOMPARE(notes(), 2);
            QCOMPARE(v.variancePlot()->graph(0)->dataCount(), 0);
            QSignalSpy ready(&v, &SoftmaxScalingView::statisticsReady);
            v.show(); // starts the worker; the constructor and show() return without waiting for it
            QVERIFY(!v.hasStatistics());
            QVERIFY(ready.wait(60000));
        }
        QVERIFY(v.hasStatistics());
        QCOMPARE(notes(), 0);
        QCOMPARE(v.variancePlot()->graph(0)->dataCount(), int(v.curveDims().size()));
        QCOMPARE(v.maxProbPlot()->graph(0)->dataCount(), int(v.curveDims().size()));
        // A later view takes the kept result at once, without computing again.
        SoftmaxScalingView again(&s);
        QVERIFY(again.hasStatistics());
        QCOMPARE(again.varianceUnscaled(), v.varianceUnscaled());
    }

    void rowsAreTheSoftmaxOfTheScores_data()
    {
        QTest::addColumn<int>("dk");
        for (int d : SoftmaxScalingView::kDkChoices)
            QTest::newRow(qPrintable(QStringLiteral("d_k %1").arg(d))) << d;
    }

    void rowsAreTheSoftmaxOfTheScores()
    {
        QFETCH(int, dk);
        Session s;
        SoftmaxScalingView v(&s);
        v.dkSlider()->setValue(choiceIndex(dk));
        QCOMPARE(v.dk(), dk);
        const std::vector<long double> scores = handScores(v, dk);
        double worst = 0;
        QString where = largestDifference(v.scores(), scores, &worst);
        QVERIFY2(worst < 1e-9, qPrintable(where));
        for (const auto* row : {&v.unscaledRow(), &v.scaledRow()}) {
            QCOMPARE(int(row->size()), SoftmaxScalingView::kKeys);
            const double sum = std::accumulate(row->begin(), row->end(), 0.0);
            QVERIFY2(std::abs(sum - 1) < 1e-12, qPrintable(QStringLiteral("row sums to %1").arg(sum, 0, 'g', 17)));
        }
        where = largestDifference(v.unscaledRow(), handSoftmax(scores, 1), &worst);
        QVERIFY2(worst < 1e-12, qPrintable(QStringLiteral("without scaling: ") + where));
        where = largestDifference(v.scaledRow(), handSoftmax(scores, 1 / std::sqrt(static_cast<long double>(dk))), &worst);
        QVERIFY2(worst < 1e-12, qPrintable(QStringLiteral("with ÷√d_k: ") + where));
        // The bars are those rows, with each value printed above its bar.
        for (QCustomPlot* p : {v.unscaledPlot(), v.scaledPlot()}) {
            const auto& row = p == v.unscaledPlot() ? v.unscaledRow() : v.scaledRow();
            const auto data = qobject_cast<QCPBars*>(p->plottable(0))->data();
            QCOMPARE(data->size(), SoftmaxScalingView::kKeys);
            int j = 0;
            for (auto it = data->constBegin(); it != data->constEnd(); ++it, ++j) {
                QCOMPARE(it->key, double(j + 1));
                QCOMPARE(it->value, row[j]);
            }
            int labels = 0;
            for (int i = 0; i < p->itemCount(); ++i)
                labels += p->item(i)->objectName() == QStringLiteral("barValue") ? 1 : 0;
            QCOMPARE(labels, SoftmaxScalingView::kKeys);
        }
        QVERIFY(v.findChild<QLabel*>() != nullptr);
    }

    void unscaledSoftmaxSaturatesAsDkGrows()
    {
        Session s;
        SoftmaxScalingView v(&s);
        // This example's largest weight at d_k = 4, 16, 64, 256, 1024 (fixed seed):
        //   without scaling 0.3021, 0.5039, 0.7891, 0.9962, 0.9999999+
        //   with ÷√d_k      0.2023, 0.2441, 0.3054, 0.3442, 0.3285
        std::vector<double> unscaled, scaled;
        for (int i = 0; i < int(SoftmaxScalingView::kDkChoices.size()); ++i) {
            v.dkSlider()->setValue(i);
            unscaled.push_back(maxOf(v.unscaledRow()));
            scaled.push_back(maxOf(v.scaledRow()));
        }
        QString all;
        for (std::size_t i = 0; i < unscaled.size(); ++i)
            all += QStringLiteral(" %1/%2").arg(unscaled[i], 0, 'g', 7).arg(scaled[i], 0, 'g', 7);
        for (std::size_t i = 1; i < unscaled.size(); ++i)
            QVERIFY2(unscaled[i] > unscaled[i - 1], qPrintable(QStringLiteral("not growing:") + all));
        QVERIFY2(unscaled.back() > 0.999, qPrintable(QStringLiteral("not saturated at 1024:") + all));
        // Other weights all but vanish: the row is one-hot.
        v.dkSlider()->setValue(choiceIndex(1024));
        int tiny = 0;
        for (double p : v.unscaledRow())
            tiny += p < 1e-3 ? 1 : 0;
        QCOMPARE(tiny, SoftmaxScalingView::kKeys - 1);
        // Scaled, no weight runs away at any d_k.
        for (double m : scaled)
            QVERIFY2(m < 0.6, qPrintable(QStringLiteral("scaled row saturates:") + all));
        // The plot over d_k marks this example's rows too.
        QCOMPARE(v.exampleMaxUnscaled(), unscaled);
        QCOMPARE(v.exampleMaxScaled(), scaled);
        for (int g = 2; g <= 3; ++g) {
            const auto data = v.maxProbPlot()->graph(g)->data();
            QCOMPARE(data->size(), int(SoftmaxScalingView::kDkChoices.size()));
            for (int i = 0; i < data->size(); ++i) {
                QCOMPARE(data->at(i)->key, double(SoftmaxScalingView::kDkChoices[i]));
                QCOMPARE(data->at(i)->value, (g == 2 ? unscaled : scaled)[i]);
            }
        }
    }

    void meanLargestWeightOverManyRows()
    {
        Session s;
        SoftmaxScalingView v(&s);
        QVERIFY(v.waitForStatistics());
        // Mean over 500 rows of the largest weight, d_k = 1, 2, 4, ..., 1024 (fixed seed):
        //   without scaling 0.262 0.368 0.493 0.618 0.736 0.811 0.865 0.903 0.930 0.952 0.958
        //   with ÷√d_k      0.262 0.290 0.305 0.313 0.324 0.319 0.322 0.314 0.319 0.319 0.320
        const auto& u = v.meanMaxUnscaled();
        const auto& sc = v.meanMaxScaled();
        QCOMPARE(u.size(), v.curveDims().size());
        QCOMPARE(u.front(), sc.front()); // d_k = 1: √1 = 1, the same rows
        for (std::size_t i = 1; i < u.size(); ++i)
            QVERIFY2(u[i] > u[i - 1], qPrintable(QStringLiteral("d_k %1: %2 after %3").arg(v.curveDims()[i]).arg(u[i]).arg(u[i - 1])));
        QVERIFY2(u.back() > 0.9, qPrintable(QStringLiteral("mean largest weight at 1024: %1").arg(u.back())));
        // Scaled, the mean largest weight settles (d_k ≥ 16: within 0.02 of each other) instead of
        // running to 1. (At small d_k it is lower: the keys of a row share one q, and a short q
        // makes the whole row flat.)
        double lo = 1, hi = 0;
        for (std::size_t i = 0; i < sc.size(); ++i) {
            QVERIFY(sc[i] > 1.0 / SoftmaxScalingView::kKeys && sc[i] < 0.4);
            if (v.curveDims()[i] >= 16) {
                lo = std::min(lo, sc[i]);
                hi = std::max(hi, sc[i]);
            }
        }
        QVERIFY2(hi - lo < 0.02, qPrintable(QStringLiteral("scaled mean largest weight from %1 to %2 for d_k ≥ 16").arg(lo).arg(hi)));
    }

    void varianceOfTheScoreGrowsLikeDk()
    {
        Session s;
        SoftmaxScalingView v(&s);
        QVERIFY(v.waitForStatistics());
        const std::vector<int>& dims = v.curveDims();
        QCOMPARE(dims, (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
        // Var(q·k) = Σ_c Var(q_c k_c) = d_k · 1 for independent unit-variance components.
        // Over 2000 pairs the relative standard error of a sample variance is
        // √(2/1999 + κ/2000) ≈ 0.032..0.063 (κ = 6/d_k: the excess kurtosis of q·k); the bound
        // below is about 4 standard errors. The fixed seed gives Var(q·k)/d_k =
        //   1.0781 1.0819 1.0194 1.0220 1.0350 1.0244 1.0066 0.9655 1.0239 0.9941 0.9965
        // for d_k = 1, 2, ..., 1024 (and Var(q·k/√d_k) the same numbers: within 0.083 of 1).
        QString all;
        for (std::size_t i = 0; i < dims.size(); ++i)
            all += QStringLiteral(" %1").arg(v.varianceUnscaled()[i] / dims[i], 0, 'f', 4);
        for (std::size_t i = 0; i < dims.size(); ++i) {
            const double d = dims[i];
            const double tolerance = d < 4 ? 0.25 : 0.15;
            QVERIFY2(std::abs(v.varianceUnscaled()[i] / d - 1) < tolerance,
                     qPrintable(QStringLiteral("Var(q·k) = %1 at d_k %2; all ratios:").arg(v.varianceUnscaled()[i]).arg(d) + all));
            QVERIFY2(std::abs(v.varianceScaled()[i] - 1) < tolerance,
                     qPrintable(QStringLiteral("Var(q·k/√d_k) = %1 at d_k %2").arg(v.varianceScaled()[i]).arg(d)));
            // Var(s/√d) = Var(s)/d exactly; computed separately, so equal to rounding.
            QVERIFY(std::abs(v.varianceScaled()[i] - v.varianceUnscaled()[i] / d) < 1e-12 * v.varianceScaled()[i]);
        }
        // Grows like d_k: three orders of magnitude between d_k = 1 and 1024.
        QVERIFY(v.varianceUnscaled().back() > 500 * v.varianceUnscaled().front());
        // What is drawn.
        const auto unscaled = v.variancePlot()->graph(0)->data();
        const auto scaled = v.variancePlot()->graph(1)->data();
        QCOMPARE(unscaled->size(), int(dims.size()));
        for (int i = 0; i < int(dims.size()); ++i) {
            QCOMPARE(unscaled->at(i)->key, double(dims[i]));
            QCOMPARE(unscaled->at(i)->value, v.varianceUnscaled()[i]);
            QCOMPARE(scaled->at(i)->value, v.varianceScaled()[i]);
        }
        QCOMPARE(v.variancePlot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    }

    void sameNumbersEveryTime()
    {
        Session s;
        SoftmaxScalingView a(&s);
        SoftmaxScalingView b(&s);
        QVERIFY(a.waitForStatistics() && b.waitForStatistics());
        QVERIFY(a.exampleQuery() == b.exampleQuery());
        QVERIFY(a.exampleKeys() == b.exampleKeys());
        QCOMPARE(a.varianceUnscaled(), b.varianceUnscaled());
        // Unit-variance components: the example's 11264 numbers have mean 0.031 and variance 0.970
        // (fixed seed; the standard error of the mean is 0.0094).
        const Eigen::ArrayXd all = (Eigen::ArrayXd(a.exampleQuery().size() + a.exampleKeys().size())
                                        << a.exampleQuery().array(), a.exampleKeys().reshaped().array())
                                       .finished();
        const double mean = all.mean();
        const double var = (all - mean).square().sum() / double(all.size() - 1);
        QVERIFY2(std::abs(mean) < 0.05 && std::abs(var - 1) < 0.05, qPrintable(QStringLiteral("mean %1, variance %2").arg(mean).arg(var)));
    }

    void sliderChoosesDk()
    {
        Session s;
        SoftmaxScalingView v(&s);
        QCOMPARE(v.dk(), 64);
        v.dkSlider()->setFocus();
        QTest::keyClick(v.dkSlider(), Qt::Key_Right);
        QCOMPARE(v.dk(), 256);
        QTest::keyClick(v.dkSlider(), Qt::Key_End);
        QCOMPARE(v.dk(), 1024);
        QTest::keyClick(v.dkSlider(), Qt::Key_Home);
        QCOMPARE(v.dk(), 4);
        QCOMPARE(v.scores()[0], static_cast<double>(handScores(v, 4)[0]));
        // The marker on the curves stands at the chosen d_k.
        for (QCustomPlot* p : {v.variancePlot(), v.maxProbPlot()}) {
            int lines = 0;
            for (int i = 0; i < p->itemCount(); ++i) {
                if (auto* line = qobject_cast<QCPItemStraightLine*>(p->item(i))) {
                    ++lines;
                    QCOMPARE(line->point1->coords().x(), 4.0);
                    QCOMPARE(line->point2->coords().x(), 4.0);
                }
            }
            QCOMPARE(lines, 1);
        }
        bool said = false;
        for (QLabel* l : v.findChildren<QLabel*>())
            said = said || l->text() == QStringLiteral("d_k = 4");
        QVERIFY(said);
    }

    void plotFontsCarryTheCjkFallback()
    {
        Session s;
        SoftmaxScalingView v(&s);
        QFont f = v.font();
        f.setFamilies({QFontInfo(f).family(), QStringLiteral("Noto Sans CJK SC")});
        v.setFont(f);
        for (QCustomPlot* p : {v.unscaledPlot(), v.scaledPlot(), v.variancePlot(), v.maxProbPlot()}) {
            QVERIFY(p->xAxis->labelFont().families().contains(QStringLiteral("Noto Sans CJK SC")));
            QVERIFY(p->yAxis->tickLabelFont().families().contains(QStringLiteral("Noto Sans CJK SC")));
            auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
            QVERIFY(title && title->font().families().contains(QStringLiteral("Noto Sans CJK SC")));
        }
        for (QCustomPlot* p : {v.variancePlot(), v.maxProbPlot()})
            QVERIFY(p->legend->item(0)->font().families().contains(QStringLiteral("Noto Sans CJK SC")));
        for (int i = 0; i < v.unscaledPlot()->itemCount(); ++i) {
            auto* t = qobject_cast<QCPItemText*>(v.unscaledPlot()->item(i));
            QVERIFY(t && t->font().families().contains(QStringLiteral("Noto Sans CJK SC")));
        }
    }

    void looksRight()
    {
        Session s;
        SoftmaxScalingView v(&s);
        v.resize(1100, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        testing::settle();
        for (QCustomPlot* p : {v.unscaledPlot(), v.scaledPlot(), v.variancePlot(), v.maxProbPlot()}) {
            auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
            for (const QString& line : title->text().split(QLatin1Char('\n'))) {
                const int width = QFontMetrics(title->font()).horizontalAdvance(line);
                QVERIFY2(width < p->width(), qPrintable(QStringLiteral("title line %1 px in a %2 px plot").arg(width).arg(p->width())));
            }
        }
        for (QCustomPlot* p : {v.variancePlot(), v.maxProbPlot()})
            QVERIFY(!p->legend->outerRect().intersects(p->axisRect()->outerRect().adjusted(0, 0, 0, -1)));
        if (qEnvironmentVariableIsSet("ATTNLAB_SCREENSHOTS")) {
            const QString dir = qEnvironmentVariable("ATTNLAB_SCREENSHOTS");
            v.grab().save(dir + QStringLiteral("/scaling.png"));
            v.dkSlider()->setValue(choiceIndex(1024));
            testing::settle();
            v.grab().save(dir + QStringLiteral("/scaling-1024.png"));
        }
    }
};

QTEST_MAIN(TestScalingView)
#include "tst_scalingview.moc"
