// A read-only home (issue 27): the work a crash left in the autosave folder is still offered
// (Restore / Discard), though nothing can be written there; and the studio, which cannot autosave
// this run, says so once, in the interface's language, and works on.
//
// The folder is made read-only for real: a read-only bind mount in a user and mount namespace of
// this test's own (entered in main(), before any thread), as a root or a normal user alike. Where
// namespaces are not allowed the tests are skipped with the reason.

#include "session/autosave.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/mainwindow.h"
#include "widgets/errorbanner.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

using namespace attnlab;

namespace {

QString g_noNamespace; ///< why the namespaces could not be entered (empty: they were)

bool writeProcFile(const char* path, const std::string& text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

/// A user namespace where this process is root, and a mount namespace of its own (private).
void enterNamespaces()
{
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        g_noNamespace = QStringLiteral("cannot make a user and mount namespace: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return;
    }
    writeProcFile("/proc/self/setgroups", "deny");
    if (!writeProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n")
        || !writeProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n")
        || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        g_noNamespace = QStringLiteral("cannot set up the namespace: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
}

/// `dir` made read-only while this lives (a read-only bind mount of itself; the flags a user
/// namespace may not drop are kept). problem() says why it could not be, else is empty.
class ReadOnly {
public:
    explicit ReadOnly(const QString& dir)
        : m_path(QFile::encodeName(dir))
    {
        struct statvfs st {};
        if (::statvfs(m_path.constData(), &st) != 0 || ::mount(m_path.constData(), m_path.constData(), nullptr, MS_BIND, nullptr) != 0) {
            m_problem = QString::fromLocal8Bit(std::strerror(errno));
            return;
        }
        m_mounted = true;
        unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
        for (const auto& [st_flag, ms_flag] : {std::pair{ST_NOSUID, MS_NOSUID}, {ST_NODEV, MS_NODEV}, {ST_NOEXEC, MS_NOEXEC},
                                               {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME}}) {
            if (st.f_flag & st_flag)
                flags |= ms_flag;
        }
        if (::mount(nullptr, m_path.constData(), nullptr, flags, nullptr) != 0)
            m_problem = QString::fromLocal8Bit(std::strerror(errno));
    }
    ~ReadOnly()
    {
        if (m_mounted)
            ::umount2(m_path.constData(), MNT_DETACH);
    }
    const QString& problem() const { return m_problem; }

private:
    QByteArray m_path;
    bool m_mounted = false;
    QString m_problem;
};

/// Leaves in `folder` what a crashed studio leaves: its marker, unlocked, and its last autosave.
void leaveCrashedWork(const QString& folder, const QString& sentence)
{
    Session s;
    Autosave a(&s, folder);
    s.setSentence(sentence);
    a.saveNow();
    a.abandon();
}

} // namespace

class TestAutosaveReadOnly : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!g_noNamespace.isEmpty())
            QSKIP(qPrintable(g_noNamespace));
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_autosave_readonly"));
    }

    void crashedWorkIsFoundInAReadOnlyFolder()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("autosave"));
        leaveCrashedWork(folder, QStringLiteral("work before the crash"));
        {
            const ReadOnly readOnly(dir.path());
            if (!readOnly.problem().isEmpty())
                QSKIP(qPrintable(QStringLiteral("cannot make a read-only folder: %1").arg(readOnly.problem())));
            // This run cannot autosave, and says why in the user's terms.
            Session s;
            Autosave a(&s, folder);
            QVERIFY2(a.problem().contains(QStringLiteral("read-only file system")), qPrintable(a.problem()));
            QVERIFY(!a.saveNow());
            // The crash's work is found all the same.
            const auto orphan = Autosave::findOrphan(folder);
            QVERIFY(orphan);
            QCOMPARE(orphan->sentence(), QStringLiteral("work before the crash"));
        }
        QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 2); // nothing lost, nothing added
    }

    void theWindowOffersRestoreAndSaysOnceWhyItCannotSave()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("autosave"));
        leaveCrashedWork(folder, QStringLiteral("work before the crash"));
        {
            const ReadOnly readOnly(dir.path());
            if (!readOnly.problem().isEmpty())
                QSKIP(qPrintable(QStringLiteral("cannot make a read-only folder: %1").arg(readOnly.problem())));
            Session session;
            Autosave autosave(&session, folder);
            MainWindow window(&session);
            QStringList said;
            connect(window.fileActions(), &FileActions::statusReported, this, [&](const QString& m, bool) { said << m; });
            window.setAutosave(&autosave);
            window.show();
            QCOMPARE(said.size(), 1);
            QVERIFY2(said.first().contains(QStringLiteral("not saved automatically")), qPrintable(said.first()));
            // The Restore prompt comes, and Restore brings the work back.
            bool offered = false;
            QTimer poll;
            connect(&poll, &QTimer::timeout, this, [&] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (!box)
                    return;
                offered = true;
                for (QAbstractButton* b : box->buttons()) {
                    if (b->text() == QStringLiteral("&Restore"))
                        b->click();
                }
            });
            poll.start(20);
            QVERIFY(window.restoreLastSession());
            QVERIFY(offered);
            QCOMPARE(session.sentence(), QStringLiteral("work before the crash"));
            QCOMPARE(window.sentenceEdit()->text(), QStringLiteral("work before the crash"));
            // Working on says nothing more (no message at every change).
            window.sentenceEdit()->setFocus();
            window.sentenceEdit()->end(false);
            QTest::keyClicks(window.sentenceEdit(), QStringLiteral("!"));
            QTRY_COMPARE(session.sentence(), QStringLiteral("work before the crash!"));
            QCOMPARE(said.size(), 2); // "Restored the work saved at …"
        }
    }
};

int main(int argc, char** argv)
{
    enterNamespaces(); // before Qt starts any thread
    QApplication app(argc, argv);
    TestAutosaveReadOnly test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_autosave_readonly.moc"
