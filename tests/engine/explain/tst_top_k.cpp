// The top-k entries of a probability row, against orders worked out by hand: largest first, ties
// by the lower column (as argmax picks), NaN skipped, k clamped, bad rows empty; and the rank of
// one column.

#include "explain/top_k.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;

namespace {

QString text(const std::vector<RankedEntry>& v)
{
    QStringList parts;
    for (const auto& e : v)
        parts << QStringLiteral("%1:%2").arg(e.index).arg(static_cast<double>(e.value));
    return parts.join(QLatin1Char(' '));
}

} // namespace

class TestTopK : public QObject {
    Q_OBJECT
private slots:
    void order_data()
    {
        QTest::addColumn<QVector<float>>("row");
        QTest::addColumn<int>("k");
        QTest::addColumn<QString>("expected");
        // Sorted by hand: 0.5 (col 2), 0.25 (col 0), 0.125 (col 3), 0.0625 (col 1) and (col 4).
        QTest::newRow("top 3") << QVector<float>{0.25f, 0.0625f, 0.5f, 0.125f, 0.0625f} << 3 << "2:0.5 0:0.25 3:0.125";
        QTest::newRow("a tie: the lower column first") << QVector<float>{0.25f, 0.0625f, 0.5f, 0.125f, 0.0625f} << 5
                                                         << "2:0.5 0:0.25 3:0.125 1:0.0625 4:0.0625";
        QTest::newRow("k larger than the row") << QVector<float>{0.75f, 0.25f} << 10 << "0:0.75 1:0.25";
        QTest::newRow("k = 0") << QVector<float>{0.75f, 0.25f} << 0 << "";
        QTest::newRow("NaN skipped") << QVector<float>{std::numeric_limits<float>::quiet_NaN(), 0.25f, 0.75f} << 3 << "2:0.75 1:0.25";
    }

    void order()
    {
        QFETCH(QVector<float>, row);
        QFETCH(int, k);
        QFETCH(QString, expected);
        Eigen::MatrixXf m(2, row.size());
        m.setZero(); // row 0 zeros, row 1 the row under test
        for (int c = 0; c < row.size(); ++c)
            m(1, c) = row[c];
        QCOMPARE(text(topK(m, 1, k)), expected);
    }

    void rowsOutsideGiveNothing()
    {
        const Eigen::MatrixXf m = Eigen::MatrixXf::Constant(2, 3, 1.0f / 3);
        QVERIFY(topK(m, -1, 2).empty());
        QVERIFY(topK(m, 2, 2).empty());
        QCOMPARE(rankOf(m, 2, 0), 0);
        QCOMPARE(rankOf(m, 0, 3), 0);
    }

    void rank()
    {
        Eigen::MatrixXf m(1, 5);
        m << 0.25f, 0.0625f, 0.5f, 0.125f, 0.0625f;
        // By hand: col 2 first, col 0 second, col 3 third, col 1 fourth, col 4 fifth (tie, higher column).
        const int expected[] = {2, 4, 1, 3, 5};
        for (int c = 0; c < 5; ++c)
            QCOMPARE(rankOf(m, 0, c), expected[c]);
    }
};

QTEST_MAIN(TestTopK)
#include "tst_top_k.moc"
