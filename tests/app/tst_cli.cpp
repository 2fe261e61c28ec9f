// attention-lab-cli as a user runs it: golden runs against PyTorch's numbers, determinism,
// the weights round trip, and every kind of bad input (one-line error, non-zero exit, no crash).

#include "support/reference.h"

#include "support/cli.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using attnlab::testing::compare;
using attnlab::testing::jsonMatrix;
using attnlab::testing::readJson;
using attnlab::testing::referenceDir;

namespace {

using attnlab::testing::cli;
using attnlab::testing::Run;

/// The CLI arguments that reproduce a reference case's config.
QStringList argsFor(const nlohmann::json& c, const QString& dir)
{
    QStringList a{"trace", "--sentence", QString::fromStdString(c.at("sentence").get<std::string>()), "--heads",
                  QString::number(c.at("heads").get<int>()), "--seed", QString::number(c.at("seed").get<std::uint64_t>()), "--pe",
                  QString::fromStdString(c.at("pe").get<std::string>())};
    if (!c.at("embed_scale").get<bool>())
        a << "--no-embed-scale";
    if (!c.at("scale").get<bool>())
        a << "--no-scale";
    const auto mask = c.at("mask").get<std::string>();
    if (mask == "custom")
        a << "--mask-file" << dir + "/" + QString::fromStdString(c.at("case_name").get<std::string>()) + ".mask";
    else
        a << "--mask" << QString::fromStdString(mask);
    if (!c.at("pad_to").is_null())
        a << "--pad-to" << QString::number(c.at("pad_to").get<int>());
    if (c.at("weights").is_null())
        a << "--d-model" << QString::number(c.at("d_model").get<int>()) << "--weights-preset"
          << QString::fromStdString(c.at("weights_preset").get<std::string>());
    else
        a << "--weights" << dir + "/" + QString::fromStdString(c.at("weights").get<std::string>());
    return a;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void goldenRunsMatchPyTorch_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto& name : attnlab::testing::referenceCases())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    void goldenRunsMatchPyTorch()
    {
        QFETCH(QString, name);
        const QString dir = QString::fromStdString(referenceDir());
        auto ref = readJson(referenceDir() + "/" + name.toStdString() + ".json");
        ref["config"]["case_name"] = name.toStdString();
        const Run r = cli(argsFor(ref.at("config"), dir));
        QVERIFY2(r.status == QProcess::NormalExit && r.exitCode == 0, r.err.constData());

        const auto got = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(got.at("format").get<std::string>(), std::string("attention-lab.trace"));
        QCOMPARE(got.at("version").get<int>(), 1);
        QCOMPARE(got.at("tokens"), ref.at("tokens"));
        QCOMPARE(got.at("config").at("d_model").get<int>(), ref.at("config").at("d_model").get<int>());
        const auto& want = ref.at("stages");
        const auto& stages = got.at("stages");
        QCOMPARE(stages.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(stages[i].at("id"), want[i].at("id"));
            QCOMPARE(stages[i].at("head"), want[i].at("head"));
            const auto& m = stages[i].at("matrices").at(0);
            QCOMPARE(m.at("rows").get<std::size_t>(), m.at("row_labels").size());
            QCOMPARE(m.at("cols").get<std::size_t>(), m.at("col_labels").size());
            const Eigen::MatrixXf w = jsonMatrix(want[i].at("data"));
            const auto d = compare(jsonMatrix(m.at("data")), w);
            QVERIFY2(d.problem.empty(), d.problem.c_str());
            // The JSON holds exact float32 values, so the engine's tolerance applies unchanged.
            const float tol = 4e-6f * std::max(1.0f, w.array().isFinite().select(w.array().abs(), 0.0f).maxCoeff());
            QVERIFY2(d.max <= tol, qPrintable(QString("stage %1 (%2): max |diff| %3 at (%4, %5)")
                                                   .arg(i)
                                                   .arg(QString::fromStdString(want[i].at("id").get<std::string>()))
                                                   .arg(static_cast<double>(d.max))
                                                   .arg(d.row)
                                                   .arg(d.col)));
        }
    }

