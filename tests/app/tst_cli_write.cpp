// Every file attention-lab-cli writes (traces, pictures, CSV, models, lesson decks) says why it
// could not be written — a missing folder, a file in the way, a read-only file system, a full
// disk — in one line with exit 1, and leaves an earlier file whole. The read-only and full
// disks are real: a tmpfs mounted in a private mount namespace (unshare), so they work as root.

#include "support/child.h"
#include "support/cli.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <atomic>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using attnlab::testing::cliEnvironment;
using attnlab::testing::cli;
using attnlab::testing::Run;

const QStringList kModel{"--d-model", "8", "--heads", "2"};

constexpr int kCannotSetUp = 77; ///< a shell's exit code: the failure could not be arranged here

/// The command writing to `out`.
QStringList command(const QString& kind, const QString& out)
{
    if (kind == u"trace")
        return QStringList{"trace", "--output", out} + kModel;
    if (kind == u"png")
        return QStringList{"export", "--stage", "weights", "--format", "png", "--output", out} + kModel;
    if (kind == u"csv")
        return QStringList{"export", "--stage", "weights", "--format", "csv", "--output", out} + kModel;
    if (kind == u"model")
        return QStringList{"trace", "--layers", "1", "--save-model", out, "--output", "-"} + kModel;
    return QStringList{"lesson", "en/01-query-key-value", "--output", out};
}

