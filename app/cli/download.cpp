// attention-lab-cli download REPO_ID [--revision R] [--endpoint URL] [--models-dir DIR]: a model
// folder from the Hugging Face Hub or a mirror into the Models folder (docs/pretrained-models.md,
// "Getting a model"), as File ▸ Models ▸ Get models… does in the studio: only the files the engine
// reads, verified, the folder under its final name only when complete, resumed where an earlier
// run stopped. Progress on stderr (after ATTNLAB_PROGRESS_AFTER_MS, like every long job); the
// folder on stdout. Exit codes: 2 when the request cannot be met as given (an option, a name that
// is not a repository's, no such model or revision, a gated model without an accepted token
// (HF_TOKEN), a model Attention Lab cannot open); 1 when it could not be fetched or written
// (network, server, checksum, a full disk, a folder in the way). SIGINT, SIGTERM, SIGHUP stop it
// and keep what arrived for the next run.

#include "options.h"
#include "outputs.h"

#include "hub/downloadtext.h"
#include "hub/modeldownload.h"
#include "session/modelsfolder.h"
#include "text/printable.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <iostream>

namespace attnlab::cli {

namespace {

struct DownloadOptions {
    QString repo;
    QString revision = QStringLiteral("main");
    std::optional<QString> endpoint;
    std::optional<QString> modelsDir;
};

DownloadOptions parseDownloadOptions(const std::vector<std::string>& args)
{
    DownloadOptions o;
    bool repoGiven = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&]() -> QString {
            if (i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            return QString::fromStdString(args[++i]);
        };
        if (a == "--revision")
            o.revision = value();
        else if (a == "--endpoint")
            o.endpoint = value();
        else if (a == "--models-dir")
            o.modelsDir = value();
        else if (a.starts_with("-"))
            throw UsageError("unknown option " + inQuotes(a) + " (see --help)");
        else if (repoGiven)
            throw UsageError("download fetches one model at a time, got " + inQuotes(o.repo.toStdString()) + " and " + inQuotes(a));
        else
            o.repo = QString::fromStdString(a), repoGiven = true;
    }
    if (!repoGiven)
        throw UsageError("download needs the model's name on the hub, e.g. openai-community/gpt2 (or gpt2, bert-base-uncased, "
                         "bert-base-chinese)");
    return o;
}

/// The request the options describe, checked. Throws UsageError.
DownloadRequest requestOf(const DownloadOptions& o)
{
    QString error;
    const std::optional<RepoId> repo = HubAddress::parseRepoId(o.repo, &error);
    if (!repo)
        throw UsageError(error.toStdString());
    if (!HubAddress::checkRevision(o.revision, &error))
        throw UsageError("--revision: " + error.toStdString());
    DownloadRequest r;
    r.repo = *repo;
    r.revision = o.revision;
    // The command line's --endpoint, else HF_ENDPOINT, else the studio's setting, else the hub.
    const std::optional<QString> endpoint = HubAddress::checkEndpoint(o.endpoint.value_or(HubAddress::endpoint()), &error);
    if (!endpoint)
        throw UsageError((o.endpoint ? "--endpoint: " : "HF_ENDPOINT: ") + error.toStdString());
    r.endpoint = *endpoint;
    r.token = HubAddress::token();
    if (o.modelsDir)
        ModelsFolder::setForThisRun(*o.modelsDir);
    r.modelsFolder = ModelsFolder::path();
    return r;
}

/// Progress lines on stderr, a line per tenth of the whole (or per 10 MB when the size is not
/// known), once the job has run for ATTNLAB_PROGRESS_AFTER_MS (default 2 s).
class ProgressLines {
public:
    explicit ProgressLines(QString repo)
        : m_repo(std::move(repo))
    {
        bool ok = false;
        const int ms = qEnvironmentVariableIntValue("ATTNLAB_PROGRESS_AFTER_MS", &ok);
        m_quietMs = ok ? ms : 2000;
        m_clock.start();
    }

    void show(const DownloadProgress& p)
    {
        m_rate.add(m_clock.elapsed(), p.fetched);
        if (p.phase != DownloadProgress::Phase::Downloading || m_clock.elapsed() < m_quietMs)
            return;
        const qint64 step = p.total > 0 ? p.done * 10 / p.total : p.done / 10'000'000;
        if (step == m_last)
            return;
        m_last = step;
        std::cerr << "attention-lab-cli: downloading " << printable(m_repo.toStdString()) << ": "
                  << DownloadText::overall(p, m_rate.rate()).toStdString() << '\n';
    }

private:
    QString m_repo;
    int m_quietMs = 2000;
    QElapsedTimer m_clock;
    RateMeter m_rate;
    qint64 m_last = -1;
};

/// Runs the download in this thread's event loop; a signal cancels it.
DownloadResult runJob(const DownloadRequest& request)
{
    ModelDownload job(request);
    ProgressLines lines(request.repo.id());
    DownloadResult result;
    QEventLoop loop;
    QObject::connect(&job, &ModelDownload::progressed, &loop, [&lines](const DownloadProgress& p) { lines.show(p); });
    QObject::connect(&job, &ModelDownload::finished, &loop, [&](const DownloadResult& r) {
        result = r;
        loop.quit();
    });
    const InterruptScope interrupts;
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, &job, [&] {
        if (interrupted()) {
            watch.stop();
            job.cancel();
        }
    });
    watch.start(50);
    QTimer::singleShot(0, &job, &ModelDownload::start);
    loop.exec();
    return result;
}

} // namespace

int runDownload(const std::vector<std::string>& args, char* argv0)
{
    const DownloadOptions options = parseDownloadOptions(args);
    static int qtArgc = 1;
    static char* qtArgv[] = {argv0, nullptr};
    QCoreApplication app(qtArgc, qtArgv);
    // Qt's own chatter would break the one-line-error promise; failures are reported below.
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    const DownloadRequest request = requestOf(options);
    const DownloadResult r = runJob(request);
    const QString folder = QDir::toNativeSeparators(r.folder);
    if (r.failure) {
        if (!interrupted())
            std::cerr << "attention-lab-cli: error: " << printable(r.failure.message.toStdString()) << '\n';
        return r.failure.exitCode();
    }
    if (r.alreadyThere) {
        std::cout << printable(request.repo.id().toStdString()) << " is in " << printable(folder.toStdString())
                  << " already: nothing to download\n";
        return 0;
    }
    std::cout << "downloaded " << printable(request.repo.id().toStdString())
              << (r.commit.isEmpty() ? std::string() : " (commit " + r.commit.left(10).toStdString() + ")") << " into "
              << printable(folder.toStdString()) << ": " << r.files << " files, " << DownloadText::bytes(r.bytes).toStdString() << '\n';
    return 0;
}

} // namespace attnlab::cli
