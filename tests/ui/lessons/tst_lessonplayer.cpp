// The lesson player in the studio: every shipped lesson, in English and Chinese, played through
// all its steps with the clicker keys; a student's own sentence; broken and edited lesson files.

#include "shell/languages.h"
#include "lessons/lessonplayer.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "widgets/markdowntext.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
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

    // Issue 11 §1: one notation for the projections, PyTorch's x·Wᵀ + b (W stored [out, in]),
    // in the lessons as in the banner: no formula multiplies by a bare W_Q, W_K, W_V or W_O.
    void shippedLessonsWriteProjectionsOneWay()
    {
        static const QRegularExpression code(QStringLiteral("`[^`]*`"));
        static const QRegularExpression bare(QStringLiteral("\u00B7W_[QKVO](?![\u1D40,])"));
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const QDir dir(QStringLiteral(":/lessons/") + language);
            QVERIFY(dir.entryList({QStringLiteral("*.md")}).size() >= 14);
            for (const QString& name : dir.entryList({QStringLiteral("*.md")})) {
                QFile f(dir.filePath(name));
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(f.readAll());
                for (auto it = code.globalMatch(text); it.hasNext();) {
                    const QString span = it.next().captured();
                    QVERIFY2(!bare.match(span).hasMatch(), qPrintable(language + QLatin1Char('/') + name + QStringLiteral(": ") + span));
                }
            }
        }
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

    // Opening a shorter lesson from a late step of a longer one: while the new lesson's input is
    // computed, the player's step is never the old lesson's step number in the new lesson (its
    // notes read that step: past the end of the shorter lesson, the studio crashed).
    void aShorterLessonAfterALateStep()
    {
        QTemporaryDir dir;
        const QString longer = dir.filePath("longer.md");
        writeFile(longer, kSmallLesson + "## Third\nstage: scores\nhighlight: row 2\n\nThree.\n\n## Fourth\nstage: weights\nhighlight: row 1\n\nFour.\n");
        const QString shorter = dir.filePath("small.md");
        writeFile(shorter, QByteArray(kSmallLesson).replace("one two three", "four five"));
        Session s;
        LessonPlayer p(&s);
        QVERIFY(p.openLessonFile(longer));
        p.goToStep(3);
        QCOMPARE(p.stepIndex(), 3);
        QStringList wrong;
        connect(&s, &Session::traceChanged, this, [&] {
            const int steps = p.lesson() ? static_cast<int>(p.lesson()->steps.size()) : 0;
            if (p.stepIndex() >= steps)
                wrong << QStringLiteral("step %1 of a lesson of %2").arg(p.stepIndex() + 1).arg(steps);
        });
        QVERIFY(p.openLessonFile(shorter));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
        QCOMPARE(p.stepIndex(), 0);
        QCOMPARE(s.trace()->tokens.size(), std::size_t(2));
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

    /// A word of 300 KB (its layout took minutes, and the studio showed no window): the
    /// explanation reaches Qt's layout in runs it can break, every one short, and is shown
    /// whole; the window lays it out and paints.
    void aHugeWordIsShownInRunsQtCanBreak()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("word.md");
        writeFile(path, "---\ntitle: Word\nlanguage: en\n---\n\n## One word\n\nBefore " + QByteArray(300'000, 'a') + " after.\n");
        Session s;
        LessonPlayer p(&s);
        p.resize(600, 800);
        QVERIFY(p.openLessonFile(path));
        const QString shown = p.explanation()->toPlainText();
        int run = 0, longest = 0;
        for (const QChar c : shown) {
            run = c.isSpace() || c == QChar(0x200B) ? 0 : run + 1;
            longest = std::max(longest, run);
        }
        QVERIFY2(longest <= kLongestRun, qPrintable(QString::number(longest)));
        QCOMPARE(QString(shown).remove(QChar(0x200B)).count(u'a'), 300'000 + 1); // every letter, and "Before"'s
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QVERIFY(p.explanation()->document()->size().height() > 1000); // laid out: many lines
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

    // Issue 11 §2: picking a lesson replaced the teacher's model, sentence and target without
    // asking, and Stop lesson did not give them back.
    void stopGivesBackTheTeachersSetup()
    {
        Session s;
        s.setSentence(QStringLiteral("my own sentence for class"));
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        s.setTarget(QStringLiteral("abc"));
        QVERIFY(s.isModel());
        s.setStep(s.stepIndex(QStringLiteral("weights"), 0, Block::Cross));
        const int step = s.step();
        LessonPlayer p(&s);
        QVERIFY(p.openLessonAt(QStringLiteral(":/lessons/en/03-scaled-dot-product.md"), 2));
        QVERIFY(p.keepsSetup());
        QVERIFY(s.sentence() != QStringLiteral("my own sentence for class"));
        QVERIFY(s.config().model != ModelKind::Reversal);
        // Carried to the other language (as a language switch does), the setup stays aside.
        QVERIFY(p.openLessonAt(QStringLiteral(":/lessons/zh/03-scaled-dot-product.md"), 3));
        QVERIFY(p.keepsSetup());
        p.stop();
        QVERIFY(!p.keepsSetup());
        QCOMPARE(s.sentence(), QStringLiteral("my own sentence for class"));
        QVERIFY(s.config().model == ModelKind::Reversal);
        QCOMPARE(s.target(), std::optional<QString>(QStringLiteral("abc")));
        QCOMPARE(s.step(), step);
        QVERIFY(s.currentStep().block == Block::Cross);
        QVERIFY(p.lastError().isEmpty());
        // A lesson opened from a session file comes with that file's own setup: nothing aside.
        QVERIFY(p.openLessonAt(QStringLiteral(":/lessons/en/03-scaled-dot-product.md"), 0, false));
        QVERIFY(!p.keepsSetup());
        p.stop();
        QVERIFY(s.sentence() != QStringLiteral("my own sentence for class"));
    }
};

QTEST_MAIN(TestLessonPlayer)
#include "tst_lessonplayer.moc"
