#include "hub/modeldownload.h"

#include "hub/hubget.h"
#include "model/catalog.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QSaveFile>
#include <QStorageInfo>

#include <cerrno>

#include <unistd.h>

namespace attnlab {

namespace {

constexpr char kStaging[] = ".downloads";
constexpr char kIncomplete[] = ".incomplete";
constexpr char kManifest[] = ".manifest.json";
constexpr int kMaxResumes = 3;   ///< a dropped connection is resumed this often per file
constexpr int kReportMs = 100;   ///< progress at most this often

struct HubText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Hub)
};

QString native(const QString& path)
{
    return QDir::toNativeSeparators(path);
}

QString bytesText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
}

/// What the staging folder's manifest says about a file: the same as the plan's, from the same
/// commit or with its SHA-256 (a small file without one may have changed under the same size).
bool sameFile(const QJsonObject& manifest, const QString& commit, const HubFile& f)
{
    for (const QJsonValue& v : manifest.value(QStringLiteral("files")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("name")).toString() != f.name)
            continue;
        const bool sameSize = o.value(QStringLiteral("size")).toDouble(-1) == static_cast<double>(f.size.value_or(-1));
        const bool sameSha = o.value(QStringLiteral("sha256")).toString() == f.sha256;
        return sameSize && sameSha && (!f.sha256.isEmpty() || manifest.value(QStringLiteral("commit")).toString() == commit);
    }
    return false;
}

QByteArray manifestJson(const DownloadRequest& r, const QString& commit, const DownloadPlan& plan)
{
    QJsonArray files;
    for (const HubFile& f : plan.files)
        files.append(QJsonObject{{"name", f.name}, {"size", f.size ? QJsonValue(static_cast<double>(*f.size)) : QJsonValue()}, {"sha256", f.sha256}});
    return QJsonDocument(QJsonObject{{"repo", r.repo.id()}, {"revision", r.revision}, {"commit", commit}, {"files", files}}).toJson();
}

/// Writes `bytes` to `path` whole or not at all. Returns why not, or an empty failure.
HubFailure writeWhole(const QString& path, const QByteArray& bytes)
{
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.commit())
        return {};
    const bool full = errno == ENOSPC || errno == EDQUOT;
    return {full ? HubFailure::Kind::DiskFull : HubFailure::Kind::WriteFailed,
            full ? HubText::tr("the disk is full: %1 cannot be written").arg(native(path))
                 : HubText::tr("%1 cannot be written: %2").arg(native(path), f.errorString())};
}

} // namespace

ModelDownload::ModelDownload(DownloadRequest request, QObject* parent)
    : QObject(parent)
    , m_request(std::move(request))
{
    m_file.setParent(this); // it moves to the download's thread with it
}

ModelDownload::~ModelDownload() = default;

QString ModelDownload::stagingFolder(const QString& modelsFolder, const QString& name)
{
    return QDir(modelsFolder).filePath(QStringLiteral("%1/%2").arg(QLatin1String(kStaging), name));
}

QString ModelDownload::stagingFolder() const
{
    return stagingFolder(m_request.modelsFolder, m_request.folderName());
}

QString ModelDownload::finalFolder() const
{
    return QDir(m_request.modelsFolder).filePath(m_request.folderName());
}

qint64 ModelDownload::partialBytes(const QString& modelsFolder, const QString& name)
{
    qint64 sum = 0;
    const QDir dir(stagingFolder(modelsFolder, name));
    for (const QFileInfo& f : dir.entryInfoList(QDir::Files | QDir::Hidden))
        sum += f.fileName() == QLatin1String(kManifest) ? 0 : f.size();
    return sum;
}

QString ModelDownload::stagedPath(const QString& file) const
{
    return QDir(stagingFolder()).filePath(file);
}

HubGet* ModelDownload::makeGet(const QString& file, const QString& what)
{
    const QUrl url = file.isEmpty() ? HubAddress::listingUrl(m_request.endpoint, m_request.repo, m_request.revision)
                                    : HubAddress::fileUrl(m_request.endpoint, m_request.repo, m_request.revision, file);
    auto* get = new HubGet(m_network, url, what, this);
    get->setToken(m_request.token, QUrl(m_request.endpoint).host());
    m_get = get;
    return get;
}

