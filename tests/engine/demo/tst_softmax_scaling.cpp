// Why attention divides by √d_k, as the engine computes it for lesson 3: the example rows against
// q·k_j and exp(s_j)/Σ exp(s_k) written out by hand in long double; the statistics against the
// theory (Var(q·k) = d_k for unit-normal components, so Var(q·k/√d_k) = 1) within their stated
// Monte-Carlo error, and the mean largest weight against an independent simulation (the standard
// library's generator). Every engine number comes from a fixed seed, so the bounds cannot flake.

#include "demo/softmax_scaling.h"

#include "support/compare.h"
#include "support/handmath.h"

#include <QtTest>

#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

using namespace attnlab;
using attnlab::testing::largestDifference;

namespace {

using S = SoftmaxScaling;

using attnlab::testing::handSoftmax;

std::vector<long double> handScores(const ScalingExample& ex, int d)
{
    return attnlab::testing::handScores(ex.q, ex.keys, d);
}

/// The mean and standard deviation of the largest softmax weight of `rows` rows of S::keys
/// independent N(0, scale²) scores, from std::mt19937_64 and std::normal_distribution: an
/// implementation that shares nothing with the engine's.
std::pair<double, double> independentMeanLargestWeight(double scale, int rows)
{
    std::mt19937_64 gen(12345);
    std::normal_distribution<double> normal(0.0, 1.0);
    double sum = 0, sq = 0;
    for (int r = 0; r < rows; ++r) {
        std::vector<long double> s(S::keys);
        for (long double& x : s)
            x = scale * normal(gen);
        const std::vector<long double> p = handSoftmax(s, 1);
        const double top = static_cast<double>(*std::max_element(p.begin(), p.end()));
        sum += top;
        sq += top * top;
    }
    const double mean = sum / rows;
    return {mean, std::sqrt(sq / rows - mean * mean)};
}

} // namespace

class TestSoftmaxScaling : public QObject {
    Q_OBJECT

private:
    ScalingStatistics m_stats; // computed once: about ten million normal numbers

private slots:
    void initTestCase()
    {
        m_stats = scalingStatistics();
    }

    void exampleIsFixedAndUnitNormal()
    {
        const ScalingExample a = scalingExample();
        const ScalingExample b = scalingExample();
        QCOMPARE(a.q.size(), Eigen::Index(S::maxDim));
        QCOMPARE(a.keys.rows(), Eigen::Index(S::keys));
        QCOMPARE(a.keys.cols(), Eigen::Index(S::maxDim));
        QVERIFY(a.q == b.q && a.keys == b.keys);
        // 11 264 standard normal numbers: the standard error of the mean is 1/√11264 = 0.0094 and of
        // the variance √(2/11263) = 0.013; the bounds are about 5 of them.
        const Eigen::ArrayXd all = (Eigen::ArrayXd(a.q.size() + a.keys.size()) << a.q.array(), a.keys.reshaped().array()).finished();
        const double mean = all.mean();
        const double var = (all - mean).square().sum() / double(all.size() - 1);
        QVERIFY2(std::abs(mean) < 0.05 && std::abs(var - 1) < 0.065, qPrintable(QStringLiteral("mean %1, variance %2").arg(mean).arg(var)));
    }

    void rowsAreTheSoftmaxOfTheScores_data()
    {
        QTest::addColumn<int>("d");
        for (int d : {1, 4, 16, 64, 256, 1024})
            QTest::addRow("d_k %d", d) << d;
    }

    void rowsAreTheSoftmaxOfTheScores()
    {
        QFETCH(int, d);
        const ScalingExample ex = scalingExample();
        const ScalingRow row = scalingRow(ex, d);
        const std::vector<long double> s = handScores(ex, d);
        double worst = 0;
        QString where = largestDifference(row.scores, s, &worst);
        QVERIFY2(worst < 1e-9, qPrintable(QStringLiteral("scores: ") + where));
        where = largestDifference(row.unscaled, handSoftmax(s, 1), &worst);
        QVERIFY2(worst < 1e-12, qPrintable(QStringLiteral("softmax(s): ") + where));
        where = largestDifference(row.scaled, handSoftmax(s, 1 / std::sqrt(static_cast<long double>(d))), &worst);
        QVERIFY2(worst < 1e-12, qPrintable(QStringLiteral("softmax(s/√d): ") + where));
        for (const auto* p : {&row.unscaled, &row.scaled}) {
            const double sum = std::accumulate(p->begin(), p->end(), 0.0);
            QVERIFY2(std::abs(sum - 1) < 1e-12, qPrintable(QStringLiteral("row sums to %1").arg(sum, 0, 'g', 17)));
        }
        QCOMPARE(row.largestUnscaled, *std::max_element(row.unscaled.begin(), row.unscaled.end()));
        QCOMPARE(row.largestScaled, *std::max_element(row.scaled.begin(), row.scaled.end()));
    }

