// The attention kinds' table (attention/kind.h, kinds.cpp): one entry per kind, each with its
// name, stages, kernel and a complete cost descriptor (attention/kind_cost.h), so that a kind
// added without one fails here rather than in the Cost view.

#include "attention/kind.h"
#include "attention/kind_cost.h"
#include "attention/measure.h"
#include "core/random.h"

#include <QtTest>

#include <set>

using namespace attnlab;

namespace {

constexpr int kKinds = 9; // AttentionKind's values, Full … Flash

std::vector<Eigen::MatrixXf> heads(int count, Eigen::Index n, int dK, std::uint64_t seed)
{
    std::vector<Eigen::MatrixXf> out;
    SplitMix64 gen(seed);
    for (int h = 0; h < count; ++h)
        out.push_back(Eigen::MatrixXf::NullaryExpr(n, dK, [&]() { return gen.symmetric(1.0f); }));
    return out;
}

} // namespace

class TestKindDescriptors : public QObject {
    Q_OBJECT
private slots:
    void everyKindHasOneCompleteEntry()
    {
        QCOMPARE(static_cast<int>(attentionKinds().size()), kKinds);
        std::set<AttentionKind> seen;
        for (int i = 0; i < kKinds; ++i) {
            const auto kind = static_cast<AttentionKind>(i);
            const AttentionKindInfo& info = attentionKind(kind);
            QVERIFY(seen.insert(info.kind).second);
            QVERIFY(info.kind == kind);
            QCOMPARE(info.name, toString(kind));
            QVERIFY(info.kernel != nullptr);
            QVERIFY2(info.cost && info.cost->head && info.cost->cells && info.cost->flopsPerHead && info.cost->heldBytes
                         && info.cost->seconds,
                     std::string(info.name).c_str());
            // Every kind writes its heads' outputs; a mask stage made from a pattern says its formula.
            QVERIFY(std::count(info.stageIds.begin(), info.stageIds.end(), "head_output") == 1);
            if (info.kernel == sparseAttention)
                QVERIFY2(!info.maskFormula.empty(), std::string(info.name).c_str());
            for (const auto& id : info.ownPerHeadStageIds) {
                QVERIFY(std::count(info.stageIds.begin(), info.stageIds.end(), id) == 1);
                QVERIFY(isPerHeadStage(id, kind));
            }
        }
        QVERIFY(isPerHeadStage("mask", AttentionKind::Lsh));
        QVERIFY(!isPerHeadStage("mask", AttentionKind::Full));
        QVERIFY(!isPerHeadStage("mask", AttentionKind::SlidingWindow));
    }

    /// Each kind's descriptor measures what its formulas estimate: an output per head of the right
    /// shape, finite; as many cells as estimated for the kinds whose patterns do not depend on the
    /// data; positive FLOPs, memory and time.
    void everyKindsCostDescriptorIsConsistent()
    {
        const int n = 64, dK = 8, h = 2;
        const auto q = heads(h, n, dK, 1), k = heads(h, n, dK, 2), v = heads(h, n, dK, 3);
        for (const AttentionKindInfo& info : attentionKinds()) {
            const std::string name(info.name);
            AttentionOptions o;
            const auto z = attentionOutputs(info.kind, o, 7, q, k, v);
            QCOMPARE(static_cast<int>(z.size()), h);
            for (const auto& zh : z) {
                QCOMPARE(zh.rows(), Eigen::Index{n});
                QCOMPARE(zh.cols(), Eigen::Index{dK});
                QVERIFY2(zh.allFinite(), name.c_str());
            }
            const std::int64_t cells = info.cost->cells(o, n);
            QVERIFY2(cells >= 0 && cells <= std::int64_t{n} * n, name.c_str());
            QVERIFY2(attentionFlops(info.kind, o, n, dK * h, h, cells) > 0, name.c_str());
            CostRequest r;
            r.kind = info.kind;
            r.dModel = dK * h;
            r.heads = h;
            const MeasureEstimate e = estimateMeasure(r, n);
            QVERIFY2(e.bytes > 16 * n * dK && e.seconds > 0 && e.cells == cells, name.c_str());
        }
        // Every score of full and flash attention; a window of 2W + 1 of sliding-window's.
        AttentionOptions o;
        QCOMPARE(kFullCost.cells(o, 64), std::int64_t{64 * 64});
        QCOMPARE(kFlashCost.cells(o, 64), std::int64_t{64 * 64});
        QCOMPARE(kSlidingWindowCost.cells(o, 64), std::int64_t{64 * (2 * o.window + 1)});
        QCOMPARE(kBigBirdCost.cells(o, 64), std::int64_t{64 * (2 * o.window + 1 + o.random)});
    }
};

QTEST_APPLESS_MAIN(TestKindDescriptors)
#include "tst_kind_descriptors.moc"
