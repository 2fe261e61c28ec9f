// The engine's table of stage ids (core/stage_ids.h): each id once; every stage an attention kind
// appends and every gated decoder's own stage is in it; in a trace of every kind under every
// position scheme, a stage has a head exactly when the table says it is per head (lsh's mask
// aside, attention/kind.h), and each id of the trace is in the table.

#include "attention/kind.h"
#include "core/stage_ids.h"
#include "core/trace.h"
#include "families/gated.h"
#include "model/run.h"

#include <QtTest>

#include <set>
#include <string>

using namespace attnlab;

class TestStageIds : public QObject {
    Q_OBJECT
private slots:
    void eachIdOnce()
    {
        std::set<std::string_view> seen;
        for (const StageIdInfo& s : stageIdTable()) {
            QVERIFY2(seen.insert(s.id).second, std::string(s.id).c_str());
            QVERIFY2(!s.kvHead || s.perHead, std::string(s.id).c_str());
        }
    }

    void theKindsAndFamiliesStagesAreListed()
    {
        for (const AttentionKindInfo& k : attentionKinds()) {
            for (const std::string& id : attentionKind(k.kind).stageIds)
                QVERIFY2(stageIdInfo(id), id.c_str());
            for (const std::string& id : kindStageIds(k.kind))
                QVERIFY2(stageIdInfo(id), id.c_str());
        }
        for (const std::string& id : gatedStageIds())
            QVERIFY2(stageIdInfo(id) && stageIdInfo(id)->group == StageGroup::Gated, id.c_str());
    }

    void tracesAgreeWithThePerHeadFlag()
    {
        const PositionalEncoding schemes[] = {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None,
                                              PositionalEncoding::Rope,       PositionalEncoding::Alibi,   PositionalEncoding::Relative,
                                              PositionalEncoding::Xl};
        int traces = 0;
        for (const AttentionKindInfo& k : attentionKinds()) {
            for (const PositionalEncoding pe : schemes) {
                RunRequest r;
                r.text = "the cat sat on the mat";
                r.config.attention = k.kind;
                r.config.positional = pe;
                Trace t;
                try {
                    t = *run(r).trace;
                } catch (const std::invalid_argument&) {
                    continue; // a kind that does not combine with the scheme
                }
                ++traces;
                for (const StageKey& key : t.stages.keys()) {
                    const StageIdInfo* info = stageIdInfo(key.id);
                    QVERIFY2(info, key.id.c_str());
                    QVERIFY2(isPerHeadStage(key.id, k.kind) == key.head.has_value(), key.id.c_str());
                }
            }
        }
        QVERIFY(traces >= 7 + 8 * 4);
    }
};

QTEST_MAIN(TestStageIds)
#include "tst_stage_ids.moc"
