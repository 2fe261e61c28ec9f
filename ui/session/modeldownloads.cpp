#include "session/modeldownloads.h"

#include "session/modelsfolder.h"

#include <QCoreApplication>

namespace attnlab {

ModelDownloads* ModelDownloads::instance()
{
    static QPointer<ModelDownloads> downloads;
    if (!downloads) {
        downloads = new ModelDownloads;
        downloads->setParent(QCoreApplication::instance());
    }
    return downloads;
}

ModelDownloads::ModelDownloads()
{
    qRegisterMetaType<DownloadProgress>();
    qRegisterMetaType<DownloadResult>();
    qRegisterMetaType<DownloadPlan>();
    m_thread.setObjectName(QStringLiteral("model downloads"));
}

ModelDownloads::~ModelDownloads()
{
    if (m_job && m_thread.isRunning()) {
        // The download stops where it is: what arrived stays for the next run.
        ModelDownload* job = m_job;
        QMetaObject::invokeMethod(job, [job] { delete job; }, Qt::BlockingQueuedConnection);
    }
    m_thread.quit();
    m_thread.wait();
}

QString ModelDownloads::download(const RepoId& repo, const QString& revision, const QString& name)
{
    DownloadRequest r;
    r.repo = repo;
    r.revision = revision;
    r.name = name;
    const QString folder = r.folderName();
    if (isBusy(folder))
        return folder;
    m_queue.append(r);
    if (!m_job)
        startNext();
    return folder;
}

void ModelDownloads::startNext()
{
    if (m_queue.isEmpty())
        return;
    DownloadRequest r = m_queue.takeFirst();
    // Where from and where to, as they are when its turn comes.
    r.endpoint = HubAddress::endpoint();
    r.token = HubAddress::token();
    QString error;
    ModelsFolder::ensureExists(&error); // when it cannot be made, the download says so
    r.modelsFolder = ModelsFolder::path();
    m_running = r.folderName();
    m_progress = DownloadProgress();
    m_rate.clear();
    m_clock.start();
    if (!m_thread.isRunning())
        m_thread.start();
    auto* job = new ModelDownload(r);
    job->moveToThread(&m_thread);
    m_job = job;
    connect(job, &ModelDownload::progressed, this, [this](const DownloadProgress& p) {
        m_progress = p;
        m_rate.add(m_clock.elapsed(), p.fetched);
        emit progressed(m_running, p);
    });
    connect(job, &ModelDownload::finished, this, [this, job](const DownloadResult& result) {
        job->deleteLater(); // in its thread
        m_job = nullptr;
        const QString name = m_running;
        m_running.clear();
        m_failures.insert(name, result.failure);
        emit finished(name, result);
        startNext();
    });
    emit started(m_running);
    QMetaObject::invokeMethod(job, &ModelDownload::start, Qt::QueuedConnection);
}

void ModelDownloads::cancel(const QString& name)
{
    if (name == m_running && m_job) {
        QMetaObject::invokeMethod(m_job, &ModelDownload::cancel, Qt::QueuedConnection);
        return;
    }
    for (qsizetype i = 0; i < m_queue.size(); ++i) {
        if (m_queue[i].folderName() != name)
            continue;
        const DownloadRequest r = m_queue.takeAt(i);
        DownloadResult result;
        result.failure = {HubFailure::Kind::Cancelled, tr("cancelled before it started")};
        emit finished(name, result);
        return;
    }
}

bool ModelDownloads::isBusy(const QString& name) const
{
    if (name == m_running)
        return true;
    return std::any_of(m_queue.begin(), m_queue.end(), [&](const DownloadRequest& r) { return r.folderName() == name; });
}

} // namespace attnlab
