// The decoder bar: hidden for one attention block; with the trained model it steps through
// greedy generation one token at a time, and typing a target switches to teacher forcing.

#include "widgets/decoderpanel.h"
#include "model/model.h"
#include "model/shipped.h"
#include "session/session.h"
#include "support/settle.h"

#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

using namespace attnlab;

namespace {

void useTrainedModel(Session& s, const QString& source)
{
    Config c = s.config();
    c.model = ModelKind::Reversal;
    s.setConfig(c);
    s.setSentence(source);
}

} // namespace

class TestDecoderPanel : public QObject {
    Q_OBJECT
private slots:
    void hiddenForOneAttentionBlock()
    {
        Session s;
        QWidget window;
        auto* p = new DecoderPanel(&s, &window);
        window.show();
        QVERIFY(!p->isVisible());
        useTrainedModel(s, QStringLiteral("abc"));
        QVERIFY(p->isVisible());
        QVERIFY(p->generateButton()->isChecked());
    }

    void followsTheSession()
    {
        Session s;
        useTrainedModel(s, QStringLiteral("abc"));
        DecoderPanel p(&s);
        p.show();
        QVERIFY(p.generateButton()->isChecked());
    }

    void stepsThroughGeneration()
    {
        Session s;
        useTrainedModel(s, QStringLiteral("abc"));
        DecoderPanel p(&s);
        p.show();
        QCOMPARE(p.stepLabel()->text(), QStringLiteral("Step 4 / 4")); // c, b, a, <eos>
        QVERIFY(!p.nextButton()->isEnabled());
        QTest::mouseClick(p.previousButton(), Qt::LeftButton);
        QTest::mouseClick(p.previousButton(), Qt::LeftButton);
        QCOMPARE(s.generationStep(), 1);
        QCOMPARE(p.stepLabel()->text(), QStringLiteral("Step 2 / 4"));
        // The decoder has read <sos> c and is about to write b.
        QCOMPARE(s.fullTrace()->targetTokens, (std::vector<std::string>{"<sos>", "c"}));
        QVERIFY2(p.outputLabel()->text().contains(QStringLiteral("<b>b</b>")), qPrintable(p.outputLabel()->text()));
        // The causal mask grows with every step.
        const auto maskRows = [&s] { return s.fullTrace()->find("mask", std::nullopt, 0, Block::DecoderSelf)->main().values.rows(); };
        QCOMPARE(maskRows(), Eigen::Index(2));
        QTest::mouseClick(p.nextButton(), Qt::LeftButton);
        QCOMPARE(maskRows(), Eigen::Index(3));
    }

    void playRunsToTheEnd()
    {
        Session s;
        useTrainedModel(s, QStringLiteral("ab"));
        DecoderPanel p(&s);
        p.show();
        p.playButton()->click();
        QCOMPARE(s.generationStep(), 0); // from the first token
        QTRY_VERIFY_WITH_TIMEOUT(!p.playButton()->isChecked(), 60000);
        QCOMPARE(s.generationStep(), 2); // b, a, <eos>
        QCOMPARE(p.playButton()->text(), QStringLiteral("Play"));
    }

    // Issue 11 §2: Play restarted from step 1 and stayed labelled Play while running.
    void playContinuesFromTheStepShownAndPauses()
    {
        Session s;
        useTrainedModel(s, QStringLiteral("abcd"));
        DecoderPanel p(&s);
        p.show();
        s.setGenerationStep(1);
        p.playButton()->click();
        QCOMPARE(s.generationStep(), 1); // where it was, not the first token
        QCOMPARE(p.playButton()->text(), QStringLiteral("Pause"));
        QTRY_COMPARE_WITH_TIMEOUT(s.generationStep(), 2, 60000);
        p.playButton()->click(); // Pause
        QCOMPARE(p.playButton()->text(), QStringLiteral("Play"));
        // Paused: nothing is left to step (a wait would prove nothing on a slow machine).
        const auto* timer = p.findChild<QTimer*>(QStringLiteral("playTimer"));
        QVERIFY(timer);
        QVERIFY(!timer->isActive());
        testing::settle();
        QCOMPARE(s.generationStep(), 2);
    }

