// attention-lab-cli grad and train as a user runs them (issue 15, section 4): grad's file holds
// exactly the model's tensor names with PyTorch autograd's gradients (tests/reference/training);
// `train --init … --data … --batch-all --steps 3` lands on torch.optim.Adam's parameters; a
// teacher's TSV file trains, logs a CSV and writes a model the studio opens; bad options and
// files are one line on stderr, exit 2, and no output file.

#include "support/cli.h"

#include "io/safetensors.h"
#include "model/model.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

const QString kDir = QStringLiteral(ATTNLAB_TEST_DATA "/training/");

nlohmann::json golden(const QString& name)
{
    std::ifstream in((kDir + name + QStringLiteral(".json")).toStdString());
    return nlohmann::json::parse(in);
}

/// max |a − b| / max |b| over one tensor.
double relativeError(const Tensor& a, const Tensor& b)
{
    double diff = 0, scale = 1e-30;
    for (std::size_t i = 0; i < b.values.size(); ++i) {
        diff = std::max(diff, std::abs(double(a.values[i]) - double(b.values[i])));
        scale = std::max(scale, std::abs(double(b.values[i])));
    }
    return diff / scale;
}

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestCliTrain : public QObject {
    Q_OBJECT
private slots:
    void grad_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("post-ln relu") << "grad_cli_post_relu";
        QTest::newRow("no positions, <unk>") << "grad_cli_nopos_unk";
    }

    /// The golden's own command line, the model file from the goldens' folder.
    void grad()
    {
        QFETCH(QString, name);
        const nlohmann::json j = golden(name);
        QTemporaryDir dir;
        QStringList args;
        for (const auto& a : j["cli"])
            args << text(a.get<std::string>());
        args.removeFirst();
        args[args.indexOf(QStringLiteral("--model")) + 1] = kDir + text(j["model"].get<std::string>());
        const QString out = dir.filePath(QStringLiteral("G.safetensors"));
        args[args.indexOf(QStringLiteral("--output")) + 1] = out;
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("loss"));
        const TensorFile got = readSafetensors(out.toStdString());
        const TensorFile want = readSafetensors((kDir + text(j["gradients"].get<std::string>())).toStdString());
        QCOMPARE(got.tensors.size(), want.tensors.size());
        for (const auto& [tensor, w] : want.tensors) {
            QVERIFY2(got.tensors.contains(tensor), tensor.c_str());
            QCOMPARE(got.tensors.at(tensor).shape, w.shape);
            QVERIFY2(relativeError(got.tensors.at(tensor), w) < 1e-4, tensor.c_str());
        }
        QVERIFY(std::abs(std::stod(got.metadata.at("loss")) - j["loss"].get<double>()) < 1e-6);
    }

    /// adam_const's command line: 3 full-batch steps at lr 0.005 without warm-up, on one thread.
    void adamSteps()
    {
        const nlohmann::json j = golden(QStringLiteral("adam_const"));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out.safetensors"));
        const Run r = cli({"train", "--init", kDir + "model_adam_post_gelu.safetensors", "--data", kDir + "adam_data.tsv", "--batch-all",
                           "--steps", "3", "--lr", "0.005", "--warmup", "0", "--threads", "1", "--save-model", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const TensorFile got = readSafetensors(out.toStdString());
        const TensorFile want = readSafetensors((kDir + "adam_const.step3.safetensors").toStdString());
        const int d = 8;
        for (const auto& [tensor, w] : want.tensors) {
            const Tensor& g = got.tensors.at(tensor);
            for (std::size_t i = 0; i < w.values.size(); ++i) {
                // The key rows of in_proj_bias have an exact gradient of 0: float rounding moves them by up to lr a step.
                const bool keyBias = tensor.ends_with("in_proj_bias") && i >= std::size_t(d) && i < std::size_t(2 * d);
                QVERIFY2(std::abs(g.values[i] - w.values[i]) < (keyBias ? 0.03 : 2e-5), (tensor + " " + std::to_string(i)).c_str());
            }
        }
        // The file is a model: the same vocabularies and options as the one it started from.
        QCOMPARE(got.metadata.at("src_vocab"), readSafetensors((kDir + "model_adam_post_gelu.safetensors").toStdString()).metadata.at("src_vocab"));
    }

    /// A teacher's file: trains, logs one CSV row per step, and the model reads and generates.
    void teacherFile()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("pairs.tsv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (const char* line : {"red\trot", "green\tgrün", "blue\tblau", "black\tschwarz", "white\tweiß", "cat\tKatze"})
            f.write(QByteArray(line) + "\n");
        f.close();
        const QString out = dir.filePath(QStringLiteral("m.safetensors")), log = dir.filePath(QStringLiteral("log.csv"));
        const Run r = cli({"train", "--task", f.fileName(), "--preset", "classroom", "--steps", "30", "--batch", "8", "--log", log,
                           "--snapshots", dir.filePath(QStringLiteral("snaps")), "--save-model", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("held-out exact match"));
        QFile csv(log);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 31);
        QVERIFY(rows[0].startsWith("step,loss,lr"));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("snaps/step-000000.safetensors"))));
        const Seq2SeqModel m = loadModel(out.toStdString());
        QCOMPARE(m.spec.dModel, 32);
        QVERIFY(std::find(m.tgtVocab.begin(), m.tgtVocab.end(), "Katze") != m.tgtVocab.end());
        const Run g = cli({"generate", "--model", out, "--source", "red"});
        QCOMPARE(g.exitCode, 0);
    }

    /// --init reversal: the shipped model trains on (its sizes and vocabularies kept).
    void initShipped()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("r.safetensors"));
        const Run r = cli({"train", "--task", "reverse", "--init", "reversal", "--steps", "5", "--batch", "8", "--save-model", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Seq2SeqModel m = loadModel(out.toStdString());
        QCOMPARE(m.spec.dModel, 64);
        QCOMPARE(m.name, std::string("Reversal (trained)"));
        QVERIFY(r.out.contains("held-out exact match: 100.0 %") || r.out.contains("held-out exact match: 99"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no steps") << QStringList{"--task", "reverse", "--steps", "0"} << "--steps (0) must be at least 1";
        QTest::newRow("width and heads") << QStringList{"--task", "copy", "--d-model", "30", "--heads", "4"} << "multiple of heads";
        QTest::newRow("unknown task file") << QStringList{"--task", "/nonexistent/pairs.tsv"} << "/nonexistent/pairs.tsv";
        QTest::newRow("corrupt init") << QStringList{"--task", "reverse", "--init", QStringLiteral(ATTNLAB_TEST_DATA "/training/README.md")}
                                      << "README.md";
        QTest::newRow("batch-all without a file") << QStringList{"--task", "sort", "--batch-all"} << "--batch-all";
        QTest::newRow("bad preset") << QStringList{"--task", "sort", "--preset", "huge"} << "--preset must be classroom|standard, got 'huge'";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("m.safetensors"));
        const Run r = cli(QStringList{"train"} + args + QStringList{"--save-model", out});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliTrain)
#include "tst_cli_train.moc"
