// Greedy generation off the GUI thread (Session::setBackgroundGeneration, issue 27): with a model
// that never writes <eos> (1024 decoder passes, each on all the tokens so far), every change used
// to freeze the studio for a minute and more. Now the first step is shown at once, the rest runs
// while the event loop turns, Cancel keeps the steps done, an edit restarts the run (the older
// input's steps never reach the views), and opening such a session returns at once.

#include "model/model.h"
#include "model/shipped.h"
#include "session/session.h"

#include <QFutureWatcher>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace attnlab;

namespace {

/// The shipped reversal model with <eos> made impossible and the longest generation limit:
/// every generation takes all its steps (the model of scripts/make_never_eos_model.py).
QString writeNeverEosModel(const QTemporaryDir& dir)
{
    Seq2SeqModel m = *shippedModel();
    m.spec.maxTargetLength = 1024;
    for (std::size_t i = 0; i < m.tgtVocab.size(); ++i) {
        if (m.tgtVocab[i] == "<eos>")
            m.generatorBias(static_cast<Eigen::Index>(i)) = -1e4f;
    }
    const QString path = dir.filePath(QStringLiteral("never-eos.safetensors"));
    saveModel(m, path.toStdString());
    return path;
}

/// True when no generation worker of `s` is left, stopped or not: each one's watcher deletes
/// itself once its worker has returned and its end was delivered.
bool workersDone(const Session& s)
{
    return s.findChildren<QFutureWatcherBase*>().isEmpty();
}

/// The source tokens of the trace on screen, joined.
QString sourceShown(const Session& s)
{
    QString out;
    for (const auto& t : s.fullTrace()->tokens)
        out += QString::fromStdString(t);
    return out;
}

} // namespace

