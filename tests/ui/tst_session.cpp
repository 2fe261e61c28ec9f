// The Session: recomputes on every change, keeps the last good trace when an input is bad,
// and reuses preset weights until d_model, seed or preset change.

#include "session.h"

#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void startsOnTheDefaultSentence()
    {
        Session s;
        QVERIFY(s.trace());
        QCOMPARE(s.sentence(), QString::fromUtf8(kDefaultSentence));
        QCOMPARE(s.trace()->tokens.front(), std::string("The"));
        QVERIFY(s.error().isEmpty());
    }

    void typingRecomputes()
    {
        Session s;
        QSignalSpy changed(&s, &Session::traceChanged);
        s.setSentence(QStringLiteral("狗咬了人"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(s.trace()->tokens, (std::vector<std::string>{"狗", "咬", "了", "人"}));
    }

    void badInputKeepsTheLastTrace()
    {
        Session s;
        s.setSentence(QStringLiteral("keep me"));
        const auto before = s.trace();
        QSignalSpy errors(&s, &Session::errorOccurred);
        s.setSentence(QStringLiteral("   "));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.first().first().toString().contains("no tokens"));
        QCOMPARE(s.trace(), before); // the user's last good result stays on screen

        Config c = s.config();
        c.dModel = 10;
        c.heads = 3;
        s.setConfig(c);
        QCOMPARE(errors.count(), 2);
        QVERIFY(errors.last().first().toString().contains("d_model (10) must be a multiple of heads (3)"));
        QCOMPARE(s.trace(), before);

        // Fixing the input recovers.
        s.setSentence(QStringLiteral("fixed"));
        c.heads = 2;
        s.setConfig(c);
        QVERIFY(s.error().isEmpty());
        QCOMPARE(s.trace()->config.heads, 2);
    }

    void presetWeightsAreReused()
    {
        Session s;
        const auto w = s.trace()->weights;
        s.setSentence(QStringLiteral("another sentence"));
        QCOMPARE(s.trace()->weights, w); // same object: not regenerated per keystroke
        Config c = s.config();
        c.seed = 7;
        s.setConfig(c);
        QVERIFY(s.trace()->weights != w);
    }

    void importedWeightsSetTheWidth()
    {
        Session s;
        auto w = std::make_shared<const AttentionWeights>(presetWeights(WeightsPreset::Identity, 8, 0));
        s.setImportedWeights(w);
        QCOMPARE(s.config().dModel, 8);
        QCOMPARE(s.trace()->weights, w);
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
