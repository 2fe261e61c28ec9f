// run(), the engine's one entry point, and the ModelCache behind it: it dispatches to the
// single block, the encoder stack, teacher forcing and generation exactly as the direct calls
// do, puts the tokenizer's warnings first, and makes seeded weights once per size and seed; a
// Transformer's masks and padding (issue 28 §5) in every layer.

#include "model/run.h"
#include "model/shipped.h"

#include <QtTest>

#include <algorithm>

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

/// The additive mask by hand: −∞ where `hidden(i, j)`, else 0 (rows queries, columns keys).
template <typename F>
Eigen::MatrixXf maskByHand(Eigen::Index rows, Eigen::Index cols, F hidden)
{
    Eigen::MatrixXf m = Eigen::MatrixXf::Zero(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (Eigen::Index j = 0; j < cols; ++j) {
            if (hidden(i, j))
                m(i, j) = -std::numeric_limits<float>::infinity();
        }
    }
    return m;
}

/// Checks the mask stage of a block against `want`, and that every head's weights are exactly 0
/// where it hides a key and each row sums to 1. Empty when right, else what is wrong.
QString checkBlockMask(const Trace& t, int layer, Block block, const Eigen::MatrixXf& want)
{
    const QString where = QString("layer %1 %2: ").arg(layer).arg(QString::fromLatin1(toString(block)));
    const Stage* mask = t.find("mask", std::nullopt, layer, block);
    if (!mask)
        return where + "no mask stage";
    const Eigen::MatrixXf& got = mask->main().values;
    if (got.rows() != want.rows() || got.cols() != want.cols())
        return where + QString("mask is %1 x %2, want %3 x %4").arg(got.rows()).arg(got.cols()).arg(want.rows()).arg(want.cols());
    for (Eigen::Index i = 0; i < got.rows(); ++i) {
        for (Eigen::Index j = 0; j < got.cols(); ++j) {
            if (got(i, j) != want(i, j))
                return where + QString("mask (%1, %2) is %3, want %4").arg(i).arg(j).arg(got(i, j)).arg(want(i, j));
        }
    }
    for (int h = 0;; ++h) {
        const Stage* w = t.find("weights", h, layer, block);
        if (!w)
            return h > 0 ? QString() : where + "no weights";
        const Eigen::MatrixXf& a = w->main().values;
        for (Eigen::Index i = 0; i < a.rows(); ++i) {
            if (std::abs(a.row(i).sum() - 1.0f) > 1e-5f)
                return where + QString("head %1 row %2 sums to %3").arg(h).arg(i).arg(a.row(i).sum());
            for (Eigen::Index j = 0; j < a.cols(); ++j) {
                if (std::isinf(want(i, j)) && a(i, j) != 0.0f)
                    return where + QString("head %1 weight (%2, %3) of a hidden key is %4").arg(h).arg(i).arg(j).arg(a(i, j));
            }
        }
    }
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

    // --- Issue 28 §5: masks in a whole Transformer ---

    void anEncoderStackTakesTheMaskInEveryLayer_data()
    {
        QTest::addColumn<int>("mask");
        QTest::newRow("causal") << int(MaskKind::Causal);
        QTest::newRow("padding") << int(MaskKind::Padding);
        QTest::newRow("causal+padding") << int(MaskKind::CausalPadding);
    }
    void anEncoderStackTakesTheMaskInEveryLayer()
    {
        QFETCH(int, mask);
        const MaskKind kind = static_cast<MaskKind>(mask);
        ModelCache cache;
        RunRequest r;
        r.text = "the cat sat";
        r.config.model = ModelKind::Seeded;
        r.config.architecture = Architecture::EncoderStack;
        r.config.setLayers(2);
        r.config.dModel = 8;
        r.config.heads = 2;
        r.config.mask = kind;
        r.config.padTo = 5;
        r.model = cache.model(r.config, nullptr);
        const RunResult got = run(r);
        const Trace& t = *got.trace;
        QCOMPARE(t.tokens, (std::vector<std::string>{"the", "cat", "sat", "<pad>", "<pad>"}));
        QVERIFY(t.config.mask == kind);
        QCOMPARE(t.config.padTo, 5);
        // src_mask (causal: key j after query i) and src_key_padding_mask (keys 3 and 4 are <pad>).
        const bool causal = kind != MaskKind::Padding;
        const bool padding = kind != MaskKind::Causal;
        const Eigen::MatrixXf want = maskByHand(5, 5, [&](Eigen::Index i, Eigen::Index j) { return (causal && j > i) || (padding && j >= 3); });
        for (int layer = 0; layer < 2; ++layer) {
            const QString problem = checkBlockMask(t, layer, Block::EncoderSelf, want);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    void anEncoderDecoderHidesThePaddingFromCrossAttention()
    {
        ModelCache cache;
        RunRequest r;
        r.text = "a b c";
        r.target = "x y";
        r.config.model = ModelKind::Seeded;
        r.config.setLayers(2);
        r.config.dModel = 8;
        r.config.heads = 2;
        r.config.mask = MaskKind::Padding;
        r.config.padTo = 5;
        r.model = cache.model(r.config, nullptr);
        const RunResult padded = run(r);
        const Trace& t = *padded.trace;
        QCOMPARE(t.tokens, (std::vector<std::string>{"a", "b", "c", "<pad>", "<pad>"}));
        QCOMPARE(t.targetTokens, (std::vector<std::string>{"<sos>", "x", "y"})); // the target is not padded
        const auto pad = [](Eigen::Index, Eigen::Index j) { return j >= 3; };
        for (int layer = 0; layer < 2; ++layer) {
            QString problem = checkBlockMask(t, layer, Block::EncoderSelf, maskByHand(5, 5, pad));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            // memory_key_padding_mask: every target row, the source's <pad> columns.
            problem = checkBlockMask(t, layer, Block::Cross, maskByHand(3, 5, pad));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            // The decoder's self-attention keeps its causal mask, nothing more.
            problem = checkBlockMask(t, layer, Block::DecoderSelf, maskByHand(3, 3, [](Eigen::Index i, Eigen::Index j) { return j > i; }));
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        // Without a padding mask the <pad> keys are seen: a causal mask hides nothing from cross-attention.
        r.config.mask = MaskKind::Causal;
        const RunResult causal = run(r);
        const Trace& c = *causal.trace;
        QString problem = checkBlockMask(c, 1, Block::Cross, Eigen::MatrixXf::Zero(3, 5));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = checkBlockMask(c, 1, Block::EncoderSelf, maskByHand(5, 5, [](Eigen::Index i, Eigen::Index j) { return j > i; }));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void paddingWithItsMaskLeavesTheAnswerAlone()
    {
        // The trained reversal model read "abc" padded to 8: with the padding mask every real
        // token computes what it computed unpadded (a masked key adds e^−∞ = 0 to each sum), so the
        // generation and its probabilities are the same; without the mask the <pad> keys are read.
        RunRequest r;
        r.text = "abc";
        r.config = reversalConfig();
        r.model = shippedModel();
        const RunResult plain = run(r);
        r.config.padTo = 8;
        r.config.mask = MaskKind::Padding;
        const RunResult masked = run(r);
        QCOMPARE(masked.trace->tokens.size(), std::size_t(8));
        QCOMPARE(masked.generation.tokens, plain.generation.tokens);
        const Eigen::MatrixXf& p0 = plain.trace->find("probabilities")->main().values;
        const Eigen::MatrixXf& p1 = masked.trace->find("probabilities")->main().values;
        QCOMPARE(p1.rows(), p0.rows());
        QCOMPARE(p1.cols(), p0.cols());
        const float diff = (p0 - p1).cwiseAbs().maxCoeff();
        QVERIFY2(diff < 1e-5f, qPrintable(QString("largest difference %1").arg(diff)));
        r.config.mask = MaskKind::None;
        const RunResult unmaskedRun = run(r);
        const Eigen::MatrixXf& p2 = unmaskedRun.trace->find("probabilities")->main().values;
        // It generates another answer, of another length maybe: the rows both have.
        QCOMPARE(p2.cols(), p0.cols());
        const Eigen::Index rows = std::min(p0.rows(), p2.rows());
        const float unmasked = (p0.topRows(rows) - p2.topRows(rows)).cwiseAbs().maxCoeff();
        QVERIFY2(unmasked > 1e-3f, qPrintable(QString("unmasked padding changed the probabilities by only %1").arg(unmasked)));
        QVERIFY(unmaskedRun.generation.tokens != plain.generation.tokens); // lesson 11: the pads lead it astray
    }

    void paddingNeedsAPadToken()
    {
        Seq2SeqModel m = *shippedModel();
        std::vector<Message> warnings;
        std::vector<std::string> source{"a", "b"};
        padSource(m, source, 4, warnings);
        QCOMPARE(source, (std::vector<std::string>{"a", "b", "<pad>", "<pad>"}));
        QVERIFY(warnings.empty());
        padSource(m, source, 3, warnings); // longer than pad_to: nothing padded, a warning
        QCOMPARE(source.size(), std::size_t(4));
        QCOMPARE(warnings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(warnings[0].code), QStringLiteral("nothing_padded"));
        m.srcVocab[0] = "<nothing>"; // a closed vocabulary without <pad>
        try {
            padSource(m, source, 6, warnings);
            QFAIL("padded with a token the model does not have");
        } catch (const Error& e) {
            QCOMPARE(QString::fromStdString(e.message().code), QStringLiteral("no_pad_token"));
        }
    }

    void aTransformerTakesNoCustomMask()
    {
        Config c;
        c.model = ModelKind::Seeded;
        c.mask = MaskKind::Custom;
        const auto p = c.problems();
        QVERIFY(!p.empty());
        QCOMPARE(QString::fromStdString(p.front()),
                 QStringLiteral("a custom mask is for one attention block; a Transformer takes no mask, a causal or a padding mask"));
        // An encoder stack's attention kinds keep a block's rules about masks.
        c.mask = MaskKind::Causal;
        c.architecture = Architecture::EncoderStack;
        c.setLayers(1);
        c.attention = AttentionKind::Linformer;
        QVERIFY(!c.problems().empty());
        QVERIFY(QString::fromStdString(c.problems().front()).startsWith("linformer attention cannot use a causal mask"));
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
