// The stage catalogue (ui/session/stagecatalogue.h, issue 30 §4): every stage a trace of any
// attention kind under any position scheme holds, and every stage of a seeded Transformer and of
// the tiny Hugging Face models, is in the engine's table of stage ids (core/stage_ids.h) with the
// per-head flag its trace shows, and has a catalogue entry with a title; the attention block's
// have a formula too. The catalogue's files hold no branch on a stage id.

#include "attention/kind.h"
#include "core/stage_ids.h"
#include "session/session.h"
#include "session/stagecatalogue.h"
#include "session/stages.h"
#include "support/attentiontraces.h"
#include "support/hfsession.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace attnlab;

Q_DECLARE_METATYPE(attnlab::AttentionKind)

namespace {

constexpr PositionalEncoding kSchemes[] = {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None,
                                           PositionalEncoding::Rope,       PositionalEncoding::Alibi,   PositionalEncoding::Relative,
                                           PositionalEncoding::Xl};

/// What is wrong with the catalogue for the stages of `trace` under `spec`; empty when nothing.
/// `formulas`: each stage must have a formula too.
QStringList problems(const Trace& trace, const ModelSpec& spec, bool formulas)
{
    QStringList out;
    for (const StageKey& key : trace.stages.keys()) {
        const QString id = QString::fromStdString(key.id);
        const StageIdInfo* info = stageIdInfo(key.id);
        if (!info)
            out << id + QStringLiteral(": not in core/stage_ids.cpp");
        else if (info->perHead != key.head.has_value() && !(spec.attention == AttentionKind::Lsh && key.id == "mask"))
            out << id + QStringLiteral(": per-head flag wrong");
        if (stepName(id).isEmpty() || stepName(id) == id)
            out << id + QStringLiteral(": no title");
        if (formulas && stepFormula(id, spec).isEmpty())
            out << id + QStringLiteral(": no formula");
    }
    out.removeDuplicates();
    return out;
}

QString source(const char* path)
{
    QFile f(QStringLiteral(ATTNLAB_TEST_DATA "/../../") + QLatin1String(path));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestStageCatalogue : public QObject {
    Q_OBJECT
private slots:
    void everyKindAndSchemesStagesAreCatalogued_data()
    {
        QTest::addColumn<AttentionKind>("kind");
        for (const AttentionKindInfo& k : attentionKinds())
            QTest::newRow(std::string(k.name).c_str()) << k.kind;
    }
    void everyKindAndSchemesStagesAreCatalogued()
    {
        QFETCH(AttentionKind, kind);
        int computed = 0;
        for (const PositionalEncoding pe : kSchemes) {
            Session s;
            Config c = s.config();
            c.attention = kind;
            c.positional = pe;
            s.setConfig(c);
            s.setSentence(QStringLiteral("the cat sat on the mat"));
            if (!s.error().isEmpty())
                continue; // a kind that does not combine with the scheme
            ++computed;
            QVERIFY(s.trace()->stages.keys().size() >= 14); // embedding … output at least
            const QStringList wrong = problems(*s.trace(), s.config(), true);
            QVERIFY2(wrong.isEmpty(), qPrintable(QString::fromUtf8(toString(pe).data()) + QStringLiteral(": ") + wrong.join(", ")));
            // The navigator's steps too (tokens is no stage of the engine's).
            for (const Step& step : s.steps())
                QVERIFY2(!stepFormula(step.id, s.config()).isEmpty() && stepName(step.id) != step.id, qPrintable(step.id));
        }
        QVERIFY(computed >= (kind == AttentionKind::Full ? static_cast<int>(std::size(kSchemes)) : 1));
        qInfo("%d of %d schemes computed", computed, static_cast<int>(std::size(kSchemes)));
    }

    void everyModelsStagesAreCatalogued_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("seeded") << QString();
        for (const char* folder : {"gpt2_f32", "bert_mlm_f32", "llama_gqa_tied_f32", "qwen2_mqa_f16"})
            QTest::newRow(folder) << QString::fromLatin1(folder);
    }
    void everyModelsStagesAreCatalogued()
    {
        QFETCH(QString, folder);
        Session s;
        if (folder.isEmpty())
            QVERIFY(testing::useSeededModel(s, 2, 2));
        else
            QVERIFY(testing::openHfFolder(s, folder.toUtf8().constData(), QStringLiteral("the cat sat on the mat")));
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QVERIFY(s.isModel());
        QVERIFY(s.trace()->stages.keys().size() > 20);
        // A seeded Transformer's stages all have a formula; a modern decoder's own stages take
        // theirs from the trace (Stage::formula).
        const QStringList wrong = problems(*s.trace(), s.config(), folder.isEmpty());
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(", ")));
    }

    void theTablesNameOnlyEngineStages()
    {
        // Every catalogue entry is of a stage the engine writes (or the navigator's tokens), and
        // every stage the engine writes has a title.
        std::vector<StageTable> tables = stageTables();
        for (const auto& more : {kindStageTables(), positionStageTables()})
            tables.insert(tables.end(), more.begin(), more.end());
        for (StageTable table : tables) {
            for (const StageTexts& e : table)
                QVERIFY2(stageIdInfo(e.id) || std::string_view(e.id) == "tokens", e.id);
        }
        for (const StageIdInfo& s : stageIdTable()) {
            const QString id = QString::fromUtf8(s.id.data(), static_cast<qsizetype>(s.id.size()));
            QVERIFY2(stepName(id) != id, qPrintable(id));
        }
        // Per head as the engine has always said (issue 30 moved the list into the table).
        QVERIFY(isPerHeadStage("q") && isPerHeadStage("xl_u") && isPerHeadStage("k_norm") && !isPerHeadStage("mask"));
        QVERIFY(isKvHeadStage("k") && isKvHeadStage("k_rotated") && !isKvHeadStage("q") && !isKvHeadStage("q_norm"));
        QCOMPARE(catalogueView(u"ffn_gate"), ViewKind::FeedForward);
        QCOMPARE(catalogueView(u"attn_post_norm"), ViewKind::LayerNorm);
        QCOMPARE(catalogueView(u"weights"), ViewKind::Matrix);
    }

    void noTextBranchesOnTheStageId()
    {
        // The texts are looked up, not chosen by `if (id == u"...")` (issue 30 §4).
        const QRegularExpression branch(QStringLiteral("\\bid\\s*[!=]=\\s*u?\""));
        for (const char* file : {"ui/session/stagetexts.cpp", "ui/session/kindstages.cpp", "ui/session/positionstages.cpp",
                                 "ui/session/stagecatalogue.cpp"}) {
            const QString text = source(file);
            QVERIFY2(!text.isEmpty(), file);
            QVERIFY2(!text.contains(branch), file);
        }
        // stages.cpp orders the steps: the tokens before each side's embedding and Transformer-XL's
        // memory before the queries (modelSteps), a layer's output under its layer (place). No more.
        const QString stages = source("ui/session/stages.cpp");
        QVERIFY(!stages.isEmpty());
        QVERIFY2(stages.count(branch) <= 4, qPrintable(QString::number(stages.count(branch))));
    }
};

QTEST_MAIN(TestStageCatalogue)
#include "tst_stagecatalogue.moc"
