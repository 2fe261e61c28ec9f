// Lining B up with A (compare/matching.h): the permutation found from the labels (duplicates in
// order of occurrence), B reordered as P·B·Pᵀ, the difference, masked cells, and the cases that
// fall back to positions or cannot be aligned. Every expected matrix is written out by hand.
#include "compare/matching.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;

Q_DECLARE_METATYPE(std::string)

namespace {

using Strings = std::vector<std::string>;
constexpr float kInf = std::numeric_limits<float>::infinity();

Labels labels(Strings s)
{
    return std::make_shared<const Strings>(std::move(s));
}

Eigen::MatrixXf rows(std::initializer_list<std::initializer_list<float>> r)
{
    Eigen::MatrixXf m(Eigen::Index(r.size()), r.size() ? Eigen::Index(r.begin()->size()) : 0);
    Eigen::Index i = 0;
    for (const auto& row : r) {
        Eigen::Index j = 0;
        for (const float v : row)
            m(i, j++) = v;
        ++i;
    }
    return m;
}

LabeledMatrix matrix(Eigen::MatrixXf v, Strings rowLabels, Strings colLabels)
{
    return LabeledMatrix{"M", std::move(v), labels(std::move(rowLabels)), labels(std::move(colLabels))};
}

/// Fails with the largest difference and where it is.
void compareMatrices(const Eigen::MatrixXf& got, const Eigen::MatrixXf& want, float tol = 0)
{
    QCOMPARE(got.rows(), want.rows());
    QCOMPARE(got.cols(), want.cols());
    float worst = 0;
    Eigen::Index wr = -1;
    Eigen::Index wc = -1;
    for (Eigen::Index i = 0; i < got.rows(); ++i) {
        for (Eigen::Index j = 0; j < got.cols(); ++j) {
            const float g = got(i, j);
            const float w = want(i, j);
            const float d = g == w ? 0.0f : std::isfinite(g - w) ? std::abs(g - w) : kInf;
            if (d > worst || (std::isnan(g) != std::isnan(w))) {
                worst = std::isnan(d) ? kInf : d;
                wr = i;
                wc = j;
            }
        }
    }
    QVERIFY2(worst <= tol, qPrintable(QStringLiteral("largest difference %1 at (%2, %3)").arg(worst).arg(wr).arg(wc)));
}

} // namespace

class TestMatching : public QObject {
    Q_OBJECT
private slots:
    void permutationOfLabels_data()
    {
        QTest::addColumn<Strings>("a");
        QTest::addColumn<Strings>("b");
        QTest::addColumn<bool>("found");
        QTest::addColumn<std::vector<int>>("order");
        QTest::newRow("狗咬了人 / 人咬了狗") << Strings{"狗", "咬", "了", "人"} << Strings{"人", "咬", "了", "狗"} << true
                                       << std::vector<int>{3, 1, 2, 0};
        QTest::newRow("the same order") << Strings{"a", "b"} << Strings{"a", "b"} << true << std::vector<int>{0, 1};
        // A's first "the" takes B's first, A's second B's second.
        QTest::newRow("duplicates in order of occurrence")
            << Strings{"the", "dog", "bit", "the", "man"} << Strings{"the", "man", "bit", "the", "dog"} << true
            << std::vector<int>{0, 4, 2, 3, 1};
        QTest::newRow("duplicates moved") << Strings{"a", "b", "a"} << Strings{"b", "a", "a"} << true << std::vector<int>{1, 0, 2};
        QTest::newRow("another word") << Strings{"狗", "咬", "了", "人"} << Strings{"猫", "咬", "了", "人"} << false << std::vector<int>{};
        QTest::newRow("other counts") << Strings{"a", "a", "b"} << Strings{"a", "b", "b"} << false << std::vector<int>{};
        QTest::newRow("another length") << Strings{"a", "b"} << Strings{"a", "b", "c"} << false << std::vector<int>{};
        QTest::newRow("empty") << Strings{} << Strings{} << true << std::vector<int>{};
    }

