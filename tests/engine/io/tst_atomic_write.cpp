// Crash-safe writes (io/fileio.h) under real failures: a missing folder, a file in the way, a
// read-only file system, a folder we may not write in, a full disk, a kill in the middle of a
// write, and two writers at once. The tests run as root, where permissions stop nothing: the
// failures are made real in a child process instead (a private mount namespace with a read-only
// or tiny tmpfs; a child that gives up root).

#include "io/fileio.h"

#include "support/child.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <string>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using attnlab::FileError;
using attnlab::writeFileAtomically;
using attnlab::testing::ChildResult;
using attnlab::testing::inChild;
using attnlab::testing::kCannotSetUp;
using attnlab::testing::mountTmpfs;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

/// Everything in a folder, hidden files too (a temporary file left behind shows here).
QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System);
}

/// The Message of the FileError that writing `bytes` to `path` throws, or a Message whose code
/// says what happened instead.
attnlab::Message failureOf(const std::string& path, const std::string& bytes = "data")
{
    try {
        writeFileAtomically(path, bytes);
        return {"no_error", {}, "the write succeeded"};
    } catch (const FileError& e) {
        return e.message();
    } catch (const std::exception& e) {
        return {"other_exception", {}, e.what()};
    }
}

/// `failure` has code cannot_write with `reason`; else the reason it has, for the log.
int expectReason(const attnlab::Message& failure, const std::string& reason, const std::function<void(const std::string&)>& say)
{
    say(failure.text);
    return failure.code == "cannot_write" && failure.args.size() == 4 && failure.args[1] == reason ? 0 : 1;
}

mode_t currentUmask()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

} // namespace

