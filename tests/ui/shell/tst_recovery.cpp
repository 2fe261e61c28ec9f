// No lost work, as a user meets it: type in the studio, wait for the autosave, crash (the
// autosave's files stay behind, as after a kill), start again: the new window offers the work
// (Restore / Discard) and Restore brings back the sentence, the stage, the head and the lesson at
// its step. Discard opens the last session saved at a clean quit instead; a clean quit is never
// followed by the offer.

#include "lessons/lessonplayer.h"
#include "session/autosave.h"
#include "session/session.h"
#include "shell/mainwindow.h"
#include "widgets/errorbanner.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QtTest>

using namespace attnlab;

namespace {

const QString kLesson = QStringLiteral(":/lessons/en/04-look-ahead-mask.md");

/// What the restore dialog said, if it showed.
struct Offer {
    bool shown = false;
    QString text;
    QStringList buttons;
};

/// Watches for the restore dialog while `run` runs and presses its button labelled `answer`
/// (a dialog without one is rejected).
Offer answerOffer(const QString& answer, const std::function<void()>& run)
{
    Offer offer;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        offer.shown = true;
        offer.text = box->text() + QLatin1Char('\n') + box->informativeText();
        QAbstractButton* chosen = nullptr;
        for (QAbstractButton* b : box->buttons()) {
            offer.buttons << b->text();
            if (b->text() == answer)
                chosen = b;
        }
        if (chosen)
            chosen->click();
        else
            box->reject();
    });
    poll.start();
    run();
    return offer;
}

/// A studio as main() makes one: the window, its session and the session's autosave.
struct Studio {
    Session session;
    Autosave autosave{&session, Autosave::defaultFolder()};
    MainWindow window{&session};

    Studio()
    {
        window.setAutosave(&autosave);
        window.show();
    }
    /// Types into the sentence box as a user would.
    void type(const QString& text)
    {
        window.sentenceEdit()->setFocus();
        window.sentenceEdit()->selectAll();
        QTest::keyClicks(window.sentenceEdit(), text);
    }
    /// Waits for the autosave to hold `sentence` (a pause of 2 s after the last change).
    bool waitForAutosave(const QString& sentence)
    {
        QSignalSpy saved(&autosave, &Autosave::saved);
        return QTest::qWaitFor([&] { return !autosave.isPending() && !saved.isEmpty() && session.sentence() == sentence; }, 8000);
    }
};

QStringList autosaveFiles()
{
    return QDir(Autosave::defaultFolder()).entryList(QDir::Files | QDir::Hidden);
}

} // namespace

class TestRecovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Keep the tests away from the user's real settings, last session and autosave.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_recovery"));
        QSettings().clear();
    }

    void init()
    {
        QDir(Autosave::defaultFolder()).removeRecursively();
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/last-session.attnlab.json"));
    }

    void typedWorkComesBackAfterACrash()
    {
        {
            Studio crashed;
            QVERIFY(crashed.window.lessonPlayer()->openLessonAt(kLesson, 2));
            crashed.type(QStringLiteral("my unsaved work"));
            QVERIFY(crashed.waitForAutosave(QStringLiteral("my unsaved work")));
            crashed.session.setHead(1);
            QTRY_VERIFY_WITH_TIMEOUT(!crashed.autosave.isPending(), 60000);
            QCOMPARE(autosaveFiles().size(), 2);
            crashed.autosave.abandon(); // the process dies: no close event, no clean end
        }
        QCOMPARE(autosaveFiles().size(), 2); // left behind

        Studio next;
        bool restored = false;
        const Offer offer = answerOffer(QStringLiteral("&Restore"), [&] { restored = next.window.restoreLastSession(); });
        QVERIFY(offer.shown);
        QCOMPARE(offer.buttons, (QStringList{"&Restore", "&Discard"}));
        QVERIFY2(offer.text.contains(QStringLiteral("did not close properly")), qPrintable(offer.text));
        QVERIFY2(offer.text.contains(QStringLiteral("Sentence: my unsaved work")), qPrintable(offer.text));
        QVERIFY(restored);
        QCOMPARE(next.session.sentence(), QStringLiteral("my unsaved work"));
        QCOMPARE(next.window.sentenceEdit()->text(), QStringLiteral("my unsaved work"));
        QCOMPARE(next.session.head(), 1);
        // The lesson plays on at its step, with the student's own sentence.
        QVERIFY(next.window.lessonPlayer()->isActive());
        QCOMPARE(next.window.lessonPlayer()->currentPath(), kLesson);
        QCOMPARE(next.window.lessonPlayer()->stepIndex(), 2);
        // This run's autosave holds the work now; the crashed run's files are gone.
        const QStringList files = autosaveFiles();
        QCOMPARE(files.size(), 2);
        QVERIFY(QFile::exists(next.autosave.file()));
        QVERIFY(files.contains(QFileInfo(next.autosave.file()).fileName()));
    }

    void discardOpensTheLastCleanSession()
    {
        {
            Studio first;
            first.type(QStringLiteral("kept at a clean quit"));
            QTRY_COMPARE(first.session.sentence(), QStringLiteral("kept at a clean quit"));
            first.window.close(); // a clean quit saves the last session
        }
        QCOMPARE(autosaveFiles(), QStringList()); // and leaves no autosave
        {
            Studio crashed;
            crashed.type(QStringLiteral("thrown away"));
            QVERIFY(crashed.waitForAutosave(QStringLiteral("thrown away")));
            crashed.autosave.abandon();
        }
        Studio next;
        bool restored = false;
        const Offer offer = answerOffer(QStringLiteral("&Discard"), [&] { restored = next.window.restoreLastSession(); });
        QVERIFY(offer.shown);
        QVERIFY(restored);
        QCOMPARE(next.session.sentence(), QStringLiteral("kept at a clean quit"));
        // Discarded for good: only this run's marker is left, and nothing is offered again.
        QCOMPARE(autosaveFiles().size(), 1);
        QVERIFY(!Autosave::findOrphan());
    }

    void aCleanQuitIsNotFollowedByAnOffer()
    {
        {
            Studio first;
            QVERIFY(first.window.lessonPlayer()->openLessonAt(kLesson, 3));
            first.type(QStringLiteral("quit cleanly"));
            QVERIFY(first.waitForAutosave(QStringLiteral("quit cleanly")));
            first.window.close();
        }
        Studio next;
        bool restored = false;
        const Offer offer = answerOffer(QStringLiteral("&Restore"), [&] { restored = next.window.restoreLastSession(); });
        QVERIFY2(!offer.shown, qPrintable(offer.text));
        QVERIFY(restored);
        QCOMPARE(next.session.sentence(), QStringLiteral("quit cleanly"));
        // The last session keeps the lesson's place too.
        QCOMPARE(next.window.lessonPlayer()->currentPath(), kLesson);
        QCOMPARE(next.window.lessonPlayer()->stepIndex(), 3);
    }

    void aShippedLessonComesBackInTheInterfacesLanguage()
    {
        {
            Studio first;
            QVERIFY(first.window.lessonPlayer()->openLessonAt(kLesson, 3));
            first.window.close();
        }
        // The next start is in Chinese: the shipped lesson continues in its Chinese twin, at its
        // step; a lesson file of the teacher's own would stay as it was.
        Studio next;
        next.window.setCurrentLanguage(QStringLiteral("zh_CN"));
        QVERIFY(next.window.restoreLastSession());
        QCOMPARE(next.window.lessonPlayer()->currentPath(), QStringLiteral(":/lessons/zh/04-look-ahead-mask.md"));
        QCOMPARE(next.window.lessonPlayer()->stepIndex(), 3);
        next.window.setCurrentLanguage(QStringLiteral("en"));
    }

    void aRunningStudioIsNotOffered()
    {
        Studio running;
        running.type(QStringLiteral("still running"));
        QVERIFY(running.waitForAutosave(QStringLiteral("still running")));
        Studio second;
        const Offer offer = answerOffer(QStringLiteral("&Restore"), [&] { second.window.restoreLastSession(); });
        QVERIFY2(!offer.shown, qPrintable(offer.text));
    }

    void autosaveFailuresAreShown()
    {
        Studio studio;
        QVERIFY(QDir().mkpath(studio.autosave.file())); // a folder where the file must go
        studio.type(QStringLiteral("cannot be kept"));
        QTRY_VERIFY_WITH_TIMEOUT(studio.window.messageLabel()->text().contains(QStringLiteral("could not be saved automatically")), 60000);
        QVERIFY2(studio.window.messageLabel()->text().contains(QStringLiteral("it is a directory")),
                 qPrintable(studio.window.messageLabel()->text()));
        QVERIFY(QDir().rmdir(studio.autosave.file()));
    }
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
