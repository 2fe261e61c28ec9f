// attention-lab-cli export --compare… as a user runs it, with no display (issue 10 §2): each
// comparison flag writes one picture of A, B and A − B (PNG, SVG, PDF) of the comparison's
// aspect, with both inputs named in it; bad combinations are one-line errors with exit 2 that
// leave no file behind.

#include "support/cli.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

namespace {

using attnlab::testing::cli;
using attnlab::testing::Run;

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A PNG's pixel size, read from its IHDR chunk (the app tests link no Qt GUI library).
QSize pngSize(const QByteArray& png)
{
    if (!png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR")
        return {};
    return QSize(static_cast<int>(qFromBigEndian<quint32>(png.constData() + 16)), static_cast<int>(qFromBigEndian<quint32>(png.constData() + 20)));
}

const QStringList kModel{"--d-model", "8", "--heads", "2"};

} // namespace

class TestCliCompare : public QObject {
    Q_OBJECT
private slots:
    void eachComparison_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("titleB");
        // (A Chinese title is two text runs in SVG: "B: " and, in the CJK face, the sentence.)
        QTest::newRow("--compare TEXT") << QStringList{"--pe", "none", "--compare", "人咬了狗"} << QStringLiteral(">人咬了狗</text>");
        QTest::newRow("--compare-pe") << QStringList{"--compare-pe"} << QStringLiteral("B: positional encoding none");
        QTest::newRow("--compare-pe, A without positions") << QStringList{"--pe", "none", "--compare-pe"}
                                                           << QStringLiteral("B: positional encoding sinusoidal");
        QTest::newRow("--compare-mask") << QStringList{"--compare-mask", "causal"} << QStringLiteral("B: mask causal (look-ahead)");
        QTest::newRow("--compare-seed") << QStringList{"--compare-seed", "7"} << QStringLiteral("B: seed 7");
        QTest::newRow("a Transformer's cross-attention")
            << QStringList{"--source", "狗咬了人", "--target", "a b", "--layers", "1", "--stage", "weights", "--block", "cross",
                           "--compare", "人咬了狗"}
            << QStringLiteral(">人咬了狗</text>");
    }

