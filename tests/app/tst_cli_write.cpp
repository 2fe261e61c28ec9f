// Every file attention-lab-cli writes (traces, pictures, CSV, models, lesson decks) says why it
// could not be written — a missing folder, a file in the way, a read-only file system, a full
// disk — in one line with exit 1, and leaves an earlier file whole. The read-only and full
// disks are real: a tmpfs mounted in a private mount namespace (unshare), so they work as root.

#include "support/cli.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <unistd.h>

namespace {

using attnlab::testing::cliEnvironment;
using attnlab::testing::cli;
using attnlab::testing::Run;

const QStringList kModel{"--d-model", "8", "--heads", "2"};

/// The command writing to `out`.
QStringList command(const QString& kind, const QString& out)
{
    if (kind == u"trace")
        return QStringList{"trace", "--output", out} + kModel;
    if (kind == u"png")
        return QStringList{"export", "--stage", "weights", "--output", out} + kModel;
    if (kind == u"csv")
        return QStringList{"export", "--stage", "weights", "--format", "csv", "--output", out} + kModel;
    if (kind == u"model")
        return QStringList{"trace", "--layers", "1", "--save-model", out, "--output", "-"} + kModel;
    return QStringList{"lesson", "en/01-query-key-value", "--output", out};
}

constexpr int kCannotSetUp = 77;

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
        const QStringList left = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        QVERIFY2(left.size() == 2 && left.contains(QStringLiteral("stages")), qPrintable(left.join(u' '))); // and the killed run's
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
