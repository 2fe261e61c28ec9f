// Outputs that are not regular files (io/fileio.h, issue 27 §1): a device (/dev/null, /dev/full)
// or a FIFO is written in place — never renamed over, replaced or removed, as root and as an
// ordinary user; /dev/stdout writes to the descriptor where it stands; a FIFO nobody reads is
// refused at once; a socket is named. Also the folders around the outputs: the hidden folders
// a killed run left are removed for dead processes and kept for live ones, a folder made for
// snapshots goes again when it stayed empty, a log written a line at a time never ends in half a
// line on a full disk, and a model holding NaN is never saved.

#include "io/fileio.h"
#include "io/safetensors.h"

#include "support/child.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <string>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace attnlab;
using attnlab::testing::ChildResult;
using attnlab::testing::inChild;
using attnlab::testing::kCannotSetUp;

namespace {

/// The Message of the FileError `write` throws; code "no_error" when it throws none.
Message failureOf(const std::function<void()>& write)
{
    try {
        write();
        return {"no_error", {}, "the write succeeded"};
    } catch (const FileError& e) {
        return e.message();
    } catch (const std::exception& e) {
        return {"other_exception", {}, e.what()};
    }
}

/// What the file at `path` is (its type, device number and inode), to see it was not replaced.
struct Identity {
    mode_t type = 0;
    dev_t rdev = 0;
    ino_t ino = 0;
    bool operator==(const Identity&) const = default;
};

Identity identityOf(const std::string& path)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0)
        return {};
    return {static_cast<mode_t>(st.st_mode & S_IFMT), st.st_rdev, st.st_ino};
}

/// Entries of `dir` whose names start with `prefix` (probe or temporary files left behind).
QStringList leftovers(const QString& dir, const QString& prefix)
{
    const QStringList all = QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    return all.filter(QRegularExpression(QStringLiteral("^") + QRegularExpression::escape(prefix)));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

/// A reader of a FIFO that is there before any writer: opened read-write (Linux), so that the
/// open does not wait and a writer's non-blocking open finds a reader. Reads `count` bytes in a
/// thread of its own.
std::future<std::string> readFifo(int fd, std::size_t count)
{
    return std::async(std::launch::async, [fd, count] {
        std::string bytes;
        char buf[4096];
        while (bytes.size() < count) {
            const ssize_t n = ::read(fd, buf, std::min(sizeof buf, count - bytes.size()));
            if (n <= 0)
                break;
            bytes.append(buf, static_cast<std::size_t>(n));
        }
        return bytes;
    });
}

} // namespace

class TestSpecialOutputs : public QObject {
    Q_OBJECT
private slots:
    void devicesAreWrittenInPlace_data()
    {
        QTest::addColumn<bool>("nobody");
        QTest::newRow("as root") << false;
        QTest::newRow("as nobody") << true;
    }

    /// As root, writing /dev/null once made it a regular file for every program on the machine;
    /// "nobody" may write /dev/null (it is 0666) but not make a file in /dev. Run in a child with
    /// a /dev of its own (support/child.h), so that a regression cannot damage the machine's.
    void devicesAreWrittenInPlace()
    {
        QFETCH(bool, nobody);
        const ChildResult r = inChild([&](const auto& say) {
            if (!attnlab::testing::privateDev() || (nobody && !attnlab::testing::becomeNobody()))
                return kCannotSetUp;
            const Identity null = identityOf("/dev/null"), full = identityOf("/dev/full");
            if (null.type != S_IFCHR || full.type != S_IFCHR)
                return kCannotSetUp;
            const auto check = [&](bool ok, const std::string& what) {
                if (!ok)
                    say(what + "; ");
                return ok;
            };
            bool ok = check(failureOf([] {
                                checkWritable("/dev/null");
                                writeFileAtomically("/dev/null", "a trace");
                                writeFileAtomically("/dev/null", [](const ByteSink& sink) { sink("piece "), sink("by piece"); });
                                AppendFile log("/dev/null");
                                log.append("step,loss\n");
                            }).code == "no_error",
                            "writing /dev/null failed");
            ok &= check(identityOf("/dev/null") == null, "/dev/null was replaced");
            ok &= check(leftovers(QStringLiteral("/dev"), QStringLiteral("null.")).isEmpty(), "a temporary file in /dev");
            ok &= check(leftovers(QStringLiteral("/dev"), QStringLiteral(".attention-lab-")).isEmpty(), "a probe file in /dev");
            // /dev/full refuses the bytes: an error in the device's own words, and the device stays.
            const std::string refused = "cannot write '/dev/full': " + std::string(std::strerror(ENOSPC));
            ok &= check(failureOf([] { writeFileAtomically("/dev/full", std::string(100, 'x')); }).text == refused, "/dev/full: not " + refused);
            ok &= check(failureOf([] {
                            AppendFile log("/dev/full");
                            log.append("step,loss\n");
                        }).text == refused,
                        "the log on /dev/full");
            ok &= check(identityOf("/dev/full") == full, "/dev/full was replaced");
            return ok ? 0 : 1;
        });
        if (r.exitCode == kCannotSetUp)
            QSKIP(::geteuid() == 0 ? "no private /dev here (a mount namespace), and the machine's is not for a test to risk"
                                   : "cannot run as another user here");
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
    }