    void exampleSaturatesWithoutScaling()
    {
        // This example's largest weight at d_k = 4 .. 1024 (fixed seed): without scaling
        // 0.3021 0.5039 0.7891 0.9962 0.9999999+, with ÷√d_k 0.2023 0.2441 0.3054 0.3442 0.3285.
        const ScalingExample ex = scalingExample();
        double previous = 0;
        for (int d : {4, 16, 64, 256, 1024}) {
            const ScalingRow row = scalingRow(ex, d);
            QVERIFY2(row.largestUnscaled > previous, qPrintable(QStringLiteral("d_k %1: %2 after %3").arg(d).arg(row.largestUnscaled).arg(previous)));
            QVERIFY2(row.largestScaled < 0.6, qPrintable(QStringLiteral("d_k %1: scaled row saturates (%2)").arg(d).arg(row.largestScaled)));
            previous = row.largestUnscaled;
        }
        QVERIFY2(previous > 0.999, qPrintable(QStringLiteral("largest weight at 1024: %1").arg(previous)));
    }

    void badDimensionIsRefused()
    {
        const ScalingExample ex = scalingExample();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scalingRow(ex, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scalingRow(ex, S::maxDim + 1));
    }

    void varianceOfTheScoreIsDk()
    {
        QCOMPARE(m_stats.dims, (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
        QCOMPARE(m_stats.varianceUnscaled.size(), m_stats.dims.size());
        QCOMPARE(m_stats.varianceScaled.size(), m_stats.dims.size());
        // Var(q·k) = Σ_c Var(q_c k_c) = d_k for independent unit-variance components. A sample
        // variance over n = 2000 pairs has the relative standard error √(2/(n − 1) + κ/n), κ = 6/d_k
        // the excess kurtosis of q·k: 0.063 at d_k = 1, 0.032 at 1024. The bound is 4 of them.
        const double n = S::varianceSamples;
        for (std::size_t i = 0; i < m_stats.dims.size(); ++i) {
            const double d = m_stats.dims[i];
            const double bound = 4 * std::sqrt(2 / (n - 1) + (6 / d) / n);
            const double ratio = m_stats.varianceUnscaled[i] / d;
            QVERIFY2(std::abs(ratio - 1) < bound,
                     qPrintable(QStringLiteral("d_k %1: Var(q·k)/d_k = %2, more than %3 from 1").arg(d).arg(ratio).arg(bound)));
            QVERIFY2(std::abs(m_stats.varianceScaled[i] - 1) < bound,
                     qPrintable(QStringLiteral("d_k %1: Var(q·k/√d_k) = %2, more than %3 from 1").arg(d).arg(m_stats.varianceScaled[i]).arg(bound)));
            // Var(s/√d) = Var(s)/d exactly; computed apart, so equal to rounding.
            const double diff = std::abs(m_stats.varianceScaled[i] - m_stats.varianceUnscaled[i] / d);
            QVERIFY2(diff < 1e-12 * m_stats.varianceScaled[i], qPrintable(QStringLiteral("d_k %1: differ by %2").arg(d).arg(diff)));
        }
    }

    void meanLargestWeightMatchesAnIndependentSimulation()
    {
        const auto& u = m_stats.meanMaxUnscaled;
        const auto& sc = m_stats.meanMaxScaled;
        QCOMPARE(u.size(), m_stats.dims.size());
        QCOMPARE(u.front(), sc.front()); // d_k = 1: √1 = 1, the same rows
        for (std::size_t i = 0; i < u.size(); ++i) {
            QVERIFY(u[i] > 1.0 / S::keys && u[i] <= 1.0 && sc[i] > 1.0 / S::keys && sc[i] <= 1.0);
            if (i > 0)
                QVERIFY2(u[i] > u[i - 1], qPrintable(QStringLiteral("d_k %1: %2 after %3").arg(m_stats.dims[i]).arg(u[i]).arg(u[i - 1])));
        }
        // At d_k = 1024 a row's scores are nearly independent N(0, d_k) (the keys share one q, whose
        // |q|²/d_k is within 0.05 of 1), so the mean largest weight is that of 10 N(0, 1) scores
        // after ÷√d_k, and of 10 N(0, 1024) scores without. The engine averages 500 rows, the
        // reference 20 000: the bound is 4 standard errors of the difference.
        const int rows = 20000;
        for (bool scaled : {true, false}) {
            const auto [mean, sd] = independentMeanLargestWeight(scaled ? 1.0 : 32.0, rows);
            const double got = scaled ? sc.back() : u.back();
            const double bound = 4 * sd * std::sqrt(1.0 / S::maxProbSamples + 1.0 / rows);
            QVERIFY2(std::abs(got - mean) < bound, qPrintable(QStringLiteral("%1: %2, independent simulation %3 (bound %4)")
                                                                  .arg(scaled ? QStringLiteral("with ÷√d_k") : QStringLiteral("without"))
                                                                  .arg(got)
                                                                  .arg(mean)
                                                                  .arg(bound)));
        }
    }

    void sameNumbersEveryTime()
    {
        const ScalingStatistics again = scalingStatistics();
        QCOMPARE(again.varianceUnscaled, m_stats.varianceUnscaled);
        QCOMPARE(again.meanMaxScaled, m_stats.meanMaxScaled);
    }
};

QTEST_APPLESS_MAIN(TestSoftmaxScaling)
#include "tst_softmax_scaling.moc"
