// Undo and redo of the sentence and the settings (session/history.h): one step per committed
// change, typing merged by words, undo restoring the Session, a loaded session clearing it.

#include "session/history.h"
#include "session/session.h"

#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace attnlab;

namespace {

/// Commits `text` as the sentence box does after a pause, then lets the event loop record it.
void type(Session& s, const QString& text)
{
    s.setSentence(text);
    QCoreApplication::processEvents();
}

} // namespace

class TestHistory : public QObject {
    Q_OBJECT
private slots:
    void finishedWordsAreCounted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("words");
        QTest::newRow("empty") << "" << 0;
        QTest::newRow("one word being typed") << "dog" << 0;
        QTest::newRow("a word and its space") << "dog " << 1;
        QTest::newRow("the second word under way") << "dog bi" << 1;
        QTest::newRow("leading spaces finish nothing") << "  dog" << 0;
        QTest::newRow("Chinese has no spaces") << QStringLiteral("狗咬了人") << 0;
    }

    void finishedWordsAreCounted()
    {
        QFETCH(QString, text);
        QFETCH(int, words);
        QCOMPARE(finishedWords(text), words);
    }

    void typingAWordIsOneStep()
    {
        Session s;
        type(s, QString());
        History h(&s);
        // Keystroke by keystroke, as a slow typist commits them.
        for (const char* t : {"d", "do", "dog", "dog ", "dog b", "dog bi", "dog bit", "dog bite", "dog bites"})
            type(s, QString::fromLatin1(t));
        QCOMPARE(h.stack()->count(), 2); // "" → "dog", "dog" → "dog bites"
        h.undo();
        QCOMPARE(s.sentence(), QStringLiteral("dog"));
        h.undo();
        QCOMPARE(s.sentence(), QString());
        QVERIFY(!h.canUndo());
        h.redo();
        QCOMPARE(s.sentence(), QStringLiteral("dog"));
        h.redo();
        QCOMPARE(s.sentence(), QStringLiteral("dog bites"));
        QVERIFY(!h.canRedo());
    }

    void typingOverASelectionIsTyping()
    {
        // Select all and type: the first key replaces the sentence, the next ones go on typing.
        Session s;
        type(s, QStringLiteral("The animal was tired."));
        History h(&s);
        for (const char* t : {"d", "do", "dog"})
            type(s, QString::fromLatin1(t));
        QCOMPARE(h.stack()->count(), 1);
        h.undo();
        QCOMPARE(s.sentence(), QStringLiteral("The animal was tired."));
    }

    void deletingIsAStepOfItsOwn()
    {
        Session s;
        type(s, QStringLiteral("dog bites"));
        History h(&s);
        for (const char* t : {"dog bite", "dog bit", "dog bi"}) // Backspace, three times
            type(s, QString::fromLatin1(t));
        type(s, QStringLiteral("dog bix")); // then typing again: not merged with the deletions
        QCOMPARE(h.stack()->count(), 2);
        h.undo();
        QCOMPARE(s.sentence(), QStringLiteral("dog bi"));
        h.undo();
        QCOMPARE(s.sentence(), QStringLiteral("dog bites"));
    }

    void aSettingIsOneStepAndUndoRestoresIt()
    {
        Session s;
        History h(&s);
        const Config before = s.config();
        Config c = before;
        c.scaleScores = !c.scaleScores;
        c.seed = before.seed + 1; // two settings in one pass of the event loop: one step
        s.setConfig(c);
        c.dModel = before.dModel * 2;
        s.setConfig(c);
        QCoreApplication::processEvents();
        QCOMPARE(h.stack()->count(), 1);
        h.undo();
        QCOMPARE(s.config(), before);
        QVERIFY(s.error().isEmpty());
        h.redo();
        QCOMPARE(s.config(), c);
    }

    void aNewEditAfterUndoStartsANewStep()
    {
        Session s;
        type(s, QString());
        History h(&s);
        type(s, QStringLiteral("dog"));
        type(s, QStringLiteral("dog bi"));
        QCOMPARE(h.stack()->count(), 2);
        h.undo();
        QCOMPARE(s.sentence(), QStringLiteral("dog"));
        type(s, QStringLiteral("dogs")); // would merge with "" → "dog" by words; not after an undo
        QCOMPARE(h.stack()->count(), 2);
        QVERIFY(!h.canRedo()); // the undone step is gone
        h.undo();
        QCOMPARE(s.sentence(), QStringLiteral("dog"));
        h.undo();
        QCOMPARE(s.sentence(), QString());
    }

    void aChangeNotYetRecordedIsUndoneFirst()
    {
        Session s;
        History h(&s);
        const QString before = s.sentence();
        s.setSentence(QStringLiteral("the cat")); // no event loop turn yet
        QVERIFY(h.canUndo());
        h.undo();
        QCOMPARE(s.sentence(), before);
    }

    void aMaskFromAFileClearsTheHistory()
    {
        Session s;
        History h(&s);
        type(s, QStringLiteral("a b c"));
        QVERIFY(h.canUndo());
        BoolMatrix mask = BoolMatrix::Constant(3, 3, false);
        mask(0, 2) = true;
        s.setCustomMask(mask);
        QCoreApplication::processEvents();
        QVERIFY(s.config().mask == MaskKind::Custom);
        QVERIFY(!h.canUndo()); // undo would give back a mask kind without the file's mask
        // Settings changed after it are undone as usual.
        Config c = s.config();
        c.scaleScores = !c.scaleScores;
        s.setConfig(c);
        QCoreApplication::processEvents();
        h.undo();
        QVERIFY(s.config().mask == MaskKind::Custom);
        QCOMPARE(s.config().scaleScores, !c.scaleScores);
        QVERIFY(s.error().isEmpty());
    }

    void openingASessionClearsTheHistory()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.attnlab.json"));
        Session s;
        QString error;
        QVERIFY2(s.saveSession(path, &error), qPrintable(error));
        History h(&s);
        type(s, QStringLiteral("something else"));
        QVERIFY(h.canUndo());
        QVERIFY2(s.loadSession(path, &error), qPrintable(error));
        QCoreApplication::processEvents();
        QVERIFY(!h.canUndo());
        QCOMPARE(h.stack()->count(), 0);
        // A bad file changes nothing, the history included.
        type(s, QStringLiteral("typed after"));
        QVERIFY(!s.loadSession(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY(h.canUndo());
    }
};

QTEST_MAIN(TestHistory)
#include "tst_history.moc"
