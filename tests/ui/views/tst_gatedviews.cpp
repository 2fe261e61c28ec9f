// A gated decoder (Llama, Qwen2, Qwen3; issue 31) in the studio: every step of its trace is
// drawn for every query head, and every view it offers, without a throw or a crash; the k and v
// a query head shows are those of the key/value head it reads — query head h of a
// block whose heads / kv_heads = g reads KV head h / g — so the six heads of the grouped-query
// Llama show two keys, each three times; every step has a name and a formula, RMSNorm's and the
// gated FFN's being the engine's; the generation stepper is offered. Gemma 3 (gemma3_text) says
// its window, its score scale and its extra norms.

#include "core/trace.h"
#include "session/generationstepper.h"
#include "session/session.h"
#include "session/stages.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "support/hfsession.h"
#include "views/feedforwardview.h"
#include "views/layernormview.h"
#include "views/predictionsview.h"
#include "views/stageview.h"
#include "widgets/formulabanner.h"
#include "widgets/stagenavigator.h"

#include <QLabel>
#include <QListWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// The stage the visible view shows when it is a StageView, else null.
const Stage* shownStage(const MainWindow& w)
{
    const auto* view = qobject_cast<const StageView*>(w.visibleView());
    return view ? view->stage() : nullptr;
}

/// Goes to step `id` of the first layer.
bool goTo(Session& s, const char* id)
{
    const int i = s.stepIndex(QString::fromLatin1(id), 0, Block::DecoderSelf);
    if (i < 0)
        return false;
    s.setStep(i);
    return s.stepId() == QLatin1String(id);
}

} // namespace

class TestGatedViews : public QObject {
    Q_OBJECT

private slots:
    void aQueryHeadShowsTheKeysOfItsGroup()
    {
        Session s;
        MainWindow w(&s);
        w.resize(1280, 800);
        w.show();
        QVERIFY(openHfFolder(s, "llama_gqa_tied_f32", QStringLiteral("The cat sat on the mat.")));
        s.setView(QStringLiteral("stage"));
        // (k_rotated shows the RoPE clocks: tst_positionschemeview.)
        for (const char* id : {"k", "v", "q_rotated", "q", "scores"}) {
            QVERIFY2(goTo(s, id), id);
            for (int h = 0; h < 6; ++h) {
                s.setHead(h);
                const Stage* shown = shownStage(w);
                QVERIFY2(shown, id);
                QCOMPARE(QString::fromStdString(shown->id), QString::fromLatin1(id));
                const bool perKvHead = isKvHeadStage(id);
                QCOMPARE(*shown->head, perKvHead ? h / 3 : h);
                QCOMPARE(*shown->kvHead, h / 3);
                QCOMPARE(stageForHead(*s.trace(), id, h), shown);
            }
        }
    }

    void everyStepSaysWhatItComputes()
    {
        Session s;
        QVERIFY(openHfFolder(s, "qwen3_qknorm_f32", QStringLiteral("The cat sat on the mat.")));
        FormulaBanner banner(&s);
        for (int i = 0; i < static_cast<int>(s.steps().size()); ++i) {
            s.setStep(i);
            QVERIFY2(stepName(s.stepId()) != s.stepId(), qPrintable(s.stepId()));
            QVERIFY2(!banner.formulaText().isEmpty(), qPrintable(s.stepId()));
        }
        // The norms are RMSNorms: the mean square, no mean and variance.
        QVERIFY(goTo(s, "attn_norm"));
        QVERIFY2(banner.formulaText().contains(QStringLiteral("mean(X\u00B2)")), qPrintable(banner.formulaText()));
        QVERIFY(goTo(s, "ffn_hidden"));
        QVERIFY2(banner.formulaText().contains(QStringLiteral("SiLU(G)")), qPrintable(banner.formulaText()));
        // RoPE in Hugging Face's layout turns feature i with feature i + d_k/2; the banner showed
        // the interleaved pairs (x_2i, x_2i+1) of the studio's own pe=rope.
        for (const char* id : {"q_rotated", "k_rotated"}) {
            QVERIFY(goTo(s, id));
            QVERIFY2(banner.formulaText().contains(QStringLiteral("i + d_k/2")) && !banner.formulaText().contains(QStringLiteral("x_2i")),
                     qPrintable(banner.formulaText()));
        }
        // The tokens are the folder's own (the banner said "GPT-2 cuts the text …"),
        // and a projection's X is the input after an RMSNorm, not a LayerNorm.
        const auto said = [&banner] {
            QStringList texts;
            for (const QLabel* l : banner.findChildren<QLabel*>())
                texts << l->text();
            return texts.join(QLatin1Char('\n'));
        };
        s.setStep(0);
        QCOMPARE(s.stepId(), QStringLiteral("tokens"));
        QVERIFY2(said().contains(QStringLiteral("Qwen3 cuts the text")) && said().contains(QStringLiteral("merges.txt"))
                     && !said().contains(QStringLiteral("GPT-2")),
                 qPrintable(said()));
        QVERIFY(goTo(s, "q"));
        QVERIFY2(said().contains(QStringLiteral("after its RMSNorm")) && !said().contains(QStringLiteral("LayerNorm")), qPrintable(said()));
    }

