// attention-lab-cli with a Transformer: `trace --model/--layers/--source/--target`, `generate`,
// `export --layer --block`, `--save-model`, masks and padding in every layer (issue 28 §5), and a
// clear one-line error for every bad request.

#include "support/cli.h"

#include <cmath>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using attnlab::testing::cli;
using attnlab::testing::Run;
using attnlab::testing::json;

namespace {

/// The stage with this id, layer (-1: null) and block ("" : null) and head (-1: null).
QJsonObject stageOf(const QJsonObject& trace, const QString& id, int layer, const QString& block, int head = -1)
{
    for (const auto& v : trace.value("stages").toArray()) {
        const QJsonObject s = v.toObject();
        const bool layerOk = layer < 0 ? s.value("layer").isNull() : s.value("layer").toInt(-1) == layer;
        const bool blockOk = block.isEmpty() ? s.value("block").isNull() : s.value("block").toString() == block;
        const bool headOk = head < 0 ? s.value("head").isNull() : s.value("head").toInt(-1) == head;
        if (s.value("id").toString() == id && layerOk && blockOk && headOk)
            return s;
    }
    return {};
}

/// A mask stage's main matrix as rows of "0" and "x" (−∞): "0xx" for a row hiding keys 2 and 3.
QStringList maskPattern(const QJsonObject& stage)
{
    QStringList out;
    const QJsonArray data = stage.value("matrices").toArray().first().toObject().value("data").toArray();
    for (const auto& row : data) {
        QString r;
        for (const auto& v : row.toArray())
            r += v.isString() && v.toString() == QLatin1String("-inf") ? 'x' : v.toDouble() == 0 ? '0' : '?';
        out << r;
    }
    return out;
}

QStringList strings(const QJsonValue& v)
{
    QStringList out;
    for (const auto& e : v.toArray())
        out << e.toString();
    return out;
}

} // namespace

