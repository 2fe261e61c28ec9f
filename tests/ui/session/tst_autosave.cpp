// The autosave of a session: a save a pause after the last change (and at the latest every
// ten seconds of changes), the lesson's place in the file, a clean end that tidies up, and what
// a crash leaves behind (abandon(): the files stay, unlocked) found by the next start, newest
// first, never a running studio's, never twice at once.

#include "session/autosave.h"
#include "session/session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace attnlab;

namespace {

nlohmann::json readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    return nlohmann::json::parse(f.readAll().toStdString(), nullptr, false);
}

QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
private slots:
    void savesAPauseAfterTheLastChange()
    {
        QTemporaryDir dir;
        Session s;
        Autosave a(&s, dir.path());
        QVERIFY(a.problem().isEmpty());
        // While it runs, the run's marker is there; nothing else until something changes.
        QCOMPARE(entries(dir.path()).size(), 1);
        QVERIFY(entries(dir.path()).first().endsWith(QStringLiteral(".running")));
        // The rule is stepped through on a clock of the test's own: no bet on the machine's speed.
        QDateTime now = QDateTime::currentDateTimeUtc();
        a.setClock([&now] { return now; });
        QSignalSpy saved(&a, &Autosave::saved);
        QCOMPARE(a.msUntilSave(), -1);
        s.setSentence(QStringLiteral("the first words"));
        QVERIFY(a.isPending());
        QCOMPARE(a.msUntilSave(), Autosave::kDelayMs);
        now = now.addMSecs(1000);
        s.setSentence(QStringLiteral("the first words and more")); // the pause starts again
        QCOMPARE(a.msUntilSave(), Autosave::kDelayMs);
        QVERIFY(!QFile::exists(a.file())); // nothing before the pause is over
        // The save comes when the timer fires, however late a loaded machine lets it.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(a.file()), 60000);
        QCOMPARE(saved.size(), 1);
        QVERIFY(!a.isPending());
        QCOMPARE(QString::fromStdString(readJson(a.file()).at("sentence").get<std::string>()), QStringLiteral("the first words and more"));
        // What it saved opens as a session.
        Session reopened;
        QString error;
        QVERIFY2(reopened.loadSession(a.file(), &error), qPrintable(error));
        QCOMPARE(reopened.sentence(), QStringLiteral("the first words and more"));
    }

    void changesThatNeverPauseAreSavedWithinTenSeconds()
    {
        QTemporaryDir dir;
        Session s;
        Autosave a(&s, dir.path());
        QDateTime start = QDateTime::currentDateTimeUtc();
        QDateTime now = start;
        a.setClock([&now] { return now; });
        // A change every 0.5 s (an auto-playing navigator) never leaves a 2 s pause: the wait
        // shrinks so that the save comes kMaxWaitMs after the first unsaved change.
        for (int ms = 0; ms <= Autosave::kMaxWaitMs; ms += 500) {
            now = start.addMSecs(ms);
            s.setHead((ms / 500 + 1) % 2); // 1, 0, 1, …: a change every time
            QCOMPARE(a.msUntilSave(), std::clamp(Autosave::kMaxWaitMs - ms, 0, Autosave::kDelayMs));
        }
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(a.file()), 60000);
        // Saved: the next change starts a new wait of a whole pause.
        now = now.addMSecs(500);
        s.setHead(0);
        QCOMPARE(a.msUntilSave(), Autosave::kDelayMs);
    }

    void everyKindOfChangeIsSaved_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("sentence") << "sentence";
        QTest::newRow("settings") << "settings";
        QTest::newRow("step") << "step";
        QTest::newRow("head") << "head";
        QTest::newRow("target") << "target";
        QTest::newRow("lesson") << "lesson";
    }

    void everyKindOfChangeIsSaved()
    {
        QFETCH(QString, change);
        QTemporaryDir dir;
        Session s;
        Autosave a(&s, dir.path());
        QVERIFY(!a.isPending());
        if (change == u"sentence")
            s.setSentence(QStringLiteral("a b c"));
        else if (change == u"settings") {
            Config c = s.config();
            c.seed += 1;
            s.setConfig(c);
        } else if (change == u"step")
            s.nextStep();
        else if (change == u"head")
            s.setHead(1);
        else if (change == u"target")
            s.setTarget(QStringLiteral("x y"));
        else
            a.noteChange(); // the lesson player's steps are not the session's signals
        QVERIFY(a.isPending());
    }

    void theLessonsPlaceIsSaved()
    {
        QTemporaryDir dir;
        Session s;
        Autosave a(&s, dir.path());
        const LessonPlace place{QStringLiteral(":/lessons/en/04-look-ahead-mask.md"), 2};
        a.setLessonPlace([&] { return std::optional<LessonPlace>(place); });
        QVERIFY(a.saveNow());
        const auto j = readJson(a.file());
        QCOMPARE(QString::fromStdString(j.at("lesson").at("path").get<std::string>()), place.path);
        QCOMPARE(j.at("lesson").at("step").get<int>(), 2);
        // Opening the file hands the lesson to whoever plays lessons, before the session changes.
        Session reopened;
        std::optional<LessonPlace> opened;
        QString error;
        QVERIFY2(reopened.loadSession(a.file(), &error, [&](const LessonPlace& p) { opened = p; }), qPrintable(error));
        QCOMPARE(opened, std::optional<LessonPlace>(place));
        // No lesson: no "lesson" in the file.
        a.setLessonPlace([] { return std::optional<LessonPlace>(); });
        QVERIFY(a.saveNow());
        QVERIFY(!readJson(a.file()).contains("lesson"));
    }

    void filesWithoutALessonStillOpen()
    {
        // A version 1 file as written before lessons were kept (docs/session-format.md's example).
        QTemporaryDir dir;
        const QString old = dir.filePath(QStringLiteral("old.attnlab.json"));
        QFile f(old);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "attention-lab.session", "version": 1, "sentence": "<sos> Je vais bien",
                    "config": {"d_model": 16, "heads": 2, "seed": 7, "mask": "causal"},
                    "weights": {"source": "seeded"}, "custom_mask": null, "step": "scaled", "head": 1})");
        f.close();
        Session s;
        bool asked = false;
        QString error;
        QVERIFY2(s.loadSession(old, &error, [&](const LessonPlace&) { asked = true; }), qPrintable(error));
        QVERIFY(!asked);
        QCOMPARE(s.sentence(), QStringLiteral("<sos> Je vais bien"));
        QCOMPARE(s.stepId(), QStringLiteral("scaled"));
        QCOMPARE(s.head(), 1);

        // A malformed lesson refuses the file, and nothing changes.
        QFile bad(dir.filePath(QStringLiteral("bad.attnlab.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"format": "attention-lab.session", "version": 1, "sentence": "other words", "config": {},
                     "weights": {"source": "seeded"}, "lesson": {"path": ":/lessons/en/04-look-ahead-mask.md", "step": -1}})");
        bad.close();
        QVERIFY(!s.loadSession(bad.fileName(), &error, [&](const LessonPlace&) { asked = true; }));
        QVERIFY2(error.contains(QStringLiteral("the lesson's path is empty or its step is negative")), qPrintable(error));
        QVERIFY(!asked);
        QCOMPARE(s.sentence(), QStringLiteral("<sos> Je vais bien"));
    }

    void aCleanEndLeavesNothing()
    {
        QTemporaryDir dir;
        {
            Session s;
            Autosave a(&s, dir.path());
            s.setSentence(QStringLiteral("saved, then quit"));
            QVERIFY(a.saveNow());
            QCOMPARE(entries(dir.path()).size(), 2);
        }
        QCOMPARE(entries(dir.path()), QStringList());
        QVERIFY(!Autosave::findOrphan(dir.path()));
    }

    void aCrashLeavesItsSessionForTheNextStart()
    {
        QTemporaryDir dir;
        Session s;
        auto crashed = std::make_unique<Autosave>(&s, dir.path());
        s.setSentence(QStringLiteral("unsaved work"));
        QVERIFY(crashed->saveNow());
        const QString file = crashed->file();
        // While the studio runs, its session is not an orphan.
        QVERIFY(!Autosave::findOrphan(dir.path()));
        crashed->abandon(); // as a kill would: the files stay, the lock goes
        crashed.reset();
        QVERIFY(QFile::exists(file));

        auto orphan = Autosave::findOrphan(dir.path());
        QVERIFY(orphan);
        QCOMPARE(orphan->file(), file);
        QCOMPARE(orphan->sentence(), QStringLiteral("unsaved work"));
        QVERIFY(qAbs(orphan->savedAt().secsTo(QDateTime::currentDateTime())) < 60);
        // Claimed: a second studio starting now is not offered it too.
        QVERIFY(!Autosave::findOrphan(dir.path()));
        // Let go without a choice: offered again later.
        orphan.reset();
        orphan = Autosave::findOrphan(dir.path());
        QVERIFY(orphan);
        orphan->discard();
        orphan.reset();
        QCOMPARE(entries(dir.path()), QStringList());
        QVERIFY(!Autosave::findOrphan(dir.path()));
    }

    // Two autosaves started at once in one process have files of their own: their names were the
    // time to the millisecond and the process id, so two started in the same millisecond shared
    // them, the second's marker replacing the first's (theNewestOrphanIsOfferedFirst failed so).
    void twoAutosavesStartedAtOnceHaveFilesOfTheirOwn()
    {
        QTemporaryDir dir;
        Session s1;
        Session s2;
        Autosave a(&s1, dir.path());
        Autosave b(&s2, dir.path());
        QVERIFY(a.file() != b.file());
        s1.setSentence(QStringLiteral("first"));
        s2.setSentence(QStringLiteral("second"));
        QVERIFY(a.saveNow() && b.saveNow());
        a.abandon();
        b.abandon();
        QStringList offered;
        for (int i = 0; i < 2; ++i) {
            auto orphan = Autosave::findOrphan(dir.path());
            QVERIFY(orphan);
            offered << orphan->sentence();
            orphan->discard();
        }
        offered.sort();
        QCOMPARE(offered, (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
    }

    void theNewestOrphanIsOfferedFirst()
    {
        QTemporaryDir dir;
        QStringList files;
        for (const char* sentence : {"older", "newer"}) {
            Session s;
            Autosave a(&s, dir.path());
            s.setSentence(QString::fromLatin1(sentence));
            QVERIFY(a.saveNow());
            files << a.file();
            a.abandon();
        }
        // The newer one saved a minute later (set, not waited for: file times have a resolution
        // of a second on some systems).
        QFile newer(files.last());
        QVERIFY(newer.open(QIODevice::ReadWrite));
        QVERIFY(newer.setFileTime(QFileInfo(files.first()).lastModified().addSecs(60), QFileDevice::FileModificationTime));
        newer.close();
        auto newest = Autosave::findOrphan(dir.path());
        QVERIFY(newest);
        QCOMPARE(newest->sentence(), QStringLiteral("newer"));
        newest->discard();
        newest.reset();
        auto older = Autosave::findOrphan(dir.path());
        QVERIFY(older);
        QCOMPARE(older->file(), files.first());
    }

    void aRunThatChangedNothingLeavesNothingToOffer()
    {
        QTemporaryDir dir;
        {
            Session s;
            Autosave a(&s, dir.path());
            a.abandon();
        }
        QCOMPARE(entries(dir.path()).size(), 1); // the marker alone
        QVERIFY(!Autosave::findOrphan(dir.path()));
        QCOMPARE(entries(dir.path()), QStringList()); // tidied away
    }

    void aFailingSaveIsReportedOnce()
    {
        QTemporaryDir dir;
        Session s;
        Autosave a(&s, dir.path());
        QSignalSpy failed(&a, &Autosave::failed);
        QVERIFY(QDir().mkpath(a.file())); // a folder where the file must go
        QString error;
        QVERIFY(!a.saveNow(&error));
        QVERIFY2(error.contains(QStringLiteral("it is a directory")), qPrintable(error));
        QVERIFY(!a.saveNow());
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.first().first().toString(), error);
        QVERIFY(QDir().rmdir(a.file()));
        QVERIFY(a.saveNow());
        QVERIFY(QFile::remove(a.file()));
        QVERIFY(QDir().mkpath(a.file()));
        QVERIFY(!a.saveNow());
        QCOMPARE(failed.size(), 2); // failing again after a success is said again
        QVERIFY(QDir().rmdir(a.file()));
    }

    void aFolderThatCannotBeMadeIsSaid()
    {
        Session s;
        Autosave a(&s, QStringLiteral("/dev/null/autosave"));
        // In the words of every file the studio cannot write: what is in the way.
        QCOMPARE(a.problem(), QStringLiteral("cannot write '/dev/null/autosave': Not a directory ('/dev/null' is a file, not a folder)"));
        s.setSentence(QStringLiteral("not saved"));
        QVERIFY(!a.isPending());
        QString error;
        QVERIFY(!a.saveNow(&error));
        QCOMPARE(error, a.problem());
        QVERIFY(!Autosave::findOrphan(QStringLiteral("/dev/null/autosave")));
    }
};

QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
