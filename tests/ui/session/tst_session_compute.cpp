// The trace off the GUI thread (Session::setBackgroundTrace, issue 30 §5): the window answers
// while a long trace computes, an older input's result is never shown, keystrokes made during a
// computation coalesce into one, the newest input's error is still reported, and
// finishComputing() gives the trace of the input on screen (exports).
//
// Nothing here depends on the machine's speed: a result reaches the Session only through the
// event loop (a QFutureWatcher's signal), so right after a setter returns the computation is
// known to be pending, and whatever the event loop handles before the result comes was handled
// while the GUI thread was free.

#include "session/session.h"

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSignalSpy>
#include <QThreadPool>
#include <QTimer>
#include <QtTest>

using namespace attnlab;

namespace {

/// `n` words, different for each `variant`.
QString words(int n, int variant)
{
    QStringList w;
    for (int i = 0; i < n; ++i)
        w << QStringLiteral("w%1").arg((i * 7 + variant) % 97);
    return w.join(QLatin1Char(' '));
}

/// A Session whose trace takes long on any machine: one attention block of d_model 1024 on
/// 1000 tokens (Q, K and V are 1000 × 1024 × 1024 products each, the scores 8 × 1000 × 1000).
void makeSlow(Session& s)
{
    Config c = s.config();
    c.maxTokens = 1024;
    c.dModel = 1024;
    c.heads = 8;
    s.setConfig(c);
}

/// Counts the computations a Session starts: each one's QFutureWatcher becomes its child.
class ChildCounter : public QObject {
public:
    int added = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::ChildAdded)
            ++added;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestSessionCompute : public QObject {
    Q_OBJECT
private slots:
    void theWindowAnswersWhileATraceComputes()
    {
        Session s;
        makeSlow(s); // computed here: the background is not on yet
        s.setBackgroundTrace(true);
        QLineEdit edit;
        edit.show();
        // A timer ticking every 5 ms and keys typed into a field, both through the event loop.
        QElapsedTimer clock;
        qint64 last = -1;
        qint64 worst = 0;
        int ticksWhileComputing = 0;
        QTimer tick;
        tick.setInterval(5);
        connect(&tick, &QTimer::timeout, &s, [&] {
            if (!s.isComputing())
                return;
            ++ticksWhileComputing;
            if (last >= 0)
                worst = std::max(worst, clock.elapsed() - last);
            last = clock.elapsed();
        });
        int keysWhileComputing = 0;
        connect(&edit, &QLineEdit::textEdited, &s, [&] {
            if (s.isComputing())
                ++keysWhileComputing;
            s.setSentence(words(1000, 100 + edit.text().size())); // typing on: each key a new input
        });
        tick.start();
        clock.start();
        s.setSentence(words(1000, 1));
        QVERIFY(s.isComputing()); // the setter returned before the trace was made
        for (const char c : {'a', 'b', 'c'})
            QCoreApplication::postEvent(&edit, new QKeyEvent(QEvent::KeyPress, Qt::Key_A + (c - 'a'), Qt::NoModifier, QString(QLatin1Char(c))));
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 120000);
        const qint64 total = clock.elapsed();
        QCOMPARE(edit.text(), QStringLiteral("abc"));
        QCOMPARE(keysWhileComputing, 3); // every key was handled while a trace computed
        QVERIFY2(ticksWhileComputing > 0, "the event loop handled no timer tick while the trace computed");
        QVERIFY(s.error().isEmpty());
        // The trace on screen is the last key's input.
        QCOMPARE(static_cast<int>(s.trace()->tokens.size()), 1000);
        QCOMPARE(QString::fromStdString(s.trace()->tokens.front()), words(1000, 103).section(QLatin1Char(' '), 0, 0));
        qInfo("typing during %lld ms of computation: %d ticks of 5 ms handled, the longest gap %lld ms", total,
              ticksWhileComputing, worst);
    }

