// Downloading a model folder (docs/pretrained-models.md, "Getting a model") from a stand-in for
// the hub on 127.0.0.1 (support/hubserver.h) that serves the tiny GPT-2 and BERT of tests/reference/hf:
// only the files the engine reads arrive, verified, and the folder opens; a dropped connection is
// resumed where it stopped (the server counts the bytes it sent); an interrupted download leaves
// no folder under the final name and goes on from there the next time; a wrong byte is fetched
// once more, twice is an error; a cancel keeps what arrived; every error is one sentence.

#include "hub/modeldownload.h"
#include "model/model.h"
#include "pretrained/model_folder.h"
#include "support/hubserver.h"

#include <QDir>
#include <QFile>
#include <QLockFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using attnlab::testing::HubServer;
using attnlab::testing::ServedFile;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");
const QString kGpt2 = QStringLiteral("openai-community/gpt2");
constexpr int kWait = 60000; // generous: a busy machine is slow, never wrong

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// GPT-2's repository as the hub has it: the four files the engine reads and other formats.
QMap<QString, ServedFile> gpt2Files()
{
    QMap<QString, ServedFile> files = HubServer::folderFiles(kHf + "gpt2_f32");
    files.insert(QStringLiteral("pytorch_model.bin"), {QByteArray(5000, 'p'), true});
    files.insert(QStringLiteral("onnx/decoder_model.onnx"), {QByteArray(3000, 'o'), true});
    files.insert(QStringLiteral("README.md"), {"# gpt2\n", false});
    return files;
}

DownloadRequest requestFor(const HubServer& server, const QString& models, const QString& repo = kGpt2)
{
    DownloadRequest r;
    r.repo = *HubAddress::parseRepoId(repo, nullptr);
    r.endpoint = server.url();
    r.modelsFolder = models;
    return r;
}

/// Runs a download to its end.
DownloadResult run(const DownloadRequest& request, QList<DownloadProgress>* progress = nullptr)
{
    ModelDownload job(request);
    QSignalSpy finished(&job, &ModelDownload::finished);
    if (progress)
        QObject::connect(&job, &ModelDownload::progressed, &job, [progress](const DownloadProgress& p) { progress->append(p); });
    job.start();
    if (!finished.wait(kWait)) {
        DownloadResult timedOut;
        timedOut.failure = {HubFailure::Kind::Timeout, QStringLiteral("the test waited in vain")};
        return timedOut;
    }
    return finished.takeFirst().at(0).value<DownloadResult>();
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

/// Requests with `part` in their path that asked for the bytes from `from` on.
int ranged(const HubServer& server, const QString& part, qint64 from)
{
    const QString range = QStringLiteral(" Range: bytes=%1-").arg(from);
    const QStringList all = server.requests();
    return static_cast<int>(std::count_if(all.begin(), all.end(), [&](const QString& r) { return r.contains(part) && r.contains(range); }));
}

} // namespace

