// The compute threads (core/compute_threads.h): every column is handed out exactly once, on any
// number of threads; small products stay on the calling thread; a job's exception comes back; a
// product inside a product (the pool busy) runs where it is, without a deadlock; and a linear
// layer (nn.Linear's [out, in] and Conv1D's [in, out]) and the output head give the same bits on
// 1, 2 and 3 threads, and agree with the sum written out by hand in long double.

#include "core/compute_threads.h"
#include "pretrained/weights.h"

#include <QtTest>

#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <vector>

using namespace attnlab;

namespace {

/// A LinearLayer over `values` (kept alive by the caller).
LinearLayer layer(const std::vector<float>& values, Eigen::Index in, Eigen::Index out, bool inOut)
{
    LinearLayer l;
    l.weight.data = values.data();
    l.weight.size = static_cast<std::int64_t>(values.size());
    l.inOut = inOut;
    l.in = in;
    l.out = out;
    return l;
}

std::vector<float> randomValues(std::size_t count, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v)
        x = normal(rng);
    return v;
}

} // namespace

class TestComputeThreads : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { setComputeThreads(1); }

    void everyColumnOnce_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("columns");
        for (int t : {1, 2, 3, 4, 7})
            for (int c : {32, 33, 100, 576, 1536, 49152})
                QTest::newRow(qPrintable(QStringLiteral("%1 threads, %2 columns").arg(t).arg(c))) << t << c;
    }

    void everyColumnOnce()
    {
        QFETCH(int, threads);
        QFETCH(int, columns);
        setComputeThreads(threads);
        QCOMPARE(computeThreads(), threads);
        std::vector<std::atomic<int>> seen(static_cast<std::size_t>(columns));
        std::mutex m;
        int calls = 0;
        forColumnChunks(columns, 1e9, [&](Eigen::Index begin, Eigen::Index count) {
            QVERIFY(begin % 16 == 0 && count > 0 && begin + count <= columns);
            for (Eigen::Index c = begin; c < begin + count; ++c)
                ++seen[static_cast<std::size_t>(c)];
            const std::lock_guard lock(m);
            ++calls;
        });
        for (const auto& s : seen)
            QCOMPARE(s.load(), 1);
        QVERIFY(calls >= 1 && calls <= threads);
        if (threads > 1 && columns >= 64)
            QVERIFY(calls > 1);
    }

    void smallProductsStayHere()
    {
        setComputeThreads(4);
        int calls = 0;
        forColumnChunks(1000, kMinParallelMultiplyAdds - 1, [&](Eigen::Index begin, Eigen::Index count) {
            ++calls;
            QCOMPARE(begin, Eigen::Index{0});
            QCOMPARE(count, Eigen::Index{1000});
        });
        QCOMPARE(calls, 1);
        QCOMPARE(computeThreads(), 4);
        setComputeThreads(0); // clamped
        QCOMPARE(computeThreads(), 1);
        setComputeThreads(1000);
        QCOMPARE(computeThreads(), kMaxComputeThreads);
    }

    void anExceptionComesBack()
    {
        setComputeThreads(3);
        bool thrown = false;
        try {
            forColumnChunks(3000, 1e9, [](Eigen::Index begin, Eigen::Index) {
                if (begin > 0)
                    throw std::runtime_error("chunk failed");
            });
        } catch (const std::runtime_error& e) {
            thrown = std::string(e.what()) == "chunk failed";
        }
        QVERIFY(thrown);
        // The pool still works afterwards.
        std::atomic<int> columns = 0;
        forColumnChunks(3000, 1e9, [&](Eigen::Index, Eigen::Index count) { columns += static_cast<int>(count); });
        QCOMPARE(columns.load(), 3000);
    }

    void aProductInsideAProductRunsWhereItIs()
    {
        setComputeThreads(2);
        std::atomic<int> inner = 0;
        forColumnChunks(64, 1e9, [&](Eigen::Index, Eigen::Index) {
            int calls = 0;
            forColumnChunks(640, 1e9, [&](Eigen::Index begin, Eigen::Index count) {
                ++calls;
                QVERIFY(begin == 0 && count == 640);
            });
            QCOMPARE(calls, 1);
            ++inner;
        });
        QCOMPARE(inner.load(), 2);
    }

    void aLinearLayerGivesTheSameBitsOnAnyNumberOfThreads_data()
    {
        QTest::addColumn<bool>("inOut");
        QTest::addColumn<int>("rows");
        QTest::newRow("nn.Linear [out, in], 64 tokens") << false << 64;
        QTest::newRow("Conv1D [in, out], 64 tokens") << true << 64;
        QTest::newRow("nn.Linear, one token (generation)") << false << 1;
    }

    void aLinearLayerGivesTheSameBitsOnAnyNumberOfThreads()
    {
        QFETCH(bool, inOut);
        QFETCH(int, rows);
        constexpr Eigen::Index in = 576;
        constexpr Eigen::Index out = 1536;
        const std::vector<float> w = randomValues(static_cast<std::size_t>(in * out), 1);
        const std::vector<float> xs = randomValues(static_cast<std::size_t>(rows * in), 2);
        const Eigen::MatrixXf x = Eigen::Map<const Eigen::MatrixXf>(xs.data(), rows, in);
        LinearLayer l = layer(w, in, out, inOut);
        l.bias = Eigen::VectorXf::LinSpaced(out, -1, 1);
        QVERIFY(static_cast<double>(rows) * in * out >= kMinParallelMultiplyAdds || rows == 1);

        setComputeThreads(1);
        const Eigen::MatrixXf one = l.apply(x);
        for (int threads : {2, 3}) {
            setComputeThreads(threads);
            const Eigen::MatrixXf many = l.apply(x);
            QVERIFY2(many == one, qPrintable(QStringLiteral("%1 threads: largest difference %2").arg(threads).arg((many - one).cwiseAbs().maxCoeff())));
        }
        // Against the sum by hand: y[r, o] = Σ_i x[r, i]·W(o, i) + b[o].
        for (Eigen::Index r = 0; r < rows; r += 7) {
            for (Eigen::Index o = 0; o < out; o += 97) {
                long double sum = l.bias(o);
                long double size = std::abs(static_cast<long double>(l.bias(o)));
                for (Eigen::Index i = 0; i < in; ++i) {
                    sum += static_cast<long double>(x(r, i)) * l.at(o, i);
                    size += std::abs(static_cast<long double>(x(r, i)) * l.at(o, i));
                }
                QVERIFY(std::abs(static_cast<long double>(one(r, o)) - sum) <= size * in * 1.2e-7L);
            }
        }
    }

    void theOutputHeadGivesTheSameBits()
    {
        // A vocabulary-wide table (GPT-2's 50257 rows of 64) against one row and against 16 rows.
        constexpr Eigen::Index vocabulary = 50257;
        constexpr Eigen::Index d = 64;
        const std::vector<float> table = randomValues(static_cast<std::size_t>(vocabulary * d), 3);
        const RowMatrixMap t(table.data(), vocabulary, d);
        for (Eigen::Index rows : {Eigen::Index{1}, Eigen::Index{16}}) {
            const Eigen::MatrixXf x = Eigen::MatrixXf::Random(rows, d);
            setComputeThreads(1);
            const Eigen::MatrixXf one = timesTransposed(x, t);
            setComputeThreads(2);
            const Eigen::MatrixXf two = timesTransposed(x, t);
            QVERIFY(two == one);
            QCOMPARE(one.cols(), vocabulary);
            long double sum = 0;
            for (Eigen::Index i = 0; i < d; ++i)
                sum += static_cast<long double>(x(rows - 1, i)) * t(vocabulary - 1, i);
            QVERIFY(std::abs(static_cast<long double>(one(rows - 1, vocabulary - 1)) - sum) < 1e-4L);
        }
    }
};

QTEST_APPLESS_MAIN(TestComputeThreads)
#include "tst_compute_threads.moc"
