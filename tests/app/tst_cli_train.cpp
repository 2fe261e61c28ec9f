// attention-lab-cli grad and train as a user runs them (issue 15, section 4): grad's file holds
// exactly the model's tensor names with PyTorch autograd's gradients (tests/reference/training);
// `train --init … --data … --batch-all --steps 3` lands on torch.optim.Adam's parameters; a
// teacher's TSV file trains, logs a CSV and writes a model the studio opens; bad options and
// files are one line on stderr, exit 2, and no output file.

#include "support/cli.h"

#include "io/safetensors.h"
#include "model/model.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

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

    /// --lr 1e10: the run stops at the step whose loss or gradient is not finite, says so in one
    /// line, exits 1 (a failed run, not bad input), and the earlier model is kept byte for byte;
    /// the log ends with the row that shows it, and the snapshots taken before stay.
    void divergedTrainingKeepsTheEarlierModel()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("good.safetensors"));
        Run r = cli({"train", "--task", "reverse", "--preset", "classroom", "--steps", "3", "--batch", "8", "--save-model", good});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(good);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        const QString log = dir.filePath(QStringLiteral("log.csv")), snaps = dir.filePath(QStringLiteral("snaps"));
        r = cli({"train", "--task", "reverse", "--preset", "classroom", "--steps", "200", "--batch", "8", "--lr", "1e10", "--log", log,
                 "--snapshots", snaps, "--save-model", good});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        static const QRegularExpression said(QStringLiteral("^attention-lab-cli: error: training diverged at step (\\d+): the (loss|gradient|update) .*"
                                                            "nothing was saved to '.*good.safetensors' \\(an earlier file there is unchanged\\): "
                                                            "try a lower --lr\n$"));
        const QRegularExpressionMatch m = said.match(err);
        QVERIFY2(m.hasMatch(), qPrintable(err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), (QStringList{"good.safetensors", "log.csv"}));
        // The log: a header, then one row per step up to the one that diverged, whose loss or
        // gradient norm is not a number.
        QFile csv(log);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = csv.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 1 + m.captured(1).toInt());
        const QList<QByteArray> last = rows.back().split(',');
        QCOMPARE(last.front(), m.captured(1).toLatin1());
        const auto notFinite = [](const QByteArray& field) { return field.contains("nan") || field.contains("inf"); };
        QVERIFY2(m.captured(2) == u"update" || notFinite(last[1]) || notFinite(last[3]), rows.back().constData());
        QVERIFY(QFile::exists(snaps + QStringLiteral("/step-000000.safetensors"))); // taken before it diverged
    }

    /// A full disk under --log: exit 1 naming the log at once, the log ends with a whole row; under
    /// --snapshots: exit 1, and no empty folder and no half-written snapshot stays behind.
    void aFullDiskStopsTheRun_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("name");
        QTest::newRow("log") << "--log" << "log.csv";
        QTest::newRow("snapshots") << "--snapshots" << "snaps";
    }

    void aFullDiskStopsTheRun()
    {
        QFETCH(QString, option);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString small = dir.filePath(QStringLiteral("small"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("small")));
        const QString model = dir.filePath(QStringLiteral("m.safetensors"));
        // After the CLI: "--", the log's last line, "--", and everything left on the small disk.
        const QString script = QStringLiteral(
            "mount --make-rprivate / 2>/dev/null; mount -t tmpfs -o size=%1 tmpfs \"$1\" || exit 77; dir=$1; shift; \"$@\" >/dev/null; "
            "code=$?; printf -- '--'; tail -c 200 \"$dir/log.csv\" 2>/dev/null | tail -n 1; printf -- '--'; ls -A \"$dir\"; exit $code")
                                   .arg(option == u"--log" ? QStringLiteral("8k") : QStringLiteral("64k"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        p.setProcessEnvironment(env);
        const QStringList unshare = ::geteuid() == 0 ? QStringList{"-m"} : QStringList{"-r", "-m"};
        p.start(QStringLiteral("unshare"), unshare + QStringList{"sh", "-c", script, "sh", small, QStringLiteral(ATTNLAB_CLI), "train", "--task",
                                                                   "reverse", "--preset", "classroom", "--steps", "400", "--batch", "4",
                                                                   option, small + QLatin1Char('/') + name, "--save-model", model});
        QVERIFY(p.waitForFinished(300000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (p.exitCode() == 77 || err.contains(QStringLiteral("unshare")))
            QSKIP("mount namespaces are not available here");
        QCOMPARE(p.exitCode(), 1);
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: cannot write '%1/").arg(small)), qPrintable(err));
        QVERIFY2(err.contains(QString::fromUtf8(std::strerror(ENOSPC))), qPrintable(err));
        QVERIFY(!QFile::exists(model)); // the run stopped: no model
        const QStringList parts = out.split(QStringLiteral("--"));
        QCOMPARE(parts.size(), 3);
        if (option == u"--log") {
            // A whole row: eight fields, the line ended.
            QVERIFY2(parts[1].endsWith(QLatin1Char('\n')) && parts[1].count(QLatin1Char(',')) == 7, qPrintable(parts[1]));
            QCOMPARE(parts[2], QStringLiteral("log.csv\n"));
        } else {
            QCOMPARE(parts[2], QString()); // no folder, no half snapshot
        }
    }

    /// --snapshots under a FIFO or a file, --log into a missing folder: our message, at once,
    /// before any training (nothing on stdout), exit 1.
    void badOutputsAreRefusedFirst_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("path"); // FIFO stands for a named pipe in the folder
        QTest::addColumn<QString>("message");
        QTest::newRow("snapshots under a FIFO") << "--snapshots" << "FIFO/x" << "FIFO' is a file, not a folder)";
        QTest::newRow("snapshots is a file") << "--snapshots" << "file" << "file' is a file, not a folder)";
        QTest::newRow("log in a missing folder") << "--log" << "missing/log.csv" << "missing' does not exist)";
        QTest::newRow("log is a folder") << "--log" << "." << "it is a directory";
    }

    void badOutputsAreRefusedFirst()
    {
        QFETCH(QString, option);
        QFETCH(QString, path);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(::mkfifo(QFile::encodeName(dir.filePath(QStringLiteral("FIFO"))).constData(), 0600) == 0);
        QFile file(dir.filePath(QStringLiteral("file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const QString model = dir.filePath(QStringLiteral("m.safetensors"));
        const Run r = cli({"train", "--task", "reverse", "--steps", "100000", option, dir.filePath(path), "--save-model", model});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.startsWith("attention-lab-cli: error: cannot write '"), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), (QStringList{"FIFO", "file"}));
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
