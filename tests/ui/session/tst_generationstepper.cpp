// The studio's GPT-2 generation stepper: greedy steps give the greedy tokens of the independent
// PyTorch reference (tests/reference/hf/gpt2_f32.json) and append their text to the sentence;
// a step feeds one position to the key/value cache; sampling with a seed gives the tokens of
// generateTokens (what `attention-lab-cli generate --seed` prints), one step at a time or N at
// once, and Back then Next gives the same token again; Back, Undo-like edits, other sentences
// and other models; the end of text, the model's positions, a run cancelled or overtaken by an edit.

#include "pretrained/generate.h"
#include "pretrained/model_folder.h"
#include "session/generationstepper.h"
#include "session/session.h"
#include "support/hfsession.h"
#include "support/reference.h"
#include "text/bpe.h"

#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

Q_DECLARE_METATYPE(attnlab::SamplingOptions)

namespace {

/// Runs `count` tokens and waits for the run to end; false when it did not start.
bool run(GenerationStepper* g, int count, const SamplingOptions& o = {}, QString* why = nullptr)
{
    return g->start(count, o, why) && waitIdle(g);
}

const PretrainedWeights& weightsOf(const Session& s)
{
    return s.model()->pretrained->weights;
}

SamplingOptions sampling(float temperature, int topK, float topP, std::uint64_t seed)
{
    SamplingOptions o;
    o.temperature = temperature;
    o.topK = topK;
    o.topP = topP;
    o.seed = seed;
    return o;
}

} // namespace

class TestGenerationStepper : public QObject {
    Q_OBJECT

private slots:
    void greedyStepsAreTheReferencesTokens()
    {
        const auto golden = readJson(hfDir() + "/gpt2_f32.json").at("inputs").at(0);
        const auto prompt = golden.at("token_ids").get<std::vector<int>>();
        const auto want = golden.at("generation").at("new_ids").get<std::vector<int>>();
        Session s;
        const QString text = QString::fromStdString(golden.at("text").get<std::string>());
        QVERIFY(openHfFolder(s, "gpt2_f32", text));
        GenerationStepper* g = GenerationStepper::of(&s);
        QCOMPARE(GenerationStepper::of(&s), g); // one per Session
        QVERIFY(g->isAvailable());
        for (int step = 1; step <= 3; ++step) {
            QVERIFY(run(g, 1));
            QCOMPARE(g->generated(), std::vector<int>(want.begin(), want.begin() + step));
            QVERIFY(std::abs(g->probabilities().back() - golden.at("generation").at("probabilities")[step - 1].get<float>()) < 1e-4f);
            // The cache holds the prompt and every token but the last: a step fed one position.
            QCOMPARE(g->cachedPositions(), static_cast<int>(prompt.size()) + step - 1);
        }
        // Ġthe Ġthe Ġwhich: the sentence goes on with their text, and the trace reads it back.
        QCOMPARE(s.sentence(), text + QStringLiteral(" the the which"));
        QCOMPARE(s.fullTrace()->tokenIds, g->ids());
        QVERIFY(!g->readsBackDifferently());
        QCOMPARE(s.fullTrace()->tokenIds.size(), prompt.size() + 3);
    }

    void generateNIsTheWholeGreedyRun()
    {
        const auto golden = readJson(hfDir() + "/gpt2_f32.json").at("inputs");
        for (const auto& input : golden) {
            Session s;
            QVERIFY(openHfFolder(s, "gpt2_f32", QString::fromStdString(input.at("text").get<std::string>())));
            GenerationStepper* g = GenerationStepper::of(&s);
            QSignalSpy progress(g, &GenerationStepper::progress);
            QVERIFY(run(g, 8));
            QCOMPARE(g->generated(), input.at("generation").at("new_ids").get<std::vector<int>>());
            QCOMPARE(progress.size(), 8);
            QCOMPARE(progress.last().at(0).toInt(), 8);
        }
    }