    void anOlderInputsResultIsNeverShown()
    {
        Session s;
        s.setBackgroundTrace(true);
        std::vector<std::vector<std::string>> shown;
        connect(&s, &Session::traceChanged, &s, [&] { shown.push_back(s.trace()->tokens); });
        s.setSentence(QStringLiteral("the first input"));
        QVERIFY(s.isComputing());
        s.setSentence(QStringLiteral("狗咬了人"));
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 60000);
        s.findChild<QThreadPool*>()->waitForDone(); // the first computation is over too
        QCoreApplication::processEvents();
        QCOMPARE(shown.size(), std::size_t(1));
        QCOMPARE(shown.front(), (std::vector<std::string>{"狗", "咬", "了", "人"}));
        QCOMPARE(s.trace()->tokens, shown.front());
    }

    void keystrokesDuringAComputationCoalesce()
    {
        Session s;
        s.setBackgroundTrace(true);
        s.setSentence(QStringLiteral("warm up")); // makes the thread pool (a child too)
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 60000);
        ChildCounter started;
        s.installEventFilter(&started);
        QSignalSpy computing(&s, &Session::computingChanged);
        QSignalSpy changed(&s, &Session::traceChanged);
        for (const QString& text : {QStringLiteral("a"), QStringLiteral("a b"), QStringLiteral("a b c"), QStringLiteral("a b c d")})
            s.setSentence(text);
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 60000);
        s.findChild<QThreadPool*>()->waitForDone();
        QCoreApplication::processEvents();
        // The first input's computation, then the newest's: the two between were never computed.
        QCOMPARE(started.added, 2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.trace()->tokens, (std::vector<std::string>{"a", "b", "c", "d"}));
        // "Computing" once, not once per computation.
        QCOMPARE(computing.count(), 2);
        QCOMPARE(computing.at(0).at(0).toBool(), true);
        QCOMPARE(computing.at(1).at(0).toBool(), false);
    }

    void theNewestInputsErrorIsReported()
    {
        Session s;
        s.setBackgroundTrace(true);
        const auto before = s.trace();
        QSignalSpy errors(&s, &Session::errorOccurred);
        s.setSentence(QStringLiteral("a good sentence"));
        s.setSentence(QStringLiteral("   ")); // no tokens: the engine says so off the GUI thread
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 60000);
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.first().first().toString().contains("no tokens"));
        QVERIFY(s.error().contains("no tokens"));
        QCOMPARE(s.trace(), before); // the good sentence was an older input: never shown

        // Settings the engine refuses are said at once; nothing computes.
        Config c = s.config();
        c.dModel = 10;
        c.heads = 3;
        s.setConfig(c);
        QVERIFY(!s.isComputing());
        QCOMPARE(errors.count(), 2);
        QVERIFY(errors.last().first().toString().contains("d_model (10) must be a multiple of heads (3)"));
        QCOMPARE(s.trace(), before);

        // Fixing the input recovers.
        c.heads = 2;
        s.setConfig(c);
        s.setSentence(QStringLiteral("fixed"));
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 60000);
        QVERIFY(s.error().isEmpty());
        QCOMPARE(s.trace()->config.heads, 2);
        QCOMPARE(s.trace()->tokens, std::vector<std::string>{"fixed"});
    }

    void finishComputingGivesTheTraceOfTheInput()
    {
        Session s;
        s.setBackgroundTrace(true);
        // The input's computation runs: waited for.
        s.setSentence(QStringLiteral("one two"));
        QVERIFY(s.isComputing());
        s.finishComputing();
        QVERIFY(!s.isComputing());
        QCOMPARE(s.trace()->tokens, (std::vector<std::string>{"one", "two"}));
        // An older input's runs and the newest waits: the newest is computed here.
        QSignalSpy changed(&s, &Session::traceChanged);
        s.setSentence(QStringLiteral("three"));
        s.setSentence(QStringLiteral("four five six"));
        s.finishComputing();
        QVERIFY(!s.isComputing());
        QCOMPARE(s.trace()->tokens, (std::vector<std::string>{"four", "five", "six"}));
        s.findChild<QThreadPool*>()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(changed.count(), 1); // "three" came back after, and was dropped
        QCOMPARE(s.trace()->tokens, (std::vector<std::string>{"four", "five", "six"}));
        s.finishComputing(); // nothing pending: returns at once
        QCOMPARE(changed.count(), 1);
    }
};

QTEST_MAIN(TestSessionCompute)
#include "tst_session_compute.moc"
