// Lessons on the attention kinds: the kind and its options as settings, the kinds' own stages as
// a step's stage, and the errors when a stage needs another kind or an option is out of range.

#include "lesson/lesson.h"

#include <QtTest>

using namespace attnlab;

namespace {

const char* kHeader = "---\ntitle: Kinds\nlanguage: en\nsettings: d_model=16, heads=2\nsentence: a b c d e f\n---\n\n";

std::string lessonWith(const std::string& steps)
{
    return kHeader + steps;
}

/// The error's line and reason, or line -1 when the lesson parsed.
std::pair<int, std::string> errorOf(const std::string& text)
{
    try {
        parseLesson(text, "kinds.md");
    } catch (const LessonError& e) {
        return {e.line(), e.reason()};
    }
    return {-1, {}};
}

} // namespace

class TestLessonKinds : public QObject {
    Q_OBJECT
private slots:
    void aKindAndItsOptionsAreSettings()
    {
        const Lesson l = parseLesson(lessonWith("## Window\nstage: mask\nsettings: attention=bigbird, window=1, random=3, global=0 4\n\nText.\n\n"
                                                "## Its error\nstage: error\n\nText.\n\n"
                                                "## Hashing\nstage: buckets\nsettings: attention=lsh, buckets=6, chunk=2\n\nText.\n"),
                                     "kinds.md");
        QCOMPARE(l.steps.size(), std::size_t(3));
        const Config& c = l.steps[0].config;
        QVERIFY(c.attention == AttentionKind::BigBird);
        QCOMPARE(c.attentionOptions.window, 1);
        QCOMPARE(c.attentionOptions.random, 3);
        QCOMPARE(c.attentionOptions.global, std::vector<int>({0, 4}));
        QCOMPARE(l.steps[1].stage, std::string("error"));
        QVERIFY(l.steps[1].config.attention == AttentionKind::BigBird); // carried over
        QVERIFY(l.steps[2].config.attention == AttentionKind::Lsh);
        QCOMPARE(l.steps[2].config.attentionOptions.buckets, 6);
        QCOMPARE(l.steps[2].config.attentionOptions.chunk, 2);
    }

    void errorsNameTheLine()
    {
        // A stage of another kind.
        auto [line, reason] = errorOf(lessonWith("## Features\nstage: kv\nsettings: attention=sliding-window\n\nText.\n"));
        QCOMPARE(line, 9);
        QCOMPARE(reason, std::string("stage 'kv' is computed by attention=performer, linear only (settings: attention=...)"));
        // An option out of range, and a combination the engine refuses.
        std::tie(line, reason) = errorOf(lessonWith("## Odd\nstage: mask\nsettings: attention=lsh, buckets=5\n\nText.\n"));
        QCOMPARE(line, 10);
        QVERIFY2(reason.find("buckets (5) must be an even number") != std::string::npos, reason.c_str());
        std::tie(line, reason) = errorOf(lessonWith("## Causal\nstage: weights\nsettings: attention=linformer, mask=causal\n\nText.\n"));
        QCOMPARE(line, 10);
        QVERIFY2(reason.find("linformer attention cannot use a causal mask") != std::string::npos, reason.c_str());
        std::tie(line, reason) = errorOf(lessonWith("## Unknown\nstage: weights\nsettings: attention=ring\n\nText.\n"));
        QVERIFY2(reason.rfind("settings: attention: unknown value 'ring'", 0) == 0, reason.c_str());
        // FlashAttention's blocks: settings, checked; its stages need it.
        std::tie(line, reason) = errorOf(lessonWith("## Tiles\nstage: tiles\nsettings: attention=flash, query_block=0\n\nText.\n"));
        QCOMPARE(line, 10);
        QVERIFY2(reason.find("query_block (0) must be between 1 and 4096") != std::string::npos, reason.c_str());
        std::tie(line, reason) = errorOf(lessonWith("## Max\nstage: running_max\nsettings: attention=full\n\nText.\n"));
        QCOMPARE(reason, std::string("stage 'running_max' is computed by attention=flash only (settings: attention=...)"));
        const Lesson flash = parseLesson(lessonWith("## Sum\nstage: running_sum\nsettings: attention=flash, query_block=3, key_block=2\n\nText.\n"),
                                         "kinds.md");
        QVERIFY(flash.steps[0].config.attention == AttentionKind::Flash);
        QCOMPARE(flash.steps[0].config.attentionOptions.queryBlock, 3);
        QCOMPARE(flash.steps[0].config.attentionOptions.keyBlock, 2);
    }

