#include "session/autosave.h"

#include "io/fileio.h"
#include "io/session_json.h"
#include "session/messages.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace attnlab {

namespace {

// A run's files: <id>.running, the marker its process keeps locked, and <id>.attnlab.json.
const QString kMarkerSuffix = QStringLiteral(".running");
const QString kSessionSuffix = QStringLiteral(".attnlab.json");

QString sessionFileOf(const QString& marker)
{
    return marker.chopped(kMarkerSuffix.size()) + kSessionSuffix;
}

/// Takes the lock of an open file without waiting; false when another process (or another
/// descriptor of this one) holds it.
bool tryLock(int fd)
{
    int r;
    do
        r = ::flock(fd, LOCK_EX | LOCK_NB);
    while (r != 0 && errno == EINTR);
    return r == 0;
}

/// Why `path` (a file or a folder) cannot be made, errno `err`, in the interface's language and
/// the words the studio uses for every file it cannot write (messages::cannotWrite): the folder
/// named is the nearest one that exists, the one that is read-only or not ours.
QString cannotMake(const QString& path, int err)
{
    namespace fs = std::filesystem;
    const std::string p = QFile::encodeName(path).toStdString();
    fs::path folder = fs::path(p).parent_path();
    std::error_code ec;
    while (!folder.empty() && folder != folder.root_path() && !fs::exists(folder, ec))
        folder = folder.parent_path();
    const char* reason = err == EROFS                        ? "read_only"
        : err == EACCES || err == EPERM                    ? "no_permission"
        : err == ENOSPC || err == EDQUOT                   ? "disk_full"
        : err == ENOENT || err == ENOTDIR || err == EEXIST ? "not_a_folder"
                                                           : "other";
    return messageText(messages::cannotWrite(p, reason, folder.string(), std::strerror(err)));
}

/// Deletes a session file and what an interrupted save of it left.
void removeSessionFile(const QString& file)
{
    QFile::remove(file);
    QFile::remove(file + QStringLiteral(".part"));
}

} // namespace

// --- A session left behind ----------------------------------------------------------------------

OrphanedSession::OrphanedSession(QString file, QString marker, int lock)
    : m_file(std::move(file))
    , m_marker(std::move(marker))
    , m_lock(lock)
{
}

OrphanedSession::~OrphanedSession()
{
    if (m_lock >= 0)
        ::close(m_lock); // lets go of the claim; the files stay for a later start
}

QDateTime OrphanedSession::savedAt() const
{
    return QFileInfo(m_file).lastModified();
}

QString OrphanedSession::sentence() const
{
    try {
        const auto j = nlohmann::json::parse(readFile(QFile::encodeName(m_file).toStdString(), kMaxSessionBytes));
        return QString::fromStdString(j.value("sentence", ""));
    } catch (const std::exception&) {
        return {};
    }
}

void OrphanedSession::discard()
{
    // The session first: a marker without a session is only ever tidied away.
    removeSessionFile(m_file);
    QFile::remove(m_marker);
}

// --- This run's autosave ----------------------------------------------------------------------