class TestAtomicWrite : public QObject {
    Q_OBJECT
private slots:
    void writesNewAndReplacedFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("out.bin");
        writeFileAtomically(path.toStdString(), "first");
        QCOMPARE(readAll(path), QByteArray("first"));
        // A new file gets the permissions every program's new files get.
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(path).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, 0666 & ~currentUmask());
        // A replaced file keeps its own.
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0600) == 0);
        writeFileAtomically(path.toStdString(), "second, longer");
        QCOMPARE(readAll(path), QByteArray("second, longer"));
        QVERIFY(::stat(QFile::encodeName(path).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0600));
        QCOMPARE(entries(dir.path()), QStringList{"out.bin"});
    }

    void aLinkStaysALink()
    {
        QTemporaryDir dir;
        const QString real = dir.filePath("real.txt");
        const QString link = dir.filePath("link.txt");
        writeFileAtomically(real.toStdString(), "old");
        QVERIFY(QFile::link(real, link));
        writeFileAtomically(link.toStdString(), "new");
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(readAll(real), QByteArray("new"));
        QCOMPARE(entries(dir.path()), (QStringList{"link.txt", "real.txt"}));
    }

    void failuresSayWhy_data()
    {
        QTest::addColumn<QString>("path");     // relative: inside a fresh temporary folder
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("subject");  // relative to the folder too; empty: not checked
        QTest::addColumn<QString>("text");     // a part of the English text
        QTest::newRow("missing folder") << "no/such/dir/out.png" << "no_folder" << "no/such/dir"
                                        << "No such file or directory (the folder '";
        QTest::newRow("missing absolute folder") << "/nonexistent/dir/out.png" << "no_folder" << "/nonexistent/dir"
                                                 << "cannot write '/nonexistent/dir/out.png': No such file or directory "
                                                    "(the folder '/nonexistent/dir' does not exist)";
        QTest::newRow("under /dev/null") << "/dev/null/x" << "not_a_folder" << "/dev/null"
                                         << "cannot write '/dev/null/x': Not a directory ('/dev/null' is a file, not a folder)";
        QTest::newRow("under a file") << "file/out.csv" << "not_a_folder" << "file" << "is a file, not a folder";
        QTest::newRow("deep under a file") << "file/a/b/out.csv" << "not_a_folder" << "file" << "is a file, not a folder";
        QTest::newRow("a folder") << "folder" << "is_folder" << "folder" << "': it is a directory";
        QTest::newRow("temporary in the way") << "blocked.json" << "in_the_way" << "blocked.json.part"
                                              << "is where the temporary file must go";
    }

    void failuresSayWhy()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        QFETCH(QString, subject);
        QFETCH(QString, text);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("folder"));
        QVERIFY(QDir(dir.path()).mkdir("blocked.json.part"));
        QFile file(dir.filePath("file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a file");
        file.close();
        QFile earlier(dir.filePath("blocked.json"));
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.write("earlier work");
        earlier.close();
        const QStringList before = entries(dir.path());

        const QString full = QDir::isAbsolutePath(path) ? path : dir.filePath(path);
        const attnlab::Message m = failureOf(full.toStdString());
        QCOMPARE(QString::fromStdString(m.code), QStringLiteral("cannot_write"));
        QCOMPARE(m.args.size(), std::size_t(4));
        QCOMPARE(QString::fromStdString(m.args[0]), full);
        QCOMPARE(QString::fromStdString(m.args[1]), reason);
        const QString expectedSubject = QDir::isAbsolutePath(subject) ? subject : dir.filePath(subject);
        QCOMPARE(QString::fromStdString(m.args[2]), expectedSubject);
        QVERIFY2(QString::fromStdString(m.text).contains(text), m.text.c_str());
        // Nothing changed: no folder made, no temporary file left, the earlier file intact.
        QCOMPARE(entries(dir.path()), before);
        QCOMPARE(readAll(dir.filePath("blocked.json")), QByteArray("earlier work"));
        QCOMPARE(readAll(dir.filePath("file")), QByteArray("a file"));
    }

    void aReadOnlyFileSystemIsNamed()
    {
        QTemporaryDir dir;
        const std::string mountPoint = dir.filePath("ro").toStdString();
        QVERIFY(QDir(dir.path()).mkdir("ro"));
        const ChildResult r = inChild([&](const auto& say) {
            if (!mountTmpfs(mountPoint, MS_RDONLY, "size=64k"))
                return kCannotSetUp;
            return expectReason(failureOf(mountPoint + "/out.png"), "read_only", say);
        });
        if (r.exitCode == kCannotSetUp)
            QSKIP("mount namespaces are not available here");
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QVERIFY2(r.text.endsWith(QStringLiteral("Read-only file system (the folder '%1' is on a read-only file system)")
                                     .arg(QString::fromStdString(mountPoint))),
                 qPrintable(r.text));
    }

    void aFolderWithoutPermissionIsNamed()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("locked"));
        const QString locked = dir.filePath("locked");
        const QString earlier = locked + QStringLiteral("/out.csv");
        writeFileAtomically(earlier.toStdString(), "earlier work");
        QVERIFY(::chmod(QFile::encodeName(locked).constData(), 0555) == 0);
        // Root writes anyway: a child that gives root up (to "nobody") is refused for real.
        QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0755) == 0);
        const ChildResult r = inChild([&](const auto& say) {
            if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
                return kCannotSetUp;
            return expectReason(failureOf(earlier.toStdString(), "new work"), "no_permission", say);
        });
        QVERIFY(::chmod(QFile::encodeName(locked).constData(), 0755) == 0);
        if (r.exitCode == kCannotSetUp)
            QSKIP("cannot run as another user here");
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QVERIFY2(r.text.contains(QStringLiteral("Permission denied (you have no permission to write in the folder '%1')").arg(locked)),
                 qPrintable(r.text));
        QCOMPARE(readAll(earlier), QByteArray("earlier work"));
        QCOMPARE(entries(locked), QStringList{"out.csv"});
    }

    void aFullDiskKeepsTheEarlierFile()
    {
        // A 64 KiB tmpfs: the first file fits, a larger one does not.
        QTemporaryDir dir;
        const std::string mountPoint = dir.filePath("small").toStdString();
        QVERIFY(QDir(dir.path()).mkdir("small"));
        const ChildResult r = inChild([&](const auto& say) {
            if (!mountTmpfs(mountPoint, 0, "size=64k"))
                return kCannotSetUp;
            const std::string path = mountPoint + "/model.safetensors";
            const std::string earlier(20000, 'e');
            writeFileAtomically(path, earlier);
            const int code = expectReason(failureOf(path, std::string(1 << 20, 'n')), "disk_full", say);
            // The earlier file is whole, and no temporary file is left.
            QFile f(QString::fromStdString(path));
            if (!f.open(QIODevice::ReadOnly) || f.readAll() != QByteArray::fromStdString(earlier)) {
                say(" | the earlier file changed");
                return 2;
            }
            if (entries(QString::fromStdString(mountPoint)) != QStringList{"model.safetensors"}) {
                say(" | left: " + entries(QString::fromStdString(mountPoint)).join(',').toStdString());
                return 3;
            }
            return code;
        });
        if (r.exitCode == kCannotSetUp)
            QSKIP("mount namespaces are not available here");
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QVERIFY2(r.text.contains(QStringLiteral("No space left on device (the disk is full; an earlier file of that name is unchanged)")),
                 qPrintable(r.text));
    }

    void aKillMidWriteLeavesTheOldOrTheNewFile()
    {
        // A child writes 32 MB versions in a loop; it is killed while writing. The file is then
        // one whole version, never a mix or a truncated one.
        QTemporaryDir dir;
        const QString path = dir.filePath("session.json");
        const std::string first(1000, 'a');
        writeFileAtomically(path.toStdString(), first);
        const pid_t pid = ::fork();
        if (pid == 0) {
            try {
                for (int i = 0;; ++i)
                    writeFileAtomically(path.toStdString(), std::string(32u << 20, char('b' + i % 2)));
            } catch (...) {
                ::_exit(1);
            }
        }
        // Kill it in the middle of a write: its temporary file (or, written in place, the file
        // itself) holds part of a version.
        const QString part = path + QStringLiteral(".part");
        const auto partial = [](qint64 size) { return size > (1 << 20) && size < (32 << 20); };
        bool writing = false;
        for (int i = 0; i < 4000 && !writing; ++i) {
            ::usleep(1000);
            writing = partial(QFileInfo(part).size()) || partial(QFileInfo(path).size());
        }
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        QVERIFY2(writing, "the writer never wrote its temporary file");
        const QByteArray bytes = readAll(path);
        const bool old = bytes == QByteArray::fromStdString(first);
        const bool whole = bytes.size() == (32 << 20) && (bytes.count(bytes.front()) == bytes.size());
        QVERIFY2(old || whole, qPrintable(QStringLiteral("%1 bytes").arg(bytes.size())));
        // The next write takes over what the killed one left.
        writeFileAtomically(path.toStdString(), "after");
        QCOMPARE(readAll(path), QByteArray("after"));
        QCOMPARE(entries(dir.path()), QStringList{"session.json"});
    }

    void twoWritersTakeTurns()
    {
        // Two processes save the same file over and over (two studios quitting at once); a
        // reader only ever sees one whole version.
        QTemporaryDir dir;
        const QString path = dir.filePath("last-session.json");
        const std::string a(300000, 'a');
        const std::string b(700000, 'b');
        writeFileAtomically(path.toStdString(), a);
        pid_t writers[2];
        for (int w = 0; w < 2; ++w) {
            writers[w] = ::fork();
            if (writers[w] == 0) {
                try {
                    for (int i = 0; i < 200; ++i)
                        writeFileAtomically(path.toStdString(), w == 0 ? a : b);
                } catch (...) {
                    ::_exit(1); // a write failed: the writers got in each other's way
                }
                ::_exit(0);
            }
        }
        int torn = 0;
        int reads = 0;
        int failed = 0;
        QElapsedTimer clock;
        clock.start();
        for (int running = 2; running > 0 && clock.elapsed() < 600000;) {
            const QByteArray bytes = readAll(path);
            ++reads;
            if (bytes != QByteArray::fromStdString(a) && bytes != QByteArray::fromStdString(b))
                ++torn;
            running = 0;
            for (pid_t& p : writers) {
                int status = 0;
                if (p > 0 && ::waitpid(p, &status, WNOHANG) == 0) {
                    ++running;
                } else if (p > 0) {
                    failed += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
                    p = 0;
                }
            }
        }
        for (pid_t p : writers) {
            if (p > 0) { // still going after ten minutes: stuck
                ::kill(p, SIGKILL);
                ::waitpid(p, nullptr, 0);
                ++failed;
            }
        }
        QVERIFY2(failed == 0, qPrintable(QStringLiteral("%1 writer(s) failed").arg(failed)));
        QVERIFY2(torn == 0, qPrintable(QStringLiteral("%1 of %2 reads were not a whole version").arg(torn).arg(reads)));
        QCOMPARE(entries(dir.path()), QStringList{"last-session.json"});
    }
};

QTEST_APPLESS_MAIN(TestAtomicWrite)
#include "tst_atomic_write.moc"