class TestSessionGeneration : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_model;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_model = writeNeverEosModel(m_dir);
    }

    void theEventLoopTurnsWhileItGenerates()
    {
        Session s;
        s.setBackgroundGeneration(true);
        QSignalSpy running(&s, &Session::generationRunningChanged);
        s.setSentence(QStringLiteral("abc"));
        QVERIFY(s.importModel(m_model, nullptr));
        // The first step is on screen at once; the others come while the event loop runs.
        QVERIFY(s.isGenerating());
        QVERIFY(s.isGenerationRunning());
        QCOMPARE(running.count(), 1);
        QCOMPARE(s.generation().size(), std::size_t(1));
        QCOMPARE(s.generationLimit(), 1024);
        int ticks = 0;
        QTimer timer;
        QObject::connect(&timer, &QTimer::timeout, [&] {
            if (s.isGenerationRunning())
                ++ticks;
        });
        timer.start(5);
        QTRY_VERIFY_WITH_TIMEOUT(ticks >= 5 && s.generation().size() > 1, 60000);
        QVERIFY(s.isGenerationRunning());
        QVERIFY(s.generationDone() > 1);
        // The trace shown is a step of the generation so far: the decoder read <sos> + its tokens.
        QCOMPARE(s.fullTrace()->targetTokens.size(), std::size_t(s.generationStep() + 1));
        s.stopGeneration();
    }

    void cancelKeepsTheStepsDone()
    {
        Session s;
        s.setBackgroundGeneration(true);
        s.setSentence(QStringLiteral("abc"));
        QVERIFY(s.importModel(m_model, nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(s.generation().size() >= 3, 60000);
        QSignalSpy running(&s, &Session::generationRunningChanged);
        QSignalSpy traces(&s, &Session::traceChanged);
        s.stopGeneration();
        QVERIFY(!s.isGenerationRunning());
        QCOMPARE(running.count(), 1);
        QCOMPARE(running.at(0).at(0).toBool(), false);
        QVERIFY(s.generationStopped());
        const std::size_t kept = s.generation().size();
        QVERIFY(kept >= 3 && kept < 1024);
        QVERIFY(!s.generation().finished);
        // The step shown is the last one kept, and nothing more arrives.
        QCOMPARE(s.generationStep(), static_cast<int>(kept) - 1);
        QCOMPARE(s.fullTrace()->targetTokens.size(), kept);
        const int tracesAtStop = static_cast<int>(traces.count());
        QTRY_VERIFY_WITH_TIMEOUT(workersDone(s), 60000); // a step the worker was computing when stopped must not show up
        QCOMPARE(s.generation().size(), kept);
        QCOMPARE(static_cast<int>(traces.count()), tracesAtStop);
        // Stepping back through what was kept still works.
        s.setGenerationStep(1);
        QCOMPARE(s.fullTrace()->targetTokens.size(), std::size_t(2));
    }

    void anEditRestartsAndTheOlderStepsNeverShow()
    {
        Session s;
        s.setBackgroundGeneration(true);
        s.setSentence(QStringLiteral("abc"));
        QVERIFY(s.importModel(m_model, nullptr));
        QTRY_VERIFY_WITH_TIMEOUT(s.generation().size() >= 2, 60000);
        // From the edit on, every trace shown is the new source's.
        QStringList shown;
        QObject::connect(&s, &Session::traceChanged, &s, [&] { shown << sourceShown(s); });
        QSignalSpy running(&s, &Session::generationRunningChanged);
        s.setSentence(QStringLiteral("xyz"));
        QVERIFY(s.isGenerationRunning());
        QCOMPARE(s.generation().size(), std::size_t(1)); // started again
        QCOMPARE(running.count(), 1);
        QCOMPARE(running.at(0).at(0).toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(s.generation().size() >= 4, 60000);
        s.stopGeneration();
        QTRY_VERIFY_WITH_TIMEOUT(workersDone(s), 60000); // whatever the first run still had in hand
        QVERIFY(!shown.isEmpty());
        for (const QString& source : shown)
            QCOMPARE(source, QStringLiteral("xyz"));
        QCOMPARE(sourceShown(s), QStringLiteral("xyz"));
    }

    void teacherForcingStopsTheRun()
    {
        Session s;
        s.setBackgroundGeneration(true);
        s.setSentence(QStringLiteral("abc"));
        QVERIFY(s.importModel(m_model, nullptr));
        QVERIFY(s.isGenerationRunning());
        QSignalSpy running(&s, &Session::generationRunningChanged);
        s.setTarget(QStringLiteral("cba"));
        QVERIFY(!s.isGenerationRunning());
        QCOMPARE(running.count(), 1);
        QCOMPARE(running.at(0).at(0).toBool(), false);
        QVERIFY(s.generation().empty());
        QCOMPARE(s.fullTrace()->targetTokens, (std::vector<std::string>{"<sos>", "c", "b", "a"}));
    }

    void openingSuchASessionReturnsAtOnce()
    {
        const QString file = m_dir.filePath(QStringLiteral("never-eos.attnlab.json"));
        {
            Session before;
            before.setBackgroundGeneration(true); // a file is written without waiting for 1024 steps
            before.setSentence(QStringLiteral("ab"));
            QVERIFY(before.importModel(m_model, nullptr));
            QVERIFY(before.saveSession(file, nullptr));
        }
        Session s;
        s.setBackgroundGeneration(true);
        QString error;
        QVERIFY2(s.loadSession(file, &error), qPrintable(error));
        // The window can show this at once: one step made, the rest on its way.
        QVERIFY(s.isGenerationRunning());
        QCOMPARE(s.generation().size(), std::size_t(1));
        QCOMPARE(sourceShown(s), QStringLiteral("ab"));
        QTRY_VERIFY_WITH_TIMEOUT(s.generation().size() >= 2, 60000);
        s.stopGeneration();
    }

    void aShortGenerationEndsOnItsOwn()
    {
        // The shipped model writes <eos> after a few steps: the run ends by itself, and the
        // trace is what a synchronous session shows.
        Session sync;
        Config c = sync.config();
        c.model = ModelKind::Reversal;
        sync.setConfig(c);
        sync.setSentence(QStringLiteral("abcdefgh"));
        Session s;
        s.setBackgroundGeneration(true);
        s.setConfig(c);
        QSignalSpy running(&s, &Session::generationRunningChanged);
        s.setSentence(QStringLiteral("abcdefgh"));
        QTRY_VERIFY_WITH_TIMEOUT(!s.isGenerationRunning(), 60000);
        QVERIFY(!s.generationStopped());
        QVERIFY(s.generation().finished);
        QCOMPARE(s.generation().tokens, sync.generation().tokens);
        QCOMPARE(s.fullTrace()->targetTokens, sync.fullTrace()->targetTokens);
        if (!running.isEmpty()) // the first step may already have been the last
            QCOMPARE(running.last().at(0).toBool(), false);
    }

    void comparisonGeneratesBesideA()
    {
        Session s;
        s.setBackgroundGeneration(true);
        s.setSentence(QStringLiteral("abc"));
        QVERIFY(s.importModel(m_model, nullptr));
        Comparison b;
        b.kind = CompareKind::Sentence;
        b.sentence = "xyz";
        s.setComparison(b);
        s.setComparing(true);
        QVERIFY(s.isGenerationRunning());
        QVERIFY(s.comparisonTrace());
        QTRY_VERIFY_WITH_TIMEOUT(s.generation().size() >= 3, 60000);
        s.stopGeneration();
        // B is shown at A's step: a step back is one pass for each, not a whole generation.
        s.setGenerationStep(1);
        QCOMPARE(s.fullTrace()->targetTokens.size(), std::size_t(2));
        QCOMPARE(s.comparisonTrace()->targetTokens.size(), std::size_t(2));
    }
};

QTEST_MAIN(TestSessionGeneration)
#include "tst_session_generation.moc"
