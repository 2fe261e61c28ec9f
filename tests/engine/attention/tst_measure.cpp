// The cost measurement behind `cost` and the Cost view (attention/measure.h): the slope and FLOP
// formulas by hand, the refusals, progress and cancelling, and that the output-only path computes
// what the trace's kernels compute.

#include "attention/common.h"
#include "attention/features.h"
#include "attention/kind.h"
#include "attention/measure.h"
#include "core/random.h"

#include <QtTest>

#include <cmath>

#include <sys/resource.h>

using namespace attnlab;

// Clang says AddressSanitizer with __has_feature, GCC with __SANITIZE_ADDRESS__.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTNLAB_CLANG_ASAN 1
#endif
#endif

namespace {

std::vector<Eigen::MatrixXf> heads(int count, Eigen::Index n, int dK, std::uint64_t seed)
{
    std::vector<Eigen::MatrixXf> out;
    SplitMix64 gen(seed);
    for (int h = 0; h < count; ++h)
        out.push_back(Eigen::MatrixXf::NullaryExpr(n, dK, [&]() { return gen.symmetric(1.0f); }));
    return out;
}

Labels labels(Eigen::Index n)
{
    auto v = std::make_shared<std::vector<std::string>>();
    for (Eigen::Index i = 0; i < n; ++i) // (appended: GCC 12 warns falsely on "t" + std::string)
        v->push_back(std::string("t").append(std::to_string(i)));
    return v;
}

} // namespace

class TestMeasure : public QObject {
    Q_OBJECT
private slots:
    /// First, while the process is small: a measurement holds one head's Q, K and V at a time
    /// (all of them were 6 GB at n = 2^20), and its estimate is within 1.5× of the memory the
    /// process then took (its high-water mark, which only grows).
    void oneHeadAtATimeAsEstimated()
    {
#if defined(__SANITIZE_ADDRESS__) || defined(ATTNLAB_CLANG_ASAN)
        QSKIP("the process's peak memory is AddressSanitizer's (its shadow and quarantine), not the measurement's");
#endif
        CostRequest r;
        r.kind = AttentionKind::SlidingWindow;
        r.lengths = {1 << 17};
        r.dModel = 64;
        r.heads = 4;
        r.repeats = 1;
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        const CostResult result = measureCost(r);
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        const double grown = (after.ru_maxrss - before.ru_maxrss) * 1024.0; // kB
        const double estimated = static_cast<double>(estimateMeasure(r, 1 << 17).bytes);
        const double allHeads = 4.0 * (1 << 17) * 64 * 4; // Q, K, V and Z of every head
        const QString figures = QStringLiteral("grew %1 MB, estimated %2 MB").arg(grown / 1e6).arg(estimated / 1e6);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(grown < 1.5 * estimated && grown > estimated / 1.5, qPrintable(figures));
        QVERIFY(estimated < allHeads);
        QCOMPARE(result.points.size(), std::size_t(1));
    }

    void slopeByHand()
    {
        // t = 3·n² exactly: slope 2; t = n·(1, 1.1, 0.9): ln t = ln n + (0, ln 1.1, ln 0.9) on ln n = (0, ln 2, ln 4).
        QCOMPARE(logLogSlope({1, 2, 4, 8}, {3, 12, 48, 192}), 2.0);
        const double l2 = std::log(2.0);
        const double want = 1 + (-l2 * 0 + 0 * std::log(1.1) + l2 * std::log(0.9)) / (2 * l2 * l2); // Σ(x−x̄)(e)/Σ(x−x̄)²
        QVERIFY(std::abs(logLogSlope({1, 2, 4}, {1, 2.2, 3.6}) - want) < 1e-12);
        QCOMPARE(logLogSlope({5}, {1}), 0.0);
    }

    void flopsByHand()
    {
        AttentionOptions o;
        o.projDim = 16;
        o.features = 32;
        o.buckets = 8;
        // d_model 64, 4 heads: d_k = 16, n = 100.
        QCOMPARE(attentionFlops(AttentionKind::Full, o, 100, 64, 4), 4 * (4.0 * 100 * 100 * 16));
        QCOMPARE(attentionFlops(AttentionKind::SlidingWindow, o, 100, 64, 4, 500), 4 * (4.0 * 500 * 16));
        QCOMPARE(attentionFlops(AttentionKind::Linformer, o, 100, 64, 4), 4 * (8.0 * 100 * 16 * 16));
        QCOMPARE(attentionFlops(AttentionKind::Performer, o, 100, 64, 4), 4 * (8.0 * 100 * 32 * 16 + 2.0 * 100 * 32));
        QCOMPARE(attentionFlops(AttentionKind::Linear, o, 100, 64, 4), 4 * (4.0 * 100 * 16 * 16 + 2.0 * 100 * 16));
        QCOMPARE(attentionFlops(AttentionKind::Lsh, o, 100, 64, 4, 300), 4 * (2.0 * 100 * 16 * 4 + 4.0 * 300 * 16));
    }

