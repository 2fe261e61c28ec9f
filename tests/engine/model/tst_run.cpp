// run(), the engine's one entry point, and the ModelCache behind it: it dispatches to the
// single block, the encoder stack, teacher forcing and generation exactly as the direct calls
// do, puts the tokenizer's warnings first, and makes seeded weights once per size and seed.

#include "model/run.h"
#include "model/shipped.h"

#include <QtTest>

using namespace attnlab;

namespace {

/// The largest |a − b| over every stage's main matrix; +inf when the stage lists differ.
float largestDifference(const Trace& a, const Trace& b)
{
    if (a.stages.size() != b.stages.size())
        return std::numeric_limits<float>::infinity();
    float worst = 0;
    for (std::size_t i = 0; i < a.stages.size(); ++i) {
        const auto& x = a.stages[i].main().values;
        const auto& y = b.stages[i].main().values;
        if (!(a.stages[i].key() == b.stages[i].key()) || x.rows() != y.rows() || x.cols() != y.cols())
            return std::numeric_limits<float>::infinity();
        if (x.size() > 0)
            worst = std::max(worst, (x - y).cwiseAbs().maxCoeff());
    }
    return worst;
}

Config reversalConfig()
{
    Config c;
    c.model = ModelKind::Reversal;
    adoptModelWidths(c, *shippedModel());
    return c;
}

} // namespace

class TestRun : public QObject {
    Q_OBJECT
private slots:
    void singleBlockIsComputeTrace()
    {
        RunRequest r;
        r.text = "狗咬了人";
        r.config.mask = MaskKind::Causal;
        const RunResult got = run(r);
        Request direct;
        direct.sentence = r.text;
        direct.config = r.config;
        const Trace want = computeTrace(direct);
        const float diff = largestDifference(*got.trace, want);
        QVERIFY2(diff == 0.0f, qPrintable(QString("largest difference %1").arg(diff)));
        QVERIFY(got.generation.empty());
    }

    void teacherForcingAndGeneration()
    {
        RunRequest r;
        r.text = "abc";
        r.config = reversalConfig();
        r.model = shippedModel();
        // Generation: the last step by default, and any step on request.
        const RunResult g = run(r);
        QCOMPARE(g.generation.size(), std::size_t(4)); // c, b, a, <eos>
        QCOMPARE(g.trace->targetTokens, (std::vector<std::string>{"<sos>", "c", "b", "a"}));
        r.generationStep = 1;
        QCOMPARE(run(r).trace->targetTokens, (std::vector<std::string>{"<sos>", "c"}));
        // Teacher forcing equals the direct call.
        r.target = "xy";
        const RunResult t = run(r);
        QVERIFY(t.generation.empty());
        const Trace want = computeModelTrace(r.model, {"a", "b", "c"}, {"<sos>", "x", "y"}, r.config);
        const float diff = largestDifference(*t.trace, want);
        QVERIFY2(diff == 0.0f, qPrintable(QString("largest difference %1").arg(diff)));
    }

