// Work sized before it is done (issue 27, sections 2 and 3): cost, train and export estimate the
// memory and time of what they are asked before building anything, refuse what exceeds the
// limit with the numbers (a run that starts would meet a small address space and end in "out of
// memory" instead), announce what is large, and name their own options when memory runs out
// anyway; train says how far it is at least every 2 s of work (here: after every step, with
// ATTNLAB_PROGRESS_AFTER_MS=0), evaluates a bounded sample, and refuses a line no model reads.

#include "support/cli.h"

#include "model/model.h"
#include "model/shipped.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// The child's address space capped: the command can start, but not build anything large.
std::function<void()> addressSpace(unsigned long long megabytes)
{
    return [megabytes] {
        const rlimit limit{megabytes << 20, megabytes << 20};
        ::setrlimit(RLIMIT_AS, &limit);
    };
}

/// Fails unless the run ended with `exitCode` and one error line holding every one of `parts`,
/// after the note that announces a large run, if any.
void expectError(const Run& r, int exitCode, const QStringList& parts)
{
    QString err = QString::fromUtf8(r.err);
    if (err.startsWith(QStringLiteral("attention-lab-cli: note: ")))
        err = err.mid(err.indexOf(QLatin1Char('\n')) + 1);
    QVERIFY2(r.status == QProcess::NormalExit, "the CLI crashed or was killed");
    QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
    QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: error: ")) && err.count(QLatin1Char('\n')) == 1, qPrintable(err));
    for (const QString& part : parts)
        QVERIFY2(err.contains(part), qPrintable(QStringLiteral("'%1' not in: %2").arg(part, err)));
}

/// Every stdout line starting with "step".
QStringList stepLines(const Run& r)
{
    QStringList out;
    for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n')))
        if (line.startsWith(QStringLiteral("step")))
            out << line;
    return out;
}

/// The shipped reversal model made never to write <eos> (its generator's bias for <eos> set to
/// −10⁹, docs/model-format.md), with the longest generation there is: greedy decoding runs to it.
QString neverEndingModel(const QTemporaryDir& dir)
{
    Seq2SeqModel m = *shippedModel();
    const auto eos = std::find(m.tgtVocab.begin(), m.tgtVocab.end(), "<eos>") - m.tgtVocab.begin();
    m.generatorBias(eos) = -1e9f;
    m.spec.maxTargetLength = kMaxTargetLength;
    const QString path = dir.filePath(QStringLiteral("endless.safetensors"));
    saveModel(m, path.toStdString());
    return path;
}

