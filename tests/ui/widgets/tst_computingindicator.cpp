// The quiet "Computing…" beside the sentence (issue 30 §5): hidden while nothing computes and for
// the first moment of a computation (typing on a small model never makes it flicker), shown while
// a long one runs off the GUI thread, hidden again when the trace comes.

#include "session/session.h"
#include "widgets/computingindicator.h"

#include <QtTest>

using namespace attnlab;

namespace {

/// 1000 tokens, the last one different for each `variant`.
QString longText(int variant)
{
    return QStringLiteral("x ").repeated(999) + QString::number(variant);
}

} // namespace

class TestComputingIndicator : public QObject {
    Q_OBJECT
private slots:
    void showsWhileALongComputationRuns()
    {
        Session s;
        Config c = s.config();
        c.maxTokens = 1024;
        c.dModel = 1024;
        c.heads = 8;
        s.setConfig(c); // a trace that takes long (computed here: the background is not on yet)
        s.setBackgroundTrace(true);
        QWidget window;
        auto* indicator = new ComputingIndicator(&s, &window);
        window.show();
        QVERIFY(indicator->isHidden());
        QCOMPARE(indicator->text(), QStringLiteral("Computing\u2026"));
        int variant = 0;
        s.setSentence(longText(++variant));
        QVERIFY(s.isComputing());
        QVERIFY(indicator->isHidden()); // not at once: a short computation never shows it
        // Shown while a computation runs (a new input whenever one ends, in case it was quick).
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                if (!s.isComputing())
                    s.setSentence(longText(++variant));
                return !indicator->isHidden() && s.isComputing();
            }(),
            120000);
        QTRY_VERIFY_WITH_TIMEOUT(!s.isComputing(), 120000);
        QVERIFY(indicator->isHidden());
    }

    void aSessionComputingHereNeverShowsIt()
    {
        Session s; // the default: every change computed before the setter returns
        QWidget window;
        auto* indicator = new ComputingIndicator(&s, &window);
        window.show();
        QSignalSpy computing(&s, &Session::computingChanged);
        s.setSentence(QStringLiteral("狗咬了人"));
        QCOMPARE(computing.count(), 0);
        QVERIFY(indicator->isHidden());
    }
};

QTEST_MAIN(TestComputingIndicator)
#include "tst_computingindicator.moc"
