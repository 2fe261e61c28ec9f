// The Training tab (issue 15 §3): Start trains in a thread of its own while the window keeps
// turning; the curves get one point per step, the held-out evaluations and the snapshots at
// 0, 50, 100; the probe's attention is the last decoder layer's cross-attention; Pause holds the
// step count, Resume and Stop act; Use this model puts the trained model into the studio on the
// probe's source, Save model as writes a file the studio reads; a bad setting or file is said in
// the status line and nothing starts.

#include "session/session.h"
#include "training/snapshotstrip.h"
#include "training/trainingrun.h"
#include "views/heatmapview.h"
#include "views/trainingview.h"
#include "support/settle.h"

#include "model/model.h"
#include "shell/languages.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <limits>

using namespace attnlab;

namespace {

/// Runs the event loop until `done` (a generous bound for a loaded machine); true when done.
template <typename Done>
bool waitFor(Done done)
{
    return QTest::qWaitFor(done, 180000);
}

void classroom(TrainingView& v, int steps)
{
    v.presetBox()->setCurrentIndex(0);
    v.stepsBox()->setValue(steps);
    v.batchBox()->setValue(32);
}

} // namespace

class TestTrainingView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void trainsAndDraws()
    {
        Session session;
        TrainingView v(&session);
        classroom(v, 120);
        QVERIFY(v.start());
        QVERIFY(!v.startButton()->isEnabled());
        QVERIFY(!v.presetBox()->isEnabled());
        // The GUI thread is free while the run trains: this loop turns.
        QVERIFY(waitFor([&] { return v.run()->state() == TrainingRun::State::Finished; }));
        testing::settle(); // the run's last frame, queued to the GUI thread
        v.showFrame();
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("Step 120 of 120")), qPrintable(v.statusLabel()->text()));
        QVERIFY(v.statusLabel()->text().contains(QStringLiteral("finished")));
        QCOMPARE(v.lossPlot()->graph(0)->dataCount(), 120);
        QVERIFY(v.lossPlot()->graph(1)->dataCount() >= 2); // the held-out loss at its evaluations
        QCOMPARE(v.accuracyPlot()->graph(1)->dataCount(), 120); // the rate of every step
        QCOMPARE(v.strip()->steps(), (std::vector<int>{0, 50, 100}));
        QVERIFY(v.heatmap()->isVisible() || !v.isVisible());
        QCOMPARE(v.layerBox()->count(), 1);
        QCOMPARE(v.headBox()->count(), 4);
        // The training loss fell: the first step is near ln 79, the last well below.
        const auto* loss = v.lossPlot()->graph(0)->data().data();
        QVERIFY(loss->at(0)->value > 4.0);
        QVERIFY(loss->at(119)->value < loss->at(0)->value - 1.0);
        QVERIFY(v.useButton()->isEnabled());
        QVERIFY(v.startButton()->isEnabled());
    }

    void pauseResumeStop()
    {
        Session session;
        TrainingView v(&session);
        classroom(v, 100000);
        QVERIFY(v.start());
        QVERIFY(waitFor([&] { return v.run()->frame().steps.size() >= 5; }));
        v.togglePause();
        QVERIFY(waitFor([&] { return v.run()->state() == TrainingRun::State::Paused; }));
        const std::size_t held = v.run()->frame().steps.size();
        testing::settle();
        QCOMPARE(v.run()->frame().steps.size(), held);
        QVERIFY(v.run()->model()); // the model of the paused step, for Use this model
        v.showFrame();
        QVERIFY(v.statusLabel()->text().contains(QStringLiteral("paused")));
        QVERIFY(v.useButton()->isEnabled());
        v.togglePause();
        QVERIFY(waitFor([&] { return v.run()->frame().steps.size() > held + 3; }));
        v.stop();
        QVERIFY(waitFor([&] { return v.run()->state() == TrainingRun::State::Stopped; }));
    }

    void useAndSaveTheModel()
    {
        Session session;
        TrainingView v(&session);
        QVERIFY(!v.useModel());
        QVERIFY(v.statusLabel()->text().contains(QStringLiteral("Train a model first")));
        classroom(v, 60);
        QVERIFY(v.start());
        QVERIFY(waitFor([&] { return v.run()->state() == TrainingRun::State::Finished; }));
        QVERIFY2(v.useModel(), qPrintable(v.statusLabel()->text()));
        QVERIFY(session.model());
        QCOMPARE(session.model()->name, std::string("Trained: reverse"));
        QCOMPARE(session.model()->spec.dModel, 32);
        QCOMPARE(session.sentence().toStdString(), v.run()->frame().probePair.source);
        QVERIFY(session.trace()); // the studio computed the trained model on the probe
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.safetensors"));
        QVERIFY(v.saveModel(path));
        QCOMPARE(loadModel(QFile::encodeName(path).toStdString()).tgtVocab.size(), std::size_t(79));
        QVERIFY(!v.saveModel(QStringLiteral("/nonexistent/folder/m.safetensors")));
        QVERIFY(v.statusLabel()->text().contains(QStringLiteral("Could not save the model")));
    }

    /// A run that diverges (a rate of 1e10) stops with the step and the reason, in the
    /// interface's language; a model whose weights are not finite is neither used nor saved,
    /// with a translated message, and an earlier file stays as it was.
    void divergenceAndModelsThatAreNotFinite()
    {
        Session session;
        TrainingView v(&session);
        const train::Task task = train::builtInTask(train::TaskKind::Reverse, 4, 16);
        const ModelSpec spec = train::presetSpec(train::Preset::Classroom);
        train::TrainOptions o;
        o.steps = 300;
        o.batch = 8;
        o.threads = 1;
        o.schedule = {1e10, 0, spec.dModel};
        v.run()->start(std::make_unique<train::Trainer>(train::freshModel(spec, task), task, o));
        QTRY_VERIFY_WITH_TIMEOUT(!v.run()->isActive(), 120000);
        QCOMPARE(v.run()->state(), TrainingRun::State::Failed);
        v.showFrame();
        static const QRegularExpression english(
            QStringLiteral("^Training stopped: training diverged at step \\d+: the .* not finite.*\\. Try a lower learning rate\\.$"));
        QVERIFY2(english.match(v.statusLabel()->text()).hasMatch(), qPrintable(v.statusLabel()->text()));
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        v.showFrame();
        QVERIFY2(v.statusLabel()->text().startsWith(QStringLiteral("训练中止：训练在第 ")), qPrintable(v.statusLabel()->text()));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));

        // A model holding NaN (as a run could leave one): refused for the studio and for a file.
        Seq2SeqModel nan = train::freshModel(spec, task);
        QVERIFY(nan.generatorWeight.size() > 0);
        nan.generatorWeight(0, 0) = std::numeric_limits<float>::quiet_NaN();
        TrainingRun::Frame frame;
        frame.state = TrainingRun::State::Finished;
        const auto bad = std::make_shared<const Seq2SeqModel>(std::move(nan));
        v.run()->restore(frame, bad);
        QVERIFY(!v.useModel());
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("weights are not finite (NaN or infinity): it cannot be used or saved")),
                 qPrintable(v.statusLabel()->text()));
        QVERIFY(!session.model());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("earlier.safetensors"));
        QFile earlier(path);
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.write("an earlier model");
        earlier.close();
        QVERIFY(!v.saveModel(path));
        QVERIFY(earlier.open(QIODevice::ReadOnly));
        QCOMPARE(earlier.readAll(), QByteArray("an earlier model"));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QVERIFY(!v.saveModel(path));
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("非有限值")), qPrintable(v.statusLabel()->text()));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    void badSettingsAndFiles()
    {
        Session session;
        TrainingView v(&session);
        v.presetBox()->setCurrentIndex(2); // custom
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("pairs.tsv")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("cat\tchat\nno tab here\n");
        f.close();
        QVERIFY(!v.setTaskFile(f.fileName()));
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("pairs.tsv:2: no TAB")), qPrintable(v.statusLabel()->text()));
        QCOMPARE(v.taskBox()->currentIndex(), 0); // still the built-in reversal
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("red\trot\ngreen\tgruen\nblue\tblau\n");
        f.close();
        QVERIFY(v.setTaskFile(f.fileName()));
        QCOMPARE(v.taskBox()->currentText(), QStringLiteral("pairs.tsv"));
        // d_model 30 with 4 heads: refused before anything starts.
        auto spins = v.findChildren<QSpinBox*>();
        for (QSpinBox* s : spins) {
            if (s->maximum() == 256)
                s->setValue(30); // d_model
        }
        QVERIFY(!v.start());
        QVERIFY2(v.statusLabel()->text().contains(QStringLiteral("multiple of heads")), qPrintable(v.statusLabel()->text()));
        QCOMPARE(v.run()->state(), TrainingRun::State::Idle);
    }
};

QTEST_MAIN(TestTrainingView)
#include "tst_trainingview.moc"