    void refusals()
    {
        CostRequest r;
        r.lengths = {1};
        QVERIFY(costProblems(r).front().find("n (1) must be between 2") != std::string::npos);
        r.lengths = {64};
        r.heads = 7;
        QVERIFY(costProblems(r).front().find("multiple of heads") != std::string::npos);
        r.heads = 8;
        r.kind = AttentionKind::SlidingWindow;
        r.options.global = {64};
        QVERIFY(costProblems(r).front().find("global position 64 is outside n = 64") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, measureCost(r));
        r.options.global = {63};
        QVERIFY(costProblems(r).empty());
        // What a length would hold, against the limit (CostLimits::maxWorkBytes, 4 GB).
        r.options.global.clear();
        r.lengths = {1 << 20}; // 2.5 GB, one head at a time
        QVERIFY(costProblems(r).empty());
        r.kind = AttentionKind::Strided; // n²/S cells
        QVERIFY(costProblems(r).front().find("at n = 1048576, measuring would need about") != std::string::npos);
        r.kind = AttentionKind::Full;
        r.lengths = {1024, 32768}; // one head's 4 GiB of scores, and more
        QCOMPARE(costProblems(r, "go smaller").front(),
                 std::string("at n = 32768, measuring would need about 4.04 GB of memory; the limit is 4 GB: go smaller"));
        r.lengths = {16384};
        QVERIFY(costProblems(r).empty());
    }

    /// The estimate by hand for full attention: one head's Q, K, V and Z (n x d_k each), its n x n
    /// scores and A·V; time of the kind's and the plain GEMMs at 25 GFLOP/s, and Q, K, V made.
    void estimateByHand()
    {
        CostRequest r;
        r.dModel = 64;
        r.heads = 4;
        r.repeats = 3;
        const MeasureEstimate e = estimateMeasure(r, 1000);
        QCOMPARE(e.cells, std::int64_t(1000 * 1000));
        QCOMPARE(e.bytes, std::int64_t(4 * 1000 * 16 * 4 + 4 * 1000 * 1000 + 4 * 1000 * 16));
        const double flops = 4.0 * 1000 * 1000 * 16 * 4;
        QVERIFY(std::abs(e.seconds - 3 * (2 * flops / 25e9 + 3e-9 * 3 * 1000 * 64)) < 1e-12);
        r.lengths = {1000, 2000};
        const WorkCost all = estimateMeasureCost(r);
        QCOMPARE(all.bytes, estimateMeasure(r, 2000).bytes);
        QVERIFY(std::abs(all.seconds - e.seconds - estimateMeasure(r, 2000).seconds) < 1e-12);
    }

    void progressAndCancel()
    {
        CostRequest r;
        r.kind = AttentionKind::Linear;
        r.lengths = {32, 64, 128};
        r.dModel = 16;
        r.heads = 2;
        r.repeats = 2;
        std::vector<std::pair<int, int>> calls;
        r.progress = [&](int done, int total) {
            calls.emplace_back(done, total);
            return true;
        };
        CostResult all = measureCost(r);
        QCOMPARE(all.points.size(), std::size_t(3));
        QCOMPARE(calls.size(), std::size_t(6));
        QCOMPARE(calls.back(), std::make_pair(6, 6));
        QVERIFY(!all.cancelled);
        r.progress = [](int done, int) { return done < 3; }; // stop in the second length
        const CostResult part = measureCost(r);
        QVERIFY(part.cancelled);
        QCOMPARE(part.points.size(), std::size_t(1));
        QCOMPARE(part.points[0].n, 32);
    }