class TestCliModel : public QObject {
    Q_OBJECT
private slots:
    void generateWithTheShippedModel()
    {
        QTemporaryDir dir;
        const Run r = cli({"generate", "--model", "reversal", "--source", "attention", "--output-dir", dir.filePath("steps")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("source: a t t e n t i o n"), r.out.constData());
        QVERIFY2(r.out.contains("step 1: n"), r.out.constData());
        QVERIFY2(r.out.contains("output: n o i t n e t t a\n"), r.out.constData());
        // One trace per step: step k reads <sos> and the k − 1 tokens before it.
        const QStringList files = QDir(dir.filePath("steps")).entryList({"step-*.json"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 10); // 9 characters and <eos>
        QFile f(dir.filePath("steps/" + files[2]));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject t = json(f.readAll());
        QCOMPARE(strings(t.value("target_tokens")), (QStringList{"<sos>", "n", "o"}));
        QCOMPARE(t.value("config").toObject().value("model").toString(), QStringLiteral("reversal"));
        QVERIFY(!stageOf(t, "probabilities", -1, "").isEmpty());
    }

    void traceTeacherForcing()
    {
        const Run r = cli({"trace", "--model", "reversal", "--source", "Hello", "--target", "olleh"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(strings(t.value("tokens")), (QStringList{"h", "e", "l", "l", "o"}));
        QCOMPARE(strings(t.value("target_tokens")), (QStringList{"<sos>", "o", "l", "l", "e", "h"}));
        // Cross-attention: target rows × source columns.
        const QJsonObject cross = stageOf(t, "weights", 1, "cross", 0);
        QVERIFY(!cross.isEmpty());
        const QJsonObject m = cross.value("matrices").toArray().first().toObject();
        QCOMPARE(m.value("rows").toInt(), 6);
        QCOMPARE(m.value("cols").toInt(), 5);
        QVERIFY(!stageOf(t, "ffn_norm", 0, "encoder_self").isEmpty());
        QVERIFY(!stageOf(t, "cross_norm", 1, "cross").isEmpty());
    }

    void seededEncoderStackAndSaveModel()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath("m.safetensors");
        const Run r = cli({"trace", "--layers", "3", "--d-model", "16", "--heads", "2", "--d-ff", "24", "--norm", "pre",
                           "--activation", "gelu", "--sentence", "the cat sat", "--save-model", saved});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        const QJsonObject c = t.value("config").toObject();
        QCOMPARE(c.value("layers").toInt(), 3);
        QCOMPARE(c.value("d_ff").toInt(), 24);
        QCOMPARE(c.value("norm").toString(), QStringLiteral("pre"));
        QVERIFY(!stageOf(t, "layer_output", 2, "encoder_self").isEmpty());
        QVERIFY(stageOf(t, "weights", 0, "cross", 0).isEmpty()); // no decoder
        QVERIFY(t.value("target_tokens").isUndefined());
        // The saved model computes the same trace.
        const Run again = cli({"trace", "--model", saved, "--source", "the cat sat", "--target", "x"});
        QVERIFY2(again.exitCode != 0, "an encoder stack alone has no decoder to take a target");
        const Run same = cli({"trace", "--model", saved, "--source", "the cat sat"});
        QVERIFY2(same.exitCode == 0, same.err.constData());
        const QJsonObject t2 = json(same.out);
        QCOMPARE(stageOf(t2, "encoder_output", -1, "").value("matrices"), stageOf(t, "encoder_output", -1, "").value("matrices"));
    }

    void layerNormEpsilon()
    {
        // LN(x) = (x − μ)/√(σ² + ε)·γ + β with γ = 1, β = 0 in a seeded model: a larger ε shrinks
        // every normalised value by √(σ² + 1e-5)/√(σ² + ε), row by row.
        const QStringList base{"trace", "--layers", "1", "--d-model", "8", "--heads", "2", "--sentence", "a b c"};
        const Run small = cli(base);
        const Run large = cli(base + QStringList{"--layer-norm-eps", "0.5"});
        QVERIFY2(small.exitCode == 0 && large.exitCode == 0, large.err.constData());
        const QJsonObject t1 = json(small.out);
        const QJsonObject t2 = json(large.out);
        QCOMPARE(t2.value("config").toObject().value("layer_norm_eps").toDouble(), 0.5);
        const auto matrices = [](const QJsonObject& s) { return s.value("matrices").toArray(); };
        const QJsonArray n1 = matrices(stageOf(t1, "attn_norm", 0, "encoder_self"));
        const QJsonArray n2 = matrices(stageOf(t2, "attn_norm", 0, "encoder_self"));
        const double var = n1[2].toObject().value("data").toArray()[0].toArray()[0].toDouble(); // σ² of row 0
        QCOMPARE(n2[2].toObject().value("data").toArray()[0].toArray()[0].toDouble(), var); // same input statistics
        const double a = n1[0].toObject().value("data").toArray()[0].toArray()[0].toDouble();
        const double b = n2[0].toObject().value("data").toArray()[0].toArray()[0].toDouble();
        QVERIFY2(std::abs(b - a * std::sqrt((var + 1e-5) / (var + 0.5))) < 1e-5, qPrintable(QString::number(b)));
    }

    void exportCrossAttention()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath("cross.png");
        const Run r = cli({"export", "--model", "reversal", "--source", "我爱你", "--stage", "weights", "--layer", "2", "--block",
                           "cross", "--head", "1", "--output", png});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile image(png);
        QVERIFY(image.open(QIODevice::ReadOnly));
        QVERIFY(image.readAll().startsWith("\x89PNG"));
        // Every stage of every layer, one file each, named by block and layer.
        const Run all = cli({"export", "--layers", "1", "--d-model", "8", "--heads", "2", "--source", "a b", "--target", "c",
                             "--all", "--format", "csv", "--output-dir", dir.filePath("all")});
        QVERIFY2(all.exitCode == 0, all.err.constData());
        const QStringList files = QDir(dir.filePath("all")).entryList({"*.csv"}, QDir::Files);
        QVERIFY(files.filter("weights_cross_layer1_head2").size() == 1);
        QVERIFY(files.filter("attn_norm_encoder_self_layer1").size() == 1);
    }

    // --- Issue 28 §5: masks in a whole Transformer ---

    void maskedEncoderStack()
    {
        // src_key_padding_mask: the 3 <pad> keys are hidden in every layer.
        const Run r = cli({"trace", "--layers", "2", "--d-model", "8", "--heads", "2", "--sentence", "the cat sat", "--mask", "padding",
                           "--pad-to", "6"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(strings(t.value("tokens")), (QStringList{"the", "cat", "sat", "<pad>", "<pad>", "<pad>"}));
        QCOMPARE(t.value("config").toObject().value("mask").toString(), QStringLiteral("padding"));
        QCOMPARE(t.value("config").toObject().value("pad_to").toInt(), 6);
        const QStringList padded{"000xxx", "000xxx", "000xxx", "000xxx", "000xxx", "000xxx"};
        for (int layer = 0; layer < 2; ++layer)
            QCOMPARE(maskPattern(stageOf(t, "mask", layer, "encoder_self")), padded);
        // causal+padding: src_mask and src_key_padding_mask together.
        const Run both = cli({"trace", "--layers", "2", "--d-model", "8", "--heads", "2", "--sentence", "a b", "--mask", "causal+padding",
                              "--pad-to", "4"});
        QVERIFY2(both.exitCode == 0, both.err.constData());
        QCOMPARE(maskPattern(stageOf(json(both.out), "mask", 1, "encoder_self")), (QStringList{"0xxx", "00xx", "00xx", "00xx"}));
    }

    void causalMaskOnABareEncoderLayer()
    {
        // A bare nn.TransformerEncoderLayer state dict (PyTorch's names, no metadata) with src_mask causal.
        const Run r = cli({"trace", "--model", ATTNLAB_TEST_DATA "/transformer/enc_layer_causal.safetensors", "--heads", "2",
                           "--sentence", "a b c", "--mask", "causal"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(maskPattern(stageOf(t, "mask", 0, "encoder_self")), (QStringList{"0xx", "00x", "000"}));
        const QJsonArray w = stageOf(t, "weights", 0, "encoder_self", 1).value("matrices").toArray().first().toObject().value("data").toArray();
        QCOMPARE(w[0].toArray()[1].toDouble(), 0.0); // a hidden key gets weight 0
        QCOMPARE(w[0].toArray()[0].toDouble(), 1.0); // the first query sees only itself
    }

    void paddedSourceOfAnEncoderDecoder()
    {
        // memory_key_padding_mask: every cross-attention hides the source's <pad> keys; the
        // decoder's self-attention keeps its causal mask.
        const Run r = cli({"trace", "--model", "reversal", "--source", "abc", "--target", "cba", "--mask", "padding", "--pad-to", "5"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(strings(t.value("tokens")), (QStringList{"a", "b", "c", "<pad>", "<pad>"}));
        QCOMPARE(strings(t.value("target_tokens")), (QStringList{"<sos>", "c", "b", "a"}));
        for (int layer = 0; layer < 2; ++layer) {
            QCOMPARE(maskPattern(stageOf(t, "mask", layer, "encoder_self")), QStringList(5, "000xx"));
            QCOMPARE(maskPattern(stageOf(t, "mask", layer, "cross")), QStringList(4, "000xx"));
            QCOMPARE(maskPattern(stageOf(t, "mask", layer, "decoder_self")), (QStringList{"0xxx", "00xx", "000x", "0000"}));
        }
        // The trained model, padded with its mask, still reverses the source.
        const Run g = cli({"generate", "--model", "reversal", "--source", "abc", "--mask", "padding", "--pad-to", "8"});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        QVERIFY2(g.out.contains("output: c b a\n"), g.out.constData());
    }

    void badRequests_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing model file") << QStringList{"trace", "--model", "/nonexistent.safetensors"} << "/nonexistent.safetensors";
        QTest::newRow("not a model") << QStringList{"trace", "--model", ATTNLAB_TEST_DATA "/mha/bf16.safetensors"}
                                     << "not an Attention Lab model";
        QTest::newRow("sentence with a model") << QStringList{"trace", "--model", "reversal", "--sentence", "abc"} << "not a --sentence";
        QTest::newRow("mask file with a model") << QStringList{"trace", "--model", "reversal", "--mask-file", "m.txt"}
                                                << "--mask-file gives one attention block a custom mask; a Transformer takes --mask "
                                                   "none|causal|padding|causal+padding";
        QTest::newRow("mask file with layers") << QStringList{"trace", "--layers", "2", "--mask-file", "m.txt"}
                                               << "--mask-file gives one attention block a custom mask";
        QTest::newRow("weights with layers") << QStringList{"trace", "--layers", "2", "--weights-preset", "identity"}
                                             << "--weights/--weights-preset belongs to a single attention block";
        QTest::newRow("unknown mask with layers") << QStringList{"trace", "--layers", "2", "--mask", "future"}
                                                  << "--mask must be none|causal|padding|causal+padding, got 'future'";
        QTest::newRow("pad beyond max tokens") << QStringList{"trace", "--layers", "2", "--pad-to", "9", "--max-tokens", "8"}
                                               << "pad_to (9) must not exceed max_tokens (8)";
        QTest::newRow("linformer stack causal") << QStringList{"trace", "--layers", "2", "--attention", "linformer", "--mask", "causal"}
                                                << "linformer attention cannot use a causal mask";
        QTest::newRow("mask with GPT-2") << QStringList{"trace", "--model", ATTNLAB_TEST_DATA "/hf/gpt2_f32", "--mask", "padding"}
                                         << "--mask does not apply to a Hugging Face model folder";
        QTest::newRow("pad with GPT-2") << QStringList{"trace", "--model", ATTNLAB_TEST_DATA "/hf/gpt2_f32", "--pad-to", "9"}
                                        << "--pad-to does not apply to a Hugging Face model folder";
        QTest::newRow("sizes with a model file") << QStringList{"trace", "--model", "reversal", "--layers", "3"}
                                                 << "a --model file has its own";
        QTest::newRow("wrong d_model") << QStringList{"trace", "--model", "reversal", "--d-model", "32"} << "must be the model's";
        QTest::newRow("positions of a trained model") << QStringList{"trace", "--model", "reversal", "--pe", "none"}
                                                      << "--pe does not apply to a trained model";
        QTest::newRow("seed of a trained model") << QStringList{"export", "--model", "reversal", "--seed", "7", "--stage", "weights"}
                                                 << "--seed does not apply to a trained model";
        QTest::newRow("embedding scale of a trained model") << QStringList{"generate", "--model", "reversal", "--no-embed-scale"}
                                                            << "--no-embed-scale does not apply to a trained model";
        QTest::newRow("bad norm") << QStringList{"trace", "--layers", "2", "--norm", "middle"} << "--norm must be post|pre";
        QTest::newRow("bad activation") << QStringList{"trace", "--layers", "2", "--activation", "tanh"} << "--activation must be relu|gelu";
        QTest::newRow("bad epsilon") << QStringList{"trace", "--layers", "2", "--layer-norm-eps", "-1"}
                                     << "--layer-norm-eps expects a positive number, got '-1'";
        QTest::newRow("too many layers") << QStringList{"trace", "--layers", "13"} << "layers (13) must be between 1 and 12";
        QTest::newRow("seeded cannot generate") << QStringList{"trace", "--source", "a b"} << "a seeded model cannot generate";
        QTest::newRow("generate without a model") << QStringList{"generate", "--source", "abc"} << "generate needs a trained model";
        QTest::newRow("generate with a target") << QStringList{"generate", "--model", "reversal", "--target", "x"} << "does not apply to generate";
        QTest::newRow("bad max length") << QStringList{"generate", "--model", "reversal", "--max-length", "0"} << "--max-length must be";
        QTest::newRow("layer out of range") << QStringList{"export", "--model", "reversal", "--source", "ab", "--stage", "weights", "--layer",
                                                           "3", "--block", "cross", "--output", "x.png"}
                                            << "--layer 3 is out of range: the decoder has layers 1 to 2";
        QTest::newRow("cross_norm in another block") << QStringList{"export", "--model", "reversal", "--source", "ab", "--stage", "cross_norm",
                                                                    "--block", "decoder_self", "--output", "x.png"}
                                                     << "belongs to --block cross";
        QTest::newRow("layer without a model") << QStringList{"export", "--stage", "weights", "--layer", "1", "--output", "x.png"}
                                               << "--layer and --block choose a stage of a Transformer";
        QTest::newRow("unknown block") << QStringList{"export", "--model", "reversal", "--stage", "weights", "--block", "decoder", "--output", "x.png"}
                                       << "--block must be encoder_self|decoder_self|cross";
        QTest::newRow("unwritable model") << QStringList{"trace", "--model", "reversal", "--source", "ab", "--save-model",
                                                         "/nonexistent/dir/m.safetensors", "-o", "/dev/null"}
                                          << "/nonexistent/dir";
    }

    void badRequests()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QVERIFY2(r.exitCode != 0, r.out.left(200).constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QCOMPARE(QString::fromUtf8(r.err).count('\n'), 1); // one line
        if (QLatin1String(QTest::currentDataTag()) != QLatin1String("unwritable model"))
            QCOMPARE(r.exitCode, 2); // bad input; an output that cannot be written is 1
    }
};

QTEST_GUILESS_MAIN(TestCliModel)
#include "tst_cli_model.moc"