    // Llama and Qwen write on with their own key/value cache (grouped-query heads, RoPE at each
    // position): the greedy tokens of the float64 PyTorch reference (gen_decoder_reference.py).
    void gatedDecodersWriteOnAsTheReference_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char* f : {"llama_gqa_tied_f32", "llama3_untied_bf16_sharded", "qwen2_mqa_f16", "qwen3_qknorm_f32"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void gatedDecodersWriteOnAsTheReference()
    {
        QFETCH(QString, folder);
        for (const auto& input : readJson(hfDir() + "/" + folder.toStdString() + ".json").at("inputs")) {
            const auto want = input.at("generation").at("new_ids").get<std::vector<int>>();
            Session s;
            QVERIFY(openHfFolder(s, qPrintable(folder), QString::fromStdString(input.at("text").get<std::string>())));
            QCOMPARE(s.fullTrace()->tokenIds, input.at("token_ids").get<std::vector<int>>());
            GenerationStepper* g = GenerationStepper::of(&s);
            QVERIFY(g->isAvailable());
            QVERIFY(run(g, 1));
            QCOMPARE(g->generated(), std::vector<int>(want.begin(), want.begin() + 1));
            QVERIFY(run(g, static_cast<int>(want.size()) - 1));
            QCOMPARE(g->generated(), want);
            for (std::size_t i = 0; i < want.size(); ++i)
                QVERIFY(std::abs(g->probabilities()[i] - input.at("generation").at("probabilities")[i].get<float>()) < 1e-4f);
        }
    }

    void seededSamplingIsTheCommandLines_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<SamplingOptions>("options");
        QTest::newRow("T 1.2, top-p 0.9, seed 3") << "The" << sampling(1.2f, 0, 0.9f, 3);
        QTest::newRow("T 0.8, top-k 20, seed 11") << "It is in the house" << sampling(0.8f, 20, 1.0f, 11);
        QTest::newRow("T 2, every token, seed 0") << "The cat was tired." << sampling(2.0f, 0, 1.0f, 0);
    }

    void seededSamplingIsTheCommandLines()
    {
        QFETCH(QString, prompt);
        QFETCH(SamplingOptions, options);
        constexpr int kCount = 10;
        Session s;
        QVERIFY(openHfFolder(s, "gpt2_f32", prompt));
        GenerationStepper* g = GenerationStepper::of(&s);
        const std::vector<int> promptIds = s.fullTrace()->tokenIds;
        const GeneratedTokens want = generateTokens(weightsOf(s), promptIds, kCount, options);
        QVERIFY(run(g, kCount, options));
        QCOMPARE(g->generated(), want.ids);
        const QString all = s.sentence();
        // One token a step: the same tokens.
        s.setSentence(prompt);
        QVERIFY(g->generated().empty());
        for (int i = 0; i < kCount; ++i)
            QVERIFY(run(g, 1, options));
        QCOMPARE(g->generated(), want.ids);
        QCOMPARE(s.sentence(), all);
        // Back twice, then two steps: the same two tokens again (the random stream went back too).
        QVERIFY(g->back());
        QVERIFY(g->back());
        QVERIFY(run(g, 2, options));
        QCOMPARE(g->generated(), want.ids);
        // Another seed, another text.
        s.setSentence(prompt);
        SamplingOptions other = options;
        other.seed += 1;
        QVERIFY(run(g, kCount, other));
        QVERIFY(g->generated() != want.ids);
    }

    void backAndEditsKeepTheTokensTheTextStillHas()
    {
        Session s;
        const QString prompt = QStringLiteral("The cat was tired.");
        QVERIFY(openHfFolder(s, "gpt2_f32", prompt));
        GenerationStepper* g = GenerationStepper::of(&s);
        QVERIFY(!g->back()); // nothing generated yet
        QVERIFY(run(g, 3));
        QVERIFY(g->back());
        QCOMPARE(s.sentence(), prompt + QStringLiteral(" the the"));
        QCOMPARE(g->generated(), (std::vector<int>{262, 262}));
        // Undo's way back: the sentence without its last generated word keeps the first.
        s.setSentence(prompt + QStringLiteral(" the"));
        QCOMPARE(g->generated(), std::vector<int>{262});
        QVERIFY(run(g, 1));
        QCOMPARE(g->generated(), (std::vector<int>{262, 262}));
        QVERIFY(g->back());
        QVERIFY(g->back());
        QCOMPARE(s.sentence(), prompt);
        QVERIFY(!g->back());
        // Another sentence: a new prompt.
        QVERIFY(run(g, 2));
        s.setSentence(QStringLiteral("It is in the house"));
        QVERIFY(g->generated().empty());
        QVERIFY(run(g, 1));
        QCOMPARE(g->generated(), std::vector<int>{325}); // the reference's first pick for it
        // Another model: nothing to generate with BERT.
        QString error;
        QVERIFY2(s.importModel(hfFolder("bert_mlm_f32"), &error), qPrintable(error));
        QVERIFY(g->generated().empty());
        QVERIFY(!g->isAvailable());
        QString why;
        QVERIFY(!g->start(1, {}, &why));
        QVERIFY2(why.contains(QStringLiteral("GPT-2")), qPrintable(why));
    }

