// Lessons of a whole Transformer (docs/lesson-format.md, "Encoder–decoder lessons"): what the
// model in force has decides which layers, blocks, stages and decoder inputs a step may name;
// model=reversal sets d_model and heads itself; a sentence must have a token; and the
// highlights that do not fit a matrix, as structured misses.
#include "lesson/lesson.h"

#include <QtTest>

#include <string>

using attnlab::Block;
using attnlab::HighlightMiss;
using attnlab::Lesson;
using attnlab::LessonError;
using attnlab::ModelKind;
using attnlab::parseLesson;

namespace {

/// The header every inline lesson starts with (4 lines, then a blank line 5).
const std::string kHeader = "---\ntitle: T\nlanguage: en\n---\n\n";

/// The shipped model's sizes, from docs/shipped-model.md (not from the engine).
constexpr int kReversalDModel = 64;
constexpr int kReversalHeads = 4;

QString failureOf(const std::string& text)
{
    try {
        parseLesson(text, "t.md");
    } catch (const LessonError& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestLessonModel : public QObject {
    Q_OBJECT

private slots:
    void refused_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const char* body, const char* message) {
            QTest::newRow(name) << QString::fromUtf8(body) << QString::fromUtf8(message);
        };
        // Without a model: no decoder input, layer, block or Transformer stage.
        row("target without a model", "## A\nstage: weights\ntarget: le chat\n",
            "t.md:8: target: this step needs an encoder–decoder model");
        row("block without a model", "## A\nblock: cross\n", "t.md:7: this step needs an encoder–decoder model");
        row("carried stage into model=none", "## A\nsettings: model=seeded\nstage: attn_norm\n\n## B\nsettings: model=none\n",
            "t.md:11: stage 'attn_norm' (chosen on line 8) needs an encoder–decoder model: choose another stage in this step");
        // The shipped model has 2 encoder and 2 decoder layers (docs/shipped-model.md).
        row("reversal layer 5", "## A\nsettings: model=reversal\nlayer: 5\n",
            "t.md:8: layer 5 does not exist: the reversal model has 2 encoder layers and 2 decoder layers");
        row("reversal layer 3 in cross", "## A\nsettings: model=reversal\nblock: cross\nlayer: 3\n",
            "t.md:9: layer 3 does not exist: the reversal model has 2 encoder layers and 2 decoder layers");
        row("carried layer beyond the new model", "## A\nsettings: model=seeded, layers=4\nlayer: 4\n\n## B\nsettings: model=reversal\n",
            "t.md:11: layer 4 (chosen on line 8) does not exist: the reversal model has 2 encoder layers and 2 decoder layers; "
            "choose one in this step, e.g. 'layer: 1'");
        row("carried layer beyond fewer seeded layers", "## A\nsettings: model=seeded, layers=3\nlayer: 3\n\n## B\nsettings: layers=1\n",
            "t.md:11: layer 3 (chosen on line 8) does not exist: the model has 1 layer (layers=1)");
        // A seeded model has no output head.
        row("seeded logits", "## A\nsettings: model=seeded\nstage: logits\n",
            "t.md:8: stage 'logits' does not exist: a seeded model has no output head (use model=reversal)");
        row("seeded probabilities carried over",
            "## A\nsettings: model=reversal\nstage: probabilities\n\n## B\nsettings: model=seeded, d_model=16, heads=2\n",
            "t.md:11: stage 'probabilities' does not exist: a seeded model has no output head (use model=reversal; the stage "
            "was chosen on line 8)");
        row("seeded generate", "## A\nsettings: model=seeded\ngenerate: 2\n",
            "t.md:8: generate: a seeded model has no output head, so it cannot generate");
        // model=reversal fixes d_model and heads.
        row("reversal with another d_model", "## A\nsettings: model=reversal, d_model=16, heads=2\n",
            "t.md:7: settings: model=reversal sets d_model=64 and heads=4 itself (the shipped model's): leave d_model and heads out");
        row("another heads while reversal is in force", "## A\nsettings: model=reversal\n\n## B\nsettings: heads=8\n",
            "t.md:10: settings: model=reversal sets d_model=64 and heads=4 itself");
        // A sentence or target of white space only (the tokenizer makes nothing of it).
        row("ideographic spaces", "## A\nsentence: \u3000\u3000\n", "t.md:7: sentence: '\u3000\u3000' has no tokens (only white space)");
        row("no-break space", "## A\nsentence: \u00A0\n", "t.md:7: sentence: '\u00A0' has no tokens");
        row("white-space target", "## A\nsettings: model=seeded\ntarget: \u2003\n", "t.md:8: target: '\u2003' has no tokens");
        // One decoder input per step (found by fuzz_lesson: the target was dropped silently).
        row("target and generate", "## A\nsettings: model=reversal\ntarget: abc\ngenerate: 2\n",
            "t.md:9: 'target' and 'generate' cannot both be given in one step");
        row("generate and target", "## A\nsettings: model=reversal\ngenerate: last\nstage: weights\ntarget: abc\n",
            "t.md:10: 'target' and 'generate' cannot both be given in one step");
    }

    void refused()
    {
        QFETCH(QString, body);
        QFETCH(QString, message);
        const QString got = failureOf(kHeader + body.toStdString());
        QVERIFY2(got.startsWith(message), qPrintable(QStringLiteral("got: %1\nwanted: %2").arg(got, message)));
    }

    void headerSentenceOfWhiteSpaceIsRefused()
    {
        const QString got = failureOf("---\ntitle: T\nlanguage: en\nsentence: \u3000\n---\n\n## A\n");
        QVERIFY2(got.startsWith(QStringLiteral("t.md:4: sentence:")), qPrintable(got));
        QVERIFY2(got.contains(QStringLiteral("has no tokens")), qPrintable(got));
    }

    void reversalSetsItsWidths()
    {
        // The header names the model only: d_model and heads are the shipped model's.
        const Lesson l = parseLesson("---\ntitle: T\nlanguage: en\nsettings: model=reversal\n---\n\n"
                                     "## A\nstage: weights\nhead: 4\n\n"
                                     "## B\nsettings: model=reversal, d_model=64, heads=4\n\n" // the same values: accepted
                                     "## C\nsettings: model=none\nhead: 1\n",
                                     "t.md");
        QCOMPARE(l.config.dModel, kReversalDModel);
        QCOMPARE(l.config.heads, kReversalHeads);
        QCOMPARE(l.steps[0].config.dModel, kReversalDModel);
        QCOMPARE(l.steps[0].config.heads, kReversalHeads);
        QCOMPARE(l.steps[0].head, 3); // head 4 exists because heads = 4
        QCOMPARE(l.steps[1].config.dModel, kReversalDModel);
        // Leaving the model keeps the settings the lesson wrote: step B named 64 and 4.
        QVERIFY(l.steps[2].config.model == ModelKind::None);
        QCOMPARE(l.steps[2].config.dModel, kReversalDModel);
        QCOMPARE(l.steps[2].config.heads, kReversalHeads);
    }

    void reversalOverridesCarriedWidthsAndGivesThemBack()
    {
        const Lesson l = parseLesson(kHeader + "## A\nsettings: d_model=16, heads=2\n\n"
                                               "## B\nsettings: model=reversal\nhead: 3\n\n"
                                               "## C\nsettings: model=none\nhead: 2\n",
                                     "t.md");
        QCOMPARE(l.steps[1].config.dModel, kReversalDModel);
        QCOMPARE(l.steps[1].config.heads, kReversalHeads);
        QCOMPARE(l.steps[2].config.dModel, 16);
        QCOMPARE(l.steps[2].config.heads, 2);
        // A head that only the model has is not carried back silently.
        const QString got = failureOf(kHeader + "## A\nsettings: d_model=16, heads=2\n\n"
                                                "## B\nsettings: model=reversal\nhead: 3\n\n"
                                                "## C\nsettings: model=none\n");
        QVERIFY2(got.startsWith(QStringLiteral("t.md:14: settings: with heads=2 there is no head 3 (chosen on line 11)")),
                 qPrintable(got));
    }

    void layersAndBlocksThatExistAreAccepted()
    {
        const Lesson l = parseLesson(kHeader + "## A\nsettings: model=reversal\nlayer: 2\nblock: cross\nstage: weights\n\n"
                                               "## B\nblock: encoder_self\n\n"
                                               "## C\nsettings: model=seeded, layers=3, d_model=16, heads=2\nlayer: 3\n",
                                     "t.md");
        QCOMPARE(l.steps[0].layer, 1);
        QVERIFY(l.steps[0].block == Block::Cross);
        QCOMPARE(l.steps[1].layer, 1); // layer 2 of the encoder exists too
        QCOMPARE(l.steps[2].layer, 2);
    }

    void leavingTheModelForgetsLayerAndBlock()
    {
        const Lesson l = parseLesson(kHeader + "## A\nsettings: model=seeded\nlayer: 2\nblock: cross\nstage: q\n\n"
                                               "## B\nsettings: model=none\n\n"
                                               "## C\nsettings: model=seeded, layers=1\n",
                                     "t.md");
        QVERIFY(l.steps[1].config.model == ModelKind::None);
        QCOMPARE(l.steps[1].layer, 0);
        QVERIFY(l.steps[1].block == Block::EncoderSelf);
        QCOMPARE(l.steps[2].layer, 0); // layer 2, forgotten, is not checked against layers=1
    }

    void teacherForcingWithASeededModelIsAccepted()
    {
        const Lesson l = parseLesson(kHeader + "## A\nsettings: model=seeded\ntarget: le chat\nstage: decoder_output\n", "t.md");
        QCOMPARE(QString::fromStdString(*l.steps[0].target), QStringLiteral("le chat"));
    }

    void highlightMisses()
    {
        attnlab::Highlight h;
        h.cells = {{0, 0}, {4, 1}, {1, 9}, {5, 9}};
        h.rows = {2, 3};
        h.columns = {7, 8};
        // A 4 x 8 matrix: rows 0..3, columns 0..7, worked out by hand.
        const std::vector<HighlightMiss> want{
            {HighlightMiss::Kind::Cell, 4, 1, true, false},
            {HighlightMiss::Kind::Cell, 1, 9, false, true},
            {HighlightMiss::Kind::Cell, 5, 9, true, true},
            {HighlightMiss::Kind::Column, -1, 8, false, true},
        };
        const auto got = attnlab::highlightMisses(h, 4, 8);
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY2(got[i] == want[i], qPrintable(QStringLiteral("miss %1 differs").arg(i)));
        QVERIFY(attnlab::highlightMisses(h, 10, 10).empty());
    }
};

QTEST_GUILESS_MAIN(TestLessonModel)
#include "tst_lesson_model.moc"
