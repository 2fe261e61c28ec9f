// Performer's error against M on a trace's own queries, keys and values (attention/convergence.h):
// it falls as M grows (FAVOR+'s estimate has a variance ∝ 1/M), it is the same as the trace's own
// error stage for the trace's own M and seed, and it stays within 0 … 2 (an L1 distance of two
// probability rows).

#include "attention/convergence.h"
#include "nn/attention.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

Trace traceOf(AttentionKind kind, MaskKind mask = MaskKind::None, bool embedScale = true)
{
    Request r;
    r.sentence = "The animal didn't cross the street because it was too tired.";
    r.config.dModel = 32;
    r.config.heads = 2;
    r.config.mask = mask;
    r.config.attention = kind;
    r.config.attentionOptions.features = 64;
    r.config.seed = 7;
    r.config.embedScale = embedScale;
    return computeTrace(r);
}

/// The mean of the trace's own error stages over its heads.
double traceError(const Trace& t)
{
    double sum = 0;
    int heads = 0;
    for (const Stage& s : t.stages) {
        if (s.id == "error") {
            sum += static_cast<double>(s.main().values.mean());
            ++heads;
        }
    }
    return heads > 0 ? sum / heads : -1;
}

} // namespace

class TestConvergence : public QObject {
    Q_OBJECT
private slots:
    void theErrorFallsAsMGrows_data()
    {
        QTest::addColumn<int>("mask");
        QTest::addColumn<bool>("embedScale");
        QTest::addColumn<double>("steepest"); // the slope of ln(error) on ln(M) lies between these
        QTest::addColumn<double>("flattest");
        // Embeddings scaled by √d_model make large q·k: exp's estimates are heavy-tailed and
        // reach their 1/√M rate only at larger M; smaller inputs come close to it sooner.
        QTest::newRow("no mask") << int(MaskKind::None) << true << -0.75 << -0.15;
        QTest::newRow("causal: the prefix sums") << int(MaskKind::Causal) << true << -0.75 << -0.15;
        QTest::newRow("small inputs: near 1/sqrt(M)") << int(MaskKind::None) << false << -0.7 << -0.3;
    }

    void theErrorFallsAsMGrows()
    {
        QFETCH(int, mask);
        QFETCH(bool, embedScale);
        QFETCH(double, steepest);
        QFETCH(double, flattest);
        const Trace t = traceOf(AttentionKind::Full, static_cast<MaskKind>(mask), embedScale);
        const auto points = performerConvergence(t, convergenceFeatures(), 4);
        QCOMPARE(points.size(), convergenceFeatures().size());
        for (const ConvergencePoint& p : points) {
            QVERIFY2(p.meanError > 0 && p.meanError <= 2, qPrintable(QString::number(p.meanError)));
            QVERIFY(p.outputRelFro > 0);
        }
        QVERIFY2(points.back().meanError < points.front().meanError / 2,
                 qPrintable(QStringLiteral("M = 16: %1, M = 1024: %2").arg(points.front().meanError).arg(points.back().meanError)));
        // Towards 1/√M: the least-squares slope of ln(error) on ln(M).
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (const ConvergencePoint& p : points) {
            const double x = std::log(p.features), y = std::log(p.meanError);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        const double m = static_cast<double>(points.size());
        const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
        QVERIFY2(slope < flattest && slope > steepest, qPrintable(QStringLiteral("slope %1").arg(slope)));
    }

    void theTracesOwnMAndSeedGiveItsOwnError()
    {
        const Trace t = traceOf(AttentionKind::Performer);
        const auto points = performerConvergence(t, {64}, 1);
        QCOMPARE(points.size(), std::size_t(1));
        const double own = traceError(t);
        QVERIFY2(std::abs(points[0].meanError - own) < 1e-6,
                 qPrintable(QStringLiteral("recomputed %1, trace %2").arg(points[0].meanError).arg(own)));
    }

    void stoppingEarlyKeepsThePointsSoFar()
    {
        const Trace t = traceOf(AttentionKind::Full);
        int asked = 0;
        const auto points = performerConvergence(t, convergenceFeatures(), 1, [&] { return ++asked <= 2; });
        QCOMPARE(points.size(), std::size_t(2));
    }

    void aSparseKindsPatternIsNotTheUsersMask()
    {
        // On a sliding-window trace (its mask stage holds the window) performer still attends
        // every key: the same points as on the full trace of the same input.
        Request r;
        r.sentence = "one two three four five six seven eight";
        r.config.dModel = 16;
        r.config.heads = 2;
        const Trace full = computeTrace(r);
        r.config.attention = AttentionKind::SlidingWindow;
        r.config.attentionOptions.window = 1;
        const Trace window = computeTrace(r);
        const auto a = performerConvergence(full, {32}, 1);
        const auto b = performerConvergence(window, {32}, 1);
        QCOMPARE(a[0].meanError, b[0].meanError);
    }

    void badRequestsAreRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, performerConvergence(Trace{}, {16}));
        const Trace t = traceOf(AttentionKind::Full);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, performerConvergence(t, {0}));
    }
};

QTEST_APPLESS_MAIN(TestConvergence)
#include "tst_convergence.moc"
