// The training tasks, the schedule, clipping and the training loop (engine/train/): CRC-32
// against zlib's values, the held-out split, the built-in tasks' targets, a teacher's file and
// every way it can be wrong (the message names the file and the line), the paper's warm-up by
// hand, clip_grad_norm_'s rule by hand, and a training run that is deterministic for a seed
// (bit for bit on one thread, and on two) and learns.

#include "train/examples.h"
#include "train/optimizer.h"
#include "train/tasks.h"
#include "train/trainer.h"

#include "io/safetensors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <set>

using namespace attnlab;
using namespace attnlab::train;

namespace {

std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& bytes)
{
    const std::string path = dir.filePath(QString::fromUtf8(name)).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

/// The message of the FormatError fileTask throws for `bytes`, or "" when it reads them.
std::string fileError(const QTemporaryDir& dir, const std::string& bytes)
{
    const std::string path = writeFile(dir, "pairs.tsv", bytes);
    try {
        fileTask(path);
    } catch (const FormatError& e) {
        return e.what();
    }
    return {};
}

std::size_t characterCount(const std::string& s)
{
    std::size_t n = 0;
    for (const char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

ModelSpec tinySpec()
{
    ModelSpec s = presetSpec(Preset::Classroom);
    s.dModel = 16;
    s.dFF = 32;
    s.seed = 3;
    return s;
}

} // namespace

class TrainerTest : public QObject {
    Q_OBJECT

private slots:
    void aTaskFilesRefusalIsALineOfTheTable()
    {
        // train/messages.h: the file and line, then the reason, each a line of the table.
        const QTemporaryDir dir;
        const std::string path = writeFile(dir, "tabs.tsv", "a\tb\nno tab here\n");
        try {
            fileTask(path);
            QFAIL("no refusal");
        } catch (const FormatError& e) {
            QCOMPARE(e.message().code, std::string("task_file_line"));
            QCOMPARE(e.message().args, (std::vector<std::string>{path, "2"}));
            QCOMPARE(e.message().reasons.at(0).code, std::string("task_no_tab"));
            QCOMPARE(std::string(e.what()), path + ":2: no TAB: expected source<TAB>target");
        }
        TrainOptions o;
        o.steps = 0;
        try {
            o.validate();
            QFAIL("no refusal");
        } catch (const Error& e) {
            QCOMPARE(e.message().code, std::string("train_steps_min"));
            QCOMPARE(std::string(e.what()), std::string("--steps (0) must be at least 1"));
        }
    }

    /// zlib.crc32 (Python) of the same bytes.
    void crc()
    {
        QCOMPARE(crc32("123456789"), 0xCBF43926u);
        QCOMPARE(crc32("hello"), 0x3610A686u);
        QCOMPARE(crc32("我爱你"), 0x600BFDDFu);
        QCOMPARE(crc32(""), 0u);
        QVERIFY(isHeldOut(""));
        QVERIFY(!isHeldOut("hello"));
    }

    void builtInTargets()
    {
        QCOMPARE(taskAlphabet().size(), std::size_t(75));
        QCOMPARE(taskTarget(TaskKind::Reverse, "ab猫9"), std::string("9猫ba"));
        QCOMPARE(taskTarget(TaskKind::Sort, "猫b9a"), std::string("9ab猫"));
        QCOMPARE(taskTarget(TaskKind::Copy, "猫b9a"), std::string("猫b9a"));
        QCOMPARE(parseTaskKind("sort"), std::optional<TaskKind>(TaskKind::Sort));
        QVERIFY(!parseTaskKind("pairs.tsv"));
    }

    /// The held-out sample is fixed, distinct and held out; drawn pairs never are, and have 1 … L characters.
    void builtInSplit()
    {
        const Task t = builtInTask(TaskKind::Reverse, 5, 100);
        QCOMPARE(t.heldOut.size(), std::size_t(100));
        std::set<std::string> held;
        for (const Pair& p : t.heldOut) {
            QVERIFY(isHeldOut(p.source));
            QCOMPARE(p.target, taskTarget(TaskKind::Reverse, p.source));
            held.insert(p.source);
        }
        QCOMPARE(held.size(), std::size_t(100));
        QCOMPARE(builtInTask(TaskKind::Reverse, 5, 100).heldOut.front().source, t.heldOut.front().source);
        SplitMix64 random(9);
        std::set<std::size_t> lengths;
        for (int i = 0; i < 2000; ++i) {
            const Pair p = t.sample(random);
            QVERIFY(!isHeldOut(p.source));
            lengths.insert(characterCount(p.source));
        }
        QCOMPARE(lengths, (std::set<std::size_t>{1, 2, 3, 4, 5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, builtInTask(TaskKind::Copy, 0));
    }

    void fileTask_()
    {
        QTemporaryDir dir;
        // CRLF, a byte-order mark, a blank line; words tokenized as the studio does.
        std::string text = "\xEF\xBB\xBFthe cat\tle chat\r\n\r\nthe dog\tle chien\r\n";
        for (int i = 0; i < 40; ++i)
            text += "line " + std::to_string(i) + "\tligne " + std::to_string(i) + "\n";
        const Task t = fileTask(writeFile(dir, "pairs.tsv", text));
        QCOMPARE(t.name, std::string("pairs.tsv"));
        QCOMPARE(t.train.size() + t.heldOut.size(), std::size_t(42));
        QCOMPARE(t.train.front().source, std::string("the cat"));
        QCOMPARE(t.train.front().target, std::string("le chat"));
        for (const Pair& p : t.heldOut)
            QVERIFY(isHeldOut(p.source));
        for (const Pair& p : t.train)
            QVERIFY(!isHeldOut(p.source));
        QVERIFY(!t.heldOut.empty());
        // The vocabularies: the specials first, then the most frequent tokens.
        QCOMPARE(t.sourceVocab[0], std::string("<pad>"));
        QCOMPARE(t.sourceVocab[2], std::string("line"));
        QCOMPARE(t.targetVocab[3], std::string("<eos>"));
        QCOMPARE(t.targetVocab[4], std::string("ligne"));
        // --batch-all: every line trains.
        QCOMPARE(fileTask(writeFile(dir, "all.tsv", text), ModelTokenizer::Words, true).train.size(), std::size_t(42));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << "pairs.tsv: the file is empty";
        QTest::newRow("blank lines only") << QByteArray("\n \n\t\n") << "pairs.tsv: the file is empty";
        QTest::newRow("no tab") << QByteArray("a\tb\nabc\n") << "pairs.tsv:2: no TAB";
        QTest::newRow("two tabs") << QByteArray("a\tb\tc\n") << "pairs.tsv:1: 2 TABs";
        QTest::newRow("empty target") << QByteArray("a\tb\nx\t \n") << "pairs.tsv:2: the target has no tokens";
        QTest::newRow("binary") << QByteArray("a\tb\nc\0d\te\n", 10) << "pairs.tsv:2: binary data";
        QTest::newRow("not utf-8") << QByteArray("a\tb\n\xff\xfe\tc\n") << "pairs.tsv:2: not UTF-8";
        QTest::newRow("every line held out") << QByteArray("f\tg\n") << "pairs.tsv: every line is held out (1 line)";
        // A side longer than a model reads: refused, not cut at every step it is drawn.
        QByteArray words, characters(1024, 'c');
        for (int i = 0; i < 1025; ++i)
            words += "w ";
        QTest::newRow("source of 1025 words") << QByteArray("a\tb\n" + words + "\tb\n") << "pairs.tsv:2: the source has more than 1024 tokens";
        QTest::newRow("target of 1024 words") << QByteArray("a\tb\nx\t" + words.left(2048) + "\n") << "pairs.tsv:2: the target has more than 1023 tokens";
    }

    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string error = fileError(dir, bytes.toStdString());
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
        QVERIFY(error.find(dir.path().toStdString()) == 0); // the whole path first
    }

    /// The paper's schedule (d 8, W 2): 8^−0.5·min(t^−0.5, t·2^−1.5); --lr as its peak; constant without warm-up.
    void schedule()
    {
        const Schedule paper{std::nullopt, 2, 8};
        QVERIFY(std::abs(paper.at(1) - 0.125) < 1e-15);
        QVERIFY(std::abs(paper.at(2) - 0.25) < 1e-15);
        QVERIFY(std::abs(paper.at(3) - 1 / std::sqrt(24.0)) < 1e-15);
        const Schedule peak{0.01, 100, 64};
        QVERIFY(std::abs(peak.at(100) - 0.01) < 1e-15);
        QVERIFY(std::abs(peak.at(50) - 0.005) < 1e-15);
        QVERIFY(std::abs(peak.at(400) - 0.005) < 1e-15);
        QCOMPARE((Schedule{0.02, 0, 64}.at(7)), 0.02);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (Schedule{-1.0, 0, 8}.validate()));
    }

    /// clip_grad_norm_: total = √Σg², coef = C/(total + 1e-6), applied only when below 1.
    void clipping()
    {
        Vec<float> g(2);
        g << 3, 4;
        QCOMPARE(clipGradient(g, std::nullopt), 5.0);
        QCOMPARE(g(0), 3.0f);
        QCOMPARE(clipGradient(g, 10.0), 5.0);
        QCOMPARE(g(1), 4.0f);
        QCOMPARE(clipGradient(g, 1.0), 5.0);
        QVERIFY(std::abs(g(0) - 3.0 / (5 + 1e-6)) < 1e-7);
    }

    /// The longest sides a model reads are read whole, with their lengths in the task.
    void longestLines()
    {
        QTemporaryDir dir;
        std::string source, target;
        for (int i = 0; i < kMaxPairSource; ++i)
            source += "s ";
        for (int i = 0; i < kMaxPairTarget; ++i)
            target += "t ";
        const Task t = fileTask(writeFile(dir, "long.tsv", "a b\tc\n" + source + "\t" + target + "\n"), ModelTokenizer::Words, true);
        QCOMPARE(t.longestSource, kMaxPairSource);
        QCOMPARE(t.longestTarget, kMaxPairTarget);
        QCOMPARE(t.meanSource, (2 + kMaxPairSource) / 2.0);
        QCOMPARE(t.meanTarget, (1 + kMaxPairTarget) / 2.0);
    }

    void options()
    {
        TrainOptions o;
        o.steps = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, o.validate());
        o.steps = kMaxSteps + 1; // a billion steps were accepted (129 days)
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, o.validate());
        o.steps = kMaxSteps;
        o.validate();
        o = {};
        o.labelSmoothing = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, o.validate());
        o = {};
        o.batchAll = true;
        const Task task = builtInTask(TaskKind::Copy, 4, 8);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Trainer(freshModel(tinySpec(), task), task, o));
    }

    /// An evaluation takes `limit` pairs evenly spaced (all when fewer), a chunk at a time, and
    /// decodes only as far as the longest target needs: a model that never writes <eos> (its
    /// bias for it −10⁹) stops after 5 tokens for targets of 4, not at its limit of 1024.
    void evaluationIsBounded()
    {
        const Task task = builtInTask(TaskKind::Reverse, 4, 200);
        Seq2SeqModel model = freshModel(tinySpec(), task);
        const auto eos = std::find(model.tgtVocab.begin(), model.tgtVocab.end(), "<eos>") - model.tgtVocab.begin();
        model.generatorBias(eos) = -1e9f;
        model.spec.maxTargetLength = kMaxTargetLength;
        const Trainer t(model, task, {});
        int most = 0, calls = 0;
        std::size_t lastDone = 0;
        const Evaluation e = t.evaluate(100, [&](const EvaluationProgress& p) {
            ++calls;
            most = std::max(most, p.steps);
            QVERIFY(p.step <= p.steps && p.pairsDone >= lastDone && p.pairs == 100);
            lastDone = p.pairsDone;
        });
        QCOMPARE(e.pairs, std::size_t(100));
        QCOMPARE(e.of, task.heldOut.size());
        QCOMPARE(e.exactMatch, 0.0);
        QCOMPARE(most, 5); // the longest target (4) and its <eos>
        QVERIFY(calls >= 2 * 5); // two chunks (64 + 36 pairs), each its loss and 5 steps
        QCOMPARE(lastDone, std::size_t(100));
        // Without a limit: every pair; with one above the count: every pair too.
        QCOMPARE(t.evaluate().pairs, task.heldOut.size());
        QCOMPARE(t.evaluate(10'000).pairs, task.heldOut.size());
    }

    /// The loss of a sample is the mean over its label tokens, however it is chunked: the sample
    /// of every pair gives the same loss as the pairs taken one chunk at a time by hand.
    void evaluationLossIsTheMean()
    {
        const Task task = builtInTask(TaskKind::Copy, 6, 150);
        const Trainer t(freshModel(tinySpec(), task), task, {});
        const Evaluation all = t.evaluate();
        // Two halves (each within one chunk or two) weighted by their label tokens.
        double labels = 0, sum = 0;
        std::vector<Pair> firstHalf(task.heldOut.begin(), task.heldOut.begin() + 75), secondHalf(task.heldOut.begin() + 75, task.heldOut.end());
        for (const auto& half : {firstHalf, secondHalf}) {
            Task part = task;
            part.heldOut = half;
            const Trainer h(freshModel(tinySpec(), part), part, {});
            std::size_t n = 0;
            for (const Pair& p : half)
                n += characterCount(p.target) + 1; // the target's characters and <eos>
            sum += h.evaluate().loss * static_cast<double>(n);
            labels += static_cast<double>(n);
        }
        QVERIFY2(std::abs(sum / labels - all.loss) < 1e-5 * all.loss, (std::to_string(sum / labels) + " vs " + std::to_string(all.loss)).c_str());
    }

    /// The same seed gives the same parameters bit for bit, on one thread and on two; and a
    /// few dozen steps lower the loss.
    void deterministic()
    {
        const Task task = builtInTask(TaskKind::Reverse, 4, 16);
        auto run = [&](int threads, std::uint64_t seed) {
            TrainOptions o;
            o.threads = threads;
            o.batch = 16;
            o.seed = seed;
            o.schedule = {5e-3, 0, 16};
            Trainer t(freshModel(tinySpec(), task), task, o);
            double first = 0, last = 0;
            for (int s = 0; s < 40; ++s) {
                const double loss = t.step().loss;
                (s == 0 ? first : last) = loss;
            }
            return std::make_tuple(serializeSafetensors(modelToTensors(t.model())), first, last);
        };
        const auto [one, first, last] = run(1, 5);
        QCOMPARE(std::get<0>(run(1, 5)), one);
        const auto two = std::get<0>(run(2, 5));
        QCOMPARE(std::get<0>(run(2, 5)), two);
        QVERIFY(std::get<0>(run(1, 6)) != one);
        QVERIFY2(last < first - 0.5, (std::to_string(first) + " → " + std::to_string(last)).c_str());
    }

    /// A rate far too high: the step where the loss or the gradient stops being finite throws
    /// Diverged, naming that step and what went wrong; its update is not applied, so the model
    /// stays finite (and could be saved, unlike a NaN one).
    void divergenceStopsTraining()
    {
        const Task task = builtInTask(TaskKind::Reverse, 4, 16);
        TrainOptions o;
        o.threads = 1;
        o.batch = 16;
        o.schedule = {1e10, 0, 16};
        Trainer t(freshModel(tinySpec(), task), task, o);
        int divergedAt = 0;
        std::string what, text;
        for (int s = 1; s <= 100 && divergedAt == 0; ++s) {
            try {
                const StepRecord r = t.step();
                QVERIFY(std::isfinite(r.loss) && std::isfinite(r.gradNorm)); // a step that returns is finite
            } catch (const Diverged& d) {
                divergedAt = d.record().step;
                QCOMPARE(divergedAt, s);
                what = d.message().args.at(1);
                text = d.what();
            }
        }
        QVERIFY2(divergedAt > 0, "a rate of 1e10 trained 100 steps without a loss that is not finite");
        QVERIFY2(what == "loss" || what == "gradient" || what == "weights", what.c_str());
        QVERIFY2(text.starts_with("training diverged at step " + std::to_string(divergedAt) + ": the "), text.c_str());
        QCOMPARE(nonFiniteTensor(modelToTensors(t.model())), std::string());
    }
};

QTEST_GUILESS_MAIN(TrainerTest)
#include "tst_trainer.moc"