void ModelDownload::start()
{
    // The system's proxy (http_proxy, https_proxy, no_proxy, the desktop's settings); a mirror on
    // this computer is reached directly.
    QNetworkProxyFactory::setUseSystemConfiguration(true);
    m_network = new QNetworkAccessManager(this);
    const QString host = QUrl(m_request.endpoint).host();
    if (host == u"localhost" || QHostAddress(host).isLoopback())
        m_network->setProxy(QNetworkProxy::NoProxy);
    m_sinceReport.start();
    m_progress.phase = DownloadProgress::Phase::Listing;
    report(true);
    HubGet* get = makeGet({}, HubText::tr("the list of files of %1").arg(m_request.repo.id()));
    get->setMemoryLimit(HubListings::kMaxListingBytes);
    connect(get, &HubGet::finished, this, &ModelDownload::onListing);
    get->start();
}

void ModelDownload::cancel()
{
    m_cancelled = true;
    const QString message = HubText::tr("cancelled: what arrived is kept, and the next download of %1 goes on from there").arg(m_request.repo.id());
    if (m_get)
        m_get->abort(HubFailure::Kind::Cancelled, message);
    else
        fail({HubFailure::Kind::Cancelled, message});
}

void ModelDownload::onListing()
{
    HubGet* get = m_get;
    get->deleteLater();
    m_get = nullptr;
    const QString repo = m_request.repo.id();
    const QString where = QUrl(m_request.endpoint).host();
    if (get->status() == 404)
        return fail({HubFailure::Kind::NotFound, HubText::tr("there is no model %1 with the revision %2 on %3 (HTTP 404): check its name and revision")
                                                     .arg(repo, m_request.revision, where)});
    if (get->failure().kind == HubFailure::Kind::Gated && m_request.token.isEmpty())
        return fail({HubFailure::Kind::Gated, HubText::tr("%1 is gated or private (HTTP %2): accept its licence on the hub and give an access token "
                                                          "(HF_TOKEN, or the token field of File \u25B8 Models \u25B8 Get models\u2026)")
                                                  .arg(repo)
                                                  .arg(get->status())});
    if (get->failure())
        return fail(get->failure());
    HubFailure failure;
    const std::optional<HubListing> listing = HubListings::parse(get->body(), &failure);
    if (!listing)
        return fail(failure);
    if (HubFailure f = HubListings::checkListing(*listing, repo))
        return fail(f);
    m_listing = *listing;
    HubGet* config = makeGet(QStringLiteral("config.json"), QStringLiteral("config.json"));
    config->setMemoryLimit(static_cast<qint64>(kMaxModelConfigBytes));
    connect(config, &HubGet::finished, this, &ModelDownload::onConfig);
    config->start();
}

void ModelDownload::onConfig()
{
    HubGet* get = m_get;
    get->deleteLater();
    m_get = nullptr;
    if (get->failure())
        return fail(get->failure());
    m_config = get->body();
    HubFailure failure;
    const std::optional<DownloadPlan> plan = HubListings::plan(m_listing, m_config, m_request.repo.id(), &failure);
    if (!plan)
        return fail(failure);
    m_plan = *plan;
    const HubFile& config = m_plan.files.front();
    if (config.size && *config.size != m_config.size())
        return fail({HubFailure::Kind::ServerError, HubText::tr("config.json has %1 bytes, and the list of files says %2").arg(m_config.size()).arg(*config.size)});
    emit planned(m_plan);
    if (prepare())
        fetchNext();
}

