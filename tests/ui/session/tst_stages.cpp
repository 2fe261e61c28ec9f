// The catalogue of steps (ui/session/stages.h): the formula and the sentence under it say what
// was computed — for the positional encoding, the scheme the trace used (issue 11 §1: with
// Positions = none the banner still showed the sine formula and "a pattern of sines").

#include "session/session.h"
#include "session/stages.h"

#include <QtTest>

using namespace attnlab;

class TestStages : public QObject {
    Q_OBJECT
private slots:
    void positionsAreNamedAsComputed()
    {
        const auto formula = [](PositionalEncoding pe) { return stepFormula(QStringLiteral("positional_encoding"), true, true, pe); };
        const auto said = [](PositionalEncoding pe) { return stepExplanation(QStringLiteral("positional_encoding"), pe); };
        QVERIFY(formula(PositionalEncoding::Sinusoidal).contains(QStringLiteral("sin(")));
        QVERIFY(!formula(PositionalEncoding::None).contains(QStringLiteral("sin(")));
        QVERIFY(formula(PositionalEncoding::None).startsWith(QStringLiteral("P = 0")));
        QVERIFY(!formula(PositionalEncoding::Learned).contains(QStringLiteral("sin(")));
        QVERIFY(said(PositionalEncoding::Sinusoidal).contains(QStringLiteral("sines")));
        QVERIFY(!said(PositionalEncoding::None).contains(QStringLiteral("sines")));
        QVERIFY(!said(PositionalEncoding::Learned).contains(QStringLiteral("sines")));
        // X = E·√d_model + P says nothing is added when P = 0.
        QVERIFY(stepFormula(QStringLiteral("input"), true, true, PositionalEncoding::None).contains(QStringLiteral("(P = 0)")));
        QVERIFY(!stepFormula(QStringLiteral("input"), true, true, PositionalEncoding::Sinusoidal).contains(QStringLiteral("(P = 0)")));
    }

    // Issue 11 §1: W_O was written "× W_Oᵀ + b_O" in the heads view and "O = C·W_O + b_O" in the
    // output stage's banner. One notation: the engine's, PyTorch's x·Wᵀ + b.
    void theOutputProjectionIsWrittenOneWay()
    {
        Session s;
        const Stage* output = s.trace()->find("output");
        QVERIFY(output);
        QVERIFY(QString::fromStdString(output->formula).contains(QStringLiteral("W_O\u1D40")));
        // The banner writes each projection as the engine computes it (x·Wᵀ + b).
        for (const char* id : {"q", "k", "v", "output"}) {
            const Stage* stage = s.trace()->find(id, isPerHeadStage(id) ? std::optional<int>(0) : std::nullopt);
            QVERIFY(stage);
            QCOMPARE(stepFormula(QString::fromLatin1(id), true, true, PositionalEncoding::Sinusoidal), QString::fromStdString(stage->formula));
        }
    }

    void stepsAreHeadedByTheirSublayer()
    {
        // A decoder layer's FFN steps carry the layer's block (decoder_self): the heading named
        // them "masked self-attention" (issue 11 §1). The heading names the sublayer.
        const auto at = [](const char* id, Block block) { return stepPlace(Step{QString::fromLatin1(id), false, 1, block}); };
        QCOMPARE(at("ffn_hidden", Block::DecoderSelf), QStringLiteral("decoder layer 2 \u00B7 feed-forward"));
        QCOMPARE(at("ffn_norm", Block::DecoderSelf), QStringLiteral("decoder layer 2 \u00B7 feed-forward"));
        QCOMPARE(at("ffn_output", Block::EncoderSelf), QStringLiteral("encoder layer 2 \u00B7 feed-forward"));
        QCOMPARE(at("layer_output", Block::DecoderSelf), QStringLiteral("decoder layer 2"));
        QCOMPARE(at("cross_norm", Block::DecoderSelf), QStringLiteral("decoder layer 2 \u00B7 cross-attention"));
        QCOMPARE(at("attn_norm", Block::DecoderSelf), QStringLiteral("decoder layer 2 \u00B7 masked self-attention"));
        QCOMPARE(at("weights", Block::Cross), QStringLiteral("decoder layer 2 \u00B7 cross-attention"));
    }

    void theSessionsTraceDecides()
    {
        // A session with Positions = none: its trace says none, so the banner's words follow it.
        Session s;
        Config c = s.config();
        c.positional = PositionalEncoding::None;
        s.setConfig(c);
        QVERIFY(s.trace()->config.positional == PositionalEncoding::None);
        QVERIFY(stepFormula(QStringLiteral("positional_encoding"), true, true, s.trace()->config.positional).startsWith(QStringLiteral("P = 0")));
    }
};

QTEST_MAIN(TestStages)
#include "tst_stages.moc"