    void positionSchemesAndTheirStages()
    {
        // RoPE and ALiBi are settings; their stages are steps while they are in force.
        const Lesson l = parseLesson(lessonWith("## Turned\nstage: q_rotated\nsettings: pe=rope, rope_base=500\n\nText.\n\n"
                                                "## Biased\nstage: position_bias\nsettings: pe=alibi\n\nText.\n"),
                                     "positions.md");
        QVERIFY(l.steps[0].config.positional == PositionalEncoding::Rope);
        QCOMPARE(l.steps[0].config.positionOptions.ropeBase, 500.0);
        QCOMPARE(l.steps[1].stage, std::string("position_bias"));
        auto [line, reason] = errorOf(lessonWith("## Bias\nstage: position_bias\nsettings: pe=rope\n\nText.\n"));
        QCOMPARE(line, 9);
        QCOMPARE(reason, std::string("stage 'position_bias' is computed with pe=alibi, pe=xl only (settings: pe=...)"));
        std::tie(line, reason) = errorOf(lessonWith("## Odd\nstage: q_rotated\nsettings: pe=rope, d_model=6, heads=2\n\nText.\n"));
        QCOMPARE(line, 10);
        QVERIFY2(reason.find("d_k (3) must be even") != std::string::npos, reason.c_str());
        std::tie(line, reason) = errorOf(lessonWith("## Base\nstage: q_rotated\nsettings: pe=rope, rope_base=ten\n\nText.\n"));
        QVERIFY2(reason.find("rope_base: 'ten' is not a number") != std::string::npos, reason.c_str());
    }

    // Settings a lesson cannot mean (issue 27 §5): memory=-1 was read as "as L" (the settings'
    // own marker for "left out"), and a tiny rope_base was shown as 0.
    void settingsThatWereMisread_data()
    {
        QTest::addColumn<QString>("settings");
        QTest::addColumn<QString>("reason");
        QTest::newRow("memory=-1") << "pe=xl, memory=-1" << "memory (-1) must be between 0 and 1024 rows; leave memory out for as many rows as a segment";
        QTest::newRow("memory=-7") << "pe=xl, memory=-7" << "memory (-7) must be between 0 and 1024 rows";
        QTest::newRow("rope_base=1e-300") << "pe=rope, rope_base=1e-300" << "rope_base (1e-300) must be a number greater than 1";
    }

    void settingsThatWereMisread()
    {
        QFETCH(QString, settings);
        QFETCH(QString, reason);
        const auto [line, why] = errorOf(lessonWith("## Step\nstage: weights\nsettings: " + settings.toStdString() + "\n\nText.\n"));
        QCOMPARE(line, 10);
        QVERIFY2(why.find(reason.toStdString()) != std::string::npos, why.c_str());
        // Memory left out is L; memory=0 is none.
        QCOMPARE(parseLesson(lessonWith("## Step\nstage: weights\nsettings: pe=xl, segment=3\n\nText.\n"), "m.md").steps[0].config.positionOptions.xlMemory(), 3);
        QCOMPARE(parseLesson(lessonWith("## Step\nstage: weights\nsettings: pe=xl, memory=0\n\nText.\n"), "m.md").steps[0].config.positionOptions.xlMemory(), 0);
    }
};

QTEST_APPLESS_MAIN(TestLessonKinds)
#include "tst_lesson_kinds.moc"