/// The final folder, the lock, the staging folder and the room on the disk. False after fail().
bool ModelDownload::prepare()
{
    const QString final = finalFolder();
    if (QFileInfo::exists(final) || QFileInfo(final).isSymLink()) {
        // A complete download of the same files is left as it is; anything else is in the way.
        bool complete = QFileInfo(final).isDir();
        for (const HubFile& f : m_plan.files) {
            const QFileInfo info(QDir(final).filePath(f.name));
            complete = complete && info.isFile() && (!f.size || info.size() == *f.size);
        }
        if (!complete) {
            fail({HubFailure::Kind::WriteFailed, HubText::tr("%1 is already there and is not a complete download of %2: move it away or remove it, "
                                                             "then download again")
                                                     .arg(native(final), m_request.repo.id())});
            return false;
        }
        DownloadResult r;
        r.alreadyThere = true;
        r.folder = final;
        r.commit = m_listing.commit;
        r.files = static_cast<int>(m_plan.files.size());
        r.bytes = m_plan.knownBytes();
        m_finished = true;
        emit finished(r);
        return false;
    }
    return prepareStaging();
}

bool ModelDownload::prepareStaging()
{
    const QString staging = stagingFolder();
    const QString parent = QFileInfo(staging).path();
    if (!QDir().mkpath(parent)) {
        fail({HubFailure::Kind::WriteFailed, HubText::tr("the folder %1 cannot be made").arg(native(parent))});
        return false;
    }
    m_lock = std::make_unique<QLockFile>(staging + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0); // stale only when its process has ended
    if (!m_lock->tryLock(0)) {
        m_lock.reset();
        fail({HubFailure::Kind::Busy, HubText::tr("%1 is being downloaded already, by another window or command").arg(m_request.repo.id())});
        return false;
    }
    m_madeStaging = !QFileInfo::exists(staging);
    if (!QDir().mkpath(staging)) {
        fail({HubFailure::Kind::WriteFailed, HubText::tr("the folder %1 cannot be made").arg(native(staging))});
        return false;
    }
    // What an earlier run left is kept where it is the same file; the rest goes.
    QFile old(stagedPath(QLatin1String(kManifest)));
    const QJsonObject manifest = old.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(old.read(1 << 20)).object() : QJsonObject();
    old.close();
    const bool sameRepo = manifest.value(QStringLiteral("repo")).toString() == m_request.repo.id();
    qint64 needed = 0;
    for (const HubFile& f : m_plan.files) {
        const bool keep = sameRepo && sameFile(manifest, m_listing.commit, f);
        for (const QString& path : {stagedPath(f.name), stagedPath(f.name + QLatin1String(kIncomplete))}) {
            if (!keep)
                QFile::remove(path);
        }
        const qint64 have = std::max(QFileInfo(stagedPath(f.name)).size(), QFileInfo(stagedPath(f.name + QLatin1String(kIncomplete))).size());
        needed += std::max<qint64>(0, f.size.value_or(0) - have);
    }
    if (HubFailure f = writeWhole(stagedPath(QLatin1String(kManifest)), manifestJson(m_request, m_listing.commit, m_plan))) {
        fail(f);
        return false;
    }
    const qint64 free = QStorageInfo(staging).bytesAvailable();
    if (free >= 0 && free < needed) {
        fail({HubFailure::Kind::DiskFull, HubText::tr("not enough room on the disk of %1: %2 needs %3 more, and %4 are free")
                                              .arg(native(m_request.modelsFolder), m_request.repo.id(), bytesText(needed), bytesText(free))});
        return false;
    }
    m_progress.fileCount = static_cast<int>(m_plan.files.size());
    m_progress.total = m_plan.sizesKnown() ? m_plan.knownBytes() : -1;
    m_progress.phase = DownloadProgress::Phase::Downloading;
    // config.json is here already (it was read to check the model).
    if (!QFileInfo::exists(stagedPath(QStringLiteral("config.json")))) {
        if (HubFailure f = writeWhole(stagedPath(QStringLiteral("config.json")), m_config)) {
            fail(f);
            return false;
        }
    }
    return true;
}

void ModelDownload::fetchNext()
{
    while (m_index < m_plan.files.size()) {
        const HubFile& f = m_plan.files[m_index];
        const QFileInfo done(stagedPath(f.name));
        if (!done.isFile() || (f.size && done.size() != *f.size))
            break;
        m_doneBefore += done.size(); // verified before it got its name
        ++m_index;
    }
    if (m_index == m_plan.files.size()) {
        commit();
        return;
    }
    m_attempts = 0;
    m_restartedRange = false;
    startFile();
}

