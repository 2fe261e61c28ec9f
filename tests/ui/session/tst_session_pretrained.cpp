// The studio's Session with a Hugging Face folder (GPT-2, BERT) and a bare PyTorch state dict:
// every stage becomes a step, block views label rows for people, and a failed open changes nothing.

#include "session/session.h"

#include <QtTest>

using namespace attnlab;

namespace {

QString hf(const char* name)
{
    return QStringLiteral(ATTNLAB_TEST_DATA "/hf/") + QString::fromUtf8(name);
}

bool hasStep(const Session& s, const char* id)
{
    for (const Step& st : s.steps()) {
        if (st.id == QString::fromUtf8(id))
            return true;
    }
    return false;
}

} // namespace

class TestSessionPretrained : public QObject {
    Q_OBJECT

private slots:
    void aGpt2FolderSteppedThrough()
    {
        Session s;
        s.setSentence(QStringLiteral("The cat was tired."));
        QString error;
        QVERIFY2(s.importModel(hf("gpt2_f32"), &error), qPrintable(error));
        QVERIFY(s.isModel());
        QVERIFY(s.model() && s.model()->pretrained);
        QVERIFY(hasStep(s, "logits") && hasStep(s, "decoder_output"));
        s.setStepId(QStringLiteral("weights"));
        QVERIFY(s.currentStep().block == Block::DecoderSelf);
        // The rows of a GPT-2 block are its tokens as people read them, a space shown as ␣.
        QCOMPARE(s.trace()->tokens.at(1), std::string("\u2423c"));
        QCOMPARE(s.trace()->tokenIds.at(1), 269);
        QVERIFY(s.trace()->find("weights", 0));
    }

    void aBertFolderHasItsEmbeddingSteps()
    {
        Session s;
        s.setSentence(QStringLiteral("Paris is the [MASK] of France."));
        QString error;
        QVERIFY2(s.importModel(hf("bert_mlm_f32"), &error), qPrintable(error));
        for (const char* id : {"segment_embedding", "embedding_sum", "mlm_transform", "probabilities"})
            QVERIFY2(hasStep(s, id), id);
        QCOMPARE(s.fullTrace()->tokens.front(), std::string("[CLS]"));
        QCOMPARE(stepName(QStringLiteral("segment_embedding")), QStringLiteral("Segment embedding"));
    }

    void aCompactTraceShowsEveryStepAsTheFullOne()
    {
        // A large model's trace keeps only weights and layer outputs per layer; stepping into a
        // layer makes its other stages again. Forced here on the tiny GPT-2: the steps and the
        // matrices shown are the full trace's.
        const auto open = [](Session& s, TraceDetail detail) {
            s.setTraceDetail(detail);
            s.setSentence(QStringLiteral("The animal was tired, so it slept."));
            QString error;
            QVERIFY2(s.importModel(hf("gpt2_f32"), &error), qPrintable(error));
        };
        Session full, compact;
        open(full, TraceDetail::Full);
        open(compact, TraceDetail::Compact);
        QVERIFY(full.fullTrace()->stages.dropped().empty());
        QVERIFY(!compact.fullTrace()->stages.dropped().empty());
        QCOMPARE(compact.steps().size(), full.steps().size());
        for (std::size_t i = 0; i < full.steps().size(); ++i) {
            const Step& st = full.steps()[i];
            QVERIFY(compact.steps()[i] == st);
            full.setStep(static_cast<int>(i));
            compact.setStep(static_cast<int>(i));
            if (st.id == u"tokens")
                continue;
            const Stage* a = full.trace()->find(st.id.toStdString(), st.perHead ? std::optional<int>(1) : std::nullopt);
            const Stage* b = compact.trace()->find(st.id.toStdString(), st.perHead ? std::optional<int>(1) : std::nullopt);
            QVERIFY2(a && b, qPrintable(st.id));
            QVERIFY2(a->main().values == b->main().values, qPrintable(st.id));
        }
    }

    void theHeadIsMadeWhenShown()
    {
        // By default the studio skips GPT-2's n x V head on keystrokes; its steps are listed, and
        // the output step (or headTrace) makes it, equal to a full trace's.
        Session lazy, full;
        full.setTraceDetail(TraceDetail::Full);
        for (Session* s : {&lazy, &full}) {
            s->setSentence(QStringLiteral("The cat was tired."));
            QString error;
            QVERIFY2(s->importModel(hf("gpt2_f32"), &error), qPrintable(error));
        }
        QVERIFY(!lazy.fullTrace()->find("probabilities", std::nullopt, std::nullopt, Block::None));
        QVERIFY(hasStep(lazy, "probabilities") && hasStep(lazy, "logits"));
        const Eigen::MatrixXf& want = full.fullTrace()->find("probabilities", std::nullopt, std::nullopt, Block::None)->main().values;
        QVERIFY(lazy.headTrace()->find("probabilities", std::nullopt, std::nullopt, Block::None)->main().values == want);
        lazy.setStepId(QStringLiteral("probabilities"));
        QVERIFY(lazy.trace()->find("probabilities")->main().values == want);
    }

    void aBareStateDictNeedsItsOptions()
    {
        Session s;
        const auto before = s.trace();
        QString error;
        const QString file = hf("bare/encoder_pre_gelu_2.safetensors");
        QVERIFY(!s.importModel(file, &error));
        QVERIFY2(error.contains(QStringLiteral("heads")), qPrintable(error));
        QCOMPARE(s.trace(), before); // nothing changed
        StateDictOptions o;
        o.heads = 2;
        o.norm = NormPlacement::Pre;
        o.activation = Activation::Gelu;
        QVERIFY2(s.importModel(file, &error, o), qPrintable(error));
        QCOMPARE(s.model()->spec.encoderLayers, 2);
        QVERIFY(hasStep(s, "encoder_output"));
    }

    void aBrokenFolderChangesNothing()
    {
        Session s;
        const auto before = s.trace();
        QString error;
        QVERIFY(!s.importModel(hf("bare"), &error));
        QVERIFY2(error.contains(QStringLiteral("config.json")), qPrintable(error));
        QCOMPARE(s.trace(), before);
    }
};

QTEST_MAIN(TestSessionPretrained)
#include "tst_session_pretrained.moc"
