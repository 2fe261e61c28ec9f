#pragma once
// Downloading one model folder from the Hugging Face Hub or a mirror (docs/pretrained-models.md,
// "Getting a model"): the repository's file list, its config.json (a model Attention Lab cannot
// open is refused before anything else is fetched), then only the files the engine reads
// (hub/hublisting.h), each verified — the SHA-256 the hub announces for large files, the size for
// the others — into a staging folder, <Models folder>/.downloads/<name>/, that is renamed to
// <Models folder>/<name>/ only when every file is complete: never a half folder under the final
// name. A cancel, a lost connection or the end of the program keeps what arrived; the next
// download of the same model goes on from there (HTTP Range). A connection that drops is resumed
// by itself a few times; a file that fails its checksum is removed and fetched once more.
//
// The object is driven by its thread's event loop (the studio runs it in a thread of its own,
// session/modeldownloads.h; the command line in its main thread) and reports by signals.

#include "hub/hubaddress.h"
#include "hub/hubfailure.h"
#include "hub/hublisting.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <memory>

class QLockFile;
class QNetworkAccessManager;

namespace attnlab {

class HubGet;

struct DownloadRequest {
    RepoId repo;
    QString revision = QStringLiteral("main");
    QString endpoint;     ///< "https://huggingface.co" (HubAddress::endpoint())
    QString token;        ///< for gated models; may be empty
    QString modelsFolder; ///< where the model's folder goes
    QString name;         ///< the folder's name; empty: the repository's name ("gpt2")

    QString folderName() const { return name.isEmpty() ? repo.name : name; }
};

struct DownloadProgress {
    enum class Phase {
        Listing,     ///< reading the file list and config.json
        Downloading, ///< fetching the files
        Finishing,   ///< every file is there: moving the folder into place
    };
    Phase phase = Phase::Listing;
    QString file;           ///< the file being fetched
    int fileIndex = 0;      ///< 0-based
    int fileCount = 0;
    qint64 fileDone = 0;    ///< its bytes on disk
    qint64 fileTotal = -1;  ///< its size (-1: not known)
    qint64 done = 0;        ///< bytes of every file on disk, including those of an earlier run
    qint64 total = -1;      ///< the sizes of every file (-1: not all known)
    qint64 fetched = 0;     ///< bytes received in this run (for the rate)
};

struct DownloadResult {
    HubFailure failure;        ///< kind None on success
    bool alreadyThere = false; ///< the folder held the model already: nothing was fetched
    QString folder;            ///< the model's folder
    QString commit;            ///< the revision's commit, when the hub said
    int files = 0;
    qint64 bytes = 0;          ///< the folder's files
    qint64 fetched = 0;        ///< received in this run
};

class ModelDownload : public QObject {
    Q_OBJECT
public:
    explicit ModelDownload(DownloadRequest request, QObject* parent = nullptr);
    ~ModelDownload() override;

    const DownloadRequest& request() const { return m_request; }
    QString finalFolder() const;
    QString stagingFolder() const;
    /// <modelsFolder>/.downloads/<name>: where a download of `name` is put together.
    static QString stagingFolder(const QString& modelsFolder, const QString& name);
    /// The bytes a stopped download of `name` left to resume from; 0 when there is none.
    static qint64 partialBytes(const QString& modelsFolder, const QString& name);

public slots:
    /// Starts; from here on everything happens in this object's thread.
    void start();
    /// Stops; what arrived is kept for the next download of the same model. finished() follows
    /// with a failure of kind Cancelled.
    void cancel();

signals:
    /// The files to fetch are known (before any of them is).
    void planned(const attnlab::DownloadPlan& plan);
    void progressed(const attnlab::DownloadProgress& progress);
    void finished(const attnlab::DownloadResult& result);

private:
    HubGet* makeGet(const QString& file, const QString& what);
    void onListing();
    void onConfig();
    bool prepare();
    bool prepareStaging();
    void fetchNext();
    void startFile();
    void onFileStarted();
    HubFailure keep(const QByteArray& piece);
    void onFileDone();
    void finishFile();
    void retryFile(const HubFailure& failure);
    void commit();
    void fail(HubFailure failure);
    void report(bool force = false);
    QString stagedPath(const QString& file) const;

    DownloadRequest m_request;
    QNetworkAccessManager* m_network = nullptr;
    std::unique_ptr<QLockFile> m_lock;
    QPointer<HubGet> m_get;
    HubListing m_listing;
    QByteArray m_config;
    DownloadPlan m_plan;
    DownloadProgress m_progress;
    int m_index = 0;             ///< the file being fetched
    qint64 m_doneBefore = 0;     ///< bytes of the files before it
    QFile m_file;                ///< its ".incomplete" file
    QCryptographicHash m_hash{QCryptographicHash::Sha256};
    QString m_expectedSha;       ///< its SHA-256 (from the list, else the hub's redirect)
    std::optional<qint64> m_expectedSize;
    int m_attempts = 0;          ///< resumes after a lost connection, for this file
    QSet<QString> m_retried;     ///< files fetched again after a checksum failure
    bool m_restartedRange = false;
    bool m_madeStaging = false;
    bool m_finished = false;
    bool m_cancelled = false;
    QElapsedTimer m_sinceReport;
};

} // namespace attnlab

Q_DECLARE_METATYPE(attnlab::DownloadPlan)
Q_DECLARE_METATYPE(attnlab::DownloadProgress)
Q_DECLARE_METATYPE(attnlab::DownloadResult)
