// The parts of downloading that need no network (docs/pretrained-models.md, "Getting a model"):
// where models come from (HF_ENDPOINT and HF_TOKEN win over the saved settings), repository names
// and revisions, the hub's URLs, which redirects are followed (never HTTPS → HTTP), the file list
// and which of its files are fetched (only what the engine reads; a model it cannot open refused
// before downloading), the sentence of each network error, the exit codes, and the progress line.

#include "hub/downloadtext.h"
#include "hub/hubaddress.h"
#include "hub/hubget.h"
#include "hub/hublisting.h"

#include <QFile>
#include <QNetworkReply>
#include <QSettings>
#include <QtTest>

using namespace attnlab;

namespace {

const QString kHf = QStringLiteral(ATTNLAB_TEST_DATA "/hf/");

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The hub's answer for a repository with these files (sizes; a SHA-256 for the large ones).
QByteArray listingJson(const QStringList& files)
{
    QByteArray siblings;
    for (const QString& f : files) {
        if (!siblings.isEmpty())
            siblings += ',';
        siblings += "{\"rfilename\":\"" + f.toUtf8() + "\",\"size\":10"
                    + (f.endsWith(QStringLiteral(".safetensors")) || f.endsWith(QStringLiteral(".bin"))
                           ? QByteArray(",\"lfs\":{\"sha256\":\"" + QByteArray(64, 'a') + "\",\"size\":1000,\"pointerSize\":134}")
                           : QByteArray())
                    + "}";
    }
    return "{\"id\":\"o/m\",\"sha\":\"abc\",\"siblings\":[" + siblings + "]}";
}

HubListing listingOf(const QStringList& files)
{
    HubFailure f;
    const auto l = HubListings::parse(listingJson(files), &f);
    return l.value_or(HubListing{});
}

QStringList names(const DownloadPlan& plan)
{
    QStringList out;
    for (const HubFile& f : plan.files)
        out << f.name;
    return out;
}

/// Leaves the environment and the saved settings as the test found them.
struct KeepSettings {
    KeepSettings()
        : endpoint(qgetenv("HF_ENDPOINT"))
        , token(qgetenv("HF_TOKEN"))
    {
        QSettings s(QStringLiteral("Attention Lab"), QStringLiteral("Attention Lab"));
        savedEndpoint = s.value(QStringLiteral("hubEndpoint"));
        savedToken = s.value(QStringLiteral("hubToken"));
    }
    ~KeepSettings()
    {
        qputenv("HF_ENDPOINT", endpoint);
        qputenv("HF_TOKEN", token);
        QSettings s(QStringLiteral("Attention Lab"), QStringLiteral("Attention Lab"));
        savedEndpoint.isValid() ? s.setValue(QStringLiteral("hubEndpoint"), savedEndpoint) : s.remove(QStringLiteral("hubEndpoint"));
        savedToken.isValid() ? s.setValue(QStringLiteral("hubToken"), savedToken) : s.remove(QStringLiteral("hubToken"));
    }
    QByteArray endpoint, token;
    QVariant savedEndpoint, savedToken;
};

} // namespace

