// attention-lab-cli lesson: a lesson becomes a slide deck without a display (one PDF page or
// one PNG per step), and a broken lesson file gives its file, line and reason.

#include "support/cli.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using attnlab::testing::cli;
using attnlab::testing::Run;

class TestCliLesson : public QObject {
    Q_OBJECT
private slots:
    void chineseLessonToPdf()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath("deck.pdf");
        const Run r = cli({"lesson", "zh/04-look-ahead-mask", "--output", pdf});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        // As many pages as the lesson file has steps ("## " headings).
        QFile lesson(QStringLiteral(ATTNLAB_TEST_DATA "/../../lessons/zh/04-look-ahead-mask.md"));
        QVERIFY(lesson.open(QIODevice::ReadOnly));
        const int steps = static_cast<int>(QString::fromUtf8(lesson.readAll()).count(QRegularExpression(QStringLiteral("(^|\\n)## "))));
        QVERIFY(steps >= 5);
        QCOMPARE(static_cast<int>(QString::fromLatin1(bytes).count(QRegularExpression(QStringLiteral("/Type\\s*/Page(?![s])")))), steps);
        QVERIFY2(r.out.contains(QByteArray::number(steps) + " pages"), r.out.constData());
    }

    void lessonFileToPngPages()
    {
        QTemporaryDir dir;
        const Run r = cli({"lesson", QStringLiteral(ATTNLAB_TEST_DATA "/../../lessons/en/01-query-key-value.md"), "--format", "png",
                           "--output-dir", dir.filePath("pages"), "--dpi", "96"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList pages = QDir(dir.filePath("pages")).entryList({"*.png"}, QDir::Files, QDir::Name);
        QVERIFY(pages.size() >= 5);
        QVERIFY(pages.first().startsWith("01-"));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString broken = QStringLiteral(ATTNLAB_TEST_DATA "/lessons-broken/");
        QTest::newRow("no file") << QStringList{"lesson"} << 2 << "lesson needs a lesson FILE";
        QTest::newRow("missing file") << QStringList{"lesson", "/nonexistent.md", "--output", "x.pdf"} << 2 << "/nonexistent.md";
        QTest::newRow("bad format") << QStringList{"lesson", "en/01-query-key-value", "--format", "gif"} << 2 << "--format must be pdf|png";
        QTest::newRow("pdf without output") << QStringList{"lesson", "en/01-query-key-value"} << 2 << "needs --output";
        QTest::newRow("bad dpi") << QStringList{"lesson", "en/01-query-key-value", "--format", "png", "--output-dir", "x", "--dpi", "5"}
                                 << 2 << "--dpi (5)";
        QTest::newRow("unwritable") << QStringList{"lesson", "en/01-query-key-value", "--output", "/nonexistent/dir/deck.pdf"} << 1
                                    << "cannot write";
        QTest::newRow("unknown stage") << QStringList{"lesson", broken + "unknown-stage.md", "--output", "x.pdf"} << 2 << "unknown-stage.md:";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run r = cli(args);
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, exitCode);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith("attention-lab-cli: error: ") && !err.contains('\n'), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliLesson)
#include "tst_cli_lesson.moc"