Autosave::Autosave(Session* session, const QString& folder, QObject* parent)
    : QObject(parent)
    , m_session(session)
    , m_folder(folder)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer); // a coarse timer may fire 5% early: "2 s after the last change" means 2 s
    connect(&m_timer, &QTimer::timeout, this, [this] { saveNow(); });
    if (folder.isEmpty()) {
        m_problem = tr("there is no folder for application data");
        return;
    }
    std::error_code made;
    std::filesystem::create_directories(QFile::encodeName(folder).toStdString(), made);
    if (made || !QFileInfo(folder).isDir()) {
        m_problem = cannotMake(folder, made ? made.value() : ENOTDIR);
        return;
    }
    // The marker is locked before it gets its name, so no other run ever sees it unlocked. The
    // name is this process's and this autosave's own: two started in one millisecond (tests do)
    // had one name, and the second's rename replaced the first's marker.
    static std::atomic<int> started = 0;
    const QString id = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"))
        + QStringLiteral("-%1-%2").arg(QCoreApplication::applicationPid()).arg(++started);
    const QString base = QDir(folder).filePath(id);
    const QByteArray starting = QFile::encodeName(base + QStringLiteral(".starting"));
    m_marker = base + kMarkerSuffix;
    m_file = base + kSessionSuffix;
    m_lock = ::open(starting.constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (m_lock < 0 || !tryLock(m_lock) || ::rename(starting.constData(), QFile::encodeName(m_marker).constData()) != 0) {
        m_problem = cannotMake(m_marker, errno);
        if (m_lock >= 0) {
            ::unlink(starting.constData());
            ::close(m_lock);
            m_lock = -1;
        }
        return;
    }
    const auto changed = [this] { noteChange(); };
    connect(session, &Session::inputChanged, this, changed);
    connect(session, &Session::decodingChanged, this, changed);
    connect(session, &Session::stepChanged, this, changed);
    connect(session, &Session::headChanged, this, changed);
    connect(session, &Session::comparisonChanged, this, changed);
}

Autosave::~Autosave()
{
    if (m_lock < 0)
        return; // abandoned, or never started
    removeSessionFile(m_file);
    QFile::remove(m_marker);
    ::close(m_lock);
}

QString Autosave::defaultFolder()
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return data.isEmpty() ? QString() : data + QStringLiteral("/autosave");
}

std::unique_ptr<OrphanedSession> Autosave::findOrphan(const QString& folder)
{
    if (folder.isEmpty())
        return nullptr;
    std::unique_ptr<OrphanedSession> newest;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({QStringLiteral("*") + kMarkerSuffix}, QDir::Files)) {
        const QString marker = dir.filePath(name);
        // Read-only: a lock needs no more, and a read-only home (a crash's work on a read-only
        // file system, or in a folder that is no longer ours) must still offer its work.
        const int fd = ::open(QFile::encodeName(marker).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (!tryLock(fd)) {
            ::close(fd); // a running studio's, or claimed by one starting now
            continue;
        }
        auto orphan = std::make_unique<OrphanedSession>(sessionFileOf(marker), marker, fd);
        if (!QFileInfo::exists(orphan->file())) {
            orphan->discard(); // that run changed nothing: nothing to offer
            continue;
        }
        if (!newest || orphan->savedAt() > newest->savedAt())
            newest = std::move(orphan); // an older one is let go: a later start offers it
    }
    return newest;
}

void Autosave::setLessonPlace(std::function<std::optional<LessonPlace>()> lessonPlace)
{
    m_lessonPlace = std::move(lessonPlace);
}

void Autosave::noteChange()
{
    if (m_lock < 0)
        return;
    // A pause after the last change; changes that never pause are saved every kMaxWaitMs.
    const QDateTime now = m_clock();
    if (!m_timer.isActive())
        m_firstChange = now;
    const qint64 waited = m_firstChange.msecsTo(now);
    m_timer.start(static_cast<int>(std::clamp<qint64>(kMaxWaitMs - waited, 0, kDelayMs)));
}

bool Autosave::saveNow(QString* error)
{
    m_timer.stop();
    if (m_lock < 0) {
        if (error)
            *error = m_problem.isEmpty() ? tr("autosave has stopped") : m_problem;
        return false;
    }
    QString why;
    const bool ok = m_session->saveSession(m_file, &why, m_lessonPlace ? m_lessonPlace() : std::nullopt);
    if (error)
        *error = why;
    if (ok) {
        m_failing = false;
        emit saved();
    } else if (!m_failing) {
        m_failing = true; // said once: a full disk would say it every few seconds
        emit failed(why);
    }
    return ok;
}

void Autosave::abandon()
{
    m_timer.stop();
    disconnect(m_session, nullptr, this, nullptr);
    if (m_lock >= 0)
        ::close(m_lock);
    m_lock = -1;
}

} // namespace attnlab