    void aGenerationRunIsRunAStepAtATime()
    {
        // What the studio runs off its GUI thread (issue 27): the same steps and traces as run(),
        // one step at a time, with the steps done so far at every point.
        RunRequest r;
        r.text = "ab!";
        r.config = reversalConfig();
        r.model = shippedModel();
        r.generationStep = 1;
        QVERIFY(generates(r));
        const RunResult whole = run(r);
        GenerationRun g(r);
        QCOMPARE(g.done(), 0);
        QCOMPARE(g.limit(), r.model->spec.maxTargetLength);
        g.step();
        // After one step: that step's trace (the step asked for is not made yet).
        RunResult first = g.result();
        QCOMPARE(first.generation.size(), std::size_t(1));
        QCOMPARE(first.trace->targetTokens, (std::vector<std::string>{"<sos>"}));
        QCOMPARE(first.inputWarnings, whole.inputWarnings);
        QCOMPARE(first.trace->warnings.front(), whole.inputWarnings.front());
        while (!g.finished())
            g.step();
        g.step(); // nothing more once finished
        const RunResult done = g.result();
        QCOMPARE(done.generation.tokens, whole.generation.tokens);
        QCOMPARE(done.generation.chosen, whole.generation.chosen);
        QVERIFY(done.generation.finished);
        QCOMPARE(done.trace->targetTokens, whole.trace->targetTokens);
        QCOMPARE(largestDifference(*done.trace, *whole.trace), 0.0f);
        // The copy taken after the first step is still that step's.
        QCOMPARE(first.generation.size(), std::size_t(1));
        // Requests that do not generate.
        r.target = "ba";
        QVERIFY(!generates(r));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GenerationRun{r});
        r.target.reset();
        r.config.model = ModelKind::None;
        QVERIFY(!generates(r));
    }

    void aTrainedModelReportsWhatItDid()
    {
        // Positions = none asked of the trained model (issue 11 §1): the model adds its own
        // sinusoids, and the trace says so rather than "none"; every stage is the default run's.
        RunRequest r;
        r.text = "abc";
        r.target = "cba";
        r.config = reversalConfig();
        r.model = shippedModel();
        const RunResult normal = run(r);
        r.config.positional = PositionalEncoding::None;
        r.config.embedScale = !r.config.embedScale;
        r.config.seed = 1234;
        const RunResult asked = run(r);
        QVERIFY(asked.trace->config.positional == r.model->spec.positional);
        QCOMPARE(asked.trace->config.embedScale, r.model->spec.embedScale);
        QCOMPARE(asked.trace->config.seed, r.model->spec.seed);
        QCOMPARE(largestDifference(*asked.trace, *normal.trace), 0.0f);
        // Score scaling is the run's: it changes the scores.
        r.config.scaleScores = false;
        QCOMPARE(run(r).trace->config.scaleScores, false);
        QVERIFY(largestDifference(*run(r).trace, *normal.trace) > 0.0f);
    }

    void inputWarningsComeFirst()
    {
        RunRequest r;
        r.text = "ab!"; // '!' is not in the shipped model's alphabet
        r.config = reversalConfig();
        r.model = shippedModel();
        const RunResult g = run(r);
        QVERIFY(!g.inputWarnings.empty());
        QCOMPARE(g.trace->warnings.front(), g.inputWarnings.front());
        QVERIFY2(g.inputWarnings.front().text.find("<unk>") != std::string::npos, g.inputWarnings.front().text.c_str());
    }

    void modelCacheMakesWeightsOnce()
    {
        ModelCache cache;
        Config c;
        c.model = ModelKind::Seeded;
        c.dModel = 16;
        c.heads = 2;
        const auto m1 = cache.model(c, nullptr);
        c.mask = MaskKind::Causal; // does not change the weights
        QCOMPARE(cache.model(c, nullptr).get(), m1.get());
        c.dFF = 24; // does
        const auto m2 = cache.model(c, nullptr);
        QVERIFY(m2.get() != m1.get());
        QCOMPARE(m2->spec.dFF, 24);
        Config encoderStack = c;
        encoderStack.architecture = Architecture::EncoderStack;
        encoderStack.setLayers(2);
        QCOMPARE(cache.model(encoderStack, nullptr)->spec.decoderLayers, 0); // an encoder stack
        Config block;
        QCOMPARE(cache.presetWeights(block).get(), cache.presetWeights(block).get());
        QVERIFY(!cache.model(block, nullptr)); // one attention block has no model
    }

    void badRequests()
    {
        ModelCache cache;
        Config c;
        c.model = ModelKind::File;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cache.model(c, nullptr)); // no file open
        RunRequest r;
        r.config.model = ModelKind::Seeded;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(r)); // no model given
        r.config.architecture = Architecture::EncoderStack;
        r.config.setLayers(1);
        r.model = cache.model(r.config, nullptr);
        r.text = "a b";
        r.target = "c";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(r)); // an encoder stack has no decoder
        RunRequest empty;
        empty.text = "   ";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(empty));
    }
};

QTEST_APPLESS_MAIN(TestRun)
#include "tst_run.moc"