void ModelDownload::startFile()
{
    const HubFile& f = m_plan.files[m_index];
    m_file.close();
    m_file.setFileName(stagedPath(f.name + QLatin1String(kIncomplete)));
    if (!m_file.open(QIODevice::ReadWrite | QIODevice::Unbuffered)) {
        fail({HubFailure::Kind::WriteFailed, HubText::tr("%1 cannot be written: %2").arg(native(m_file.fileName()), m_file.errorString())});
        return;
    }
    m_expectedSha = f.sha256;
    m_expectedSize = f.size;
    qint64 have = m_file.size();
    if (m_expectedSize && have > *m_expectedSize)
        have = m_file.resize(0) ? 0 : have;
    // The bytes already here count in the checksum: read them once (off the GUI thread).
    m_hash.reset();
    m_file.seek(0);
    for (QByteArray chunk; !(chunk = m_file.read(1 << 20)).isEmpty();)
        m_hash.addData(chunk);
    m_file.seek(m_file.size());
    m_progress.file = f.name;
    m_progress.fileIndex = static_cast<int>(m_index);
    m_progress.fileDone = have;
    m_progress.fileTotal = f.size.value_or(-1);
    m_progress.done = m_doneBefore + have;
    report(true);
    if (m_expectedSize && have == *m_expectedSize) {
        finishFile();
        return;
    }
    HubGet* get = makeGet(f.name, f.name);
    get->setRangeStart(have);
    get->setSink([this](const QByteArray& piece) { return keep(piece); });
    connect(get, &HubGet::responseStarted, this, &ModelDownload::onFileStarted);
    connect(get, &HubGet::finished, this, &ModelDownload::onFileDone);
    get->start();
}

void ModelDownload::onFileStarted()
{
    const HubFile& f = m_plan.files[m_index];
    if (m_get->linkedSize() && f.size && *m_get->linkedSize() != *f.size) {
        m_get->abort(HubFailure::Kind::ServerError, HubText::tr("%1 changed on the hub while it was being downloaded: try again").arg(f.name));
        return;
    }
    if (m_expectedSha.isEmpty())
        m_expectedSha = m_get->linkedSha256(); // a mirror's list without checksums
    if (!m_expectedSize && m_get->totalSize())
        m_expectedSize = m_get->totalSize();
    if (m_get->bodyOffset() == 0 && m_file.size() > 0) {
        // The server sends the whole file (it ignored the Range): start it again.
        m_file.resize(0);
        m_file.seek(0);
        m_hash.reset();
        m_progress.fileDone = 0;
        m_progress.done = m_doneBefore;
    }
}

HubFailure ModelDownload::keep(const QByteArray& piece)
{
    if (m_expectedSize && m_file.size() + piece.size() > *m_expectedSize)
        return {HubFailure::Kind::ServerError, HubText::tr("the server sent more of %1 than its size, %2 bytes").arg(m_progress.file).arg(*m_expectedSize)};
    errno = 0;
    if (m_file.write(piece) != piece.size()) {
        // A short write leaves errno unset: the room left says it too.
        const bool full = errno == ENOSPC || errno == EDQUOT || QStorageInfo(m_file.fileName()).bytesAvailable() < piece.size();
        return {full ? HubFailure::Kind::DiskFull : HubFailure::Kind::WriteFailed,
                full ? HubText::tr("the disk is full: %1 cannot be written further").arg(native(m_file.fileName()))
                     : HubText::tr("%1 cannot be written: %2").arg(native(m_file.fileName()), m_file.errorString())};
    }
    m_hash.addData(piece);
    m_progress.fileDone += piece.size();
    m_progress.done += piece.size();
    m_progress.fetched += piece.size();
    report();
    return {};
}

void ModelDownload::onFileDone()
{
    HubGet* get = m_get;
    get->deleteLater();
    m_get = nullptr;
    const HubFailure failure = get->failure();
    if (!failure) {
        finishFile();
        return;
    }
    if (m_cancelled || failure.kind == HubFailure::Kind::Cancelled) {
        fail(failure);
        return;
    }
    if (get->status() == 416 && !m_restartedRange) {
        // The server has no bytes past what is here: the partial file is not its file. Again from 0.
        m_restartedRange = true;
        m_file.resize(0);
        startFile();
        return;
    }
    if (failure.kind == HubFailure::Kind::ConnectionLost && m_attempts < kMaxResumes) {
        ++m_attempts;
        startFile(); // goes on from what arrived
        return;
    }
    fail(failure);
}

