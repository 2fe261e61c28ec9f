// Compact traces of pretrained models (pretrained/trace_detail.h): what they keep, that the
// stages they drop are made again bit for bit as the full pass made them, and how many bytes
// each kind of trace holds (checked against the matrices of real traces, and by hand for GPT-2
// small's shape).

#include "model/open.h"
#include "model/run.h"
#include "pretrained/model_folder.h"
#include "pretrained/trace_detail.h"
#include "support/hf.h"

#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

Trace traceOf(const std::string& folder, const std::string& text, TraceKeep keep)
{
    const auto model = std::make_shared<const Seq2SeqModel>(openModel(hfDir() + "/" + folder));
    Config c;
    c.model = ModelKind::File;
    adoptModel(c, *model);
    const PretrainedTokens tokens = pretrainedTokens(*model->pretrained, text, std::nullopt, c.maxTokens);
    return computePretrainedTrace(model, tokens, c, keep);
}

TraceKeep keepOf(TraceDetail detail, std::vector<std::string> only = {})
{
    TraceKeep k;
    k.detail = detail;
    k.only = std::move(only);
    return k;
}

std::int64_t bytesOf(const StageList& stages)
{
    std::int64_t b = 0;
    for (const Stage& s : stages) {
        for (const LabeledMatrix& m : s.matrices)
            b += 4 * m.values.size();
    }
    return b;
}

/// Same keys in the same order, same titles, inputs, labels and bit-identical matrices.
void expectSameStages(const StageList& a, const StageList& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY2(a[i].key() == b[i].key(), (a[i].id + " vs " + b[i].id).c_str());
        QCOMPARE(a[i].title, b[i].title);
        QVERIFY(a[i].inputs == b[i].inputs);
        QCOMPARE(a[i].matrices.size(), b[i].matrices.size());
        for (std::size_t m = 0; m < a[i].matrices.size(); ++m) {
            QVERIFY2(a[i].matrices[m].values == b[i].matrices[m].values, a[i].id.c_str());
            QVERIFY(*a[i].matrices[m].rowLabels == *b[i].matrices[m].rowLabels);
        }
    }
}

} // namespace

