// The Session: recomputes on every change, keeps the last good trace when an input is bad,
// and reuses preset weights until d_model, seed or preset change.

#include "session/session.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace attnlab;

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void aFileModelWithoutAFileSaysSoAndKeepsTheTrace()
    {
        Session s;
        const auto before = s.trace();
        Config c = s.config();
        c.model = ModelKind::File;
        s.setConfig(c);
        QCOMPARE(s.error(), QStringLiteral("no model file is open: open one first (File \u2192 Open model\u2026)"));
        QCOMPARE(s.trace(), before);
    }

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

    // --- a Transformer ---

    void switchingToTheTrainedModel()
    {
        Session s;
        s.setStepId(QStringLiteral("weights"));
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QVERIFY(s.isModel());
        QCOMPARE(s.config().dModel, 64); // the model's sizes
        QCOMPARE(s.config().heads, 4);
        // The place is kept: the same stage, in the first layer that has it.
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        QCOMPARE(s.currentStep().layer, std::optional<int>(0));
        QVERIFY(s.currentStep().block == Block::EncoderSelf);
        // Every part is on the path: each layer from attention to the second Add & Norm.
        const int a = s.stepIndex(QStringLiteral("weights"), 0, Block::EncoderSelf);
        const int n1 = s.stepIndex(QStringLiteral("attn_norm"), 0, Block::EncoderSelf);
        const int f = s.stepIndex(QStringLiteral("ffn_hidden"), 0, Block::EncoderSelf);
        const int n2 = s.stepIndex(QStringLiteral("ffn_norm"), 0, Block::EncoderSelf);
        QVERIFY(a >= 0 && a < n1 && n1 < f && f < n2);
        QVERIFY(s.stepIndex(QStringLiteral("weights"), 1, Block::Cross) > 0);
        QVERIFY(s.stepIndex(QStringLiteral("probabilities"), std::nullopt, Block::None) == static_cast<int>(s.steps().size()) - 1);
    }

    void viewsSeeTheCurrentBlock()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        s.setSentence(QStringLiteral("attention"));
        QVERIFY(s.isGenerating());
        QSignalSpy changed(&s, &Session::traceChanged);
        s.setStep(s.stepIndex(QStringLiteral("weights"), 1, Block::Cross));
        QCOMPARE(changed.count(), 1); // another block: the views get its stages
        const Trace& t = *s.trace();
        const Stage* w = t.find("weights", 0);
        QVERIFY(w);
        QCOMPARE(w->main().values.cols(), Eigen::Index(9)); // keys: the 9 source characters
        QCOMPARE(t.tokens.front(), std::string("<sos>"));   // rows: the decoder's input
        QVERIFY(t.find("input"));                           // the queries' input
        QCOMPARE(t.weights.get(), &s.model()->weights.decoder[1].crossAttn);
        // The full trace is the same stage, with its layer and block.
        QCOMPARE(s.fullTrace()->find("weights", 0, 1, Block::Cross)->main().values, w->main().values);
        // Within the block no recomputation or new projection.
        changed.clear();
        s.setStep(s.step() + 1);
        QCOMPARE(changed.count(), 0);
        // The decoder's self-attention is marked causal for the views.
        s.setStep(s.stepIndex(QStringLiteral("mask"), 0, Block::DecoderSelf));
        QVERIFY(s.trace()->config.mask == MaskKind::Causal);
    }

    void generationStepsAndTeacherForcing()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        s.setSentence(QStringLiteral("abc"));
        const Generation& g = s.generation();
        QCOMPARE(g.tokens, (std::vector<std::string>{"c", "b", "a", "<eos>"}));
        QCOMPARE(s.generationStep(), 3); // the last step by default
        QSignalSpy decoding(&s, &Session::decodingChanged);
        s.setGenerationStep(1);
        QCOMPARE(decoding.count(), 1);
        QCOMPARE(s.fullTrace()->targetTokens, (std::vector<std::string>{"<sos>", "c"}));
        // Teacher forcing with a wrong target: the decoder reads what it is given.
        s.setTarget(QStringLiteral("xyz"));
        QVERIFY(!s.isGenerating());
        QCOMPARE(s.fullTrace()->targetTokens, (std::vector<std::string>{"<sos>", "x", "y", "z"}));
        s.setTarget(std::nullopt);
        QVERIFY(s.isGenerating());
        // What the tokenizer said about the source stays with every generation step.
        s.setSentence(QStringLiteral("a\u00e9b"));
        const auto hasUnk = [&s] {
            const auto& w = s.fullTrace()->warnings;
            return std::any_of(w.begin(), w.end(), [](const Message& m) { return m.text.find("<unk>") != std::string::npos; });
        };
        QVERIFY(hasUnk());
        s.setGenerationStep(0);
        QVERIFY(hasUnk());
        QVERIFY(s.trace()->warnings == s.fullTrace()->warnings);
    }

    void seededModelSettings()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Seeded;
        c.dModel = 16;
        c.heads = 2;
        c.setLayers(3);
        c.norm = NormPlacement::Pre;
        s.setConfig(c);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QVERIFY(!s.isGenerating()); // no trained head: the source is the target
        QVERIFY(s.stepIndex(QStringLiteral("layer_output"), 2, Block::DecoderSelf) >= 0);
        const auto model = s.model();
        s.setSentence(QStringLiteral("other words"));
        QCOMPARE(s.model(), model); // seeded weights made once
        // Back to one attention block.
        c.model = ModelKind::None;
        s.setConfig(c);
        QVERIFY(!s.isModel());
        QCOMPARE(s.steps().size(), attnlab::steps().size());
        QVERIFY(s.trace()->find("weights", 0));
    }

    void modelSessionFileRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("s.attnlab.json");
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        s.setSentence(QStringLiteral("hello"));
        s.setStep(s.stepIndex(QStringLiteral("weights"), 1, Block::Cross));
        s.setGenerationStep(2);
        QString error;
        QVERIFY2(s.saveSession(path, &error), qPrintable(error));
        Session t;
        QVERIFY2(t.loadSession(path, &error), qPrintable(error));
        QVERIFY(t.config().model == ModelKind::Reversal);
        QCOMPARE(t.currentStep(), s.currentStep());
        QCOMPARE(t.generationStep(), 2);
        QCOMPARE(t.fullTrace()->targetTokens, s.fullTrace()->targetTokens);
    }

    void sessionNamingAPipeForItsWeightsIsRefused()
    {
        // A session file whose weights path is a FIFO: refused at once (reading it would wait for
        // a writer forever and the studio would never start), and nothing changes.
        QTemporaryDir dir;
        const QString path = dir.filePath("s.attnlab.json");
        Session s;
        QString error;
        QVERIFY2(s.importWeights(QStringLiteral(ATTNLAB_TEST_DATA "/mha/causal_je.safetensors"), &error), qPrintable(error));
        QVERIFY2(s.saveSession(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto j = nlohmann::json::parse(f.readAll().toStdString());
        f.close();
        const QString fifo = dir.filePath("weights.safetensors");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        j["weights"].erase("embedded_safetensors_base64");
        j["weights"]["path"] = fifo.toStdString();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray::fromStdString(j.dump()));
        f.close();

        // A watchdog releases a reader that waits on the FIFO, so a failure cannot hang the test.
        std::atomic<bool> returned{false};
        std::thread watchdog([&] {
            for (int i = 0; i < 100 && !returned; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (const int fd = returned ? -1 : ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK); fd >= 0)
                ::close(fd);
        });
        Session t;
        const auto before = t.trace();
        const bool loaded = t.loadSession(path, &error);
        returned = true;
        watchdog.join();
        QVERIFY(!loaded);
        QVERIFY2(error.contains(QStringLiteral("it is a pipe (FIFO), not a regular file")), qPrintable(error));
        QCOMPARE(t.trace(), before);
    }

    void badModelFileChangesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.safetensors");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a model");
        f.close();
        Session s;
        const auto before = s.trace();
        QString error;
        QVERIFY(!s.importModel(path, &error));
        QVERIFY(!error.isEmpty());
        QCOMPARE(s.trace(), before);
        QVERIFY(!s.isModel());
        // Choosing "from file" without one is an error, not a crash.
        Config c = s.config();
        c.model = ModelKind::File;
        s.setConfig(c);
        QVERIFY(s.error().contains("no model file"));
        QCOMPARE(s.trace(), before);
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