    // The output-only path (what `cost` times) computes each head's output as the trace's kernel.
    void outputsAreTheKernels_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("full") << int(AttentionKind::Full);
        QTest::newRow("sliding-window") << int(AttentionKind::SlidingWindow);
        QTest::newRow("strided") << int(AttentionKind::Strided);
        QTest::newRow("linear") << int(AttentionKind::Linear);
        QTest::newRow("flash") << int(AttentionKind::Flash);
    }

    void outputsAreTheKernels()
    {
        QFETCH(int, kind);
        const auto k = static_cast<AttentionKind>(kind);
        const Eigen::Index n = 40;
        const auto q = heads(2, n, 8, 1), kk = heads(2, n, 8, 2), v = heads(2, n, 8, 3);
        AttentionOptions o;
        o.window = 3;
        o.stride = 5;
        const auto z = attentionOutputs(k, o, 42, q, kk, v);
        const BoolMatrix none = BoolMatrix::Constant(n, n, false);
        const KernelInput in{q, kk, v, none, true, labels(n), labels(n), labels(8), std::nullopt, Block::None, k, o, 42};
        StageList stages;
        Eigen::MatrixXf concat(n, 16);
        std::vector<Message> warnings;
        KernelOutput out{concat, {}, warnings};
        attentionKind(k).kernel(in, stages, out);
        for (int h = 0; h < 2; ++h)
            QVERIFY((z[h] - concat.middleCols(h * 8, 8)).cwiseAbs().maxCoeff() < 1e-5f);
    }

    // Large activations in wide heads would overflow exp in float32: the stabilised features give
    // the output a double-precision computation without any constant gives.
    void performerDoesNotOverflow()
    {
        const Eigen::Index n = 12;
        const int dK = 256;
        auto q = heads(1, n, dK, 5), k = heads(1, n, dK, 6);
        const auto v = heads(1, n, dK, 7);
        const Eigen::MatrixXf omega = orthogonalRandomFeatures(64, dK, SplitMix64(9));
        // Rows along a random feature: ω·x̂ − ‖x̂‖²/2 reaches ‖ω‖²/2 ≈ d_k/2 = 128, exp ≈ 1e55.
        const auto along = static_cast<float>(std::pow(double(dK), 0.25));
        q[0].row(0) = omega.row(0) * along;
        k[0].row(3) = omega.row(0) * along;
        q[0].row(5) = omega.row(1) * along;
        const BoolMatrix none = BoolMatrix::Constant(n, n, false);
        const PerformerHead head = performerHead(q[0], k[0], v[0], omega, detail::userMask(none));
        QVERIFY(head.phiQ.allFinite() && head.phiK.allFinite());
        const FeatureAttention& fa = head.attention;
        // By hand, in double: φ(x) = exp(Ω·x̂ − ‖x̂‖²/2) with no constant (the 1/√M cancels).
        const auto phi = [&](const Eigen::MatrixXf& x) {
            const Eigen::MatrixXd xs = x.cast<double>() / std::pow(double(dK), 0.25);
            Eigen::MatrixXd f = xs * omega.cast<double>().transpose();
            f.colwise() -= 0.5 * xs.rowwise().squaredNorm();
            return Eigen::MatrixXd(f.array().exp());
        };
        const Eigen::MatrixXd pq = phi(q[0]), pk = phi(k[0]);
        QVERIFY(pq.maxCoeff() > 1e40); // the case: exp beyond float32's range (3.4e38)
        const Eigen::MatrixXd num = pq * (pk.transpose() * v[0].cast<double>());
        const Eigen::VectorXd den = pq * pk.colwise().sum().transpose();
        const Eigen::MatrixXd want = num.array().colwise() / den.array();
        QVERIFY((fa.z.cast<double>() - want).cwiseAbs().maxCoeff() < 1e-4 * std::max(1.0, want.cwiseAbs().maxCoeff()));
    }

    // The mask taken apart: padding columns, an exact causal triangle, anything else dense.
    void userMaskShapes()
    {
        BoolMatrix m = BoolMatrix::Constant(4, 4, false);
        QVERIFY(detail::userMask(m).none());
        m.col(3).setConstant(true);
        auto u = detail::userMask(m);
        QVERIFY(!u.causal && !u.dense && u.padding == std::vector<char>({0, 0, 0, 1}));
        for (int i = 0; i < 4; ++i) {
            for (int j = i + 1; j < 4; ++j)
                m(i, j) = true;
        }
        u = detail::userMask(m);
        QVERIFY(u.causal && !u.dense && u.padding[3] == 1);
        m(3, 0) = true;
        u = detail::userMask(m);
        QVERIFY(u.dense == &m);
        QVERIFY(u.hides(3, 0) && !u.hides(2, 0));
    }
};

QTEST_APPLESS_MAIN(TestMeasure)
#include "tst_measure.moc"