class TestHubAddress : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    void theEndpointAndTokenComeFromTheEnvironmentFirst()
    {
        const KeepSettings keep;
        qunsetenv("HF_ENDPOINT");
        qunsetenv("HF_TOKEN");
        HubAddress::setEndpoint({});
        HubAddress::setToken({});
        QCOMPARE(HubAddress::endpoint(), QStringLiteral("https://huggingface.co"));
        QVERIFY(HubAddress::endpointSource() == HubAddress::Source::Default);
        QVERIFY(HubAddress::token().isEmpty());
        HubAddress::setEndpoint(QStringLiteral("https://hf-mirror.com/"));
        HubAddress::setToken(QStringLiteral(" hf_saved "));
        QCOMPARE(HubAddress::endpoint(), QStringLiteral("https://hf-mirror.com"));
        QVERIFY(HubAddress::endpointSource() == HubAddress::Source::Settings);
        QCOMPARE(HubAddress::token(), QStringLiteral("hf_saved"));
        qputenv("HF_ENDPOINT", "https://mirror.example/hf/");
        qputenv("HF_TOKEN", "hf_env");
        QCOMPARE(HubAddress::endpoint(), QStringLiteral("https://mirror.example/hf"));
        QVERIFY(HubAddress::endpointSource() == HubAddress::Source::Environment);
        QCOMPARE(HubAddress::token(), QStringLiteral("hf_env"));
        QVERIFY(HubAddress::tokenSource() == HubAddress::Source::Environment);
    }

    void endpointsAreChecked_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("cleaned"); // empty: refused
        QTest::newRow("hub") << "https://huggingface.co" << "https://huggingface.co";
        QTest::newRow("trailing slash") << " https://hf-mirror.com/ " << "https://hf-mirror.com";
        QTest::newRow("a path") << "http://127.0.0.1:8080/hf" << "http://127.0.0.1:8080/hf";
        QTest::newRow("no scheme") << "hf-mirror.com" << "";
        QTest::newRow("ftp") << "ftp://hf-mirror.com" << "";
        QTest::newRow("a query") << "https://hf-mirror.com/?a=1" << "";
        QTest::newRow("empty") << "" << "";
    }

    void endpointsAreChecked()
    {
        QFETCH(QString, text);
        QFETCH(QString, cleaned);
        QString error;
        const auto e = HubAddress::checkEndpoint(text, &error);
        QCOMPARE(e.value_or(QString()), cleaned);
        if (cleaned.isEmpty())
            QVERIFY2(error.contains(QStringLiteral("is not the address of a hub")), qPrintable(error));
    }

    void repositoryNames_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("id"); // empty: refused
        QTest::newRow("owner/name") << "openai-community/gpt2" << "openai-community/gpt2";
        QTest::newRow("a known folder name") << "gpt2" << "openai-community/gpt2";
        QTest::newRow("Chinese BERT") << "bert-base-chinese" << "google-bert/bert-base-chinese";
        QTest::newRow("a name alone") << "my-model" << "my-model";
        QTest::newRow("dots and underscores") << "Org_1/model.v2" << "Org_1/model.v2";
        QTest::newRow("three parts") << "a/b/c" << "";
        QTest::newRow("a space") << "openai community/gpt2" << "";
        QTest::newRow("dot dot") << "a/..b" << "";
        QTest::newRow("double dash") << "a/b--c" << "";
        QTest::newRow("empty") << "" << "";
        QTest::newRow("url") << "https://huggingface.co/gpt2" << "";
    }

    void repositoryNames()
    {
        QFETCH(QString, text);
        QFETCH(QString, id);
        QString error;
        const auto r = HubAddress::parseRepoId(text, &error);
        QCOMPARE(r ? r->id() : QString(), id);
        if (id.isEmpty())
            QVERIFY2(error.contains(QStringLiteral("is not the name of a model on the hub")), qPrintable(error));
        else
            QCOMPARE(r->name, id.section(QLatin1Char('/'), -1));
    }

    void revisions()
    {
        QString error;
        QVERIFY(HubAddress::checkRevision(QStringLiteral("main"), &error));
        QVERIFY(HubAddress::checkRevision(QStringLiteral("refs/pr/1"), &error));
        QVERIFY(!HubAddress::checkRevision(QString(), &error));
        QVERIFY(!HubAddress::checkRevision(QStringLiteral("a b"), &error));
        QVERIFY2(error.contains(QStringLiteral("is not a revision")), qPrintable(error));
    }

    void theHubsUrls()
    {
        const RepoId gpt2{QStringLiteral("openai-community"), QStringLiteral("gpt2")};
        QCOMPARE(HubAddress::listingUrl(QStringLiteral("https://huggingface.co"), gpt2, QStringLiteral("main")).toString(QUrl::FullyEncoded),
                 QStringLiteral("https://huggingface.co/api/models/openai-community/gpt2/revision/main?blobs=true"));
        // A revision with '/' is one part of the path (encoded), as the hub's own client sends it.
        QCOMPARE(HubAddress::fileUrl(QStringLiteral("https://hf-mirror.com/"), gpt2, QStringLiteral("refs/pr/1"), QStringLiteral("config.json"))
                     .toString(QUrl::FullyEncoded),
                 QStringLiteral("https://hf-mirror.com/openai-community/gpt2/resolve/refs%2Fpr%2F1/config.json"));
        QCOMPARE(HubAddress::pageUrl(QStringLiteral("http://127.0.0.1:9/hf"), gpt2).toString(), QStringLiteral("http://127.0.0.1:9/hf/openai-community/gpt2"));
    }

    void redirectsNeverGoFromHttpsToHttp_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QByteArray>("location");
        QTest::addColumn<QString>("to"); // empty: refused
        QTest::newRow("relative") << "https://huggingface.co/gpt2/resolve/main/config.json" << QByteArray("/openai-community/gpt2/resolve/main/config.json")
                                  << "https://huggingface.co/openai-community/gpt2/resolve/main/config.json";
        QTest::newRow("to the file server") << "https://huggingface.co/a/b/resolve/main/m" << QByteArray("https://cdn-lfs.hf.co/x?sig=1")
                                            << "https://cdn-lfs.hf.co/x?sig=1";
        QTest::newRow("https to http") << "https://huggingface.co/a/b/resolve/main/m" << QByteArray("http://cdn-lfs.hf.co/x") << "";
        QTest::newRow("http to https") << "http://127.0.0.1:1/a" << QByteArray("https://127.0.0.1:2/b") << "https://127.0.0.1:2/b";
        QTest::newRow("http to http") << "http://127.0.0.1:1/a" << QByteArray("http://127.0.0.1:2/b") << "http://127.0.0.1:2/b";
        QTest::newRow("another scheme") << "https://huggingface.co/a" << QByteArray("file:///etc/passwd") << "";
    }

    void redirectsNeverGoFromHttpsToHttp()
    {
        QFETCH(QString, from);
        QFETCH(QByteArray, location);
        QFETCH(QString, to);
        QString error;
        const auto target = HubAddress::redirectTarget(QUrl(from), location, &error);
        QCOMPARE(target ? target->toString() : QString(), to);
        if (to.isEmpty())
            QVERIFY(!error.isEmpty());
        if (QTest::currentDataTag() == QByteArrayLiteral("https to http"))
            QVERIFY2(error.contains(QStringLiteral("insecure")), qPrintable(error));
    }

    void theListIsRead()
    {
        HubFailure f;
        const auto l = HubListings::parse(listingJson({"config.json", "model.safetensors"}), &f);
        QVERIFY(l);
        QCOMPARE(l->commit, QStringLiteral("abc"));
        QCOMPARE(l->files.size(), 2);
        QCOMPARE(l->find(QStringLiteral("config.json"))->size, std::optional<qint64>(10));
        QVERIFY(l->find(QStringLiteral("config.json"))->sha256.isEmpty());
        QCOMPARE(l->find(QStringLiteral("model.safetensors"))->size, std::optional<qint64>(1000)); // the LFS object's size
        QCOMPARE(l->find(QStringLiteral("model.safetensors"))->sha256, QString(64, QLatin1Char('a')));
        QVERIFY(!HubListings::parse("<html>", &f));
        QVERIFY2(f.message.contains(QStringLiteral("is not the hub's")), qPrintable(f.message));
        QVERIFY(f.kind == HubFailure::Kind::ServerError);
        QVERIFY(!HubListings::parse(R"({"id": "x"})", &f));
    }

    void onlyWhatTheEngineReadsIsFetched_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QStringList>("fetched");
        // GPT-2's repository also holds ONNX, TFLite, Flax, Rust and PyTorch copies: none of them.
        QTest::newRow("gpt2") << "gpt2_f32"
                              << QStringList{".gitattributes", "64-8bits.tflite", "README.md", "config.json", "flax_model.msgpack", "generation_config.json",
                                             "merges.txt", "model.safetensors", "onnx/decoder_model.onnx", "pytorch_model.bin", "rust_model.ot",
                                             "tf_model.h5", "tokenizer.json", "tokenizer_config.json", "vocab.json"}
                              << QStringList{"config.json", "vocab.json", "merges.txt", "model.safetensors"};
        QTest::newRow("bert") << "bert_mlm_f32"
                              << QStringList{"config.json", "coreml/x.mlmodel", "flax_model.msgpack", "model.safetensors", "pytorch_model.bin",
                                             "tokenizer.json", "tokenizer_config.json", "vocab.txt"}
                              << QStringList{"config.json", "vocab.txt", "tokenizer_config.json", "model.safetensors"};
        QTest::newRow("bert without tokenizer_config") << "bert_mlm_f32" << QStringList{"config.json", "model.safetensors", "vocab.txt"}
                                                       << QStringList{"config.json", "vocab.txt", "model.safetensors"};
        // A Llama reads tokenizer.json when there is one (with tokenizer_config.json), not vocab.json and merges.txt.
        QTest::newRow("llama with tokenizer.json")
            << "llama_gqa_tied_f32"
            << QStringList{"config.json", "generation_config.json", "merges.txt", "model.safetensors", "original/consolidated.00.pth",
                           "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.json"}
            << QStringList{"config.json", "tokenizer.json", "tokenizer_config.json", "model.safetensors"};
        QTest::newRow("qwen2 without tokenizer.json") << "qwen2_mqa_f16" << QStringList{"config.json", "merges.txt", "model.safetensors", "vocab.json"}
                                                      << QStringList{"config.json", "vocab.json", "merges.txt", "model.safetensors"};
    }

    void onlyWhatTheEngineReadsIsFetched()
    {
        QFETCH(QString, folder);
        QFETCH(QStringList, files);
        QFETCH(QStringList, fetched);
        HubFailure f;
        const auto plan = HubListings::plan(listingOf(files), fileBytes(kHf + folder + "/config.json"), QStringLiteral("o/m"), &f);
        QVERIFY2(plan, qPrintable(f.message));
        QCOMPARE(names(*plan), fetched);
        QCOMPARE(plan->knownBytes(), 10 * (fetched.size() - 1) + 1000);
    }

    void shardsComeWithTheirIndex()
    {
        const QStringList files{"config.json", "model-00002-of-00002.safetensors", "model-00001-of-00002.safetensors", "model.safetensors.index.json",
                                "tokenizer.json", "pytorch_model-00001-of-00002.bin"};
        HubFailure f;
        const auto plan = HubListings::plan(listingOf(files), fileBytes(kHf + "llama3_untied_bf16_sharded/config.json"), QStringLiteral("o/m"), &f);
        QVERIFY2(plan, qPrintable(f.message));
        QCOMPARE(names(*plan), (QStringList{"config.json", "tokenizer.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors",
                                            "model-00002-of-00002.safetensors"}));
        QCOMPARE(plan->knownBytes(), 10 + 10 + 10 + 1000 + 1000);
    }

    void aModelTheEngineCannotOpenIsRefused_data()
    {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("message");
        const QByteArray gpt2 = fileBytes(kHf + "gpt2_f32/config.json");
        QTest::newRow("t5") << QStringList{"config.json", "model.safetensors"} << QByteArray(R"({"model_type": "t5"})")
                            << "o/m is a model of type \u201Ct5\u201D, which Attention Lab cannot open";
        QTest::newRow("no model_type") << QStringList{"config.json", "model.safetensors"} << QByteArray("{}") << "names no model_type";
        QTest::newRow("only pytorch_model.bin") << QStringList{"config.json", "pytorch_model.bin", "vocab.json", "merges.txt"} << gpt2
                                                << "o/m has its weights only as pytorch_model.bin";
        QTest::newRow("an index without shards") << QStringList{"config.json", "model.safetensors.index.json", "vocab.json", "merges.txt"} << gpt2
                                                 << "o/m has model.safetensors.index.json but none of the shards it points to";
        QTest::newRow("gemma2") << QStringList{"config.json", "model.safetensors"} << QByteArray(R"({"model_type": "gemma2"})")
                                << "o/m is a model of type \u201Cgemma2\u201D, which Attention Lab cannot open: it opens models of type gpt2, "
                                   "bert, llama, mistral, qwen2, qwen3 and gemma3_text";
        QTest::newRow("no weights") << QStringList{"config.json", "vocab.json", "merges.txt"} << gpt2 << "has no model.safetensors";
        QTest::newRow("no merges") << QStringList{"config.json", "model.safetensors", "vocab.json"} << gpt2
                                   << "o/m has no merges.txt, which the tokenizer of a GPT-2 model needs";
        QTest::newRow("no config") << QStringList{"model.safetensors"} << gpt2 << "o/m has no config.json";
        QTest::newRow("too many layers") << QStringList{"config.json", "model.safetensors", "vocab.json", "merges.txt"}
                                         << QByteArray(gpt2).replace("\"n_layer\": 2", "\"n_layer\": 48") << "Attention Lab cannot open o/m: config.json: n_layer is 48";
    }

    void aModelTheEngineCannotOpenIsRefused()
    {
        QFETCH(QStringList, files);
        QFETCH(QByteArray, config);
        QFETCH(QString, message);
        HubFailure f;
        QVERIFY(!HubListings::plan(listingOf(files), config, QStringLiteral("o/m"), &f));
        QVERIFY(f.kind == HubFailure::Kind::Unsupported);
        QCOMPARE(f.exitCode(), 2);
        QVERIFY2(f.message.contains(message), qPrintable(f.message));
    }

    void everyNetworkErrorIsASentence_data()
    {
        QTest::addColumn<int>("error");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        using E = QNetworkReply::NetworkError;
        using K = HubFailure::Kind;
        QTest::newRow("refused") << int(E::ConnectionRefusedError) << int(K::NoNetwork) << "huggingface.co refused the connection";
        QTest::newRow("no name") << int(E::HostNotFoundError) << int(K::HostNotFound) << "the name huggingface.co cannot be resolved";
        QTest::newRow("timeout") << int(E::TimeoutError) << int(K::Timeout) << "did not answer in time";
        QTest::newRow("closed") << int(E::RemoteHostClosedError) << int(K::ConnectionLost) << "closed the connection";
        QTest::newRow("tls") << int(E::SslHandshakeFailedError) << int(K::Insecure) << "the secure connection to huggingface.co failed: detail";
        QTest::newRow("proxy") << int(E::ProxyConnectionRefusedError) << int(K::NoNetwork) << "the network proxy";
        QTest::newRow("other") << int(E::UnknownNetworkError) << int(K::NoNetwork) << "cannot reach huggingface.co: detail";
    }

    void everyNetworkErrorIsASentence()
    {
        QFETCH(int, error);
        QFETCH(int, kind);
        QFETCH(QString, message);
        const HubFailure f = HubGet::networkFailure(error, QUrl(QStringLiteral("https://huggingface.co/api/models/gpt2")), QStringLiteral("detail"));
        QCOMPARE(int(f.kind), kind);
        QVERIFY2(f.message.contains(message), qPrintable(f.message));
        QCOMPARE(f.exitCode(), 1); // it could not be fetched
    }

    void httpErrors()
    {
        const QUrl url(QStringLiteral("https://huggingface.co/x"));
        HubFailure f = HubGet::httpFailure(401, url, QStringLiteral("o/m"), false);
        QVERIFY(f.kind == HubFailure::Kind::Gated);
        QVERIFY2(f.message.contains(QStringLiteral("accept its licence on the hub and give an access token")), qPrintable(f.message));
        QCOMPARE(f.exitCode(), 2);
        f = HubGet::httpFailure(403, url, QStringLiteral("o/m"), true);
        QVERIFY2(f.message.contains(QStringLiteral("refused the access token")), qPrintable(f.message));
        f = HubGet::httpFailure(404, url, QStringLiteral("vocab.json"), false);
        QVERIFY(f.kind == HubFailure::Kind::NotFound);
        QCOMPARE(f.exitCode(), 2);
        f = HubGet::httpFailure(503, url, QStringLiteral("vocab.json"), false);
        QVERIFY2(f.message.contains(QStringLiteral("(HTTP 503)")), qPrintable(f.message));
        QCOMPARE(f.exitCode(), 1);
    }

    void theProgressLine()
    {
        // Rates from the samples given, not from a clock.
        RateMeter meter(5000);
        QCOMPARE(meter.rate(), 0.0);
        meter.add(0, 0);
        meter.add(100, 1'000'000);
        QCOMPARE(meter.rate(), 0.0); // too soon to say
        meter.add(1000, 2'000'000);
        QCOMPARE(meter.rate(), 2'000'000.0);
        meter.add(11000, 12'000'000); // the old samples leave the window
        QCOMPARE(meter.rate(), 1'000'000.0);

        DownloadProgress p;
        p.file = QStringLiteral("model.safetensors");
        p.fileIndex = 3;
        p.fileCount = 4;
        p.fileDone = 120'000'000;
        p.fileTotal = 548'100'000;
        p.done = 121'500'000;
        p.total = 549'600'000;
        QCOMPARE(DownloadText::overall(p, 12'300'000), QStringLiteral("121.5 MB of 549.6 MB \u00B7 12.3 MB/s \u00B7 about 35 s left"));
        QCOMPARE(DownloadText::overall(p, 0), QStringLiteral("121.5 MB of 549.6 MB"));
        QCOMPARE(DownloadText::file(p), QStringLiteral("model.safetensors (4 of 4): 120.0 MB of 548.1 MB"));
        QCOMPARE(DownloadText::timeLeft(600'000'000, 1'000'000), QStringLiteral("about 10 min left"));
        QCOMPARE(DownloadText::timeLeft(-1, 1'000'000), QString());
        p.total = -1;
        QCOMPARE(DownloadText::overall(p, 0), QStringLiteral("121.5 MB"));
    }
};

QTEST_GUILESS_MAIN(TestHubAddress)
#include "tst_hubaddress.moc"
