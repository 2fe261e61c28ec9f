// The lesson player in the studio: every shipped lesson, in English and Chinese, played through
// all its steps with the clicker keys; a student's own sentence; broken and edited lesson files.

#include "shell/languages.h"
#include "lessons/lessonplayer.h"
#include "shell/mainwindow.h"
#include "session/session.h"

#include <QLabel>
#include <QListWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace attnlab;

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

const QByteArray kSmallLesson = "---\ntitle: Small\nlanguage: en\nsentence: one two three\nsettings: d_model=8, heads=2\n---\n\n"
                                "## First\nstage: weights\nhighlight: row 3\n\nRow three.\n\n"
                                "## Second\nstage: mask\nsettings: mask=causal\nhighlight: cells 1,2\n\nThe mask.\n";

} // namespace

class TestLessonPlayer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void everyShippedLessonPlaysThrough_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("row");
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh")}) {
            Session s;
            LessonPlayer p(&s);
            p.setLanguage(language);
            QVERIFY(p.lessonList()->count() >= 8);
            for (int i = 0; i < p.lessonList()->count(); ++i)
                QTest::newRow(qPrintable(language + QLatin1Char(' ') + p.lessonList()->item(i)->text())) << language << i;
        }
    }

    void everyShippedLessonPlaysThrough()
    {
        QFETCH(QString, language);
        QFETCH(int, row);
        Session s;
        MainWindow w(&s);
        w.setCurrentLanguage(language == u"zh" ? QStringLiteral("zh_CN") : QStringLiteral("en"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        LessonPlayer* p = w.lessonPlayer();
        QVERIFY2(p->startLesson(row), qPrintable(p->lastError()));
        QVERIFY(p->isActive());
        QCOMPARE(QString::fromStdString(p->lesson()->language), language);
        const int count = static_cast<int>(p->lesson()->steps.size());
        QVERIFY(count >= 1);
        for (int i = 0; i < count; ++i) {
            QCOMPARE(p->stepIndex(), i);
            const LessonStep& step = p->lesson()->steps[static_cast<std::size_t>(i)];
            // The studio shows exactly what the step asks for.
            QCOMPARE(s.stepId(), QString::fromStdString(step.stage));
            QCOMPARE(s.view(), QString::fromStdString(step.view));
            QVERIFY(s.config() == step.config);
            QVERIFY(s.highlight() == step.highlight);
            QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
            QVERIFY2(p->notes().isEmpty(), qPrintable(p->notes())); // every highlight fits the lesson's sentences
            QVERIFY(!p->explanation()->toPlainText().isEmpty());
            QVERIFY(p->counter()->text().contains(QString::number(i + 1)));
            QTest::keyClick(&w, Qt::Key_PageDown); // the clicker
        }
        QCOMPARE(p->stepIndex(), count - 1); // the end: stays
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(p->stepIndex(), std::max(0, count - 2));
    }

    void studentSentenceTooShortForAHighlight()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("small.md");
        writeFile(path, kSmallLesson);
        Session s;
        LessonPlayer p(&s);
        QVERIFY(p.openLessonFile(path));
        QCOMPARE(s.trace()->tokens.size(), std::size_t(3));
        QVERIFY(p.notes().isEmpty());
        // The student types two words: row 3 cannot be shown any more, and the player says so.
        s.setSentence(QStringLiteral("only two"));
        QVERIFY2(p.notes().contains(QStringLiteral("row 3")), qPrintable(p.notes()));
        // The next step still plays with the student's sentence.
        p.next();
        QCOMPARE(s.sentence(), QStringLiteral("only two"));
        QCOMPARE(s.stepId(), QStringLiteral("mask"));
        QVERIFY(s.config().mask == MaskKind::Causal);
        QVERIFY(p.notes().isEmpty());
    }

    void stepThatCannotBeComputedSaysWhy()
    {
        // Step 2: 600 tokens and 64 heads are more attention cells than a trace may have.
        QTemporaryDir dir;
        const QString path = dir.filePath("big.md");
        writeFile(path, "---\ntitle: Big\nlanguage: en\n---\n\n## Small\nstage: weights\n\nFine.\n\n"
                        "## Big\nsettings: d_model=64, heads=64, max_tokens=1024\nsentence: "
                            + QByteArray("w ").repeated(600) + "\n\nToo big.\n");
        Session s;
        LessonPlayer p(&s);
        QVERIFY(p.openLessonFile(path));
        QVERIFY(p.notes().isEmpty());
        p.next();
        QCOMPARE(p.stepIndex(), 1);
        QVERIFY2(p.notes().contains(QStringLiteral("This step cannot be computed: n (600) squared times heads (64) exceeds")),
                 qPrintable(p.notes()));
        p.previous();
        QVERIFY2(p.notes().isEmpty(), qPrintable(p.notes()));
    }

    void brokenLessonShowsFileLineAndReasonAndKeepsPlaying()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath("small.md");
        writeFile(good, kSmallLesson);
        Session s;
        LessonPlayer p(&s);
        QVERIFY(p.openLessonFile(good));
        p.next();
        const QString broken = QStringLiteral(ATTNLAB_TEST_DATA "/lessons-broken/unknown-stage.md");
        QVERIFY(!p.openLessonFile(broken));
        QVERIFY2(p.lastError().contains(QStringLiteral("unknown-stage.md:")), qPrintable(p.lastError()));
        QVERIFY(p.notes().contains(QStringLiteral("unknown stage")));
        QVERIFY(p.isActive()); // the lesson that was playing goes on
        QCOMPARE(p.stepIndex(), 1);
    }

    void reloadAfterEditing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("small.md");
        writeFile(path, kSmallLesson);
        Session s;
        LessonPlayer p(&s);
        QVERIFY(p.openLessonFile(path));
        p.next();
        // The teacher edits the file: a mistake is reported and the old version keeps playing.
        writeFile(path, QByteArray(kSmallLesson).replace("stage: mask", "stage: maks"));
        QVERIFY(!p.reload());
        QVERIFY(p.lastError().contains(QStringLiteral("small.md:")));
        QCOMPARE(QString::fromStdString(p.lesson()->steps[1].stage), QStringLiteral("mask"));
        // Fixed: reload picks up the change and stays on the same step.
        writeFile(path, QByteArray(kSmallLesson).replace("The mask.", "The causal mask."));
        QVERIFY(p.reload());
        QCOMPARE(p.stepIndex(), 1);
        QVERIFY(p.explanation()->toPlainText().contains(QStringLiteral("The causal mask.")));
    }

    void aShippedLessonHasATwinInTheOtherLanguage()
    {
        QCOMPARE(LessonPlayer::shippedTwin(QStringLiteral(":/lessons/en/04-look-ahead-mask.md"), QStringLiteral("zh")),
                 QStringLiteral(":/lessons/zh/04-look-ahead-mask.md"));
        QCOMPARE(LessonPlayer::shippedTwin(QStringLiteral("/home/t/my.md"), QStringLiteral("zh")), QStringLiteral("/home/t/my.md"));
        Session s;
        LessonPlayer p(&s);
        QVERIFY(p.openLessonAt(QStringLiteral(":/lessons/zh/04-look-ahead-mask.md"), 5));
        QCOMPARE(p.stepIndex(), 5);
        QCOMPARE(QString::fromStdString(p.lesson()->language), QStringLiteral("zh"));
    }

    void stopReturnsTheKeysToTheStages()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("small.md");
        writeFile(path, kSmallLesson);
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.lessonPlayer()->openLessonFile(path));
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(w.lessonPlayer()->stepIndex(), 1);
        w.lessonPlayer()->stop();
        QVERIFY(s.highlight().empty());
        const int step = s.step();
        QTest::keyClick(&w, Qt::Key_Right);
        QCOMPARE(s.step(), step + 1);
    }
};

QTEST_MAIN(TestLessonPlayer)
#include "tst_lessonplayer.moc"