class TestTraceDetail : public QObject {
    Q_OBJECT

private slots:
    void compactKeepsWeightsAndLayerOutputs_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("gpt2") << "gpt2_f32";
        QTest::newRow("bert") << "bert_mlm_f32";
    }

    void compactKeepsWeightsAndLayerOutputs()
    {
        QFETCH(QString, folder);
        const std::string text = "the [MASK] sat on the mat because it was tired";
        const Trace full = traceOf(folder.toStdString(), text, keepOf(TraceDetail::Full));
        const Trace compact = traceOf(folder.toStdString(), text, keepOf(TraceDetail::Compact));
        QVERIFY(full.stages.dropped().empty());
        QVERIFY(!compact.stages.dropped().empty());
        for (const Stage& s : compact.stages) {
            if (s.layer)
                QVERIFY2(s.id == "weights" || s.id == "layer_output", s.id.c_str());
            else
                QVERIFY(s.id != "probabilities" && s.id != "logits");
        }
        // Listed in the pass's order, kept and dropped together, they are the full trace's keys.
        QVERIFY(compact.stages.keys() == full.stages.keys());
        QCOMPARE(compact.stages.size() + compact.stages.dropped().size(), full.stages.size());
    }

    void droppedStagesAreMadeAgainExactly_data() { compactKeepsWeightsAndLayerOutputs_data(); }

    void droppedStagesAreMadeAgainExactly()
    {
        QFETCH(QString, folder);
        const std::string text = "Paris is the [MASK] of France, and it is big.";
        const Trace full = traceOf(folder.toStdString(), text, keepOf(TraceDetail::Full));
        const Trace compact = traceOf(folder.toStdString(), text, keepOf(TraceDetail::Compact));
        const Block stack = folder.startsWith("gpt2") ? Block::DecoderSelf : Block::EncoderSelf;
        const int layers = compact.model->spec.encoderLayers + compact.model->spec.decoderLayers;
        QVERIFY(layers >= 2);
        for (int l = 0; l < layers; ++l)
            expectSameStages(blockStages(compact, l, stack), blockStages(full, l, stack));
        // Outside the layers: the embeddings (kept), and the head with its probabilities (made again).
        expectSameStages(blockStages(compact, std::nullopt, stack), blockStages(full, std::nullopt, stack));
        const StageList head = blockStages(compact, std::nullopt, Block::None);
        expectSameStages(head, blockStages(full, std::nullopt, Block::None));
        QCOMPARE(head.back().id, std::string("probabilities"));
        QCOMPARE(head[head.size() - 2].id, std::string("logits"));
    }

    void autoIsFullForSmallTraces()
    {
        const Trace t = traceOf("gpt2_f32", "hello world", TraceKeep{});
        QVERIFY(t.stages.dropped().empty());
        QVERIFY(t.stages.size() > 50);
    }

    void onlyKeepsThoseIds()
    {
        const Trace t = traceOf("gpt2_f32", "hello world", keepOf(TraceDetail::Full, {"weights", "logits"}));
        QCOMPARE(static_cast<int>(t.stages.size()), 2 * 4 + 1); // 2 layers x 4 heads, and the logits
        for (const Stage& s : t.stages)
            QVERIFY(s.id == "weights" || s.id == "logits");
        QVERIFY(t.stages.dropped().empty()); // nothing to make again
    }

    void bytesMatchTheTraces_data() { compactKeepsWeightsAndLayerOutputs_data(); }

    void bytesMatchTheTraces()
    {
        QFETCH(QString, folder);
        const std::string text = "a sentence of a few words for the bytes";
        for (const TraceKeep& keep : {keepOf(TraceDetail::Full), keepOf(TraceDetail::Compact), keepOf(TraceDetail::Full, {"weights"})}) {
            const Trace t = traceOf(folder.toStdString(), text, keep);
            const auto n = static_cast<std::int64_t>(t.tokens.size());
            const std::int64_t estimate = pretrainedTraceBytes(t.model->spec, n, t.model->pretrained->config().vocabulary, keep);
            const std::int64_t actual = bytesOf(t.stages);
            QCOMPARE(estimate, actual);
        }
    }

    void gpt2SmallAtTheLongestIsCompact()
    {
        // GPT-2 small: 12 layers, 12 heads, d 768, d_ff 3072, V 50257. By hand, n = 1024: the four
        // n x n stages per head are 4 · 12 · 12 · 1024² · 4 B = 2304 MiB, so a full trace is
        // above 512 MiB; the compact one keeps 12 · 12 · 1024² weights (576 MiB), 12 layer outputs
        // (36 MiB), the three n x d embeddings, the n x n rollout and the output of ln_f with its mean and variance;
        // not the logits (1024 · 50257 · 4 B = 196.3 MiB) nor the probabilities.
        ModelSpec s;
        s.architecture = Architecture::DecoderOnly;
        s.decoderLayers = 12;
        s.encoderLayers = 0;
        s.dModel = 768;
        s.heads = 12;
        s.dFF = 3072;
        const std::int64_t n = 1024, v = 50257;
        QVERIFY(isCompact(s, n, v, TraceKeep{}));
        QVERIFY(!isCompact(s, 16, v, TraceKeep{}));
        const std::int64_t expected = 4 * (12 * 12 * n * n + 12 * n * 768 + 3 * n * 768 + n * n + n * (768 + 2));
        QCOMPARE(pretrainedTraceBytes(s, n, v, TraceKeep{}), expected);
        QVERIFY(pretrainedTraceBytes(s, n, v, keepOf(TraceDetail::Full)) > 3000LL << 20);
    }
};

QTEST_GUILESS_MAIN(TestTraceDetail)
#include "tst_trace_detail.moc"
