// The time `generate` announces for a long generation (issue 27): the shipped model made never
// to write <eos> takes all 1024 steps, each a pass on all the tokens so far; the command said
// "about 14 s" (the arithmetic alone) and took 62. The note now counts the numbers every step's
// trace writes, and the progress lines say how long the rest would take, from the time so far.
// The test reads the note and the first progress line, then stops the run (no assertion on how
// long anything takes: the lines are read whenever they come).

#include "model/model.h"
#include "model/shipped.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

class TestCliEstimate : public QObject {
    Q_OBJECT
private slots:
    void aGenerationThatNeverEndsIsAnnouncedHonestly()
    {
        QTemporaryDir dir;
        Seq2SeqModel m = *shippedModel();
        m.spec.maxTargetLength = 1024;
        for (std::size_t i = 0; i < m.tgtVocab.size(); ++i) {
            if (m.tgtVocab[i] == "<eos>")
                m.generatorBias(static_cast<Eigen::Index>(i)) = -1e4f;
        }
        const QString model = dir.filePath(QStringLiteral("never-eos.safetensors"));
        saveModel(m, model.toStdString());

        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.insert(QStringLiteral("ATTNLAB_PROGRESS_AFTER_MS"), QStringLiteral("0")); // progress from the first step
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ATTNLAB_CLI),
                {QStringLiteral("generate"), QStringLiteral("--model"), model, QStringLiteral("--source"), QStringLiteral("hello world")});
        QVERIFY(p.waitForStarted(10000));
        // The note before the work, then a progress line.
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("generating: step") || p.state() != QProcess::Running,
                                 120000);
        p.kill();
        p.waitForFinished(10000);
        err += p.readAllStandardError();
        const QString text = QString::fromUtf8(err);
        // The work of 1024 steps counts their score matrices: at least 30 s more than the 15 s
        // of arithmetic (tests/engine/core/tst_cost.cpp, by hand), where it said 14.
        const auto note = QRegularExpression(QStringLiteral("note: a large run: about \\d+ MB of memory and (\\d+) s of work")).match(text);
        QVERIFY2(note.hasMatch(), qPrintable(text));
        QVERIFY2(note.captured(1).toInt() >= 40, qPrintable(text));
        // The progress says how long the rest would take, should it go on to the limit.
        const auto line = QRegularExpression(QStringLiteral("generating: step (\\d+) of at most 1024 \\(at most about (\\d+) s left\\)")).match(text);
        QVERIFY2(line.hasMatch(), qPrintable(text));
        QVERIFY(line.captured(1).toInt() < 1024);
        QVERIFY(line.captured(2).toInt() > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliEstimate)
#include "tst_cli_estimate.moc"