class TestModelDownload : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        qRegisterMetaType<DownloadResult>();
        qRegisterMetaType<DownloadProgress>();
        qRegisterMetaType<DownloadPlan>();
    }

    void onlyWhatTheEngineReadsArrivesVerified()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        QTemporaryDir dir;
        QList<DownloadProgress> progress;
        const DownloadResult r = run(requestFor(server, dir.path()), &progress);
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QCOMPARE(r.folder, dir.filePath("gpt2"));
        QCOMPARE(r.files, 4);
        QCOMPARE(entries(dir.path()), QStringList{"gpt2"}); // no staging folder left
        QCOMPARE(entries(r.folder), (QStringList{"config.json", "merges.txt", "model.safetensors", "vocab.json"}));
        for (const QString& f : entries(r.folder))
            QVERIFY2(fileBytes(r.folder + "/" + f) == fileBytes(kHf + "gpt2_f32/" + f), qPrintable(f));
        // The other formats were never asked for; the large file came through the hub's redirect.
        QCOMPARE(server.count(QStringLiteral("pytorch_model.bin")), 0);
        QCOMPARE(server.count(QStringLiteral("onnx")), 0);
        QCOMPARE(server.count(QStringLiteral("README")), 0);
        QCOMPARE(server.count(QStringLiteral("/lfs/")), 1);
        QCOMPARE(server.count(QStringLiteral("/api/models/openai-community/gpt2/revision/main")), 1);
        // The folder is one the engine opens.
        const Seq2SeqModel m = loadModelFolder(QFile::encodeName(r.folder).toStdString());
        QVERIFY(m.pretrained->family() == PretrainedFamily::Gpt2);
        // Progress came with the files and the bytes, ending at the whole.
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.back().total, r.bytes);
        QVERIFY(std::any_of(progress.begin(), progress.end(), [](const DownloadProgress& p) { return p.file == u"model.safetensors"; }));

        // Again: the folder is complete, nothing is fetched.
        const int requests = server.requests().size();
        const DownloadResult again = run(requestFor(server, dir.path()));
        QVERIFY2(!again.failure, qPrintable(again.failure.message));
        QVERIFY(again.alreadyThere);
        QCOMPARE(server.requests().size(), requests + 2); // the list and config.json only
    }

    void bertTakesItsTokenizerConfig()
    {
        HubServer server;
        server.addRepo(QStringLiteral("google-bert/bert-base-chinese"), HubServer::folderFiles(kHf + "bert_mlm_f32"));
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path(), QStringLiteral("bert-base-chinese")));
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QCOMPARE(entries(dir.filePath("bert-base-chinese")), (QStringList{"config.json", "model.safetensors", "tokenizer_config.json", "vocab.txt"}));
        QVERIFY(loadModelFolder(QFile::encodeName(r.folder).toStdString()).pretrained->family() == PretrainedFamily::Bert);
    }

    void aShardedLlamaArrivesWhole()
    {
        HubServer server;
        server.addRepo(QStringLiteral("owner/llama"),
                       HubServer::folderFiles(kHf + "llama3_untied_bf16_sharded",
                                              {QStringLiteral("model-00001-of-00002.safetensors"), QStringLiteral("model-00002-of-00002.safetensors")}));
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path(), QStringLiteral("owner/llama")));
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QCOMPARE(entries(r.folder), (QStringList{"config.json", "merges.txt", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors",
                                                 "model.safetensors.index.json", "tokenizer_config.json", "vocab.json"}));
        for (const QString& f : entries(r.folder))
            QVERIFY2(fileBytes(r.folder + "/" + f) == fileBytes(kHf + "llama3_untied_bf16_sharded/" + f), qPrintable(f));
        QCOMPARE(server.count(QStringLiteral("/lfs/")), 2);
        QVERIFY(loadModelFolder(QFile::encodeName(r.folder).toStdString()).pretrained->family() == PretrainedFamily::Llama);
    }

    void aDroppedConnectionGoesOnWhereItStopped()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        const qint64 size = fileBytes(kHf + "gpt2_f32/model.safetensors").size();
        server.dropAfter(QStringLiteral("model.safetensors"), size / 2);
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        // Half, then the rest from the half: the file's bytes were sent once in all.
        QCOMPARE(server.bytesSent(QStringLiteral("model.safetensors")), size);
        QCOMPARE(ranged(server, QStringLiteral("/lfs/"), size / 2), 1);
        QCOMPARE(fileBytes(dir.filePath("gpt2/model.safetensors")), fileBytes(kHf + "gpt2_f32/model.safetensors"));
    }

    void anInterruptedDownloadLeavesNoFolderAndResumes()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        const qint64 size = fileBytes(kHf + "gpt2_f32/model.safetensors").size();
        server.dropAfter(QStringLiteral("model.safetensors"), size / 3, 100); // drops every time at a third
        QTemporaryDir dir;
        const DownloadResult failed = run(requestFor(server, dir.path()));
        QVERIFY(failed.failure.kind == HubFailure::Kind::ConnectionLost);
        QCOMPARE(failed.failure.exitCode(), 1);
        QVERIFY2(failed.failure.message.contains(QStringLiteral("closed the connection"))
                     || failed.failure.message.contains(QStringLiteral("ended before the end of model.safetensors")),
                 qPrintable(failed.failure.message));
        QVERIFY(!QFileInfo::exists(dir.filePath("gpt2")));
        QCOMPARE(ModelDownload::partialBytes(dir.path(), QStringLiteral("gpt2")) >= size / 3, true);
        QCOMPARE(server.bytesSent(QStringLiteral("model.safetensors")), size / 3);

        // A later run (a new process would do the same) goes on from the third.
        server.dropAfter(QStringLiteral("model.safetensors"), -1, 0);
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QCOMPARE(server.bytesSent(QStringLiteral("model.safetensors")), size);
        QVERIFY(ranged(server, QStringLiteral("/lfs/"), size / 3) >= 1);
        QCOMPARE(fileBytes(dir.filePath("gpt2/model.safetensors")), fileBytes(kHf + "gpt2_f32/model.safetensors"));
        QCOMPARE(entries(dir.path()), QStringList{"gpt2"});
    }

    void aWrongByteIsFetchedOnceMore()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        const qint64 size = fileBytes(kHf + "gpt2_f32/model.safetensors").size();
        server.corrupt(QStringLiteral("model.safetensors"), 1000, 1);
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QCOMPARE(server.bytesSent(QStringLiteral("model.safetensors")), 2 * size);
        QCOMPARE(fileBytes(dir.filePath("gpt2/model.safetensors")), fileBytes(kHf + "gpt2_f32/model.safetensors"));
    }

    void aWrongByteTwiceIsAnError()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        server.corrupt(QStringLiteral("model.safetensors"), 1000, 2);
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY(r.failure.kind == HubFailure::Kind::Checksum);
        QVERIFY2(r.failure.message.contains(QStringLiteral("model.safetensors arrived twice with other bytes than the hub announced")),
                 qPrintable(r.failure.message));
        QVERIFY(!QFileInfo::exists(dir.filePath("gpt2")));
        // The bad file is gone; what was verified stays for the next try.
        const QString staging = ModelDownload::stagingFolder(dir.path(), QStringLiteral("gpt2"));
        QVERIFY(!QFileInfo::exists(staging + "/model.safetensors.incomplete"));
        QVERIFY(QFileInfo::exists(staging + "/vocab.json"));
    }

    void aMirrorWithoutSizesIsCheckedByTheRedirectsHeaders()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        server.omitSizes(true);
        server.corrupt(QStringLiteral("model.safetensors"), 10, 2);
        QTemporaryDir dir;
        DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY2(r.failure.kind == HubFailure::Kind::Checksum, qPrintable(r.failure.message)); // X-Linked-Etag's SHA-256
        server.corrupt(QStringLiteral("model.safetensors"), 10, 0);
        r = run(requestFor(server, dir.path()));
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QCOMPARE(fileBytes(dir.filePath("gpt2/model.safetensors")), fileBytes(kHf + "gpt2_f32/model.safetensors"));
    }

    void aGatedModelNeedsItsToken()
    {
        HubServer server;
        server.addRepo(QStringLiteral("owner/gated"), HubServer::folderFiles(kHf + "gpt2_f32"), QStringLiteral("hf_secret"));
        QTemporaryDir dir;
        DownloadRequest request = requestFor(server, dir.path(), QStringLiteral("owner/gated"));
        DownloadResult r = run(request);
        QVERIFY(r.failure.kind == HubFailure::Kind::Gated);
        QCOMPARE(r.failure.exitCode(), 2);
        QVERIFY2(r.failure.message.contains(QStringLiteral("owner/gated is gated or private (HTTP 401): accept its licence on the hub and give an access token")),
                 qPrintable(r.failure.message));
        request.token = QStringLiteral("hf_wrong");
        r = run(request);
        QVERIFY2(r.failure.message.contains(QStringLiteral("refused the access token")), qPrintable(r.failure.message));
        QVERIFY(entries(dir.path()).isEmpty()); // nothing written
        request.token = QStringLiteral("hf_secret");
        r = run(request);
        QVERIFY2(!r.failure, qPrintable(r.failure.message));
        QVERIFY(QFileInfo::exists(dir.filePath("gated/model.safetensors")));
    }

    void refusalsComeBeforeAnyDownload_data()
    {
        QTest::addColumn<QString>("repo");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("no such model") << "owner/nothing" << int(HubFailure::Kind::NotFound)
                                       << "there is no model owner/nothing with the revision main on 127.0.0.1 (HTTP 404)";
        QTest::newRow("t5") << "owner/t5" << int(HubFailure::Kind::Unsupported) << "owner/t5 is a model of type \u201Ct5\u201D, which Attention Lab cannot open";
        QTest::newRow("pytorch only") << "owner/old" << int(HubFailure::Kind::Unsupported) << "owner/old has its weights only as pytorch_model.bin";
    }

    void refusalsComeBeforeAnyDownload()
    {
        QFETCH(QString, repo);
        QFETCH(int, kind);
        QFETCH(QString, message);
        HubServer server;
        QMap<QString, ServedFile> t5{{"config.json", {R"({"model_type": "t5", "d_model": 512})", false}}, {"model.safetensors", {"x", true}}};
        server.addRepo(QStringLiteral("owner/t5"), t5);
        QMap<QString, ServedFile> old = HubServer::folderFiles(kHf + "gpt2_f32");
        old.insert(QStringLiteral("pytorch_model.bin"), old.take(QStringLiteral("model.safetensors")));
        server.addRepo(QStringLiteral("owner/old"), old);
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path(), repo));
        QCOMPARE(int(r.failure.kind), kind);
        QCOMPARE(r.failure.exitCode(), 2);
        QVERIFY2(r.failure.message.contains(message), qPrintable(r.failure.message));
        QVERIFY(entries(dir.path()).isEmpty());
        QCOMPARE(server.count(QStringLiteral(".safetensors")) + server.count(QStringLiteral(".bin")), 0);
    }

    void cancelKeepsWhatArrivedForTheNextDownload()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        const qint64 size = fileBytes(kHf + "gpt2_f32/model.safetensors").size();
        server.throttle(QStringLiteral("model.safetensors"), 2048, 20);
        QTemporaryDir dir;
        ModelDownload job(requestFor(server, dir.path()));
        QSignalSpy finished(&job, &ModelDownload::finished);
        qint64 arrived = 0;
        connect(&job, &ModelDownload::progressed, this, [&](const DownloadProgress& p) {
            if (p.file == u"model.safetensors")
                arrived = p.fileDone;
        });
        job.start();
        QTRY_VERIFY_WITH_TIMEOUT(arrived > 0, kWait);
        job.cancel();
        QVERIFY(finished.wait(kWait));
        const DownloadResult r = finished.takeFirst().at(0).value<DownloadResult>();
        QVERIFY(r.failure.kind == HubFailure::Kind::Cancelled);
        QVERIFY2(r.failure.message.contains(QStringLiteral("what arrived is kept")), qPrintable(r.failure.message));
        QVERIFY(!QFileInfo::exists(dir.filePath("gpt2")));
        const qint64 kept = QFileInfo(ModelDownload::stagingFolder(dir.path(), QStringLiteral("gpt2")) + "/model.safetensors.incomplete").size();
        QVERIFY(kept > 0 && kept < size);

        server.throttle(QStringLiteral("model.safetensors"), 0, 0);
        const DownloadResult again = run(requestFor(server, dir.path()));
        QVERIFY2(!again.failure, qPrintable(again.failure.message));
        QCOMPARE(ranged(server, QStringLiteral("/lfs/"), kept), 1); // from where the cancel left it
        QCOMPARE(again.fetched, size - kept + 0); // only the rest of the large file came...
        QCOMPARE(fileBytes(dir.filePath("gpt2/model.safetensors")), fileBytes(kHf + "gpt2_f32/model.safetensors"));
    }

    void aServerThatNeverAnswersTimesOut()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        server.stall(QStringLiteral("/api/"));
        qputenv("ATTNLAB_HUB_TIMEOUT_MS", "300");
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path()));
        qunsetenv("ATTNLAB_HUB_TIMEOUT_MS");
        QVERIFY(r.failure.kind == HubFailure::Kind::Timeout);
        QVERIFY2(r.failure.message.contains(QStringLiteral("127.0.0.1:")) && r.failure.message.contains(QStringLiteral("did not answer for 1 second")),
                 qPrintable(r.failure.message));
        QCOMPARE(r.failure.exitCode(), 1);
    }

    void noServerIsNoNetwork()
    {
        quint16 port = 0;
        {
            HubServer gone;
            port = static_cast<quint16>(QUrl(gone.url()).port());
        } // closed: nothing listens there now
        DownloadRequest request;
        request.repo = {QStringLiteral("openai-community"), QStringLiteral("gpt2")};
        request.endpoint = QStringLiteral("http://127.0.0.1:%1").arg(port);
        QTemporaryDir dir;
        request.modelsFolder = dir.path();
        const DownloadResult r = run(request);
        QVERIFY(r.failure.kind == HubFailure::Kind::NoNetwork);
        QVERIFY2(r.failure.message.contains(QStringLiteral("refused the connection")), qPrintable(r.failure.message));
    }

    void aRedirectElsewhereIsRefused()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        server.redirect(QStringLiteral("vocab.json"), QStringLiteral("file:///etc/passwd"));
        QTemporaryDir dir;
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY(r.failure.kind == HubFailure::Kind::Insecure);
        QVERIFY2(r.failure.message.contains(QStringLiteral("which is not a web address")), qPrintable(r.failure.message));
        QVERIFY(!QFileInfo::exists(dir.filePath("gpt2")));
    }

    void aFolderInTheWayIsLeftAlone()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("gpt2"));
        QFile mine(dir.filePath("gpt2/notes.txt"));
        QVERIFY(mine.open(QIODevice::WriteOnly));
        mine.close();
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY(r.failure.kind == HubFailure::Kind::WriteFailed);
        QVERIFY2(r.failure.message.contains(QStringLiteral("is already there and is not a complete download of openai-community/gpt2")),
                 qPrintable(r.failure.message));
        QCOMPARE(entries(dir.filePath("gpt2")), QStringList{"notes.txt"});
    }

    void oneDownloadOfAModelAtATime()
    {
        HubServer server;
        server.addRepo(kGpt2, gpt2Files());
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(".downloads"));
        QLockFile other(dir.filePath(".downloads/gpt2.lock"));
        QVERIFY(other.tryLock(0));
        const DownloadResult r = run(requestFor(server, dir.path()));
        QVERIFY(r.failure.kind == HubFailure::Kind::Busy);
        QVERIFY2(r.failure.message.contains(QStringLiteral("is being downloaded already")), qPrintable(r.failure.message));
    }
};

QTEST_GUILESS_MAIN(TestModelDownload)
#include "tst_modeldownload.moc"