/// Runs the CLI inside a private mount namespace with a tmpfs (mount `options`) on `dir`.
/// `before` is a shell command run first (it may write into "$1", the mount point); after the
/// CLI, the output shows "--", the file `name` and "--" and the folder's entries.
Run inTmpfs(const QString& dir, const QString& options, const QString& before, const QString& name, const QStringList& args)
{
    const QString script = QStringLiteral(
        "mount --make-rprivate / 2>/dev/null; mount -t tmpfs -o %1 tmpfs \"$1\" || exit %2; %3; "
        "dir=$1; shift; \"$@\" >/dev/null; code=$?; printf -- '--'; cat \"$dir/%4\" 2>/dev/null; printf -- '--'; ls -A \"$dir\"; exit $code")
                               .arg(options)
                               .arg(kCannotSetUp)
                               .arg(before.isEmpty() ? QStringLiteral(":") : before, name);
    QProcess p;
    p.setProcessEnvironment(cliEnvironment());
    // As root a mount namespace is enough; otherwise a user namespace gives the right to mount.
    const QStringList unshare = ::geteuid() == 0 ? QStringList{"-m"} : QStringList{"-r", "-m"};
    p.start(QStringLiteral("unshare"), unshare + QStringList{"sh", "-c", script, "sh", dir, QStringLiteral(ATTNLAB_CLI)} + args);
    if (!p.waitForFinished(120000))
        p.kill();
    return Run{p.exitCode(), p.exitStatus(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// How a test runs the CLI beyond its arguments.
struct How {
    /// Builders, so that a call names only what it sets.
    static How nobody(bool asNobody, const QString& privateDevReport)
    {
        How h;
        h.asNobody = asNobody;
        h.privateDevReport = privateDevReport;
        return h;
    }
    static How withStdout(const QString& file)
    {
        How h;
        h.stdoutFile = file;
        return h;
    }
    static How withEnv(const QStringList& env)
    {
        How h;
        h.env = env;
        return h;
    }

    QString stdoutFile;    ///< standard output goes to this file (/dev/full) when given
    bool asNobody = false; ///< as the unprivileged user "nobody" (runuser), when we are root
    QStringList env;       ///< NAME=VALUE added to the environment
    /// As root: in a mount namespace with a /dev of its own (new null and full devices), so that
    /// a regression cannot replace the machine's /dev/null; the types of its /dev/null and
    /// /dev/full and the names in it after the run go to this file. Exit 77: not possible here.
    QString privateDevReport;
};

/// The script that runs "$@" with a /dev of its own (How::privateDevReport, "$1").
const QString kPrivateDev = QStringLiteral(
    "mount --make-rprivate / && mount -t tmpfs -o mode=755 tmpfs /dev && mknod -m 666 /dev/null c 1 3 && "
    "mknod -m 666 /dev/full c 1 7 && ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/1 /dev/stdout || exit 77; "
    "report=$1; shift; \"$@\"; code=$?; stat -c %F /dev/null /dev/full > \"$report\"; ls -A /dev >> \"$report\"; exit $code");

/// Runs the CLI as on a server (no display); see How.
Run run(const QStringList& args, const How& how)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    // No progress lines unless a test asks for them: on a slow machine they would come before
    // the one error line a test expects.
    env.insert(QStringLiteral("ATTNLAB_PROGRESS_AFTER_MS"), QStringLiteral("1000000000"));
    for (const QString& e : how.env)
        env.insert(e.section(QLatin1Char('='), 0, 0), e.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(env);
    if (!how.stdoutFile.isEmpty())
        p.setStandardOutputFile(how.stdoutFile);
    QStringList command = QStringList{QStringLiteral(ATTNLAB_CLI)} + args;
    if (how.asNobody && ::geteuid() == 0)
        command = QStringList{"runuser", "-u", "nobody", "--"} + command;
    if (!how.privateDevReport.isEmpty() && ::geteuid() == 0)
        command = QStringList{"unshare", "-m", "sh", "-c", kPrivateDev, "sh", how.privateDevReport} + command;
    p.start(command.takeFirst(), command);
    p.closeWriteChannel();
    if (!p.waitForFinished(120000))
        p.kill();
    return Run{p.exitCode(), p.exitStatus(), p.readAllStandardOutput(), p.readAllStandardError()};
}

/// The type, device number and inode of `path` (not following a link): to see it was not replaced.
QString identity(const QString& path)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return QStringLiteral("missing");
    return QStringLiteral("%1:%2:%3").arg(st.st_mode & S_IFMT).arg(st.st_rdev).arg(st.st_ino);
}

/// A reader of a FIFO that is there before the CLI opens it for writing (opened read-write, which
/// Linux allows: the open does not wait), reading in a thread of its own until finish().
class FifoReader {
public:
    explicit FifoReader(const QString& path)
        : m_fd(::open(QFile::encodeName(path).constData(), O_RDWR | O_NONBLOCK | O_CLOEXEC))
    {
        m_thread = std::thread([this] {
            for (;;) {
                pollfd p{m_fd, POLLIN, 0};
                ::poll(&p, 1, 50);
                char buf[65536];
                const ssize_t n = ::read(m_fd, buf, sizeof buf);
                if (n > 0)
                    m_bytes.append(buf, n);
                else if (m_done) // the writer has ended and everything it wrote is read
                    return;
            }
        });
    }
    ~FifoReader() { finish(); }
    /// Call once the writer has ended: the bytes it wrote.
    QByteArray finish()
    {
        m_done = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(std::exchange(m_fd, -1));
        return m_bytes;
    }

private:
    int m_fd = -1;
    std::atomic<bool> m_done{false};
    QByteArray m_bytes;
    std::thread m_thread;
};

/// Fails unless `r` ended with exit code 1 and one error line holding `message`.
void expectOneLine(const Run& r, const QString& message)
{
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(r.status == QProcess::NormalExit, qPrintable(err));
    QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
    QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: ")) && err.count(QLatin1Char('\n')) == 1, qPrintable(err));
    QVERIFY2(err.contains(message), qPrintable(QStringLiteral("'%1' not in: %2").arg(message, err)));
}

/// The private /dev of a run (How::privateDevReport) still holds its two devices and nothing
/// else; without one (not root), the machine's /dev/null and /dev/full are still devices.
void expectDevIntact(const QString& report)
{
    QFile f(report);
    if (!f.open(QIODevice::ReadOnly)) {
        QCOMPARE(identity(QStringLiteral("/dev/null")).section(QLatin1Char(':'), 0, 0), QString::number(S_IFCHR));
        QCOMPARE(identity(QStringLiteral("/dev/full")).section(QLatin1Char(':'), 0, 0), QString::number(S_IFCHR));
        return;
    }
    QCOMPARE(QString::fromUtf8(f.readAll()), QStringLiteral("character special file\ncharacter special file\nfd\nfull\nnull\nstdout\n"));
}

/// Everything in a folder, hidden entries too.
QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

} // namespace

class TestCliWrite : public QObject {
    Q_OBJECT
private slots:
    void badFoldersAreNamed_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("message");
        for (const char* kind : {"trace", "png", "csv", "model", "deck"}) {
            const QString suffix = QString::fromLatin1(kind) == u"deck" ? QStringLiteral("pdf") : QString::fromLatin1(kind);
            const QString missing = QStringLiteral("/nonexistent/dir/out.") + suffix;
            const QString underFile = QStringLiteral("/dev/null/out.") + suffix;
            QTest::addRow("%s into a missing folder", kind)
                << kind << missing
                << QStringLiteral("cannot write '%1': No such file or directory (the folder '/nonexistent/dir' does not exist)").arg(missing);
            QTest::addRow("%s under a file", kind)
                << kind << underFile << QStringLiteral("cannot write '%1': Not a directory ('/dev/null' is a file, not a folder)").arg(underFile);
        }
    }

    void badFoldersAreNamed()
    {
        QFETCH(QString, kind);
        QFETCH(QString, out);
        QFETCH(QString, message);
        const Run r = cli(command(kind, out));
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: ")), qPrintable(err));
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    void aReadOnlyFileSystemIsNamed_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("trace") << "trace" << "t.json";
        QTest::newRow("png") << "png" << "w.png";
        QTest::newRow("deck") << "deck" << "d.pdf";
    }

    void aReadOnlyFileSystemIsNamed()
    {
        QFETCH(QString, kind);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const Run r = inTmpfs(dir.path(), QStringLiteral("ro,size=64k"), QString(), name, command(kind, dir.filePath(name)));
        if (r.exitCode == kCannotSetUp || r.err.contains("unshare"))
            QSKIP("mount namespaces are not available here");
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.endsWith(QStringLiteral("cannot write '%1': Read-only file system (the folder '%2' is on a read-only file system)")
                                  .arg(dir.filePath(name), dir.path())),
                 qPrintable(err));
        QCOMPARE(r.out, QByteArray("----")); // no file, nothing in the folder
    }

    void aFullDiskKeepsTheEarlierFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("png") << "png" << "w.png";
        QTest::newRow("deck") << "deck" << "d.pdf";
        QTest::newRow("model") << "model" << "m.safetensors";
    }

    void aFullDiskKeepsTheEarlierFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, name);
        // Two pages of room: the earlier file takes one, the new file does not fit in the other.
        QTemporaryDir dir;
        const Run r = inTmpfs(dir.path(), QStringLiteral("size=8k"), QStringLiteral("printf 'earlier work' > \"$1/%1\"").arg(name), name,
                              command(kind, dir.filePath(name)));
        if (r.exitCode == kCannotSetUp || r.err.contains("unshare"))
            QSKIP("mount namespaces are not available here");
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.contains(QStringLiteral("cannot write '%1': No space left on device (the disk is full; an earlier file of that "
                                             "name is unchanged)")
                                  .arg(dir.filePath(name))),
                 qPrintable(err));
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err)); // one line
        // The earlier file, whole; no temporary file left.
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("--earlier work--%1\n").arg(name));
    }

    void aKilledExportLeavesNoHalfFolder()
    {
        // export --all of a 2-layer model (hundreds of files) says how far it is on stderr and
        // writes into a hidden folder beside the one asked for; killed half-way, the folder
        // asked for does not exist (issue 10 §5b.6).
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("stages"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ATTNLAB_PROGRESS_AFTER_MS"), QStringLiteral("0"));
        env.remove(QStringLiteral("DISPLAY"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ATTNLAB_CLI), {"export", "--all", "--output-dir", out, "--layers", "2", "--d-model", "32", "--heads",
                                              "8", "--sentence", "the cat sat on the mat"});
        p.setReadChannel(QProcess::StandardError);
        QByteArray err;
        while (!err.contains("exporting: ") && p.waitForReadyRead(60000))
            err += p.readAllStandardError();
        QVERIFY2(err.contains("attention-lab-cli: exporting: "), err.constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QVERIFY(!QFileInfo::exists(out));
        // Run whole, it ends with every file in place and nothing hidden beside it.
        const Run r = cli({"export", "--all", "--output-dir", out, "--sentence", "the cat sat", "--d-model", "8", "--heads", "2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo::exists(out + QStringLiteral("/weights-head1.png")) || QDir(out).entryList(QDir::Files).size() > 10);
        // The killed run's hidden folder is gone too: its process no longer exists.
        const QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        QCOMPARE(left, QStringList{"stages"});
    }

    // --- Outputs that are not regular files (issue 27 §1) ---

    /// Every kind of output into /dev/null and into a FIFO with a reader: written in place; the
    /// device and the FIFO are still what they were, and the FIFO's reader got the whole file.
    void devicesAndFifosAreWrittenInPlace_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("begins"); // what the file begins with
        QTest::newRow("trace -o") << "trace" << QByteArray("{");
        QTest::newRow("export png -o") << "png" << QByteArray("\x89PNG");
        QTest::newRow("export csv -o") << "csv" << QByteArray("\xef\xbb\xbf"); // UTF-8's byte order mark
        QTest::newRow("--save-model") << "model" << QByteArray();
        QTest::newRow("--save-weights") << "weights" << QByteArray();
        QTest::newRow("lesson deck -o") << "deck" << QByteArray("%PDF");
    }

    void devicesAndFifosAreWrittenInPlace()
    {
        QFETCH(QString, kind);
        QFETCH(QByteArray, begins);
        const auto args = [&](const QString& out) {
            return kind == u"weights" ? QStringList{"trace", "--save-weights", out, "--output", "-"} + kModel : command(kind, out);
        };
        // As root (where a rename over /dev/null would succeed) and as an ordinary user.
        QTemporaryDir dir;
        const QString report = dir.filePath(QStringLiteral("dev.txt"));
        for (const bool nobody : {false, true}) {
            const Run r = run(args(QStringLiteral("/dev/null")), How::nobody(nobody, report));
            if (r.exitCode == kCannotSetUp)
                QSKIP("no private /dev here (a mount namespace), and the machine's is not for a test to risk");
            QVERIFY2(r.exitCode == 0, r.err.constData());
            expectDevIntact(report);
        }
        QFile::remove(report);
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0666) == 0);
        const QString before = identity(fifo);
        FifoReader reader(fifo);
        const Run r = run(args(fifo), How{});
        const QByteArray got = reader.finish();
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(got.size() > 100 && got.startsWith(begins), got.left(40).toHex(' ').constData());
        if (kind == u"model" || kind == u"weights")
            QVERIFY(got.contains("\"__metadata__\"")); // a safetensors header
        QCOMPARE(identity(fifo), before);
        QCOMPARE(entries(dir.path()), QStringList{"pipe"});
    }

    /// A device that refuses the bytes (/dev/full: ENOSPC) is one line, exit 1, and stays a device.
    void aDeviceThatRefusesIsOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("trace -o") << command(QStringLiteral("trace"), QStringLiteral("/dev/full"));
        QTest::newRow("--save-weights") << QStringList{"trace", "--save-weights", "/dev/full", "--output", "/dev/null"} + kModel;
        QTest::newRow("--save-model") << command(QStringLiteral("model"), QStringLiteral("/dev/full"));
        QTest::newRow("lesson deck") << command(QStringLiteral("deck"), QStringLiteral("/dev/full"));
    }

    void aDeviceThatRefusesIsOneLine()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString report = dir.filePath(QStringLiteral("dev.txt"));
        for (const bool nobody : {false, true}) {
            const Run r = run(args, How::nobody(nobody, report));
            if (r.exitCode == kCannotSetUp)
                QSKIP("no private /dev here (a mount namespace), and the machine's is not for a test to risk");
            expectOneLine(r, QStringLiteral("cannot write '/dev/full': %1").arg(QString::fromUtf8(std::strerror(ENOSPC))));
            expectDevIntact(report);
        }
    }

    /// A FIFO no program reads: refused at once (no wait for a reader that may never come).
    void aFifoNobodyReadsIsRefused()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0666) == 0);
        const Run r = run(command(QStringLiteral("trace"), fifo), How{});
        expectOneLine(r, QStringLiteral("no program is reading the pipe '%1': start the reader first").arg(fifo));
        QCOMPARE(entries(dir.path()), QStringList{"pipe"});
    }

    /// -o - and -o /dev/stdout put the file on standard output, for a trace, a picture, a deck.
    void standardOutput_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QByteArray>("begins");
        for (const char* out : {"-", "/dev/stdout"}) {
            QTest::addRow("trace %s", out) << "trace" << out << QByteArray("{\"");
            QTest::addRow("png %s", out) << "png" << out << QByteArray("\x89PNG");
            QTest::addRow("deck %s", out) << "deck" << out << QByteArray("%PDF");
        }
    }

    void standardOutput()
    {
        QFETCH(QString, kind);
        QFETCH(QString, out);
        QFETCH(QByteArray, begins);
        const Run r = run(command(kind, out), How{});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith(begins), r.out.left(40).toHex(' ').constData());
        if (kind == u"trace")
            QVERIFY(!QJsonDocument::fromJson(r.out).isNull());
    }

    /// Standard output that cannot be written (> /dev/full) is an error for every command, as
    /// for trace: exit 1 and one line.
    void standardOutputThatCannotBeWritten_data()
    {
        const QString gpt2 = QStringLiteral(ATTNLAB_TEST_DATA "/hf/gpt2_f32");
        const QString bert = QStringLiteral(ATTNLAB_TEST_DATA "/hf/bert_mlm_f32");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("help") << QStringList{"help"};
        QTest::newRow("--version") << QStringList{"--version"};
        QTest::newRow("trace -o -") << QStringList{"trace", "--sentence", "the cat sat"};
        QTest::newRow("generate") << QStringList{"generate", "--model", "reversal", "--source", "abc"};
        QTest::newRow("generate gpt-2") << QStringList{"generate", "--model", gpt2, "--prompt", "hello", "--max-new-tokens", "2"};
        QTest::newRow("generate --json") << QStringList{"generate", "--model", gpt2, "--prompt", "hello", "--max-new-tokens", "2", "--json"};
        QTest::newRow("fill-mask") << QStringList{"fill-mask", "--model", bert, "--sentence", "the [MASK] sat"};
        QTest::newRow("fill-mask --json") << QStringList{"fill-mask", "--model", bert, "--sentence", "the [MASK] sat", "--json"};
        QTest::newRow("cost") << QStringList{"cost", "--attention", "full", "--n", "8,16", "--d-model", "8", "--heads", "2", "--repeats", "1"};
        QTest::newRow("lesson") << command(QStringLiteral("deck"), QStringLiteral("DIR/d.pdf"));
        QTest::newRow("train") << QStringList{"train", "--task", "reverse", "--preset", "classroom", "--steps", "2", "--batch", "4",
                                              "--save-model", "DIR/m.safetensors"};
    }

    void standardOutputThatCannotBeWritten()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir; // DIR: the files a command writes besides standard output
        args.replaceInStrings(QStringLiteral("DIR"), dir.path());
        const Run r = run(args, How::withStdout(QStringLiteral("/dev/full")));
        expectOneLine(r, QStringLiteral("cannot write to standard output"));
    }

    /// A file of the kernel's: the true reason, not "the folder '/proc' does not exist".
    void aKernelFileSaysWhy()
    {
        const Run r = run(command(QStringLiteral("trace"), QStringLiteral("/proc/version")), How{});
        expectOneLine(r, QStringLiteral("cannot write '/proc/version': "));
        QVERIFY2(r.err.contains("the folder '/proc' belongs to the kernel: no file can be made in it"), r.err.constData());
        QVERIFY2(!r.err.contains("does not exist"), r.err.constData());
    }

    /// Every output is checked before any work: a missing folder or a file in the way is one
    /// line at once — with progress lines after 0 ms, any drawing, exporting or training done first
    /// would show on stderr, and generation or training on stdout.
    void outputsAreCheckedBeforeAnyWork_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        // MISSING stands for a folder that does not exist in a fresh temporary folder (never
        // one in /, which a command that wrongly makes it would leave behind).
        const QString missing = QStringLiteral("MISSING/dir");
        const QString noFolder = QStringLiteral("(the folder 'MISSING/dir' does not exist)");
        const QString underFile = QStringLiteral("('/dev/null' is a file, not a folder)");
        QTest::newRow("deck") << QStringList{"lesson", "en/01-query-key-value", "--output", missing + "/d.pdf"} << noFolder;
        QTest::newRow("deck pages") << QStringList{"lesson", "en/01-query-key-value", "--format", "png", "--output-dir", "/dev/null/pages"}
                                    << underFile;
        QTest::newRow("export --all") << QStringList{"export", "--all", "--output-dir", missing + "/stages", "--layers", "2"} << noFolder;
        QTest::newRow("export -o") << QStringList{"export", "--stage", "weights", "--output", missing + "/w.png", "--layers", "2"} << noFolder;
        QTest::newRow("generate --output-dir") << QStringList{"generate", "--model", "reversal", "--source", "abc", "--output-dir", missing + "/steps"}
                                               << noFolder;
        QTest::newRow("generate gpt-2 --output-dir")
            << QStringList{"generate", "--model", QStringLiteral(ATTNLAB_TEST_DATA "/hf/gpt2_f32"), "--prompt", "hi", "--max-new-tokens", "2",
                           "--output-dir", missing + "/steps"}
            << noFolder;
        QTest::newRow("train --save-model") << QStringList{"train", "--task", "reverse", "--steps", "50", "--save-model", missing + "/m.safetensors"}
                                            << noFolder;
        QTest::newRow("train --log") << QStringList{"train", "--task", "reverse", "--steps", "50", "--save-model", "MISSING.safetensors", "--log",
                                                    missing + "/log.csv"}
                                     << noFolder;
        QTest::newRow("train --snapshots") << QStringList{"train", "--task", "reverse", "--steps", "50", "--save-model", "MISSING.safetensors",
                                                          "--snapshots", "/dev/null/snaps"}
                                           << underFile;
        QTest::newRow("trace --save-model") << QStringList{"trace", "--layers", "2", "--save-model", missing + "/m.safetensors"} << noFolder;
        QTest::newRow("trace --save-weights") << QStringList{"trace", "--save-weights", missing + "/w.safetensors"} << noFolder;
    }

    void outputsAreCheckedBeforeAnyWork()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("missing"));
        args.replaceInStrings(QStringLiteral("MISSING"), missing);
        const Run r = run(args, How::withEnv({QStringLiteral("ATTNLAB_PROGRESS_AFTER_MS=0")}));
        expectOneLine(r, QString(message).replace(QStringLiteral("MISSING"), missing));
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(entries(dir.path()), QStringList()); // nothing made
    }

    // --- Signals while a folder of outputs is being written (issue 27 §1) ---

    /// SIGTERM, SIGINT or SIGHUP in the middle of export --all or a lesson's PNG pages: the
    /// hidden folder is removed, nothing is left, and the process ends by the signal.
    void aSignalLeavesNoHiddenFolder_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("signal");
        QTest::newRow("export SIGTERM") << "export" << int(SIGTERM);
        QTest::newRow("export SIGINT") << "export" << int(SIGINT);
        QTest::newRow("export SIGHUP") << "export" << int(SIGHUP);
        QTest::newRow("lesson SIGTERM") << "lesson" << int(SIGTERM);
        QTest::newRow("lesson SIGINT") << "lesson" << int(SIGINT);
    }

    void aSignalLeavesNoHiddenFolder()
    {
        QFETCH(QString, kind);
        QFETCH(int, signal);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        // Jobs of many files (six layers of eight heads; a lesson's pages at 300 dpi): far more
        // than the moment between seeing the first file and sending the signal.
        const QStringList args = kind == u"export"
            ? QStringList{"export", "--all", "--output-dir", out, "--layers", "6", "--d-model", "32", "--heads", "8", "--sentence",
                          "the cat sat on the mat and looked at the dog"}
            : QStringList{"lesson", "en/01-query-key-value", "--format", "png", "--dpi", "300", "--output-dir", out};
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.insert(QStringLiteral("ATTNLAB_PROGRESS_AFTER_MS"), QStringLiteral("1000000000")); // no progress lines, however slow
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ATTNLAB_CLI), args);
        QVERIFY(p.waitForStarted());
        const QString staging = dir.filePath(QStringLiteral(".out.part-%1").arg(p.processId()));
        // Mid-way: the hidden folder holds a first file.
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(staging).entryList(QDir::Files).isEmpty() || p.state() == QProcess::NotRunning, 120000);
        QVERIFY2(p.state() == QProcess::Running, p.readAllStandardError().constData());
        QVERIFY(::kill(static_cast<pid_t>(p.processId()), signal) == 0);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        QCOMPARE(p.exitCode(), signal); // ended by the signal: the shell says 128 + signal
        QCOMPARE(entries(dir.path()), QStringList());
        QCOMPARE(p.readAllStandardError(), QByteArray()); // no error line: the user stopped it
    }

    /// A hidden folder a killed run left (its process gone) is removed by the next run into the
    /// same folder; one of a process that still runs is left alone.
    void staleHiddenFoldersAreRemoved()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("stages"));
        const pid_t dead = attnlab::testing::endedProcessId();
        QVERIFY(dead > 0);
        const QString stale = dir.filePath(QStringLiteral(".stages.part-%1").arg(dead));
        const QString live = dir.filePath(QStringLiteral(".stages.part-%1").arg(::getpid())); // this test runs
        for (const QString& d : {stale, live}) {
            QVERIFY(QDir().mkpath(d));
            QFile f(d + QStringLiteral("/01_embedding.png"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("half a picture");
        }
        const Run r = cli({"export", "--all", "--format", "csv", "--output-dir", out, "--d-model", "8", "--heads", "2"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(entries(dir.path()), (QStringList{QFileInfo(live).fileName(), "stages"}));
        QVERIFY(QDir(out).entryList(QDir::Files).size() > 10);
    }

    void aBadOutputWritesNothingElse()
    {
        // trace --save-weights with an -o that cannot be written: the weights are not written
        // alone (every output is checked first).
        QTemporaryDir dir;
        const QString weights = dir.filePath(QStringLiteral("w.safetensors"));
        Run r = cli(QStringList{"trace", "--save-weights", weights, "--output", dir.filePath(QStringLiteral("missing/t.json"))} + kModel);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("does not exist"), r.err.constData());
        QVERIFY(!QFileInfo::exists(weights));
        // generate --output-dir with a --save-model that cannot be written: no steps folder.
        const QString steps = dir.filePath(QStringLiteral("steps"));
        r = cli({"generate", "--model", "reversal", "--source", "abc", "--output-dir", steps, "--save-model",
                 dir.filePath(QStringLiteral("missing/m.safetensors"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!QFileInfo::exists(steps));
        // A lesson's pages into a folder under a file: refused, nothing made.
        QFile blocker(dir.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        r = cli({"lesson", "en/01-query-key-value", "--format", "png", "--output-dir", dir.filePath(QStringLiteral("file/pages"))});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{"file"});
        // generate --output-dir whole: every step, nothing hidden left.
        r = cli({"generate", "--model", "reversal", "--source", "abc", "--output-dir", steps});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QDir(steps).entryList(QDir::Files), (QStringList{"step-01.json", "step-02.json", "step-03.json", "step-04.json"}));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), (QStringList{"file", "steps"}));
    }
};

QTEST_GUILESS_MAIN(TestCliWrite)
#include "tst_cli_write.moc"
