// The command line with the gated decoders' folders (Llama, Qwen2, Qwen3; issue 31): trace writes
// kv_head on every per-head stage and one k and v per key/value head; generate continues a prompt
// with the key/value cache, greedy, as the float64 reference does; a refused folder is one line.

#include "support/cli.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab::testing;

namespace {

QString hf(const QString& name)
{
    return QStringLiteral(ATTNLAB_TEST_DATA "/hf/") + name;
}

/// The golden's first input (scripts/gen_decoder_reference.py): its text, ids and generation.
QJsonObject firstInput(const QString& name)
{
    QFile f(hf(name + ".json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    // The golden's stage lines are long but the file is small: read it whole.
    return QJsonDocument::fromJson(f.readAll()).object().value("inputs").toArray().at(0).toObject();
}

QList<int> ints(const QJsonValue& v)
{
    QList<int> out;
    for (const auto& x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

} // namespace

class TestCliGated : public QObject {
    Q_OBJECT

private slots:
    void traceSaysWhichKvHeadEachHeadRead()
    {
        const QJsonObject golden = firstInput("llama_gqa_tied_f32");
        const Run r = cli({"trace", "--model", hf("llama_gqa_tied_f32"), "--sentence", golden.value("text").toString()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject t = json(r.out);
        QCOMPARE(ints(t.value("token_ids")), ints(golden.value("token_ids")));
        int k = 0, scores = 0;
        for (const auto& v : t.value("stages").toArray()) {
            const QJsonObject s = v.toObject();
            const QString id = s.value("id").toString();
            if (s.value("head").isNull()) {
                QVERIFY2(!s.contains("kv_head"), qPrintable(id));
                continue;
            }
            QVERIFY2(s.contains("kv_head"), qPrintable(id));
            const int head = s.value("head").toInt(), kv = s.value("kv_head").toInt();
            if (id == "k" || id == "v" || id == "k_rotated") {
                QCOMPARE(kv, head); // 2 key/value heads, one stage each
                k += id == "k";
            } else {
                QCOMPARE(kv, head / 3); // 6 query heads, 3 per key/value head
                scores += id == "scores";
            }
        }
        QCOMPARE(k, 2 * 2);      // 2 layers x 2 KV heads
        QCOMPARE(scores, 2 * 6); // 2 layers x 6 query heads
        // The new stage ids are known to --stages.
        const Run only = cli({"trace", "--model", hf("qwen3_qknorm_f32"), "--sentence", "He sat", "--stages", "q_norm,k_norm,ffn_gate,q_rotated"});
        QVERIFY2(only.exitCode == 0, only.err.constData());
        QCOMPARE(json(only.out).value("stages").toArray().size(), 2 * (4 + 2 + 1 + 4));
    }

    void generateWithTheCache_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char* name : {"llama_gqa_tied_f32", "llama3_untied_bf16_sharded", "qwen2_mqa_f16", "qwen3_qknorm_f32"})
            QTest::newRow(name) << QString::fromUtf8(name);
    }

    void generateWithTheCache()
    {
        QFETCH(QString, folder);
        const QJsonObject golden = firstInput(folder);
        const QJsonArray want = golden.value("generation").toObject().value("new_ids").toArray();
        const Run r = cli({"generate", "--model", hf(folder), "--prompt", golden.value("text").toString(), "--max-new-tokens",
                           QString::number(want.size()), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(ints(json(r.out).value("generated_ids")), ints(want));
    }

    // export takes a modern decoder's own stages (gate, up, its q/k norms, RoPE's turned q and
    // k): it refused them as unknown stages. A family without the stage still refuses it.
    void exportTakesTheFamilysOwnStages_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("stage");
        QTest::addColumn<bool>("known");
        QTest::newRow("Qwen3 gate") << "qwen3_qknorm_f32" << "ffn_gate" << true;
        QTest::newRow("Qwen3 q_norm") << "qwen3_qknorm_f32" << "q_norm" << true;
        QTest::newRow("Llama up") << "llama_gqa_tied_f32" << "ffn_up" << true;
        QTest::newRow("Llama rotated keys") << "llama_gqa_tied_f32" << "k_rotated" << true;
        QTest::newRow("Gemma 3 post-norm") << "gemma3_sliding_bf16" << "ffn_post_norm" << true;
        QTest::newRow("Llama has no q_norm") << "llama_gqa_tied_f32" << "q_norm" << false;
        QTest::newRow("GPT-2 has no gate") << "gpt2_f32" << "ffn_gate" << false;
    }

    void exportTakesTheFamilysOwnStages()
    {
        QFETCH(QString, folder);
        QFETCH(QString, stage);
        QFETCH(bool, known);
        QTemporaryDir dir;
        const QString out = dir.path() + "/s.png";
        const Run r = cli({"export", "--model", hf(folder), "--sentence", "The cat sat.", "--stage", stage, "--layer", "1", "--output", out});
        if (known) {
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(QFileInfo(out).size() > 1000);
        } else {
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("unknown stage '" + stage.toUtf8() + "'"), r.err.constData());
        }
    }

    void aRefusedFolderIsOneLine()
    {
        QTemporaryDir dir;
        const QString copy = dir.path() + "/m";
        QDir().mkpath(copy);
        for (const QString& f : QDir(hf("llama_gqa_tied_f32")).entryList(QDir::Files))
            QVERIFY(QFile::copy(hf("llama_gqa_tied_f32") + "/" + f, copy + "/" + f));
        QFile config(copy + "/config.json");
        QVERIFY(config.open(QIODevice::ReadOnly));
        QJsonObject c = QJsonDocument::fromJson(config.readAll()).object();
        config.close();
        c.insert("rope_scaling", QJsonObject{{"rope_type", "yarn"}, {"factor", 4.0}});
        QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
        config.write(QJsonDocument(c).toJson());
        config.close();
        const Run r = cli({"trace", "--model", copy, "--sentence", "The cat"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("rope_scaling has rope_type 'yarn'"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }
};

QTEST_APPLESS_MAIN(TestCliGated)
#include "tst_cli_gated.moc"