    // The Stages list named a modern decoder's input "X = E + P" (it adds no position vector:
    // RoPE turns q and k inside attention) and marked the feed-forward network at its third step.
    void theStagesListNamesTheDecodersSteps()
    {
        Session s;
        QVERIFY(openHfFolder(s, "llama_gqa_tied_f32", QStringLiteral("The cat sat on the mat.")));
        StageNavigator nav(&s);
        QStringList texts;
        for (int i = 0; i < nav.list()->count(); ++i)
            texts << nav.list()->item(i)->text().trimmed();
        QVERIFY2(texts.contains(QStringLiteral("3. Input X = E")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(texts.contains(QStringLiteral("17. FFN gate  \u2014 Feed-forward network")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("19. FFN hidden")));
    }

    void theNewStagesSpeakChinese()
    {
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        Session s;
        QVERIFY(openHfFolder(s, "qwen3_qknorm_f32", QStringLiteral("狗咬了人")));
        FormulaBanner banner(&s);
        const auto han = [](const QString& t) { return std::any_of(t.begin(), t.end(), [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; }); };
        for (const char* id : {"q_norm", "k_norm", "ffn_gate", "ffn_up"})
            QVERIFY2(han(stepName(QString::fromLatin1(id))), id);
        QVERIFY(goTo(s, "attn_norm"));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    // Gemma 3: every step named; its norms around both sublayers; a sliding layer's mask says its
    // window (3) and the full layer's does not; the scores are divided by √query_pre_attn_scalar
    // (6), not √d_k; the input is E·√d; the gate is GeGLU's, not SiLU.
    void gemmaSaysItsWindowAndScale()
    {
        Session s;
        QVERIFY(openHfFolder(s, "gemma3_sliding_bf16", QStringLiteral("The cat sat on the mat.")));
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        FormulaBanner banner(&s);
        for (int i = 0; i < static_cast<int>(s.steps().size()); ++i) {
            s.setStep(i);
            QVERIFY2(stepName(s.stepId()) != s.stepId(), qPrintable(s.stepId()));
            QVERIFY2(!banner.formulaText().isEmpty(), qPrintable(s.stepId()));
        }
        const auto at = [&s](const char* id, int layer) {
            const int i = s.stepIndex(QString::fromLatin1(id), layer, Block::DecoderSelf);
            if (i >= 0)
                s.setStep(i);
            return i >= 0;
        };
        QVERIFY(at("mask", 0));
        QVERIFY2(banner.formulaText().contains(QStringLiteral("a sliding window of 3 keys")), qPrintable(banner.formulaText()));
        QVERIFY(at("mask", 3));
        QVERIFY2(!banner.formulaText().contains(QStringLiteral("sliding")), qPrintable(banner.formulaText()));
        QVERIFY(at("scaled", 1));
        QVERIFY2(banner.formulaText().contains(QStringLiteral("\u221A6")) && !banner.formulaText().contains(QStringLiteral("d_k")),
                 qPrintable(banner.formulaText()));
        for (const char* id : {"attn_post_norm", "ffn_post_norm"}) {
            QVERIFY2(at(id, 2), id);
            QVERIFY2(banner.formulaText().contains(QStringLiteral("(1 + w_p")), qPrintable(banner.formulaText()));
        }
        QVERIFY(at("ffn_hidden", 0));
        QVERIFY2(banner.formulaText().contains(QStringLiteral("GELU")) && !banner.formulaText().contains(QStringLiteral("SiLU")),
                 qPrintable(banner.formulaText()));
        StageNavigator nav(&s);
        QStringList texts;
        for (int i = 0; i < nav.list()->count(); ++i)
            texts << nav.list()->item(i)->text().trimmed();
        QVERIFY2(texts.contains(QStringLiteral("3. Input X = E\u00B7\u221Ad")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(texts.join(QLatin1Char('|')).contains(QStringLiteral("Norm (attention output)")), qPrintable(texts.join(QLatin1Char('|'))));
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        for (const char* id : {"attn_post_norm", "ffn_post_norm"})
            QVERIFY2(stepName(QString::fromLatin1(id)).contains(QStringLiteral("归一化")), id);
        QVERIFY(at("mask", 0));
        QVERIFY2(banner.formulaText().contains(QStringLiteral("滑动窗口")), qPrintable(banner.formulaText()));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    void everyStepAndViewIsDrawn_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char* f : {"llama_gqa_tied_f32", "llama3_untied_bf16_sharded", "qwen2_mqa_f16", "qwen3_qknorm_f32", "gemma3_sliding_bf16"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void everyStepAndViewIsDrawn()
    {
        QFETCH(QString, folder);
        Session s;
        MainWindow w(&s);
        w.resize(1024, 768);
        w.show();
        QVERIFY(openHfFolder(s, qPrintable(folder), QStringLiteral("狗咬了人. The dog bit the man.")));
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        const int heads = s.config().heads;
        int drawn = 0;
        for (int i = 0; i < static_cast<int>(s.steps().size()); ++i) {
            s.setStep(i);
            const bool perHead = s.currentStep().perHead;
            for (int h = 0; h < (perHead ? heads : 1); ++h) {
                s.setHead(h);
                QVERIFY(!w.grab().isNull());
                if (s.currentStep().id != u"tokens")
                    QVERIFY2(shownStage(w) || !qobject_cast<const StageView*>(w.visibleView()), qPrintable(s.stepId()));
                ++drawn;
            }
        }
        QVERIFY(drawn > 40);
        // The norm steps show each token's RMS before and after; the FFN's gate, up and hidden
        // steps show G, U and their product (the views said "This step has no LayerNorm" and
        // described one W₁ and a GELU before they knew RMSNorm and the gated FFN).
        for (const char* id : {"attn_norm", "ffn_norm"}) {
            QVERIFY(goTo(s, id));
            const auto* norm = qobject_cast<const LayerNormView*>(w.visibleView());
            QVERIFY2(norm && norm->hasStage() && norm->isRmsNorm(), id);
        }
        for (const char* id : {"ffn_gate", "ffn_up", "ffn_hidden"}) {
            QVERIFY(goTo(s, id));
            const auto* ffn = qobject_cast<const FeedForwardView*>(w.visibleView());
            QVERIFY2(ffn && ffn->hasStage() && ffn->isGated(), id);
        }
        for (const char* view : {"model", "head-view", "heads", "predictions", "stage"}) {
            s.setView(QString::fromLatin1(view));
            QVERIFY(!w.grab().isNull());
        }
        QVERIFY(GenerationStepper::of(&s)->isAvailable());
        // The Predictions tab and its generation stepper name the model's family: they said
        // "What GPT-2 expects next" and "adds GPT-2's choice" for every decoder.
        s.setView(QStringLiteral("predictions"));
        auto* predictions = w.findChild<PredictionsView*>();
        QVERIFY(predictions);
        QStringList texts;
        for (const QLabel* label : predictions->findChildren<QLabel*>()) {
            if (label->isVisibleTo(predictions))
                texts << label->text();
        }
        const QString all = texts.join(QLatin1Char('|'));
        const QString family = folder.startsWith(u"llama")   ? QStringLiteral("Llama")
                               : folder.startsWith(u"gemma3") ? QStringLiteral("Gemma 3")
                                                              : folder.left(5).replace(u'q', u'Q');
        QVERIFY2(all.contains(QStringLiteral("What %1 expects next").arg(family)), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("adds %1's choice").arg(family)), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("GPT-2")), qPrintable(all));
    }
};

QTEST_MAIN(TestGatedViews)
#include "tst_gatedviews.moc"
