// The command line with Hugging Face folders and bare state dicts: trace (token and segment ids,
// --stages), generate with GPT-2, fill-mask with BERT, and the refusals, each one line.

#include "support/cli.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace attnlab::testing;

namespace {

QString hf(const char* name)
{
    return QStringLiteral(ATTNLAB_TEST_DATA "/hf/") + QString::fromUtf8(name);
}

/// A PNG file's width and height (its IHDR chunk), or (0, 0) when it is not a PNG.
QSize pngSize(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray b = f.read(24);
    if (b.size() < 24 || !b.startsWith("\x89PNG"))
        return {};
    const auto be = [&](int at) {
        return (quint8(b[at]) << 24) | (quint8(b[at + 1]) << 16) | (quint8(b[at + 2]) << 8) | quint8(b[at + 3]);
    };
    return QSize(static_cast<int>(be(16)), static_cast<int>(be(20)));
}

QList<int> ints(const QJsonValue& v)
{
    QList<int> out;
    for (const auto& x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

void expectRefused(const QStringList& args, const char* part)
{
    const Run r = cli(args);
    QVERIFY2(r.exitCode == 2, r.err.constData());
    QVERIFY2(r.err.contains(part), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
}

} // namespace

class TestCliPretrained : public QObject {
    Q_OBJECT

private slots:
    void traceOfAGpt2Folder()
    {
        const Run r = cli({"trace", "--model", hf("gpt2_f32"), "--sentence", "The cat was tired."});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(ints(t.value("token_ids")), (QList<int>{464, 269, 265, 373, 256, 72, 445, 13}));
        QCOMPARE(t.value("tokens").toArray().at(1).toString(), QStringLiteral("Ġc"));
        QCOMPARE(t.value("config").toObject().value("architecture").toString(), QStringLiteral("decoder"));
        QCOMPARE(t.value("config").toObject().value("layers").toInt(), 2);
        // --stages writes only those ids.
        const Run only = cli({"trace", "--model", hf("gpt2_f32"), "--sentence", "The cat", "--stages", "weights,logits"});
        QVERIFY2(only.exitCode == 0, only.err.constData());
        const QJsonArray stages = json(only.out).value("stages").toArray();
        QCOMPARE(stages.size(), 2 * 4 + 1); // 2 layers x 4 heads, and the logits
        for (const auto& s : stages)
            QVERIFY(s.toObject().value("id").toString() == "weights" || s.toObject().value("id").toString() == "logits");
        expectRefused({"trace", "--model", hf("gpt2_f32"), "--stages", "weights,nonsense"}, "unknown stage 'nonsense'");
    }

    void traceOfABertPair()
    {
        const Run r = cli({"trace", "--model", hf("bert_mlm_f32"), "--sentence", "Where is Paris?", "--segment-b", "In France."});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(ints(t.value("token_ids")), (QList<int>{3, 151, 81, 331, 36, 4, 77, 321, 19, 4}));
        QCOMPARE(ints(t.value("segment_ids")), (QList<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
        expectRefused({"trace", "--model", hf("gpt2_f32"), "--sentence", "a", "--segment-b", "b"}, "--segment-b");
        expectRefused({"trace", "--model", hf("bert_mlm_f32"), "--source", "a"}, "BERT reads one text");
    }

    void generateWithGpt2()
    {
        const Run r = cli({"generate", "--model", hf("gpt2_f32"), "--prompt", "The cat was tired.", "--max-new-tokens", "3"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines.at(0).startsWith("\" the\"\t0.1003"), lines.at(0).constData()); // the reference's first pick
        const Run j = cli({"generate", "--model", hf("gpt2_f32"), "--prompt", "The cat was tired.", "--max-new-tokens", "8", "--json"});
        QVERIFY2(j.exitCode == 0, j.err.constData());
        const QJsonObject o = json(j.out);
        QCOMPARE(ints(o.value("generated_ids")), (QList<int>{262, 262, 543, 543, 543, 543, 543, 543}));
        QCOMPARE(ints(o.value("prompt_ids")).size(), 8);
        QCOMPARE(o.value("probabilities").toArray().size(), 8);
        // Sampling: the same seed, the same text.
        const QStringList sampled{"generate", "--model", hf("gpt2_f32"), "--prompt", "The", "--max-new-tokens", "6", "--temperature",
                                  "1.2", "--top-p", "0.9", "--seed", "3", "--json"};
        QCOMPARE(cli(sampled).out, cli(sampled).out);
        expectRefused({"generate", "--model", hf("gpt2_f32"), "--prompt", "x", "--max-new-tokens", "2", "--top-k", "5"}, "--temperature");
        expectRefused({"generate", "--model", hf("bert_mlm_f32"), "--prompt", "x", "--max-new-tokens", "2"}, "GPT-2");
        expectRefused({"generate", "--model", hf("gpt2_f32"), "--prompt", "x"}, "--max-new-tokens");
    }

    void fillMaskWithBert()
    {
        const Run r = cli({"fill-mask", "--model", hf("bert_mlm_f32"), "--sentence", "Paris is the [MASK] of France.", "--top-k", "3", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray masks = json(r.out).value("masks").toArray();
        QCOMPARE(masks.size(), 1);
        QCOMPARE(masks.at(0).toObject().value("position").toInt(), 4);
        const QJsonArray c = masks.at(0).toObject().value("candidates").toArray();
        QCOMPARE(c.size(), 3);
        QVERIFY(c.at(0).toObject().value("probability").toDouble() >= c.at(1).toObject().value("probability").toDouble());
        const Run text = cli({"fill-mask", "--model", hf("bert_mlm_f32"), "--sentence", "Paris is the [MASK] of France."});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QCOMPARE(text.out.count('\n'), 11); // a heading and 10 candidates
        expectRefused({"fill-mask", "--model", hf("bert_mlm_f32"), "--sentence", "no mask here"}, "no [MASK]");
        expectRefused({"fill-mask", "--model", hf("bert_model_cased"), "--sentence", "the [MASK]"}, "masked-LM head");
    }

    void exportAStageAndTheModelView()
    {
        // A GPT-2 layer's stages are in decoder_self: --layer alone finds them; the rollout and
        // BERT's segment embeddings are stages too.
        QTemporaryDir dir;
        const QString weights = dir.filePath("w.png");
        Run r = cli({"export", "--model", hf("gpt2_f32"), "--sentence", "The cat was tired.", "--stage", "weights", "--layer", "2",
                     "--head", "3", "--output", weights});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(pngSize(weights).width() > 100);
        r = cli({"export", "--model", hf("gpt2_f32"), "--sentence", "The cat", "--stage", "rollout", "--output", dir.filePath("r.csv")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({"export", "--model", hf("bert_mlm_f32"), "--sentence", "a b", "--segment-b", "c", "--stage", "segment_embedding",
                 "--output", dir.filePath("s.svg")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // --view model: the grid of 2 layers x 4 heads as one picture, in each format.
        for (const char* name : {"grid.png", "grid.svg", "grid.pdf"}) {
            r = cli({"export", "--model", hf("gpt2_f32"), "--sentence", "The animal was tired", "--view", "model", "--output",
                     dir.filePath(name)});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(QFileInfo(dir.filePath(name)).size() > 1000);
        }
        const QSize grid = pngSize(dir.filePath("grid.png"));
        QVERIFY(grid.width() > 300 && grid.height() > 200);
        r = cli({"export", "--model", "reversal", "--source", "attention", "--view", "model", "--block", "cross", "--output",
                 dir.filePath("cross.png")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        expectRefused({"export", "--sentence", "a", "--view", "model", "--output", dir.filePath("x.png")}, "--model");
        expectRefused({"export", "--model", hf("gpt2_f32"), "--sentence", "a", "--view", "model", "--stage", "weights", "--output",
                       dir.filePath("x.png")},
                      "drop --stage");
        expectRefused({"export", "--model", hf("gpt2_f32"), "--sentence", "a", "--view", "heads", "--output", dir.filePath("x.png")},
                      "--view must be 'model'");
        expectRefused({"export", "--model", hf("gpt2_f32"), "--sentence", "a", "--view", "model", "--output", dir.filePath("x.csv")},
                      "not csv");
    }

    void bareStateDicts()
    {
        const QString file = hf("bare/encoder_pre_gelu_2.safetensors");
        expectRefused({"trace", "--model", file, "--sentence", "the cat"}, "--heads");
        const Run r = cli({"trace", "--model", file, "--heads", "2", "--norm", "pre", "--activation", "gelu", "--sentence", "the cat"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject c = json(r.out).value("config").toObject();
        QCOMPARE(c.value("layers").toInt(), 2);
        QCOMPARE(c.value("d_ff").toInt(), 48);
        QCOMPARE(c.value("norm").toString(), QStringLiteral("pre"));
        expectRefused({"trace", "--model", file, "--heads", "2", "--layers", "3"}, "come from the state dict's shapes");
        expectRefused({"trace", "--model", file, "--heads", "3"}, "must be a multiple of heads (3)");
    }

    void badFoldersAreOneLine()
    {
        expectRefused({"trace", "--model", QStringLiteral(ATTNLAB_TEST_DATA "/hf/bare"), "--sentence", "x"}, "has no config.json");
    }
};

QTEST_APPLESS_MAIN(TestCliPretrained)
#include "tst_cli_pretrained.moc"
