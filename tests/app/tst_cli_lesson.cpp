// attention-lab-cli lesson: a lesson becomes a slide deck without a display (one PDF page or
// one PNG per step), and a broken lesson file gives its file, line and reason.

#include "support/cli.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using attnlab::testing::cli;
using attnlab::testing::Run;

namespace {

void writeText(const QString& path, const QString& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
}

} // namespace

class TestCliLesson : public QObject {
    Q_OBJECT
private slots:
    void aLessonWhoseModelIsMissingSaysHowToGetIt()
    {
        // Issue 29: the steps that need no model, and one page saying which model to get and how,
        // instead of a refusal.
        QTemporaryDir dir;
        QProcessEnvironment env = attnlab::testing::cliEnvironment();
        env.insert(QStringLiteral("ATTNLAB_MODELS_DIR"), dir.filePath("no-models"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ATTNLAB_CLI), {"lesson", "en/16-gpt2-decoder-only", "--output-dir", dir.filePath("pages"), "--dpi", "24"});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: warning: this lesson needs the model gpt2")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("get it with: attention-lab-cli download openai-community/gpt2")), qPrintable(err));
        const QStringList pages = QDir(dir.filePath("pages")).entryList(QDir::Files, QDir::Name);
        QVERIFY2(!pages.isEmpty() && pages.first().startsWith(QStringLiteral("01-this-lesson-needs-the-model-gpt2")), qPrintable(pages.join(' ')));
        QVERIFY2(QString::fromUtf8(p.readAllStandardOutput()).startsWith(QStringLiteral("wrote %1 pages").arg(pages.size())), "");
    }

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
        QTest::newRow("target without a model") << QStringList{"lesson", broken + "target-without-model.md", "--output", "x.pdf"} << 2
                                                << "target-without-model.md:8: target: this step needs an encoder–decoder model";
    }

    /// Errors the lesson file holds, found before any page is drawn (exit 2, file and line).
    void refusedBeforeDrawing_data()
    {
        QTest::addColumn<QString>("steps");
        QTest::addColumn<QString>("message");
        // The header takes lines 1-5; the step heading is line 6.
        QTest::newRow("reversal layer 5") << "## A\nsettings: model=reversal\nstage: weights\nlayer: 5\n"
                                          << "l.md:9: layer 5 does not exist: the reversal model has 2 encoder layers";
        QTest::newRow("seeded logits") << "## A\nsettings: model=seeded\nstage: logits\n"
                                       << "l.md:8: stage 'logits' does not exist: a seeded model has no output head";
        QTest::newRow("white-space sentence") << "## A\nsentence: \u3000\nstage: weights\n" << "l.md:7: sentence: '\u3000' has no tokens";
    }

    void refusedBeforeDrawing()
    {
        QFETCH(QString, steps);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = dir.filePath("l.md");
        writeText(file, "---\ntitle: T\nlanguage: en\n---\n\n" + steps);
        const Run r = cli({"lesson", file, "--format", "png", "--output-dir", dir.filePath("pages")});
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith("attention-lab-cli: error: ") && err.contains(message), qPrintable(err));
        QVERIFY(!QFileInfo::exists(dir.filePath("pages")));
    }

    /// A step over the attention-cell limit fails with the reason, as `trace` does, and writes
    /// no page (before: "wrote 1 page" and an empty heatmap).
    void overTheCellLimitFailsWithTheReason()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("big.md");
        // 600 tokens, 64 heads: 600² · 64 = 23,040,000 cells > 16 · 1024² = 16,777,216.
        const QString words = QStringLiteral("w ").repeated(600).trimmed();
        writeText(file, "---\ntitle: Too big\nlanguage: en\nsettings: d_model=64, heads=64, max_tokens=1024\nsentence: " + words
                            + "\n---\n\n## Weights\nstage: weights\n\nText.\n");
        for (const QStringList& output : {QStringList{"--format", "png", "--output-dir", dir.filePath("pages")},
                                          QStringList{"--output", dir.filePath("deck.pdf")}}) {
            const Run r = cli(QStringList{"lesson", file} + output);
            QCOMPARE(r.exitCode, 1);
            const QString err = QString::fromUtf8(r.err).trimmed();
            QVERIFY2(err == "attention-lab-cli: error: step 1 (line 8): n (600) squared times heads (64) exceeds 16777216 attention "
                            "cells: use fewer tokens or heads",
                     qPrintable(err));
            QVERIFY2(!r.out.contains("wrote"), r.out.constData());
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("pages")));
        QVERIFY(!QFileInfo::exists(dir.filePath("deck.pdf")));
    }

    /// A highlight the lesson's own sentence cannot show: the page says so, and so does stderr.
    void highlightThatCannotBeShownIsReported()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("short.md");
        writeText(file, "---\ntitle: Short\nlanguage: en\nsettings: d_model=16, heads=2\nsentence: the cat sat\n---\n\n"
                        "## Weights\nstage: weights\nhighlight: rows 2 5\n\nText.\n");
        const Run r = cli({"lesson", file, "--format", "png", "--output-dir", dir.filePath("pages")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err == "attention-lab-cli: warning: step 1 (line 8): With this sentence the step cannot highlight: row 5 (the matrix "
                        "is 3 \u00D7 3)",
                 qPrintable(err));
        QCOMPARE(QDir(dir.filePath("pages")).entryList({"*.png"}, QDir::Files).size(), 1);
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