/// A file of `lines` pairs "wN<TAB>wN" (every 16th or so held out).
QString pairsFile(const QTemporaryDir& dir, int lines, const QByteArray& extra = {})
{
    const QString path = dir.filePath(QStringLiteral("pairs.tsv"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    for (int i = 0; i < lines; ++i)
        f.write(QByteArray("w") + QByteArray::number(i % 50) + " x" + QByteArray::number(i) + "\tw" + QByteArray::number(i % 50) + "\n");
    f.write(extra);
    return path;
}

} // namespace

class TestCliSizes : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        attnlab::testing::cliProgressAfterMs() = QStringLiteral("0"); // every progress line is due at once
    }

    void tooLargeIsRefusedWithTheNumbers_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("parts");
        // 12 + 12 layers of width 2048 (d_ff 128): over 600 million parameters, seven copies and more (19 GB;
        // it reached 7.1 GB in 29 s before "out of memory").
        QTest::newRow("train 12 layers of 2048")
            << QStringList{"train", "--task", "reverse", "--layers", "12", "--d-model", "2048", "--heads", "16", "--save-model", "OUT"}
            << QStringList{"training would need about", "GB of memory; the limit is 4 GB", "--d-model", "--layers", "--batch"};
        // Full attention at n = 32768 holds one head's 4 GiB of scores (4.35 GB and a minute, unannounced).
        QTest::newRow("cost full 32768") << QStringList{"cost", "--attention", "full", "--n", "32768"}
                                         << QStringList{"at n = 32768, measuring would need about 4", "the limit is 4 GB", "--n", "--d-model"};
        QTest::newRow("cost full 65536") << QStringList{"cost", "--attention", "full", "--n", "1024,65536"}
                                         << QStringList{"at n = 65536, measuring would need about 16 GB"};
        // Strided attention's columns every S-th key make n²/S cells: quadratic, whatever its name.
        QTest::newRow("cost strided 1M") << QStringList{"cost", "--attention", "strided", "--n", "1048576"}
                                         << QStringList{"at n = 1048576, measuring would need about", "--n"};
        QTest::newRow("cost lsh 1M") << QStringList{"cost", "--attention", "lsh", "--n", "1048576"}
                                     << QStringList{"at n = 1048576, measuring would need about"};
        // The documented largest picture: 10 GB as PDF (7.5 GB seen), 4 GB as SVG.
        QTest::newRow("export pdf 10000") << QStringList{"export", "--stage", "weights", "--format", "pdf", "--width", "10000",
                                                         "--height", "10000", "--output", "OUT.pdf"}
                                          << QStringList{"a 10000 × 10000 PDF would need about 10 GB", "--width", "--height"};
        QTest::newRow("export svg 10000") << QStringList{"export", "--stage", "weights", "--format", "svg", "--width", "10000",
                                                         "--height", "10000", "--output", "OUT.svg"}
                                          << QStringList{"a 10000 × 10000 SVG would need about 4", "the limit is 4 GB"};
    }

    void tooLargeIsRefusedWithTheNumbers()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, parts);
        QTemporaryDir dir;
        args.replaceInStrings(QStringLiteral("OUT"), dir.filePath(QStringLiteral("out")));
        // In 1 GB of address space a refusal is all there is room for.
        const Run r = cli(args, addressSpace(1024));
        expectError(r, 2, parts);
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    void largeIsAnnouncedAndOutOfMemoryNamesTheOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reduce");
        // Allowed (under the limit) but above 1 GB: a note first; in 600 MB the run then fails.
        QTest::newRow("cost") << QStringList{"cost", "--attention", "full", "--n", "16384", "--repeats", "1"}
                              << "out of memory: try a smaller --n or --d-model";
        QTest::newRow("train") << QStringList{"train", "--task", "reverse", "--layers", "4", "--d-model", "1024", "--heads", "8",
                                              "--steps", "2", "--save-model", "OUT"}
                               << "out of memory: try a smaller --d-model or --d-ff, fewer --layers, a smaller --batch";
    }

    void largeIsAnnouncedAndOutOfMemoryNamesTheOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, reduce);
        QTemporaryDir dir;
        args.replaceInStrings(QStringLiteral("OUT"), dir.filePath(QStringLiteral("m.safetensors")));
        const Run r = cli(args, addressSpace(600));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(QStringLiteral("attention-lab-cli: note: a large run: about ")), qPrintable(err));
        QVERIFY2(QRegularExpression(QStringLiteral("about [0-9.]+ GB of memory")).match(err).hasMatch(), qPrintable(err));
        expectError(r, 1, {reduce});
    }

    /// A billion steps are refused with how long they would take (they were accepted, and the
    /// first line came at step 5·10⁷).
    void absurdStepsAreRefused()
    {
        QTemporaryDir dir;
        const Run r = cli({"train", "--task", "reverse", "--steps", "1000000000", "--save-model", dir.filePath("m.safetensors")});
        expectError(r, 2, {"--steps (1000000000) must be at most 10000000", "1000000000 steps at about", "days"});
    }

    /// A model that never writes <eos> (it ran 1024 greedy steps for each evaluation, silent for
    /// over 120 s): a line after every step, lines during each evaluation, and the decoding stops
    /// at the longest target's length + 1 — reversal's strings have at most 12 characters.
    void aModelThatNeverEndsIsEvaluatedQuicklyAndAloud()
    {
        QTemporaryDir dir;
        const QString model = neverEndingModel(dir);
        const Run r = cli({"train", "--task", "reverse", "--init", model, "--steps", "3", "--batch", "4", "--save-model",
                           dir.filePath(QStringLiteral("m.safetensors"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList lines = stepLines(r);
        QVERIFY2(lines.size() >= 4, qPrintable(lines.join('\n')));
        int longest = 0;
        static const QRegularExpression decoding(QStringLiteral("greedy decoding token (\\d+) of at most (\\d+)"));
        for (const QString& line : lines) {
            const auto m = decoding.match(line);
            if (m.hasMatch())
                longest = std::max(longest, m.captured(2).toInt());
        }
        QVERIFY2(longest > 0 && longest <= 13, qPrintable(lines.join('\n')));
        QVERIFY(r.out.contains("held-out exact match: 0.0 %"));
    }

    /// Steps report steps/s even between the scheduled reports (every steps/20: here every 100th).
    void progressBetweenReports()
    {
        QTemporaryDir dir;
        const Run r = cli({"train", "--task", "copy", "--preset", "classroom", "--steps", "2000", "--batch", "1", "--save-model",
                           dir.filePath(QStringLiteral("m.safetensors"))},
                          {});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList lines = stepLines(r);
        QVERIFY2(lines.size() > 100, qPrintable(QString::number(lines.size())));
        QVERIFY(lines.first().contains(QStringLiteral("steps/s")));
        QVERIFY(r.out.startsWith("training ") && r.out.left(r.out.indexOf('\n')).contains("(about "));
    }

    /// A large file is evaluated on 512 of its held-out pairs (62 000 took over a minute and 4 GB).
    void finalEvaluationIsASample()
    {
        QTemporaryDir dir;
        const QString file = pairsFile(dir, 12000);
        const Run r = cli({"train", "--task", file, "--preset", "classroom", "--steps", "2", "--batch", "4", "--save-model",
                           dir.filePath(QStringLiteral("m.safetensors"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        static const QRegularExpression sample(QStringLiteral("held-out exact match: [0-9.]+ % \\(512 of (\\d+) pairs\\)"));
        const auto m = sample.match(QString::fromUtf8(r.out));
        QVERIFY2(m.hasMatch(), r.out.constData());
        QVERIFY(m.captured(1).toInt() > 600);
    }

    /// A line longer than a model reads (one of 500 000 tokens cost 20 s a step) is refused with its place.
    void longLineIsRefused()
    {
        QTemporaryDir dir;
        QByteArray line;
        for (int i = 0; i < 1100; ++i)
            line += "t" + QByteArray::number(i) + " ";
        const QString file = pairsFile(dir, 3, line + "\tshort\n");
        const Run r = cli({"train", "--task", file, "--save-model", dir.filePath(QStringLiteral("m.safetensors"))});
        expectError(r, 2, {"pairs.tsv:4: the source has more than 1024 tokens", "at most 1024 source and 1023 target tokens"});
    }
};

QTEST_GUILESS_MAIN(TestCliSizes)
#include "tst_cli_sizes.moc"