void ModelDownload::finishFile()
{
    const HubFile& f = m_plan.files[m_index];
    ::fsync(m_file.handle());
    const qint64 size = m_file.size();
    const QString sha = QString::fromLatin1(m_hash.result().toHex());
    const bool sizeOk = !m_expectedSize || size == *m_expectedSize;
    const bool shaOk = m_expectedSha.isEmpty() || sha == m_expectedSha;
    m_file.close();
    if (!sizeOk || !shaOk) {
        QFile::remove(m_file.fileName());
        retryFile({HubFailure::Kind::Checksum,
                       sizeOk ? HubText::tr("%1 arrived twice with other bytes than the hub announced (SHA-256 %2, expected %3); it was removed: "
                                            "try again later, or from another mirror")
                                    .arg(f.name, sha.left(12) + QStringLiteral("\u2026"), m_expectedSha.left(12) + QStringLiteral("\u2026"))
                              : HubText::tr("%1 arrived twice with %2 bytes instead of %3; it was removed: try again later, or from another mirror")
                                    .arg(f.name)
                                    .arg(size)
                                    .arg(m_expectedSize.value_or(0))});
        return;
    }
    const QString done = stagedPath(f.name);
    QFile::remove(done);
    if (!QFile::rename(m_file.fileName(), done)) {
        fail({HubFailure::Kind::WriteFailed, HubText::tr("%1 cannot be renamed to %2").arg(native(m_file.fileName()), native(done))});
        return;
    }
    m_doneBefore += size;
    ++m_index;
    fetchNext();
}

/// A file that failed its checksum is fetched once more; the second failure is `failure`.
void ModelDownload::retryFile(const HubFailure& failure)
{
    const QString name = m_plan.files[m_index].name;
    if (m_retried.contains(name)) {
        fail(failure);
        return;
    }
    m_retried.insert(name);
    startFile();
}

void ModelDownload::commit()
{
    m_progress.phase = DownloadProgress::Phase::Finishing;
    m_progress.done = m_doneBefore;
    report(true);
    QFile::remove(stagedPath(QLatin1String(kManifest)));
    const QString final = finalFolder();
    if (QFileInfo::exists(final) || !QDir().rename(stagingFolder(), final)) {
        fail({HubFailure::Kind::WriteFailed, HubText::tr("%1 cannot be moved to %2").arg(native(stagingFolder()), native(final))});
        return;
    }
    m_lock.reset(); // removes the lock file
    QDir(m_request.modelsFolder).rmdir(QLatin1String(kStaging)); // only when empty
    DownloadResult r;
    r.folder = final;
    r.commit = m_listing.commit;
    r.files = static_cast<int>(m_plan.files.size());
    r.bytes = m_doneBefore;
    r.fetched = m_progress.fetched;
    m_finished = true;
    emit finished(r);
}

void ModelDownload::fail(HubFailure failure)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_get) {
        HubGet* get = m_get;
        m_get = nullptr;
        disconnect(get, nullptr, this, nullptr);
        get->abort(failure.kind, failure.message);
        get->deleteLater();
    }
    m_file.close();
    // A staging folder this run made and that holds nothing worth resuming goes.
    if (m_madeStaging && partialBytes(m_request.modelsFolder, m_request.folderName()) == 0) {
        QDir(stagingFolder()).removeRecursively();
        QDir(m_request.modelsFolder).rmdir(QLatin1String(kStaging));
    }
    m_lock.reset();
    DownloadResult r;
    r.failure = std::move(failure);
    r.folder = finalFolder();
    r.commit = m_listing.commit;
    r.fetched = m_progress.fetched;
    emit finished(r);
}

void ModelDownload::report(bool force)
{
    if (!force && m_sinceReport.isValid() && m_sinceReport.elapsed() < kReportMs)
        return;
    m_sinceReport.restart();
    emit progressed(m_progress);
}

} // namespace attnlab