    void permutationOfLabels()
    {
        QFETCH(Strings, a);
        QFETCH(Strings, b);
        QFETCH(bool, found);
        QFETCH(std::vector<int>, order);
        const auto p = labelPermutation(a, b);
        QCOMPARE(p.has_value(), found);
        if (!found)
            return;
        QCOMPARE(*p, order);
        // Invariant: b reordered by p is a.
        for (std::size_t i = 0; i < a.size(); ++i)
            QCOMPARE(b[static_cast<std::size_t>((*p)[i])], a[i]);
    }

    void squareTokenMatrixIsPBPTransposed()
    {
        // A's tokens x y z; B's z x y, so B's order for A's is x→1, y→2, z→0 and
        // P = [[0 1 0], [0 0 1], [1 0 0]] (P[i][order[i]] = 1).
        const Strings a{"x", "y", "z"};
        const Strings b{"z", "x", "y"};
        const Eigen::MatrixXf B = rows({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
        const Eigen::MatrixXf A = rows({{5, 6, 4}, {8, 9, 7}, {2, 3, 1.5f}});
        const MatrixDifference d = difference(matrix(A, a, a), matrix(B, b, b));
        QCOMPARE(int(d.rows), int(AxisMatch::ByToken));
        QCOMPARE(int(d.cols), int(AxisMatch::ByToken));
        QCOMPARE(int(matchingOf(d)), int(Matching::ByToken));
        QCOMPARE(d.rowOrder, (std::vector<int>{1, 2, 0}));
        // P·B·Pᵀ by hand: row i of P·B is B's row order[i]; column j of (P·B)·Pᵀ its column order[j].
        //   P·B     = [[4 5 6], [7 8 9], [1 2 3]]
        //   P·B·Pᵀ  = [[5 6 4], [8 9 7], [2 3 1]]
        const Eigen::MatrixXf want = rows({{5, 6, 4}, {8, 9, 7}, {2, 3, 1}});
        compareMatrices(d.matched, want);
        const Eigen::MatrixXf P = rows({{0, 1, 0}, {0, 0, 1}, {1, 0, 0}});
        compareMatrices(d.matched, P * B * P.transpose());
        // A − P·B·Pᵀ: zero except the last cell, 1.5 − 1.
        compareMatrices(d.difference, rows({{0, 0, 0}, {0, 0, 0}, {0, 0, 0.5f}}));
        QCOMPARE(d.largest, 0.5f);
        QCOMPARE(d.largestRow, Eigen::Index(2));
        QCOMPARE(d.largestCol, Eigen::Index(2));
        QVERIFY(!zeroUpToRounding(d, 9));
    }

    void tokenRowsAndFeatureColumns()
    {
        // Q of 狗咬了人 and of 人咬了狗: rows are tokens, columns features (the same labels).
        const Strings a{"狗", "咬", "了", "人"};
        const Strings b{"人", "咬", "了", "狗"};
        const Strings f{"d0", "d1"};
        const Eigen::MatrixXf A = rows({{1, 2}, {3, 4}, {5, 6}, {7, 8}});
        const Eigen::MatrixXf B = rows({{7, 8}, {3, 4}, {5, 6}, {1, 2}}); // A's rows 1 and 4 swapped
        const MatrixDifference d = difference(matrix(A, a, f), matrix(B, b, f));
        QCOMPARE(int(d.rows), int(AxisMatch::ByToken));
        QCOMPARE(int(d.cols), int(AxisMatch::Same));
        compareMatrices(d.matched, A);
        compareMatrices(d.difference, Eigen::MatrixXf::Zero(4, 2));
        QCOMPARE(d.largest, 0.0f);
        QVERIFY(zeroUpToRounding(d, 8));
    }

    void roundingCountsAsZero()
    {
        const Strings t{"a", "b"};
        const MatrixDifference d = difference(matrix(rows({{100, 1}, {2, 3}}), t, t), matrix(rows({{100.0005f, 1}, {2, 3}}), t, t));
        QVERIFY(d.largest > 0);
        QVERIFY(zeroUpToRounding(d, 100.0005f)); // 5e-4 ≤ 1e-5 · 100
        const MatrixDifference e = difference(matrix(rows({{1, 1}, {2, 3}}), t, t), matrix(rows({{1.001f, 1}, {2, 3}}), t, t));
        QVERIFY(!zeroUpToRounding(e, 3));
    }

    void otherWordsAreMatchedByPosition()
    {
        const Strings a{"狗", "咬", "人"};
        const Strings b{"猫", "咬", "人"};
        const MatrixDifference d = difference(matrix(rows({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}), a, a),
                                              matrix(rows({{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}), b, b));
        QCOMPARE(int(d.rows), int(AxisMatch::ByPosition));
        QCOMPARE(int(matchingOf(d)), int(Matching::ByPosition));
        QCOMPARE(d.rowOrder, (std::vector<int>{0, 1, 2}));
        compareMatrices(d.difference, rows({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}));
        QCOMPARE(d.largest, 8.0f);
        QCOMPARE(d.largestRow, Eigen::Index(2));
        QCOMPARE(d.largestCol, Eigen::Index(2));
    }

    void sameLabelsSameOrder()
    {
        const Strings t{"a", "b"};
        const MatrixDifference d = difference(matrix(rows({{3, 1}, {0, 2}}), t, t), matrix(rows({{1, 1}, {0, 5}}), t, t));
        QCOMPARE(int(matchingOf(d)), int(Matching::Same));
        compareMatrices(d.difference, rows({{2, 0}, {0, -3}}));
        QCOMPARE(d.largest, 3.0f);
        QCOMPARE(d.largestRow, Eigen::Index(1));
    }

    void shapesThatDifferHaveNoDifference()
    {
        const Strings a{"a", "b"};
        const Strings b{"a", "b", "c"};
        const MatrixDifference d = difference(matrix(rows({{1, 2}, {3, 4}}), a, a),
                                              matrix(rows({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}), b, b));
        QVERIFY(!d.aligned());
        QCOMPARE(int(matchingOf(d)), int(Matching::ShapesDiffer));
        QCOMPARE(d.matched.size(), Eigen::Index(0));
        QCOMPARE(d.difference.size(), Eigen::Index(0));
        QVERIFY(!zeroUpToRounding(d, 9));
        // Only the columns differ (the same tokens, another feature width): still no difference.
        const MatrixDifference e = difference(matrix(rows({{1, 2}}), {"a"}, {"d0", "d1"}), matrix(rows({{1, 2, 3}}), {"a"}, {"d0", "d1", "d2"}));
        QCOMPARE(int(e.rows), int(AxisMatch::Same));
        QCOMPARE(int(e.cols), int(AxisMatch::None));
        QVERIFY(!e.aligned());
    }

    void maskedCells()
    {
        // Masked in both: 0 (not ∞ − ∞ = NaN). Masked in A only: −∞; in B only: +∞.
        const Strings t{"a", "b"};
        const MatrixDifference d = difference(matrix(rows({{1, -kInf}, {-kInf, 2}}), t, t), matrix(rows({{1, -kInf}, {0.5f, -kInf}}), t, t));
        QCOMPARE(d.difference(0, 1), 0.0f);
        QCOMPARE(d.difference(1, 0), -kInf);
        QCOMPARE(d.difference(1, 1), kInf);
        QCOMPARE(d.difference(0, 0), 0.0f);
        QCOMPARE(d.infiniteCells, Eigen::Index(2));
        QCOMPARE(d.largest, 0.0f); // over the finite cells only
        QVERIFY(!zeroUpToRounding(d, 2));
        QVERIFY(!d.difference.array().isNaN().any());
    }

    void sharedScaleSpansBoth()
    {
        QCOMPARE(sharedMaxAbs(rows({{1, -3}}), rows({{2, -kInf}})), 3.0f);
        QCOMPARE(sharedMaxAbs(rows({{0.5f}}), rows({{-4}})), 4.0f);
        QCOMPARE(sharedMaxAbs(rows({{-kInf}}), rows({{-kInf}})), 0.0f);
    }

    void unlabelledAxesOfTheSameLength()
    {
        LabeledMatrix a{"M", rows({{1, 2}}), nullptr, nullptr};
        LabeledMatrix b{"M", rows({{1, 0}}), nullptr, nullptr};
        const MatrixDifference d = difference(a, b);
        QCOMPARE(int(matchingOf(d)), int(Matching::Same));
        compareMatrices(d.difference, rows({{0, 2}}));
    }
};

QTEST_MAIN(TestMatching)
#include "tst_matching.moc"