    void typingATargetIsTeacherForcing()
    {
        Session s;
        useTrainedModel(s, QStringLiteral("abc"));
        DecoderPanel p(&s);
        p.show();
        QSignalSpy changed(&s, &Session::traceChanged);
        QTest::keyClicks(p.targetEdit(), QStringLiteral("xy"));
        QTRY_VERIFY(!s.isGenerating());
        QVERIFY(p.forceButton()->isChecked());
        QCOMPARE(s.fullTrace()->targetTokens, (std::vector<std::string>{"<sos>", "x", "y"}));
        QVERIFY(!p.stepLabel()->isVisible()); // no generation steps under teacher forcing
        p.generateButton()->click();
        QVERIFY(s.isGenerating());
    }

    // Issue 27: with a model that never writes <eos> the studio froze for a minute and more; the
    // generation now runs off the GUI thread, and the bar shows how far it is and can stop it.
    void aLongGenerationShowsProgressAndCancels()
    {
        QTemporaryDir dir;
        Seq2SeqModel m = *shippedModel();
        m.spec.maxTargetLength = 1024;
        for (std::size_t i = 0; i < m.tgtVocab.size(); ++i) {
            if (m.tgtVocab[i] == "<eos>")
                m.generatorBias(static_cast<Eigen::Index>(i)) = -1e4f; // never written
        }
        const QString path = dir.filePath(QStringLiteral("never-eos.safetensors"));
        saveModel(m, path.toStdString());
        Session s;
        s.setBackgroundGeneration(true);
        DecoderPanel p(&s);
        p.show();
        QVERIFY(!p.progressBar()->isVisible());
        s.setSentence(QStringLiteral("abc"));
        QVERIFY(s.importModel(path, nullptr));
        QVERIFY(p.progressBar()->isVisible());
        QVERIFY(p.cancelButton()->isVisible());
        QCOMPARE(p.progressBar()->maximum(), 1024);
        QTRY_VERIFY_WITH_TIMEOUT(p.progressBar()->value() >= 3, 60000);
        // Its words where the row has room; only its numbers where it has not, so that the bar
        // never widens the window (at 1024 pixels a decoder's window was 1043 wide at least).
        p.resize(1400, p.height());
        QTRY_VERIFY(p.progressBar()->text().contains(QStringLiteral("of at most 1024")));
        p.resize(p.minimumSizeHint().width(), p.height());
        QTRY_VERIFY2(QRegularExpression(QStringLiteral("^\\d+ / 1024$")).match(p.progressBar()->text()).hasMatch(),
                     qPrintable(p.progressBar()->text()));
        QVERIFY(p.progressBar()->fontMetrics().horizontalAdvance(p.progressBar()->text()) < p.progressBar()->width());
        QTest::mouseClick(p.cancelButton(), Qt::LeftButton);
        QVERIFY(!s.isGenerationRunning());
        QVERIFY(!p.progressBar()->isVisible());
        QVERIFY(!p.cancelButton()->isVisible());
        const int kept = static_cast<int>(s.generation().size());
        QVERIFY(kept >= 3 && kept < 1024);
        QCOMPARE(p.stepLabel()->text(), QStringLiteral("Step %1 / %1 (stopped)").arg(kept));
        // An edit generates again.
        s.setSentence(QStringLiteral("abd"));
        QVERIFY(p.progressBar()->isVisible());
        s.stopGeneration();
    }

    void aSeededModelCannotGenerate()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Seeded;
        s.setConfig(c);
        DecoderPanel p(&s);
        p.show();
        QVERIFY(p.isVisible());
        QVERIFY(!p.generateButton()->isEnabled());
        QVERIFY(p.forceButton()->isChecked());
    }
};

QTEST_MAIN(TestDecoderPanel)
#include "tst_decoderpanel.moc"