    void aFifoIsWrittenInPlace()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        const Identity before = identityOf(fifo);
        // Checked without being opened: a reader would see the end of its input.
        checkWritable(fifo);
        const int fd = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
        QVERIFY(fd >= 0);
        const std::string bytes(300000, 'j'); // more than a pipe holds: the writer waits for the reader
        auto reader = readFifo(fd, bytes.size());
        writeFileAtomically(fifo, bytes);
        QCOMPARE(reader.get(), bytes);
        ::fcntl(fd, F_SETFL, O_NONBLOCK);
        char more;
        QCOMPARE(::read(fd, &more, 1), ssize_t(-1)); // nothing after the file
        ::close(fd);
        QVERIFY(identityOf(fifo) == before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), QStringList{"pipe"});
    }

    void aFifoNobodyReadsIsRefusedAtOnce()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        auto result = std::async(std::launch::async, [&] { return failureOf([&] { writeFileAtomically(fifo, "data"); }); });
        if (result.wait_for(std::chrono::seconds(60)) == std::future_status::timeout) {
            const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK); // releases a blocked writer
            result.wait();
            ::close(fd);
            QFAIL("the write waited for a reader");
        }
        const Message m = result.get();
        QCOMPARE(QString::fromStdString(m.code), QStringLiteral("cannot_write"));
        QCOMPARE(QString::fromStdString(m.args[1]), QStringLiteral("no_reader"));
        QVERIFY2(m.text.find("no program is reading the pipe") != std::string::npos, m.text.c_str());
        QCOMPARE(identityOf(fifo).type, mode_t(S_IFIFO));
    }

    void aReaderThatGoesAwayIsAnError()
    {
        // The reader closes after a few bytes: the write fails with EPIPE, and SIGPIPE does not
        // end the process.
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        const int fd = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
        QVERIFY(fd >= 0);
        auto reader = std::async(std::launch::async, [&] {
            char buf[10];
            const ssize_t n = ::read(fd, buf, sizeof buf);
            ::close(fd);
            return n;
        });
        const Message m = failureOf([&] { writeFileAtomically(fifo, std::string(4u << 20, 'x')); });
        QVERIFY(reader.get() > 0);
        QCOMPARE(QString::fromStdString(m.code), QStringLiteral("cannot_write"));
        QVERIFY2(m.text.find(std::strerror(EPIPE)) != std::string::npos, m.text.c_str());
        sigset_t pending;
        QVERIFY(::sigpending(&pending) == 0);
        QVERIFY(!sigismember(&pending, SIGPIPE)); // taken back, not left to strike later
    }

    void aSocketIsNamed()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("sock")).toStdString();
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
        QVERIFY(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        for (const auto& write : {std::function<void()>([&] { writeFileAtomically(path, "x"); }), std::function<void()>([&] { checkWritable(path); })}) {
            const Message m = failureOf(write);
            QCOMPARE(QString::fromStdString(m.args.size() > 1 ? m.args[1] : m.code), QStringLiteral("socket"));
            QVERIFY2(m.text.find("is a socket") != std::string::npos, m.text.c_str());
        }
        QCOMPARE(identityOf(path).type, mode_t(S_IFSOCK));
        ::close(fd);
    }

    void standardOutputWhereItStands()
    {
        // Standard output appended to a file (>>): /dev/stdout adds after what is there, through
        // the descriptor the shell gave (opening the name again would start at the beginning,
        // replacing would cut the shell's file loose).
        QTemporaryDir dir;
        const QString log = dir.filePath(QStringLiteral("log.txt"));
        QFile f(log);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("earlier lines\n");
        f.close();
        const Identity before = identityOf(log.toStdString());
        const ChildResult r = inChild([&](const auto& say) {
            const int fd = ::open(QFile::encodeName(log).constData(), O_WRONLY | O_APPEND);
            if (fd < 0 || ::dup2(fd, 1) < 0)
                return kCannotSetUp;
            std::printf("printed first\n"); // buffered by stdio: written before the file's bytes
            const Message m = failureOf([] {
                checkWritable("/dev/stdout");
                writeFileAtomically("/dev/stdout", "the trace\n");
                writeFileAtomically("/proc/self/fd/1", "once more\n");
            });
            say(m.text);
            return m.code == "no_error" ? 0 : 1;
        });
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QCOMPARE(readAll(log), QByteArray("earlier lines\nprinted first\nthe trace\nonce more\n"));
        QVERIFY(identityOf(log.toStdString()) == before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"log.txt"});

        // A descriptor that is not open for writing is refused.
        const ChildResult closed = inChild([](const auto& say) {
            ::close(1);
            const Message m = failureOf([] { checkWritable("/dev/stdout"); });
            say(m.text);
            return m.code == "cannot_write" ? 0 : 1;
        });
        QVERIFY2(closed.exitCode == 0, qPrintable(closed.text));
        QVERIFY2(closed.text.contains(QString::fromUtf8(std::strerror(EBADF))), qPrintable(closed.text));
    }

    void theKernelsFoldersSayWhy()
    {
        // /proc takes no new file: the reason is that, not "the folder '/proc' does not exist".
        const Message m = failureOf([] { writeFileAtomically("/proc/version", "x"); });
        QCOMPARE(QString::fromStdString(m.args.at(1)), QStringLiteral("kernel_folder"));
        QVERIFY2(m.text.find("the folder '/proc' belongs to the kernel") != std::string::npos, m.text.c_str());
        QVERIFY(m.text.find("does not exist") == std::string::npos);
        const Message check = failureOf([] { checkWritable("/proc/version"); });
        QCOMPARE(check.text, m.text);
    }

    void checkFolderWritableMakesNothing()
    {
        QTemporaryDir dir;
        checkFolderWritable(dir.filePath(QStringLiteral("new")).toStdString());
        checkFolderWritable(dir.path().toStdString());
        QFile f(dir.filePath(QStringLiteral("file")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const Message underFile = failureOf([&] { checkFolderWritable(dir.filePath(QStringLiteral("file/out")).toStdString()); });
        QCOMPARE(QString::fromStdString(underFile.args.at(1)), QStringLiteral("not_a_folder"));
        const Message isFile = failureOf([&] { checkFolderWritable(dir.filePath(QStringLiteral("file")).toStdString()); });
        QCOMPARE(QString::fromStdString(isFile.args.at(1)), QStringLiteral("not_a_folder"));
        const Message missing = failureOf([&] { checkFolderWritable(dir.filePath(QStringLiteral("no/such/out")).toStdString()); });
        QCOMPARE(QString::fromStdString(missing.args.at(1)), QStringLiteral("no_folder"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"file"});
    }

    void staleStagingFoldersOfDeadProcessesGo()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("stages"));
        // A process that has ended: its id is free (until reused; a live one is never removed).
        const pid_t dead = attnlab::testing::endedProcessId();
        QVERIFY(dead > 0);
        // A live one: a child that waits until we are done.
        const pid_t live = ::fork();
        if (live == 0) {
            ::pause();
            ::_exit(0);
        }
        const QString deadFolder = dir.filePath(QStringLiteral(".stages.part-%1").arg(dead));
        const QString liveFolder = dir.filePath(QStringLiteral(".stages.part-%1").arg(live));
        const QString other = dir.filePath(QStringLiteral(".other.part-%1").arg(dead)); // another output's
        for (const QString& d : {deadFolder, liveFolder, other}) {
            QVERIFY(QDir().mkpath(d + QStringLiteral("/sub")));
            QFile f(d + QStringLiteral("/sub/weights.png"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("half a picture");
        }
        {
            StagedFolder staged(out.toStdString());
            writeFileAtomically(staged.staging() + "/a.csv", "1,2\n");
            staged.commit();
        }
        ::kill(live, SIGKILL);
        ::waitpid(live, nullptr, 0);
        QVERIFY(!QFileInfo::exists(deadFolder));
        QVERIFY(QFileInfo::exists(liveFolder + QStringLiteral("/sub/weights.png")));
        QVERIFY(QFileInfo::exists(other));
        QCOMPARE(readAll(out + QStringLiteral("/a.csv")), QByteArray("1,2\n"));
        // Once its process has ended, the next run removes it too.
        QCOMPARE(StagedFolder::removeStale(out.toStdString()), 1);
        QVERIFY(!QFileInfo::exists(liveFolder));
    }

    void aMadeFolderGoesWhenItStaysEmpty()
    {
        QTemporaryDir dir;
        const QString deep = dir.filePath(QStringLiteral("runs/a/snaps"));
        { MadeFolder made(deep.toStdString()); QVERIFY(QFileInfo(deep).isDir()); }
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("runs")))); // every level it made
        {
            MadeFolder made(deep.toStdString());
            writeFileAtomically((deep + QStringLiteral("/step-000000.safetensors")).toStdString(), "whole");
        }
        QVERIFY(QFileInfo::exists(deep + QStringLiteral("/step-000000.safetensors"))); // whole files stay
        const QString kept = dir.filePath(QStringLiteral("kept"));
        { MadeFolder made(kept.toStdString()); made.keep(); }
        QVERIFY(QFileInfo(kept).isDir());
        { MadeFolder existing(dir.path().toStdString()); }
        QVERIFY(QFileInfo(dir.path()).isDir()); // never one it did not make

        // Under a FIFO: our message, not a raw filesystem error.
        const std::string fifo = dir.filePath(QStringLiteral("pipe")).toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        const Message m = failureOf([&] { MadeFolder made(fifo + "/x"); });
        QCOMPARE(QString::fromStdString(m.args.at(1)), QStringLiteral("not_a_folder"));
        QCOMPARE(m.text, "cannot write '" + fifo + "/x': " + std::strerror(ENOTDIR) + " ('" + fifo + "' is a file, not a folder)");
    }

    void anAppendFileOnAFullDiskEndsWithAWholeLine()
    {
        QTemporaryDir dir;
        const std::string mountPoint = dir.filePath(QStringLiteral("small")).toStdString();
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("small")));
        const ChildResult r = inChild([&](const auto& say) {
            if (!attnlab::testing::mountTmpfs(mountPoint, 0, "size=16k"))
                return kCannotSetUp;
            const std::string path = mountPoint + "/log.csv";
            const Message m = failureOf([&] {
                AppendFile log(path);
                for (int i = 0; i < 100000; ++i)
                    log.append("step," + std::to_string(i) + ",0.123456,1e-3\n");
            });
            say(m.text);
            QFile f(QString::fromStdString(path));
            if (!f.open(QIODevice::ReadOnly))
                return 2;
            const QByteArray bytes = f.readAll();
            if (bytes.isEmpty() || !bytes.endsWith('\n')) {
                say(" | the log ends in half a line");
                return 3;
            }
            return m.code == "cannot_write" ? 0 : 1;
        });
        if (r.exitCode == kCannotSetUp)
            QSKIP("mount namespaces are not available here");
        QVERIFY2(r.exitCode == 0, qPrintable(r.text));
        QCOMPARE(r.text, QStringLiteral("cannot write '%1/log.csv': %2").arg(QString::fromStdString(mountPoint), QString::fromUtf8(std::strerror(ENOSPC))));
    }

    void nothingNonFiniteIsSaved()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("good.safetensors")).toStdString();
        TensorFile good;
        good.tensors["w"] = Tensor{"F32", {2}, {1.0f, 2.0f}};
        writeSafetensors(path, good);
        const QByteArray before = readAll(QString::fromStdString(path));
        for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
            TensorFile diverged = good;
            diverged.tensors["v"] = Tensor{"F32", {3}, {0.0f, bad, 1.0f}};
            QCOMPARE(nonFiniteTensor(diverged), std::string("v"));
            const Message m = failureOf([&] { writeSafetensors(path, diverged); });
            QCOMPARE(QString::fromStdString(m.args.at(1)), QStringLiteral("non_finite"));
            QCOMPARE(m.text, "cannot write '" + path + "': the tensor 'v' holds values that are not finite (NaN or infinity); an earlier "
                             "file of that name is unchanged");
            QCOMPARE(readAll(QString::fromStdString(path)), before); // byte for byte
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"good.safetensors"});
    }
};

QTEST_APPLESS_MAIN(TestSpecialOutputs)
#include "tst_special_outputs.moc"