    void eachComparison()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, titleB);
        QTemporaryDir dir;
        for (const char* suffix : {"svg", "png", "pdf"}) {
            const QString out = dir.filePath(QStringLiteral("compare.") + QLatin1String(suffix));
            QStringList line{"export", "--sentence", "狗咬了人", "--stage", "weights", "--head", "1", "--output", out};
            if (args.contains(QStringLiteral("--source"))) // a Transformer: the source, not a sentence
                line = QStringList{"export", "--head", "1", "--output", out};
            const Run r = cli(line + kModel + args);
            QCOMPARE(r.status, QProcess::NormalExit);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QByteArray bytes = readAll(out);
            if (QLatin1String(suffix) == u"png") {
                // The comparison's default size, 1800 x 720 at 150 dpi: three heatmaps in a row.
                const QSize size = pngSize(bytes);
                QCOMPARE(size, QSize(2813, 1125));
                QVERIFY(qAbs(double(size.width()) / size.height() - 2.5) < 0.01);
            } else if (QLatin1String(suffix) == u"pdf") {
                QVERIFY(bytes.startsWith("%PDF-"));
                QVERIFY(bytes.contains("/MediaBox [0 0 1350.000000 540.000000]")); // 1800 x 720 px at 72/96 pt per px
            } else {
                QVERIFY(bytes.startsWith("<?xml"));
                QVERIFY(bytes.contains("viewBox=\"0 0 1800 720\""));
                // Both inputs are named, the difference is titled, and Chinese tokens are text.
                QVERIFY2(bytes.contains(titleB.toUtf8()), qPrintable(titleB));
                QVERIFY(bytes.contains(">B: "));
                QVERIFY(bytes.contains(QStringLiteral("A \u2212 B</text>").toUtf8()));
                QVERIFY(bytes.contains(QStringLiteral(">狗</text>").toUtf8()));
            }
        }
    }

    void matchingIsNamed()
    {
        // Without positions the difference is zero once B is put in A's token order; with them it is not.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("c.svg"));
        Run r = cli(QStringList{"export", "--sentence", "狗咬了人", "--pe", "none", "--compare", "人咬了狗", "--stage", "weights", "--output", out} + kModel);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QByteArray svg = readAll(out);
        QVERIFY(svg.contains("rows and columns matched by token"));
        QVERIFY(svg.contains("zero up to float rounding"));
        r = cli(QStringList{"export", "--sentence", "狗咬了人", "--compare", "人咬了狗", "--stage", "weights", "--output", out} + kModel);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        svg = readAll(out);
        QVERIFY(svg.contains("rows and columns matched by token"));
        QVERIFY(!svg.contains("zero up to float rounding"));
        // Another length: A and B side by side, no difference.
        r = cli(QStringList{"export", "--sentence", "狗咬了人", "--compare", "猫", "--stage", "weights", "--output", out} + kModel);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        svg = readAll(out);
        QVERIFY(svg.contains("shapes differ: no difference"));
        QVERIFY(!svg.contains(QStringLiteral("A \u2212 B</text>").toUtf8()));
    }

    void givenSizeWins()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("c.png"));
        const Run r = cli(QStringList{"export", "--compare-seed", "3", "--stage", "scores", "--width", "900", "--height", "300",
                                      "--dpi", "96", "--output", out} + kModel);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(pngSize(readAll(out)), QSize(900, 300));
    }

    void theLessonRendersInBothLanguages_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::newRow("en") << QStringLiteral("en/14-comparing-inputs");
        QTest::newRow("zh") << QStringLiteral("zh/14-comparing-inputs");
    }

    void theLessonRendersInBothLanguages()
    {
        QFETCH(QString, lesson);
        QTemporaryDir dir;
        const QString deck = dir.filePath(QStringLiteral("deck.pdf"));
        Run r = cli({"lesson", lesson, "--output", deck});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("wrote 10 pages"), r.out.constData());
        QVERIFY(readAll(deck).startsWith("%PDF-"));
        r = cli({"lesson", lesson, "--format", "png", "--output-dir", dir.filePath(QStringLiteral("pages")), "--dpi", "48"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList pages = QDir(dir.filePath(QStringLiteral("pages"))).entryList({"*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(pages.size(), 10);
        QCOMPARE(pngSize(readAll(QDir(dir.filePath(QStringLiteral("pages"))).filePath(pages.first()))), QSize(800, 450));
    }

    void badCombinations_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("file");
        const QStringList stage{"--stage", "weights", "--output"};
        QTest::newRow("two comparisons") << (QStringList{"--compare", "x", "--compare-pe"} + stage) << "give one comparison: --compare and --compare-pe" << "c.png";
        QTest::newRow("with --all") << QStringList{"--compare-pe", "--all", "--output-dir"} << "--compare-pe draws one stage" << "dir";
        QTest::newRow("as csv") << (QStringList{"--compare-seed", "3", "--format", "csv"} + stage) << "--compare-seed draws a picture" << "c.csv";
        QTest::newRow("custom mask") << (QStringList{"--compare-mask", "custom"} + stage) << "--compare-mask must be none|causal|padding|causal+padding" << "c.png";
        QTest::newRow("bad seed") << (QStringList{"--compare-seed", "-1"} + stage) << "--compare-seed expects a whole number" << "c.png";
        QTest::newRow("empty sentence") << (QStringList{"--compare", "   "} + stage) << "--compare: the sentence to compare with has no tokens" << "c.svg";
        QTest::newRow("a Transformer's mask") << (QStringList{"--layers", "1", "--compare-mask", "causal"} + stage)
                                              << "--compare-mask: masks are compared on one attention block only" << "c.pdf";
    }

    void badCombinations()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString out = dir.filePath(file);
        const Run r = cli(QStringList{"export", "--sentence", "狗咬了人"} + kModel + args + QStringList{out});
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(message), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1); // one line
        QVERIFY(!QFile::exists(out));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).isEmpty());
    }

    void bThatCannotBeComputedFails()
    {
        // B with more attention cells than a trace may have: refused with the reason, no file.
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("c.png"));
        QStringList words;
        for (int i = 0; i < 600; ++i)
            words << QStringLiteral("w%1").arg(i);
        const Run r = cli(QStringList{"export", "--sentence", "a b", "--heads", "64", "--d-model", "64", "--max-tokens", "1024",
                                      "--compare", words.join(' '), "--stage", "weights", "--output", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("attention-lab-cli: error: B ("), r.err.constData());
        QVERIFY2(r.err.contains("attention cells"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"
