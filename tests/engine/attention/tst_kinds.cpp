// The attention kinds' registry: each kind has one entry, and an attention block computes, between
// its q, k, v and its concat, exactly the stages its kind lists (once per head where per-head).

#include "attention/kind.h"
#include "nn/attention.h"

#include <QtTest>

using namespace attnlab;

class TestKinds : public QObject {
    Q_OBJECT
private slots:
    void fullIsRegistered()
    {
        const AttentionKindInfo& full = attentionKind(AttentionKind::Full);
        QCOMPARE(full.name, std::string_view("full"));
        QVERIFY(full.kernel == &fullAttention);
        QVERIFY(attentionKinds().front().kind == AttentionKind::Full); // the default comes first
    }

    void theBlockRunsTheKindsStages()
    {
        Request r;
        r.sentence = "a b c d";
        r.config.dModel = 8;
        r.config.heads = 2;
        r.config.mask = MaskKind::Causal;
        const Trace t = computeTrace(r);
        // The ids between the last v and concat, in order, each once per head where per-head.
        std::vector<std::string> got;
        bool inside = false;
        for (const Stage& s : t.stages) {
            if (s.id == "concat")
                break;
            if (inside && (got.empty() || got.back() != s.id))
                got.push_back(s.id);
            if (s.id == "v" && s.head == 1)
                inside = true;
        }
        const auto& want = attentionKind(AttentionKind::Full).stageIds;
        QCOMPARE(got, want);
        for (const auto& id : want) {
            const int count = static_cast<int>(std::count_if(t.stages.begin(), t.stages.end(), [&](const Stage& s) { return s.id == id; }));
            QCOMPARE(count, isPerHeadStage(id) ? 2 : 1);
        }
    }
};

QTEST_APPLESS_MAIN(TestKinds)
#include "tst_kinds.moc"
