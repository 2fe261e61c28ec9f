// attention-lab-cli download REPO_ID [--revision R] [--endpoint URL] [--models-dir DIR], against a
// stand-in for the hub on 127.0.0.1 (support/hubserver.h): the model folder arrives whole and
// opens, HF_ENDPOINT and HF_TOKEN are read, progress goes to stderr, every error is one line with
// the exit code of the other commands (2: the request cannot be met as given; 1: it could not be
// fetched or written), and a download stopped by a lost connection, a signal or a full disk leaves
// no folder under the final name and goes on from where it stopped.

#include "support/cli.h"
#include "support/hubserver.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include <unistd.h>

using namespace attnlab::testing;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
constexpr int kCannotSetUp = 77;

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The CLI's environment with nothing of the user's hub settings: no HF_ENDPOINT, no HF_TOKEN,
/// settings in a folder of their own; `extra` added.
QProcessEnvironment downloadEnvironment(const QString& config, const QMap<QString, QString>& extra = {})
{
    QProcessEnvironment env = cliEnvironment();
    env.remove(QStringLiteral("HF_ENDPOINT"));
    env.remove(QStringLiteral("HF_TOKEN"));
    env.remove(QStringLiteral("ATTNLAB_MODELS_DIR"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        env.insert(it.key(), it.value());
    return env;
}

Run runIn(const QProcessEnvironment& env, const QString& program, const QStringList& args)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000))
        p.kill();
    return Run{p.exitCode(), p.exitStatus(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

/// The one line of an error on stderr.
void checkOneErrorLine(const Run& r, const QString& text)
{
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: ")) && err.count(QLatin1Char('\n')) == 1, qPrintable(err));
    QVERIFY2(err.contains(text), qPrintable(err));
}

} // namespace

class TestCliDownload : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_config; ///< XDG_CONFIG_HOME of the runs: no saved endpoint or token
    QTemporaryDir m_dir;
    std::unique_ptr<HubServer> m_server;
    qint64 m_size = 0;

    QString models() const { return m_dir.filePath("models"); }

    Run download(const QStringList& args, const QMap<QString, QString>& extra = {})
    {
        return runIn(downloadEnvironment(m_config.path(), extra), QStringLiteral(ATTNLAB_CLI), QStringList{"download"} + args);
    }

private slots:
    void init()
    {
        m_server = std::make_unique<HubServer>();
        QMap<QString, ServedFile> gpt2 = HubServer::folderFiles(kHf + "gpt2_f32");
        gpt2.insert(QStringLiteral("pytorch_model.bin"), {QByteArray(5000, 'p'), true});
        gpt2.insert(QStringLiteral("flax_model.msgpack"), {QByteArray(5000, 'f'), true});
        m_server->addRepo(QStringLiteral("openai-community/gpt2"), gpt2);
        m_server->addRepo(QStringLiteral("owner/gated"), HubServer::folderFiles(kHf + "bert_mlm_f32"), QStringLiteral("hf_secret"));
        m_server->addRepo(QStringLiteral("owner/t5"), {{"config.json", {R"({"model_type": "t5"})", false}}, {"model.safetensors", {"x", true}}});
        m_size = fileBytes(kHf + "gpt2_f32/model.safetensors").size();
        QDir(models()).removeRecursively();
    }

    void cleanup()
    {
        m_server.reset();
    }

    void aModelArrivesWholeAndOpens()
    {
        const Run r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData()); // no progress lines by default (ATTNLAB_PROGRESS_AFTER_MS)
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith(QStringLiteral("downloaded openai-community/gpt2 (commit ")) && out.contains(QDir::toNativeSeparators(models() + "/gpt2"))
                     && out.contains(QStringLiteral(": 4 files, ")),
                 qPrintable(out));
        QCOMPARE(entries(models()), QStringList{"gpt2"});
        QCOMPARE(entries(models() + "/gpt2"), (QStringList{"config.json", "merges.txt", "model.safetensors", "vocab.json"}));
        QCOMPARE(m_server->count(QStringLiteral("pytorch_model.bin")) + m_server->count(QStringLiteral("flax")), 0);
        // The folder is a model the other commands open.
        const Run trace = cli({"trace", "--model", models() + "/gpt2", "--sentence", "Hello", "--stages", "weights"});
        QVERIFY2(trace.exitCode == 0, trace.err.constData());
        // Once more: nothing to do.
        const Run again = download({"openai-community/gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("already: nothing to download"), again.out.constData());
        QCOMPARE(m_server->count(QStringLiteral("/lfs/")), 1);
    }

    void theEnvironmentNamesTheMirrorTheTokenAndTheFolder()
    {
        const QMap<QString, QString> env{{"HF_ENDPOINT", m_server->url()}, {"ATTNLAB_MODELS_DIR", models()}};
        Run r = download({"owner/gated"}, env);
        QCOMPARE(r.exitCode, 2);
        checkOneErrorLine(r, QStringLiteral("owner/gated is gated or private (HTTP 401): accept its licence on the hub and give an access token (HF_TOKEN"));
        QVERIFY(!QFileInfo::exists(models() + "/gated"));
        QMap<QString, QString> withToken = env;
        withToken.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("hf_secret"));
        r = download({"owner/gated"}, withToken);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFileInfo::exists(models() + "/gated/vocab.txt"));
    }

    void progressGoesToStderr()
    {
        m_server->throttle(QStringLiteral("model.safetensors"), 16384, 5);
        const Run r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()}, {{"ATTNLAB_PROGRESS_AFTER_MS", "0"}});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList lines = QString::fromUtf8(r.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(!lines.isEmpty(), r.err.constData());
        for (const QString& line : lines)
            QVERIFY2(line.startsWith(QStringLiteral("attention-lab-cli: downloading openai-community/gpt2: ")) && line.contains(QStringLiteral(" of ")),
                     qPrintable(line));
    }

    void errorsAreOneLineWithTheirExitCode_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no model") << QStringList{} << 2 << "download needs the model's name on the hub";
        QTest::newRow("two models") << QStringList{"gpt2", "bert-base-uncased"} << 2 << "download fetches one model at a time";
        QTest::newRow("a bad name") << QStringList{"a/b/c"} << 2 << "\u201Ca/b/c\u201D is not the name of a model on the hub";
        QTest::newRow("an unknown option") << QStringList{"gpt2", "--token", "x"} << 2 << "unknown option '--token'";
        QTest::newRow("a bad endpoint") << QStringList{"gpt2", "--endpoint", "hf-mirror.com"} << 2 << "--endpoint: hf-mirror.com is not the address of a hub";
        QTest::newRow("no such model") << QStringList{"owner/none", "@"} << 2 << "there is no model owner/none with the revision main on 127.0.0.1 (HTTP 404)";
        QTest::newRow("no such revision") << QStringList{"gpt2", "--revision", "v9", "@"} << 2 << "there is no model openai-community/gpt2 with the revision v9";
        QTest::newRow("not a GPT-2 or BERT") << QStringList{"owner/t5", "@"} << 2 << "owner/t5 is a model of type \u201Ct5\u201D, which Attention Lab cannot open";
        QTest::newRow("no server") << QStringList{"gpt2", "--endpoint", "http://127.0.0.1:1"} << 1 << "127.0.0.1:1 refused the connection";
    }

    void errorsAreOneLineWithTheirExitCode()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        if (args.removeAll(QStringLiteral("@")) > 0)
            args << "--endpoint" << m_server->url();
        const Run r = download(args + QStringList{"--models-dir", models()});
        QCOMPARE(r.exitCode, code);
        checkOneErrorLine(r, message);
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists(models() + "/gpt2"));
    }

    void aWrongByteTwiceAndAFolderInTheWayExitWith1()
    {
        m_server->corrupt(QStringLiteral("model.safetensors"), 5, 2);
        Run r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QCOMPARE(r.exitCode, 1);
        checkOneErrorLine(r, QStringLiteral("model.safetensors arrived twice with other bytes than the hub announced"));
        QVERIFY(QDir(models() + "/gpt2").mkpath("."));
        r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QCOMPARE(r.exitCode, 1);
        checkOneErrorLine(r, QStringLiteral("is already there and is not a complete download of openai-community/gpt2"));
    }

    void aLostConnectionLeavesNoFolderAndTheNextRunGoesOn()
    {
        m_server->dropAfter(QStringLiteral("model.safetensors"), m_size / 2, 100);
        Run r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!QFileInfo::exists(models() + "/gpt2"));
        QCOMPARE(m_server->bytesSent(QStringLiteral("model.safetensors")), m_size / 2);
        m_server->dropAfter(QStringLiteral("model.safetensors"), -1, 0);
        r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(m_server->bytesSent(QStringLiteral("model.safetensors")), m_size); // each byte sent once
        QCOMPARE(fileBytes(models() + "/gpt2/model.safetensors"), fileBytes(kHf + "gpt2_f32/model.safetensors"));
        QCOMPARE(entries(models()), QStringList{"gpt2"});
    }

    void aSignalStopsItAndTheNextRunGoesOn()
    {
        m_server->throttle(QStringLiteral("model.safetensors"), 1024, 20);
        QProcess p;
        p.setProcessEnvironment(downloadEnvironment(m_config.path()));
        p.start(QStringLiteral(ATTNLAB_CLI), {"download", "gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QTRY_VERIFY_WITH_TIMEOUT(m_server->bytesSent(QStringLiteral("model.safetensors")) > 0, 60000);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit); // ended by the signal, as the shell reports it
        QVERIFY2(p.readAllStandardError().isEmpty(), "a signal ends the command without a word");
        QVERIFY(!QFileInfo::exists(models() + "/gpt2"));
        const qint64 kept = QFileInfo(models() + "/.downloads/gpt2/model.safetensors.incomplete").size();
        QVERIFY(kept > 0 && kept < m_size);
        QVERIFY(!QFileInfo::exists(models() + "/.downloads/gpt2.lock")); // the next run is not locked out
        m_server->throttle(QStringLiteral("model.safetensors"), 0, 0);
        const Run r = download({"gpt2", "--endpoint", m_server->url(), "--models-dir", models()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(m_server->count(QStringLiteral(" Range: bytes=%1-").arg(kept)) >= 1);
        QCOMPARE(fileBytes(models() + "/gpt2/model.safetensors"), fileBytes(kHf + "gpt2_f32/model.safetensors"));
    }

    void aFullDiskIsSaidBeforeStartingAndWhileWriting_data()
    {
        QTest::addColumn<bool>("sizesListed");
        QTest::addColumn<QString>("message");
        QTest::newRow("before starting") << true << "not enough room on the disk of";
        QTest::newRow("while writing") << false << "the disk is full";
    }

    void aFullDiskIsSaidBeforeStartingAndWhileWriting()
    {
        QFETCH(bool, sizesListed);
        QFETCH(QString, message);
        // A mirror that lists no sizes cannot be checked before: the disk fills while writing.
        m_server->omitSizes(!sizesListed);
        QVERIFY(QDir().mkpath(models()));
        const QString script = QStringLiteral("mount --make-rprivate / 2>/dev/null; mount -t tmpfs -o size=64k tmpfs \"$1\" || exit %1; "
                                              "shift; exec \"$@\"")
                                   .arg(kCannotSetUp);
        const QStringList unshare = ::geteuid() == 0 ? QStringList{"-m"} : QStringList{"-r", "-m"};
        const Run r = runIn(downloadEnvironment(m_config.path()), QStringLiteral("unshare"),
                            unshare + QStringList{"sh", "-c", script, "sh", models(), QStringLiteral(ATTNLAB_CLI), "download", "gpt2", "--endpoint",
                                                  m_server->url(), "--models-dir", models()});
        if (r.exitCode == kCannotSetUp || r.err.contains("unshare"))
            QSKIP("mount namespaces are not available here");
        QCOMPARE(r.exitCode, 1);
        checkOneErrorLine(r, message);
        QVERIFY(!QFileInfo::exists(models() + "/gpt2"));
    }

    void helpNamesTheCommand()
    {
        const Run r = cli({"download", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("download   a model folder from the Hugging Face Hub"));
        QVERIFY(r.out.contains("HF_ENDPOINT"));
    }
};

QTEST_GUILESS_MAIN(TestCliDownload)
#include "tst_cli_download.moc"
