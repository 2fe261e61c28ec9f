#pragma once
// The studio's downloads of models (docs/pretrained-models.md, "Getting a model"): one object per
// program, which File ▸ Models ▸ Get models… and the lesson banner's Download button share, so both
// show the same progress. Each download is a ModelDownload (hub/modeldownload.h) in a thread of
// its own — the network, the writing and the checksums never hold up the studio — one at a time:
// a later request waits its turn. It downloads into the Models folder in use
// (session/modelsfolder.h) from HubAddress's endpoint, with its token.

#include "hub/downloadtext.h"
#include "hub/modeldownload.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <optional>

namespace attnlab {

class ModelDownloads : public QObject {
    Q_OBJECT
public:
    /// The program's (made on first use, a child of the application).
    static ModelDownloads* instance();
    ~ModelDownloads() override;

    /// Downloads `repo` at `revision` into the Models folder as `name` (empty: the repository's
    /// name). A name already waiting or downloading is not asked for twice. Returns the name.
    QString download(const RepoId& repo, const QString& revision = QStringLiteral("main"), const QString& name = {});
    /// Stops the download of `name` (what arrived is kept), or takes it out of the queue.
    void cancel(const QString& name);
    /// True while `name` waits or downloads.
    bool isBusy(const QString& name) const;
    /// The name downloading now, or empty.
    QString running() const { return m_running; }
    /// The running download's last progress.
    const DownloadProgress& progress() const { return m_progress; }
    /// Its bytes per second over the last seconds.
    double rate() const { return m_rate.rate(); }
    /// The last failure of `name` (kind None when it succeeded or never ran).
    HubFailure lastFailure(const QString& name) const { return m_failures.value(name); }

signals:
    void started(const QString& name);
    void progressed(const QString& name, const attnlab::DownloadProgress& progress);
    void finished(const QString& name, const attnlab::DownloadResult& result);

private:
    ModelDownloads();
    void startNext();

    QThread m_thread;
    QList<DownloadRequest> m_queue;
    QPointer<ModelDownload> m_job;
    QString m_running;
    DownloadProgress m_progress;
    RateMeter m_rate;
    QElapsedTimer m_clock;
    QHash<QString, HubFailure> m_failures;
};

} // namespace attnlab