    void itStopsAtTheEndOfText()
    {
        Session s;
        QVERIFY(openHfFolder(s, "gpt2_f32", QStringLiteral("The")));
        GenerationStepper* g = GenerationStepper::of(&s);
        const SamplingOptions o = sampling(3.0f, 0, 1.0f, 2);
        const GeneratedTokens want = generateTokens(weightsOf(s), s.fullTrace()->tokenIds, 40, o);
        QVERIFY2(want.endOfText, "seed 2 at T 3 wrote <|endoftext|> when this test was written");
        QVERIFY(run(g, 40, o));
        QCOMPARE(g->generated(), want.ids);
        QCOMPARE(g->generated().back(), *weightsOf(s).config.eosTokenId);
        QVERIFY(s.sentence().endsWith(QStringLiteral("<|endoftext|>")));
        QVERIFY2(g->stopMessage().contains(QStringLiteral("<|endoftext|>")), qPrintable(g->stopMessage()));
        QString why;
        const QString before = s.sentence();
        QVERIFY(!g->start(1, o, &why));
        QVERIFY2(why.contains(QStringLiteral("Back")), qPrintable(why));
        QCOMPARE(s.sentence(), before);
        QVERIFY(g->back());
        QVERIFY(g->whyNoStep().isEmpty());
    }

    void itStopsAtTheModelsPositions()
    {
        Session s; // gpt2_f32 has 64 positions
        QVERIFY(openHfFolder(s, "gpt2_f32", QStringLiteral("The cat was tired.")));
        GenerationStepper* g = GenerationStepper::of(&s);
        QCOMPARE(g->tokenLimit(), 64);
        QVERIFY(run(g, 200));
        QCOMPARE(static_cast<int>(g->ids().size()), 64);
        QVERIFY2(g->stopMessage().contains(QStringLiteral("64")), qPrintable(g->stopMessage()));
        QCOMPARE(static_cast<int>(s.fullTrace()->tokenIds.size()), 64); // nothing cut
        QString why;
        QVERIFY(!g->start(1, {}, &why));
        QVERIFY(why.contains(QStringLiteral("position")));
        // The Session's max_tokens is the limit when it is lower.
        Config c = s.config();
        c.maxTokens = 12;
        s.setSentence(QStringLiteral("The cat was tired."));
        s.setConfig(c);
        QCOMPARE(g->tokenLimit(), 12);
        QVERIFY(run(g, 10));
        QCOMPARE(static_cast<int>(g->ids().size()), 12);
        QVERIFY2(g->stopMessage().contains(QStringLiteral("max_tokens")), qPrintable(g->stopMessage()));
    }

    void aRunIsOffTheGuiThreadAndCanBeStopped()
    {
        Session s;
        const QString prompt = QStringLiteral("The cat was tired.");
        QVERIFY(openHfFolder(s, "gpt2_f32", prompt));
        GenerationStepper* g = GenerationStepper::of(&s);
        QVERIFY(g->start(50, {}));
        QVERIFY(g->isRunning()); // start() returned; the tokens come later
        QString why;
        QVERIFY(!g->start(1, {}, &why)); // one run at a time
        g->cancel();
        QVERIFY(waitIdle(g));
        QVERIFY(g->generated().size() <= 50);
        // What was written is in the sentence.
        QCOMPARE(s.sentence(), prompt + QString::fromStdString(s.model()->pretrained->bpe->decode(g->generated())));
        // An edit while GPT-2 writes wins: the run's tokens are dropped.
        QVERIFY(g->start(50, {}));
        s.setSentence(QStringLiteral("It is in the house"));
        QVERIFY(waitIdle(g));
        QCOMPARE(s.sentence(), QStringLiteral("It is in the house"));
        QVERIFY(g->generated().empty());
    }

    void aTextThatReadsBackOtherwiseGoesOnFromTheGeneratedTokens()
    {
        // Greedy on this prompt writes lone bytes of no whole UTF-8 character (token 227, then
        // 150s) by its 31st token: the sentence gets U+FFFD, which the tokenizer reads as other
        // tokens. The views show the text as read; the next step goes on from the generated ids.
        Session s;
        QVERIFY(openHfFolder(s, "gpt2_f32", QStringLiteral("The cat was tired.")));
        GenerationStepper* g = GenerationStepper::of(&s);
        const std::vector<int> prompt = s.fullTrace()->tokenIds;
        const GeneratedTokens want = generateTokens(weightsOf(s), prompt, 41, {});
        QVERIFY(std::find(want.ids.begin(), want.ids.end(), 227) != want.ids.end());
        QVERIFY(run(g, 40));
        QVERIFY(g->readsBackDifferently());
        QVERIFY(s.fullTrace()->tokenIds != g->ids());
        QVERIFY(s.sentence().contains(QChar(0xFFFD)));
        QVERIFY(run(g, 1));
        QCOMPARE(g->generated(), want.ids);
    }

    void aPromptIsNeeded()
    {
        Session s;
        QVERIFY(openHfFolder(s, "gpt2_f32", QStringLiteral("The")));
        s.setSentence(QString());
        GenerationStepper* g = GenerationStepper::of(&s);
        QString why;
        QVERIFY(!g->start(1, {}, &why));
        QVERIFY2(!why.isEmpty(), "an empty prompt is refused with a reason");
        QVERIFY(s.sentence().isEmpty());
    }
};

QTEST_MAIN(TestGenerationStepper)
#include "tst_generationstepper.moc"
