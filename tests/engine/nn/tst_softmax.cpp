// The one row softmax in double (softmaxRow), which the demonstrations and the cell inspector's
// explanations use: checked against exp(x_j)/Σ_k exp(x_k) written out by hand in long double, and
// the invariants (weights sum to 1, masked entries get exactly 0, no NaN for an all-masked row).
// The float rowSoftmax of the attention stages is checked in tst_attention.

#include "nn/softmax.h"

#include "support/compare.h"
#include "support/handmath.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <numeric>

using namespace attnlab;
using attnlab::testing::largestDifference;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// exp(x_j) / Σ_k exp(x_k), by hand.
std::vector<long double> handSoftmax(const std::vector<double>& x)
{
    return attnlab::testing::handSoftmax(std::vector<long double>(x.begin(), x.end()));
}

QString sumMessage(double sum)
{
    return QStringLiteral("weights sum to %1").arg(sum, 0, 'g', 17);
}

} // namespace

class TestSoftmax : public QObject {
    Q_OBJECT
private slots:
    void matchesTheFormula_data()
    {
        QTest::addColumn<std::vector<double>>("x");
        QTest::newRow("small") << std::vector<double>{0.0, std::log(2.0), std::log(5.0)}; // 1 : 2 : 5
        QTest::newRow("signed") << std::vector<double>{-1.5, 0.25, 3.0, -0.75, 2.0};
        QTest::newRow("large, no overflow") << std::vector<double>{900.0, 1000.0, 999.0, -1000.0};
        QTest::newRow("one entry") << std::vector<double>{42.0};
    }

    void matchesTheFormula()
    {
        QFETCH(std::vector<double>, x);
        const SoftmaxRow r = softmaxRow(x);
        double worst = 0;
        const QString where = largestDifference(r.weights, handSoftmax(x), &worst);
        QVERIFY2(worst < 1e-15, qPrintable(where));
        const double sum = std::accumulate(r.weights.begin(), r.weights.end(), 0.0);
        QVERIFY2(std::abs(sum - 1) < 1e-15, qPrintable(sumMessage(sum)));
        // The parts: max, exp(x − max), their sum, weights = exps / sum.
        QCOMPARE(r.max, *std::max_element(x.begin(), x.end()));
        std::vector<long double> exps;
        for (double v : x)
            exps.push_back(std::exp(static_cast<long double>(v) - r.max));
        QVERIFY2(worst < 1e-15, qPrintable(largestDifference(r.exps, exps, &worst)));
        const long double handSum = std::accumulate(exps.begin(), exps.end(), 0.0L);
        QVERIFY2(std::abs(r.sumExp - static_cast<double>(handSum)) < 1e-14 * r.sumExp,
                 qPrintable(QStringLiteral("Σ exp: %1, by hand %2").arg(r.sumExp, 0, 'g', 17).arg(double(handSum), 0, 'g', 17)));
    }

    void byHandOneTwoFive()
    {
        // e^0 : e^ln2 : e^ln5 = 1 : 2 : 5, so the weights are 1/8, 2/8, 5/8.
        const SoftmaxRow r = softmaxRow({0.0, std::log(2.0), std::log(5.0)});
        const std::vector<double> want{0.125, 0.25, 0.625};
        double worst = 0;
        const QString where = largestDifference(r.weights, want, &worst);
        QVERIFY2(worst < 1e-15, qPrintable(where));
        QVERIFY(std::abs(r.sumExp - 1.6) < 1e-15); // (1 + 2 + 5) / 5: exp(x − ln 5)
    }

    void maskedEntriesGetExactlyZero()
    {
        const SoftmaxRow r = softmaxRow({1.0, -kInf, 1.0, -kInf});
        QCOMPARE(r.exps[1], 0.0);
        QCOMPARE(r.exps[3], 0.0);
        QCOMPARE(r.weights[1], 0.0);
        QCOMPARE(r.weights[3], 0.0);
        QCOMPARE(r.weights[0], 0.5);
        QCOMPARE(r.weights[2], 0.5);
        QCOMPARE(r.max, 1.0);
        QCOMPARE(r.sumExp, 2.0);
    }

    void everyEntryMaskedGivesZerosNotNaN()
    {
        const SoftmaxRow r = softmaxRow({-kInf, -kInf, -kInf});
        QVERIFY(std::isinf(r.max) && r.max < 0);
        QCOMPARE(r.sumExp, 0.0);
        QCOMPARE(r.weights, (std::vector<double>{0.0, 0.0, 0.0}));
        QCOMPARE(r.exps, (std::vector<double>{0.0, 0.0, 0.0}));
    }

    void emptyRow()
    {
        const SoftmaxRow r = softmaxRow({});
        QVERIFY(r.weights.empty() && r.exps.empty());
        QCOMPARE(r.sumExp, 0.0);
    }

    void agreesWithTheFloatRowSoftmax()
    {
        // The two softmaxes of the engine compute the same function: a row of the float version
        // equals the double one to float rounding.
        const std::vector<double> x{0.5, -2.0, 3.25, 1.0, -kInf, 0.0};
        Eigen::MatrixXf m(1, static_cast<Eigen::Index>(x.size()));
        for (std::size_t j = 0; j < x.size(); ++j)
            m(0, static_cast<Eigen::Index>(j)) = static_cast<float>(x[j]);
        const Eigen::MatrixXf a = rowSoftmax(m);
        const SoftmaxRow r = softmaxRow(x);
        std::vector<double> floats(a.row(0).begin(), a.row(0).end());
        double worst = 0;
        const QString where = largestDifference(floats, r.weights, &worst);
        QVERIFY2(worst < 1e-7, qPrintable(where));
    }
};

QTEST_APPLESS_MAIN(TestSoftmax)
#include "tst_softmax.moc"
