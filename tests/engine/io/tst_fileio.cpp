// Reading untrusted files (io/fileio.h): a regular file is read whole; a FIFO, a device or a
// directory is refused at once, without waiting on it; a file is never read past its limit + 1
// byte, whatever size the system reports; messages show the path printably.

#include "io/fileio.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <future>

namespace {

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// readFile's error for `path`, or "" when it read the file. Fails the test (and releases a
/// FIFO) when the call does not return within ten seconds.
std::string readError(const std::string& path, std::uint64_t maxBytes, std::string* reason = nullptr)
{
    auto result = std::async(std::launch::async, [&]() -> std::string {
        try {
            attnlab::readFile(path, maxBytes);
        } catch (const attnlab::FileError& e) {
            if (reason)
                *reason = e.reason();
            return e.what();
        }
        return {};
    });
    // A minute: a busy machine may be slow, but a read of a small file never takes that long.
    if (result.wait_for(std::chrono::seconds(60)) == std::future_status::timeout) {
        // A reader blocked on a FIFO returns once a writer opens and closes it.
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
        result.wait();
        return "BLOCKED";
    }
    return result.get();
}

} // namespace

class TestFileIo : public QObject {
    Q_OBJECT
private slots:
    void readsRegularFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("bytes.bin");
        const QByteArray bytes("a\0b\xff", 4);
        QVERIFY(writeAll(path, bytes));
        QCOMPARE(attnlab::readFile(path.toStdString(), 4), bytes.toStdString());
        const QString empty = dir.filePath("empty");
        QVERIFY(writeAll(empty, {}));
        QCOMPARE(attnlab::readFile(empty.toStdString(), 0), std::string());
        // Larger than one read (64 KiB), exactly at the limit.
        const QByteArray big(200000, 'x');
        QVERIFY(writeAll(path, big));
        QCOMPARE(attnlab::readFile(path.toStdString(), 200000).size(), std::size_t(200000));
        QVERIFY(readError(path.toStdString(), 199999).find("it is too large (the limit is 199999 bytes)") != std::string::npos);
    }

    void refusesWhatIsNotARegularFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string fifo = dir.filePath("fifo").toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        std::string reason;
        const std::string fifoError = readError(fifo, 1000, &reason);
        QVERIFY2(fifoError != "BLOCKED", "readFile waited on a FIFO");
        QCOMPARE(fifoError, "cannot read '" + fifo + "': it is a pipe (FIFO), not a regular file");
        QCOMPARE(reason, std::string("it is a pipe (FIFO), not a regular file"));

        const std::string zero = readError("/dev/zero", 1000);
        QCOMPARE(zero, std::string("cannot read '/dev/zero': it is a device (character special file), not a regular file"));
        const std::string folder = readError(dir.path().toStdString(), 1000);
        QVERIFY2(folder.find("it is a directory") != std::string::npos, folder.c_str());
    }

    void neverReadsPastTheLimit()
    {
        // Files in /proc report a size of 0 but have contents: the limit holds all the same.
        struct stat info {};
        QVERIFY(::stat("/proc/self/maps", &info) == 0);
        QCOMPARE(info.st_size, off_t(0));
        const std::string error = readError("/proc/self/maps", 16);
        QCOMPARE(error, std::string("cannot read '/proc/self/maps': it is too large (the limit is 16 bytes)"));
        QVERIFY(!attnlab::readFile("/proc/self/maps", 64ULL * 1024 * 1024).empty());
    }

    void limitInMegabytes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("big.bin");
        QVERIFY(writeAll(path, QByteArray(1024 * 1024 + 1, 'x')));
        QCOMPARE(readError(path.toStdString(), 1024 * 1024), "cannot read '" + path.toStdString() + "': it is too large (the limit is 1 MB)");
    }

    void unreadableFileGivesItsReason()
    {
        // /proc/self/mem cannot be read from offset 0: its reason, not a made-up size.
        std::string reason;
        const std::string error = readError("/proc/self/mem", 4ULL << 30, &reason);
        QCOMPARE(error, "cannot read '/proc/self/mem': " + std::string(std::strerror(EIO)));
        QCOMPARE(reason, std::string(std::strerror(EIO)));
        QVERIFY(error.find("18446744073709551615") == std::string::npos);
    }

    void missingFile()
    {
        std::string reason;
        const std::string error = readError("/nonexistent/lesson.md", 100, &reason);
        QCOMPARE(error, std::string("cannot open '/nonexistent/lesson.md': ") + std::strerror(ENOENT));
        QCOMPARE(reason, std::string(std::strerror(ENOENT)));
    }

    void pathsAreQuotedPrintably()
    {
        const std::string error = readError("/nonexistent/\x1b]0;pwned\x07.md", 100);
        QCOMPARE(error, std::string("cannot open '/nonexistent/\\x1b]0;pwned\\x07.md': ") + std::strerror(ENOENT));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        bool threw = false;
        try {
            attnlab::writeFileAtomically(dir.path().toStdString(), "x");
        } catch (const attnlab::FileError& e) {
            threw = true;
            QCOMPARE(e.reason(), std::string("it is a directory"));
        }
        QVERIFY(threw);
    }
};

QTEST_APPLESS_MAIN(TestFileIo)
#include "tst_fileio.moc"
