// attention-lab-cli export as a user runs it, with no display: each format's file, --all, and
// every kind of bad input (one-line error, exit 2; 1 for a failed write; earlier files intact).

#include "support/cli.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using attnlab::testing::cli;
using attnlab::testing::Run;

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A PNG's pixel size (IHDR) and pixels per metre (pHYs), read from the bytes: the app tests
/// link no Qt GUI library.
struct PngInfo {
    QSize size;
    quint32 pixelsPerMetre = 0;
};

PngInfo pngInfo(const QByteArray& png)
{
    PngInfo info;
    if (!png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR")
        return info;
    info.size = QSize(static_cast<int>(qFromBigEndian<quint32>(png.constData() + 16)),
                      static_cast<int>(qFromBigEndian<quint32>(png.constData() + 20)));
    const qsizetype phys = png.indexOf("pHYs");
    if (phys > 0 && phys + 13 <= png.size() && png[phys + 12] == 1) // unit 1: metre
        info.pixelsPerMetre = qFromBigEndian<quint32>(png.constData() + phys + 4);
    return info;
}

/// The small model every test uses: fast, and two heads to choose from.
const QStringList kModel{"--d-model", "8", "--heads", "2"};

} // namespace

class TestCliExport : public QObject {
    Q_OBJECT
private slots:
    void eachFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << "w.png" << QStringList{} << QByteArray("\x89PNG\r\n\x1a\n");
        QTest::newRow("svg") << "w.svg" << QStringList{} << QByteArray("<?xml");
        QTest::newRow("pdf") << "w.pdf" << QStringList{} << QByteArray("%PDF-");
        QTest::newRow("csv") << "w.csv" << QStringList{} << QByteArray("\xEF\xBB\xBF");
        QTest::newRow("--format, no suffix") << "weights" << QStringList{"--format", "svg"} << QByteArray("<?xml");
        QTest::newRow("upper-case suffix") << "W.PDF" << QStringList{} << QByteArray("%PDF-");
    }

    void eachFormat()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const QString out = dir.filePath(file);
        const Run r = cli(QStringList{"export", "--sentence", "狗咬了人", "--stage", "weights", "--head", "2", "--output", out} + kModel + extra);
        QCOMPARE(r.status, QProcess::NormalExit);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.isEmpty());
        const QByteArray bytes = readAll(out);
        QVERIFY2(bytes.startsWith(magic), bytes.left(16).toHex().constData());
        if (magic.startsWith("<?xml")) { // the tokens are text
            QVERIFY(bytes.contains(QStringLiteral(">狗</text>").toUtf8()));
            QVERIFY(bytes.contains(QStringLiteral("\u2014 head 2</text>").toUtf8())); // heads counted from 1
        }
        if (file.endsWith(u".csv"))
            QVERIFY(bytes.contains(QStringLiteral("A_h,狗,咬,了,人\r\n").toUtf8()));
    }

    void pngSizeAndDpi()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("s.png"));
        const Run r = cli(QStringList{"export", "--stage", "scores", "--dpi", "300", "--width", "640", "--height", "480", "--output", out} + kModel);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const PngInfo png = pngInfo(readAll(out));
        QCOMPARE(png.size, QSize(2000, 1500)); // 640 x 480 at 300/96
        QCOMPARE(png.pixelsPerMetre, quint32(qRound(300 / 0.0254)));
    }

    void sharedStageNeedsNoHead()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("mask.csv"));
        const Run r = cli(QStringList{"export", "--sentence", "a b c", "--mask", "causal", "--stage", "mask", "--output", out} + kModel);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(readAll(out), QByteArray("\xEF\xBB\xBFM,a,b,c\r\na,0,-inf,-inf\r\nb,0,0,-inf\r\nc,0,0,0\r\n"));
    }

    void all_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("imageSuffix"); // empty: CSV only
        QTest::newRow("png (default)") << QStringList{} << "png";
        QTest::newRow("svg") << QStringList{"--format", "svg"} << "svg";
        QTest::newRow("pdf") << QStringList{"--format", "pdf"} << "pdf";
        QTest::newRow("csv only") << QStringList{"--format", "csv"} << "";
    }

    void all()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, imageSuffix);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("slides")); // made by the command
        const Run r = cli(QStringList{"export", "--sentence", "The cat sat", "--all", "--output-dir", dir, "--width", "400", "--height", "300"}
                          + kModel + extra);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList files = QDir(dir).entryList(QDir::Files, QDir::Name);
        const int stages = 6 + 8 * 2; // 2 heads
        QCOMPARE(files.size(), stages * (imageSuffix.isEmpty() ? 1 : 2));
        QCOMPARE(files.first(), QStringLiteral("01_embedding.csv"));
        QVERIFY(files.contains(QStringLiteral("05_q_head2.csv")));
        QVERIFY(files.contains(QStringLiteral("14_mask.csv")));
        QVERIFY(files.contains(QStringLiteral("22_output.csv")));
        if (!imageSuffix.isEmpty()) {
            QVERIFY(files.contains(QStringLiteral("01_embedding.") + imageSuffix));
            QVERIFY(files.contains(QStringLiteral("18_weights_head2.") + imageSuffix));
        }
    }

    void help()
    {
        const Run r = cli({"help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* text : {"export", "--stage", "--head", "--format", "--dpi", "--width", "--height", "--all", "--output-dir",
                                 "counted from 1"})
            QVERIFY2(r.out.contains(text), text);
        QCOMPARE(cli({"export", "--help"}).out, r.out);
    }

    void traceNeedsNoQt()
    {
        // trace makes no QApplication: it works with a platform that does not exist.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("no-such-platform"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ATTNLAB_CLI), QStringList{"trace", "--sentence", "a b"} + kModel);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("{\"format\":\"attention-lab.trace\""));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const auto run = [](QStringList a) { return QStringList{"export"} + kModel + a; };
        QTest::newRow("no stage") << run({"--output", "/tmp/x.png"}) << 2 << "export needs --stage ID (or --all); the stages are embedding,";
        QTest::newRow("unknown stage") << run({"--stage", "attention", "--output", "/tmp/x.png"}) << 2
                                       << "unknown stage 'attention'; the stages are embedding, positional_encoding, input, q, k, v,";
        QTest::newRow("head 0") << run({"--stage", "weights", "--head", "0", "--output", "/tmp/x.png"}) << 2
                                << "--head 0 is out of range: heads are numbered from 1 to 2";
        QTest::newRow("head too large") << run({"--stage", "weights", "--head", "3", "--output", "/tmp/x.png"}) << 2
                                        << "--head 3 is out of range: heads are numbered from 1 to 2";
        QTest::newRow("head not a number") << run({"--stage", "weights", "--head", "one", "--output", "/tmp/x.png"}) << 2
                                           << "--head expects a whole number, got 'one'";
        QTest::newRow("head of a shared stage") << run({"--stage", "mask", "--head", "1", "--output", "/tmp/x.png"}) << 2
                                                << "stage 'mask' is the same for every head; drop --head";
        QTest::newRow("bad format") << run({"--stage", "q", "--format", "jpeg", "--output", "/tmp/x.jpg"}) << 2
                                    << "--format must be png|svg|pdf|csv, got 'jpeg'";
        QTest::newRow("format and suffix disagree") << run({"--stage", "q", "--format", "pdf", "--output", "/tmp/x.png"}) << 2
                                                    << "--format pdf does not match the output file '/tmp/x.png'";
        QTest::newRow("unknown suffix") << run({"--stage", "q", "--output", "/tmp/x.jpg"}) << 2
                                        << "cannot tell the format of '/tmp/x.jpg': give --format png|svg|pdf|csv";
        QTest::newRow("dpi 0") << run({"--stage", "q", "--dpi", "0", "--output", "/tmp/x.png"}) << 2
                               << "--dpi 0 is out of range: it must be between 48 and 1200";
        QTest::newRow("dpi not a number") << run({"--stage", "q", "--dpi", "high", "--output", "/tmp/x.png"}) << 2
                                          << "--dpi expects a whole number, got 'high'";
        QTest::newRow("width too small") << run({"--stage", "q", "--width", "10", "--output", "/tmp/x.png"}) << 2
                                         << "--width 10 is out of range: it must be between 50 and 10000";
        QTest::newRow("png too large") << run({"--stage", "q", "--dpi", "1200", "--width", "9000", "--output", "/tmp/x.png"}) << 2
                                       << "pixel PNG; the limit is 16384 pixels a side";
        QTest::newRow("no output") << run({"--stage", "q"}) << 2 << "export needs --output FILE";
        QTest::newRow("stdout without a format") << run({"--stage", "q", "--output", "-"}) << 2 << "cannot tell the format of '-': give --format";
        QTest::newRow("pretty") << run({"--stage", "q", "--pretty", "--output", "/tmp/x.png"}) << 2 << "--pretty is for trace's JSON";
        QTest::newRow("all without dir") << run({"--all"}) << 2 << "--all needs --output-dir DIR";
        QTest::newRow("all with stage") << run({"--all", "--stage", "q", "--output-dir", "/tmp"}) << 2 << "--all exports every stage; drop --stage";
        QTest::newRow("all with output") << run({"--all", "--output", "/tmp/x.png"}) << 2 << "--all writes many files: give --output-dir DIR";
        QTest::newRow("dir without all") << run({"--stage", "q", "--output-dir", "/tmp"}) << 2 << "--output-dir goes with --all";
        QTest::newRow("trace option checked") << QStringList{"export", "--d-model", "10", "--heads", "3", "--stage", "q", "--output", "/tmp/x.png"}
                                              << 2 << "d_model (10) must be a multiple of heads (3)";
        QTest::newRow("unknown option") << run({"--stage", "q", "--colour", "red"}) << 2 << "unknown option '--colour'";
        QTest::newRow("unwritable output") << run({"--stage", "q", "--output", "/nonexistent/dir/q.png"}) << 1
                                           << "cannot write '/nonexistent/dir/q.png': No such file or directory";
        QTest::newRow("unwritable csv") << run({"--stage", "q", "--output", "/nonexistent/dir/q.csv"}) << 1
                                        << "cannot write '/nonexistent/dir/q.csv'";
        QTest::newRow("output is a folder") << run({"--stage", "q", "--format", "svg", "--output", "/tmp"}) << 1 << "it is a directory";
        QTest::newRow("unwritable dir") << run({"--all", "--output-dir", "/nonexistent/dir/slides"}) << 1
                                        << "the folder '/nonexistent/dir' does not exist";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.status, QProcess::NormalExit); // never a crash
        QCOMPARE(r.exitCode, exitCode);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith("attention-lab-cli: error: "), qPrintable(err));
        QVERIFY2(!err.contains('\n'), qPrintable(err)); // one line
        QVERIFY2(err.contains(message), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }

    void failuresKeepEarlierFiles()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("weights.png"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("earlier work");
        f.close();
        // Bad input: nothing is written.
        QCOMPARE(cli(QStringList{"export", "--stage", "weights", "--head", "9", "--output", out} + kModel).exitCode, 2);
        QCOMPARE(readAll(out), QByteArray("earlier work"));
        // A failed write (its temporary file cannot be made: a folder is in the way): exit 1.
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("weights.png.part")));
        const Run r = cli(QStringList{"export", "--stage", "weights", "--output", out} + kModel);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot write"), r.err.constData());
        QCOMPARE(readAll(out), QByteArray("earlier work"));
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
