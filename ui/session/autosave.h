#pragma once
// No lost work: the studio's session is saved a moment after every change (and at the latest
// every few seconds while changes keep coming) into a file of this run, in the autosave folder
// (under the application data folder). While the program runs, a marker file of the run is held
// locked; a clean quit deletes both. After a crash or a kill the lock is gone with the process
// and the files stay behind: the next start finds them (findOrphan) and offers to restore them.
// Several studios may run at once: each has its own files, and a running one's are never offered.

#include "session/session.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace attnlab {

/// The autosaved session of a run that ended without a clean quit. While this object lives it
/// is claimed: no other studio starting meanwhile offers it. Its files stay unless discard()
/// is called.
class OrphanedSession {
public:
    OrphanedSession(QString file, QString marker, int lock);
    ~OrphanedSession();
    OrphanedSession(const OrphanedSession&) = delete;
    OrphanedSession& operator=(const OrphanedSession&) = delete;

    /// The session file (docs/session-format.md).
    const QString& file() const { return m_file; }
    /// When it was saved last.
    QDateTime savedAt() const;
    /// Its sentence, for the offer ("" when the file cannot be read).
    QString sentence() const;
    /// Deletes its files: it was restored into another run's autosave, or the user discarded it.
    void discard();

private:
    QString m_file;
    QString m_marker;
    int m_lock; ///< a descriptor of the marker, locked
};

class Autosave : public QObject {
    Q_OBJECT
public:
    /// The pause after the last change before saving, and the longest wait while changes keep coming.
    static constexpr int kDelayMs = 2000;
    static constexpr int kMaxWaitMs = 10000;

    /// Starts this run's autosave of `session` in `folder` (made when missing): takes the run's
    /// marker and saves after each change. When the folder cannot be made or written, problem()
    /// says why and nothing is saved; the studio works on without autosave.
    explicit Autosave(Session* session, const QString& folder = defaultFolder(), QObject* parent = nullptr);
    /// A clean end: deletes this run's files.
    ~Autosave() override;

    /// `<application data folder>/autosave`, empty when the system has no such folder.
    static QString defaultFolder();
    /// The newest session left by a run that did not quit cleanly, claimed, or null. Markers
    /// left without a session (the run changed nothing) are deleted on the way.
    static std::unique_ptr<OrphanedSession> findOrphan(const QString& folder = defaultFolder());

    /// Tells where the lesson is (asked at each save); without it no lesson is saved.
    void setLessonPlace(std::function<std::optional<LessonPlace>()> lessonPlace);
    /// Something the session does not signal changed (a lesson step): save after the pause.
    void noteChange();
    /// Saves now; false with the reason on failure (also reported through failed()).
    bool saveNow(QString* error = nullptr);
    /// This run's session file (it exists once something changed).
    const QString& file() const { return m_file; }
    /// The autosave folder, where findOrphan looks.
    const QString& folder() const { return m_folder; }
    /// True while a change waits to be saved.
    bool isPending() const { return m_timer.isActive(); }
    /// How long after the last change the waiting save comes (ms), or -1 when nothing waits:
    /// kDelayMs, less as the first unsaved change gets older, 0 once it is kMaxWaitMs old.
    int msUntilSave() const { return m_timer.isActive() ? m_timer.interval() : -1; }
    /// The clock a change's time is read from (the system's UTC time by default). Tests give
    /// their own, to step through the timing rule without waiting for it.
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }
    /// Why this run cannot autosave (no folder, a folder that cannot be made); empty when it can.
    const QString& problem() const { return m_problem; }

    /// Stops saving and lets go of the files as a crash would: they stay behind, unlocked, for
    /// the next start to find. For tests of the recovery, which cannot kill themselves.
    void abandon();

signals:
    /// A save succeeded.
    void saved();
    /// A save failed (reported once until a save succeeds again).
    void failed(const QString& error);

private:
    Session* m_session;
    QString m_folder;
    QString m_file;
    QString m_marker;
    int m_lock = -1;
    QTimer m_timer;
    QDateTime m_firstChange; ///< the first change not yet saved
    std::function<QDateTime()> m_clock = [] { return QDateTime::currentDateTimeUtc(); };
    std::function<std::optional<LessonPlace>()> m_lessonPlace;
    QString m_problem;
    bool m_failing = false;
};

} // namespace attnlab