    void nonFiniteValuesAreStrings()
    {
        const Run r = cli({"trace", "--sentence", "a b c", "--d-model", "4", "--heads", "2", "--mask", "causal"});
        QCOMPARE(r.exitCode, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        for (const auto& s : j.at("stages")) {
            if (s.at("id") == "mask") {
                QCOMPARE(s.at("matrices")[0].at("data")[0][1], nlohmann::json("-inf"));
                QCOMPARE(s.at("matrices")[0].at("data")[1][0], nlohmann::json(0.0));
            }
        }
    }

    void deterministic()
    {
        const QStringList args{"trace", "--sentence", "我爱中国 and determinism", "--mask", "causal", "--d-model", "16", "--heads", "4"};
        const Run a = cli(args);
        const Run b = cli(args);
        QCOMPARE(a.exitCode, 0);
        QVERIFY(!a.out.isEmpty());
        QCOMPARE(a.out, b.out); // byte-identical
    }

    void outputFileAndWeightsRoundTrip()
    {
        QTemporaryDir dir;
        const QString weights = dir.filePath("w.safetensors");
        const QString first = dir.filePath("first.json");
        const QString second = dir.filePath("second.json");
        const Run a = cli({"trace", "--sentence", "round trip", "--d-model", "12", "--heads", "3", "--seed", "7", "--save-weights",
                           weights, "--output", first});
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY(a.out.isEmpty());
        // Loading the saved weights gives the same trace; d_model and heads come from the file.
        const Run b = cli({"trace", "--sentence", "round trip", "--seed", "7", "--weights", weights, "--output", second});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        auto ja = readJson(first.toStdString());
        auto jb = readJson(second.toStdString());
        QCOMPARE(jb.at("config").at("heads").get<int>(), 3);
        QCOMPARE(ja.at("stages"), jb.at("stages"));
    }

    void warningsGoToStderr()
    {
        const Run r = cli({"trace", "--sentence", "one two three four", "--max-tokens", "2", "--d-model", "4", "--heads", "1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("warning: the sentence has 4 tokens; only the first 2"), r.err.constData());
        QCOMPARE(nlohmann::json::parse(r.out.toStdString()).at("warnings").size(), std::size_t(1));
    }

    void help()
    {
        const Run r = cli({"--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* option : {"--sentence", "--d-model", "--heads", "--seed", "--pe", "--no-embed-scale", "--no-scale", "--mask",
                                   "--mask-file", "--pad-to", "--weights", "--weights-preset", "--save-weights", "--output"})
            QVERIFY2(r.out.contains(option), option);
        QCOMPARE(cli({"trace", "--help"}).out, r.out);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString dir = QString::fromStdString(referenceDir());
        QTest::newRow("no command") << QStringList{} << "no command";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
        QTest::newRow("unknown option") << QStringList{"trace", "--colour"} << "unknown option '--colour'";
        QTest::newRow("missing value") << QStringList{"trace", "--heads"} << "--heads needs a value";
        QTest::newRow("not a number") << QStringList{"trace", "--heads", "two"} << "--heads expects a whole number, got 'two'";
        QTest::newRow("huge number") << QStringList{"trace", "--d-model", "99999999999999"} << "out of range";
        QTest::newRow("negative seed") << QStringList{"trace", "--seed", "-1"} << "--seed expects a whole number";
        QTest::newRow("indivisible") << QStringList{"trace", "--d-model", "10", "--heads", "3"} << "d_model (10) must be a multiple of heads (3)";
        QTest::newRow("zero d") << QStringList{"trace", "--d-model", "0"} << "d_model (0) must be between 1 and 2048";
        QTest::newRow("bad pe") << QStringList{"trace", "--pe", "rotary"} << "--pe must be sinusoidal|learned|none|rope|alibi|relative|xl, got 'rotary'";
        QTest::newRow("rope, odd d_k") << QStringList{"trace", "--pe", "rope", "--d-model", "12", "--heads", "4"}
                                       << "rope rotates the dimensions of each head in pairs: d_k (3) must be even";
        QTest::newRow("rope base 1") << QStringList{"trace", "--pe", "rope", "--rope-base", "1"} << "rope_base (1) must be a number greater than 1";
        QTest::newRow("rope base, not a number") << QStringList{"trace", "--pe", "rope", "--rope-base", "ten"}
                                                 << "--rope-base expects a number, got 'ten'";
        QTest::newRow("rope base without rope") << QStringList{"trace", "--rope-base", "500"}
                                                << "--rope-base applies to --pe rope, not sinusoidal positions";
        QTest::newRow("alibi with performer") << QStringList{"trace", "--pe", "alibi", "--attention", "performer"}
                                              << "alibi adds a term to every query–key score: it works with full attention, not performer";
        QTest::newRow("rope on the trained model") << QStringList{"trace", "--model", "reversal", "--pe", "rope"}
                                                   << "--pe does not apply to a trained model";
        QTest::newRow("bad mask") << QStringList{"trace", "--mask", "future"} << "--mask must be none|causal|padding|causal+padding";
        QTest::newRow("bad preset") << QStringList{"trace", "--weights-preset", "random"} << "--weights-preset must be seeded|identity";
        QTest::newRow("pad beyond max") << QStringList{"trace", "--pad-to", "600"} << "pad_to (600) must not exceed max_tokens (512)";
        QTest::newRow("empty sentence") << QStringList{"trace", "--sentence", ""} << "no tokens";
        QTest::newRow("missing weights") << QStringList{"trace", "--weights", "/nonexistent/w.safetensors"} << "cannot open '/nonexistent/w.safetensors'";
        QTest::newRow("weights are a directory") << QStringList{"trace", "--weights", dir} << "is a directory";
        QTest::newRow("weights are json") << QStringList{"trace", "--weights", dir + "/cases.json"} << "header length";
        QTest::newRow("wrong d_model") << QStringList{"trace", "--weights", dir + "/causal_je.safetensors", "--d-model", "8"}
                                       << "--d-model 8 does not match the weights file, whose d_model is 16";
        QTest::newRow("wrong heads for weights") << QStringList{"trace", "--weights", dir + "/causal_je.safetensors", "--heads", "3"}
                                                 << "d_model (16, from the weights file '" + dir + "/causal_je.safetensors') must be a multiple of heads (3)";
        QTest::newRow("weights and preset") << QStringList{"trace", "--weights", "x", "--weights-preset", "identity"} << "either --weights";
        QTest::newRow("missing mask file") << QStringList{"trace", "--mask-file", "/nonexistent.mask"} << "mask file '/nonexistent.mask'";
        QTest::newRow("mask file and mask") << QStringList{"trace", "--mask-file", "x", "--mask", "causal"} << "either --mask";
        QTest::newRow("mask wrong size") << QStringList{"trace", "--sentence", "two words", "--mask-file", dir + "/custom.mask"}
                                         << "the custom mask is 5 x 5 but the sentence has 2 tokens";
        QTest::newRow("mask not a mask") << QStringList{"trace", "--mask-file", dir + "/cases.json"} << "unexpected character";
        QTest::newRow("unwritable output") << QStringList{"trace", "--output", "/nonexistent/dir/out.json"} << "cannot write '/nonexistent/dir/out.json'";
        QTest::newRow("unwritable weights") << QStringList{"trace", "--save-weights", "/nonexistent/w.safetensors"} << "cannot write";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.status, QProcess::NormalExit); // never a crash
        QVERIFY(r.exitCode != 0);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith("attention-lab-cli: error: "), qPrintable(err));
        QVERIFY2(!err.contains('\n'), qPrintable(err)); // one line
        QVERIFY2(err.contains(message), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }

    void corruptWeightFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto file = [](const QByteArray& header, const QByteArray& data) {
            QByteArray b(8, '\0');
            qToLittleEndian<quint64>(static_cast<quint64>(header.size()), b.data());
            return b + header + data;
        };
        QTest::newRow("empty") << QByteArray() << "fewer than the 8-byte header";
        QTest::newRow("truncated header") << file(R"({"in_proj_weight": {"dtype": "F32")", {}).left(20) << "truncated";
        QTest::newRow("not json") << file("{nonsense}", {}) << "not valid JSON";
        QTest::newRow("int8") << file(R"({"in_proj_weight":{"dtype":"I8","shape":[3,1],"data_offsets":[0,3]}})", "abc") << "dtype I8 is not supported";
        QTest::newRow("offsets beyond data") << file(R"({"in_proj_weight":{"dtype":"F32","shape":[3,1],"data_offsets":[0,12]}})", "abcd")
                                             << "outside the 4 data bytes";
        QTest::newRow("shape mismatch") << file(R"({"in_proj_weight":{"dtype":"F32","shape":[3,2],"data_offsets":[0,12]}})", QByteArray(12, '\0'))
                                        << "shape and dtype need 24";
        QTest::newRow("wrong shape") << file(R"({"in_proj_weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})", QByteArray(16, '\0'))
                                     << "tensor 'in_proj_weight' has shape [2, 2] but must be [3d, d]";
        QTest::newRow("missing out_proj") << file(R"({"in_proj_weight":{"dtype":"F32","shape":[3,1],"data_offsets":[0,12]}})", QByteArray(12, '\0'))
                                          << "missing tensor 'out_proj.weight' [1, 1]";
        QTest::newRow("no attention") << file(R"({"linear1.weight":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}})", QByteArray(4, '\0'))
                                      << "no attention weights found";
    }

    void corruptWeightFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QFile f(dir.filePath("bad.safetensors"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        const Run r = cli({"trace", "--weights", f.fileName()});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void failedWriteKeepsEarlierFile()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("trace.json");
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("earlier work");
        f.close();
        // Bad input: nothing is written, the earlier file stays as it was.
        QVERIFY(cli({"trace", "--heads", "3", "--output", out}).exitCode != 0);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("earlier work"));
    }

    void nonsenseInputNeverCrashes()
    {
        // Invalid UTF-8, control characters, a very long sentence: a trace or a clean error.
        QByteArray junk;
        for (int i = 0; i < 4096; ++i)
            junk.append(static_cast<char>((i * 37 + 11) % 256 == 0 ? 1 : (i * 37 + 11) % 256));
        const Run r = cli({"trace", "--sentence", QString::fromLatin1(junk), "--d-model", "8", "--heads", "2"});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(nlohmann::json::accept(r.out.toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
