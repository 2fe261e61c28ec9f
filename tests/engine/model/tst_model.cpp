// A whole encoder–decoder model (engine/model.h, docs/model-format.md): the shipped trained
// model against the outputs and stages its PyTorch training script recorded, teacher forcing
// and generation invariants, writing and reading models, and every kind of broken checkpoint.

#include "model/model.h"

#include "io/safetensors.h"
#include "io/trace_json.h"

#include "support/reference.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <malloc.h>
#include <fstream>

using namespace attnlab;
using attnlab::testing::compare;
using attnlab::testing::jsonMatrix;
using attnlab::testing::readJson;

namespace {

const std::string kModelDir = ATTNLAB_TEST_DATA "/model";
const std::string kShipped = ATTNLAB_TEST_DATA "/../../resources/models/reversal.safetensors";

std::shared_ptr<const Seq2SeqModel> shipped()
{
    static const auto m = std::make_shared<const Seq2SeqModel>(loadModel(kShipped));
    return m;
}

Config configFor(const Seq2SeqModel& m)
{
    Config c;
    c.model = ModelKind::File;
    c.dModel = m.spec.dModel;
    c.heads = m.spec.heads;
    return c;
}

/// A small seeded encoder–decoder written as a model file with a closed vocabulary and a head,
/// so that every tensor and metadata key of the format is present.
TensorFile smallModelFile()
{
    Config c;
    c.dModel = 8;
    c.heads = 2;
    c.setLayers(1);
    c.dFF = 16;
    Seq2SeqModel m = seededModel(c);
    m.srcVocab = {"<pad>", "<unk>", "a", "b"};
    m.tgtVocab = {"<pad>", "<unk>", "<sos>", "<eos>", "a", "b"};
    m.srcEmbedding = Eigen::MatrixXf::Random(4, 8);
    m.tgtEmbedding = Eigen::MatrixXf::Random(6, 8);
    m.generatorWeight = Eigen::MatrixXf::Random(6, 8);
    m.generatorBias = Eigen::VectorXf::Random(6);
    m.spec.tokenizer = ModelTokenizer::Chars;
    return modelToTensors(m);
}

QString message(const TensorFile& f)
{
    try {
        modelFromTensors(f);
    } catch (const FormatError& e) {
        return QString::fromUtf8(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("wrong exception type: ") + QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestModel : public QObject {
    Q_OBJECT
private slots:
    // --- the shipped model against its training script's records ---

    void shippedModelLoads()
    {
        const auto& m = *shipped();
        QVERIFY(m.hasHead());
        QVERIFY(!m.openVocabulary());
        QVERIFY(m.spec.tokenizer == ModelTokenizer::Chars);
        QVERIFY(m.spec.encoderLayers >= 1 && m.spec.decoderLayers >= 1);
        QVERIFY(std::filesystem::file_size(kShipped) < 1024 * 1024); // "a few hundred KB"
    }

    void heldOutGreedyOutputsMatchTraining()
    {
        const auto ref = readJson(kModelDir + "/reversal_heldout.json");
        const auto model = shipped();
        const Config c = configFor(*model);
        int checked = 0;
        int correct = 0;
        for (const auto& ex : ref.at("examples")) {
            const std::string src = ex.at("source").get<std::string>();
            std::vector<Message> warnings;
            const auto tokens = modelTokens(*model, src, false, 512, warnings);
            QVERIFY2(warnings.empty(), src.c_str());
            const Generation g = generate(model, tokens, c);
            std::vector<std::string> out = g.tokens;
            if (g.finished)
                out.pop_back(); // the recorded output leaves <eos> out
            const auto want = ex.at("output").get<std::vector<std::string>>();
            QVERIFY2(out == want, ("greedy output differs for '" + src + "'").c_str());
            QCOMPARE(g.finished, ex.at("finished").get<bool>());
            // Our own check of the task: the output is the source reversed.
            std::vector<std::string> reversed(tokens.rbegin(), tokens.rend());
            correct += out == reversed ? 1 : 0;
            QCOMPARE(out == reversed, ex.at("correct").get<bool>());
            ++checked;
        }
        QVERIFY(checked >= 100);
        qInfo("%d held-out examples, %d reversed exactly (%.1f%%)", checked, correct, 100.0 * correct / checked);
        QVERIFY(double(correct) / checked >= 0.95);
    }

    void stagesMatchPyTorch()
    {
        const auto ref = readJson(kModelDir + "/reversal_stages.json");
        const auto model = shipped();
        const Config c = configFor(*model);
        int compared = 0;
        for (const auto& ex : ref.at("examples")) {
            const auto src = ex.at("source_tokens").get<std::vector<std::string>>();
            const auto tgt = ex.at("target_tokens").get<std::vector<std::string>>();
            const Trace t = computeModelTrace(model, src, tgt, c);
            for (const auto& st : ex.at("stages")) {
                const std::string id = st.at("id").get<std::string>();
                const std::optional<int> layer = st.at("layer").is_null() ? std::nullopt : std::optional<int>(st.at("layer").get<int>());
                const std::optional<int> head = st.at("head").is_null() ? std::nullopt : std::optional<int>(st.at("head").get<int>());
                const std::string block = st.at("block").is_null() ? std::string() : st.at("block").get<std::string>();
                const Stage* s = t.find(id, head, layer, parseBlock(block).value());
                QVERIFY2(s, ("no stage " + id + " " + block).c_str());
                const Eigen::MatrixXf want = jsonMatrix(st.at("data"));
                const auto d = compare(s->main().values, want);
                QVERIFY2(d.problem.empty(), (id + ": " + d.problem).c_str());
                const float scale = std::max(1.0f, want.cwiseAbs().maxCoeff());
                const float tol = 2e-5f * scale;
                QVERIFY2(d.max <= tol, (id + " " + block + " layer " + std::to_string(layer.value_or(-1)) + ": largest difference "
                                        + std::to_string(d.max) + " at (" + std::to_string(d.row) + ", " + std::to_string(d.col)
                                        + "), tolerance " + std::to_string(tol))
                                           .c_str());
                ++compared;
            }
        }
        QVERIFY(compared >= 10);
    }

    void crossAttentionOfTheTrainedModelIsAnAlignment()
    {
        // The point of shipping a trained model: for reversal, output position i attends to
        // source position n−1−i. Some head of some decoder layer must show it clearly.
        const auto model = shipped();
        std::vector<Message> w;
        const auto src = modelTokens(*model, "attention", false, 512, w);
        std::vector<std::string> tgt{"<sos>"};
        tgt.insert(tgt.end(), src.rbegin(), src.rend());
        const Trace t = computeModelTrace(model, src, tgt, configFor(*model));
        const auto n = static_cast<Eigen::Index>(src.size());
        double best = 0;
        for (int layer = 0; layer < model->spec.decoderLayers; ++layer) {
            for (int h = 0; h < model->spec.heads; ++h) {
                const Stage* s = t.find("weights", h, layer, Block::Cross);
                QVERIFY(s);
                QCOMPARE(s->main().values.rows(), n + 1); // target rows × source columns
                QCOMPARE(s->main().values.cols(), n);
                double onDiagonal = 0;
                for (Eigen::Index i = 0; i < n; ++i)
                    onDiagonal += s->main().values(i, n - 1 - i);
                best = std::max(best, onDiagonal / double(n));
            }
        }
        qInfo("best mean anti-diagonal cross-attention weight: %.3f", best);
        QVERIFY(best > 0.5);
    }

    // --- teacher forcing and generation ---

    void teacherForcingInvariants()
    {
        const auto model = shipped();
        std::vector<Message> w;
        const auto src = modelTokens(*model, "Hello", false, 512, w);
        QCOMPARE(src, (std::vector<std::string>{"h", "e", "l", "l", "o"})); // chars, lower-cased
        const std::vector<std::string> tgt{"<sos>", "o", "l", "l"};
        const Trace t = computeModelTrace(model, src, tgt, configFor(*model));
        QCOMPARE(t.targetTokens, tgt);
        const Stage* p = t.find("probabilities", std::nullopt, std::nullopt, Block::None);
        QVERIFY(p);
        QCOMPARE(p->main().values.rows(), Eigen::Index(4));
        QCOMPARE(p->main().values.cols(), Eigen::Index(model->tgtVocab.size()));
        for (Eigen::Index i = 0; i < 4; ++i)
            QVERIFY(std::abs(p->main().values.row(i).sum() - 1.0f) < 1e-5f);
        // The decoder's self-attention is causal: nothing above the diagonal.
        const Stage* a = t.find("weights", 0, 0, Block::DecoderSelf);
        QVERIFY(a);
        for (Eigen::Index i = 0; i < 4; ++i) {
            for (Eigen::Index j = i + 1; j < 4; ++j)
                QCOMPARE(a->main().values(i, j), 0.0f);
        }
        // Causality end to end: a later target token does not change earlier rows.
        const Trace shorter = computeModelTrace(model, src, {"<sos>", "o", "l"}, configFor(*model));
        const auto& p2 = shorter.find("probabilities", std::nullopt, std::nullopt, Block::None)->main().values;
        QVERIFY((p2 - p->main().values.topRows(3)).cwiseAbs().maxCoeff() < 1e-5f);
        // The JSON names the decoder's input.
        QVERIFY(traceToJson(t).find("\"target_tokens\":[\"<sos>\",\"o\",\"l\",\"l\"]") != std::string::npos);
    }

    void generationSteps()
    {
        const auto model = shipped();
        std::vector<Message> w;
        const auto src = modelTokens(*model, "abc", false, 512, w);
        const Generation g = generate(model, src, configFor(*model));
        QCOMPARE(g.size(), g.tokens.size());
        QCOMPARE(g.chosen.size(), g.tokens.size());
        for (std::size_t k = 0; k < g.size(); ++k) {
            // Step k reads <sos> and the k tokens written before it, and picks token k.
            const auto step = g.step(k); // made again for all but the last: keep it while reading it
            const Trace& t = *step;
            QCOMPARE(t.targetTokens.size(), k + 1);
            QCOMPARE(t.targetTokens.front(), std::string("<sos>"));
            for (std::size_t i = 0; i < k; ++i)
                QCOMPARE(t.targetTokens[i + 1], g.tokens[i]);
            const auto& logits = t.find("logits", std::nullopt, std::nullopt, Block::None)->main().values;
            const auto pick = argmaxFirst(logits.row(logits.rows() - 1));
            QCOMPARE(model->tgtVocab[static_cast<std::size_t>(pick)], g.tokens[k]);
            // The mask grows by a row and a column per step.
            QCOMPARE(t.find("mask", std::nullopt, 0, Block::DecoderSelf)->main().values.rows(), Eigen::Index(k + 1));
        }
        // A length limit stops it.
        const Generation two = generate(model, src, configFor(*model), 2);
        QVERIFY(two.tokens.size() <= 2);
    }

    void generationKeepsOneStepInMemory()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("mallinfo2 does not see AddressSanitizer's allocator");
#endif
        // A model that never writes <eos> (its bias forbids it) runs to its length limit. Each
        // step's trace is as large as a pass on all the tokens so far: kept, 300 steps would
        // hold about 1.5 GB (issue 10 §5b.1); only the last step is kept, the rest made again.
        auto endless = std::make_shared<Seq2SeqModel>(*shipped());
        endless->spec.maxTargetLength = 300;
        for (std::size_t i = 0; i < endless->tgtVocab.size(); ++i) {
            if (endless->tgtVocab[i] == "<eos>")
                endless->generatorBias(static_cast<Eigen::Index>(i)) = -1e4f;
        }
        std::vector<Message> w;
        const auto src = modelTokens(*endless, "abc", false, 512, w);
        const auto before = static_cast<double>(mallinfo2().uordblks);
        double peak = 0;
        int calls = 0;
        const Generation g = generate(endless, src, configFor(*endless), 0, [&](int done, int most) {
            ++calls;
            QCOMPARE(done, calls);
            QCOMPARE(most, 300);
            peak = std::max(peak, static_cast<double>(mallinfo2().uordblks) - before);
        });
        QCOMPARE(g.size(), std::size_t(300));
        QVERIFY(!g.finished);
        QCOMPARE(calls, 300);
        // Two passes of 300 tokens at most (the one kept and the one being made): tens of MB.
        qInfo("peak %.1f MB", peak / 1e6);
        QVERIFY2(peak < 150e6, qPrintable(QString("peak %1 MB").arg(peak / 1e6)));
        // An earlier step made again is the pass on its own prefix, and it chose its token.
        const auto t = g.step(41);
        QCOMPARE(t->targetTokens.size(), std::size_t(42));
        const auto& logits = t->find("logits", std::nullopt, std::nullopt, Block::None)->main().values;
        QCOMPARE(endless->tgtVocab[static_cast<std::size_t>(argmaxFirst(logits.row(41)))], g.tokens[41]);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, g.step(300));
    }

    void argmaxTakesTheFirstOnATie()
    {
        Eigen::RowVectorXf r(4);
        r << 1, 3, 3, 2;
        QCOMPARE(argmaxFirst(r), Eigen::Index(1));
    }

    void unknownCharactersBecomeUnk()
    {
        const auto model = shipped();
        std::vector<Message> w;
        const auto src = modelTokens(*model, "a\u00e9b", false, 512, w);
        QCOMPARE(src, (std::vector<std::string>{"a", "<unk>", "b"}));
        QCOMPARE(w.size(), std::size_t(1));
        QVERIFY(w[0].text.find("<unk>") != std::string::npos);
        // Cut at max_tokens with a warning.
        w.clear();
        QCOMPARE(modelTokens(*model, "abcdef", false, 3, w).size(), std::size_t(3));
        QCOMPARE(w.size(), std::size_t(1));
    }

    void onlyTheSourceIsLowerCased()
    {
        // docs/model-format.md: `lowercase` lower-cases the source text; the target is read as given.
        const auto model = shipped();
        QVERIFY(model->spec.lowercase);
        QVERIFY(std::find(model->tgtVocab.begin(), model->tgtVocab.end(), "A") == model->tgtVocab.end());
        std::vector<Message> w;
        QCOMPARE(modelTokens(*model, "AbC", false, 512, w), (std::vector<std::string>{"a", "b", "c"}));
        QVERIFY(w.empty());
        QCOMPARE(modelTokens(*model, "AbC", true, 512, w), (std::vector<std::string>{"<unk>", "b", "<unk>"}));
        QCOMPARE(w.size(), std::size_t(2));
        QCOMPARE(w[0].args, (std::vector<std::string>{"A", "target"}));
    }

    void badRequests()
    {
        const auto model = shipped();
        Config c = configFor(*model);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeModelTrace(model, {}, {"<sos>"}, c));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeModelTrace(model, {"a"}, {}, c));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeModelTrace(model, {"not-a-char"}, {"<sos>"}, c));
        c.heads = 2; // not the model's
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeModelTrace(model, {"a"}, {"<sos>"}, c));
        // A seeded model cannot generate.
        Config s;
        s.model = ModelKind::Seeded;
        auto seeded = std::make_shared<const Seq2SeqModel>(seededModel(s));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, generate(seeded, {"a"}, s));
    }

    // --- seeded models ---

    void seededModelAndEncoderStack()
    {
        Config c;
        c.model = ModelKind::Seeded;
        c.dModel = 16;
        c.heads = 2;
        c.setLayers(3);
        c.norm = NormPlacement::Pre;
        c.activation = Activation::Gelu;
        const auto m = std::make_shared<const Seq2SeqModel>(seededModel(c));
        QCOMPARE(m->spec.dFF, 64); // 4·d_model
        QVERIFY(m->openVocabulary() && !m->hasHead());
        const Trace t = computeModelTrace(m, {"the", "cat"}, {"<sos>", "le", "chat"}, c);
        QVERIFY(t.find("layer_output", std::nullopt, 2, Block::EncoderSelf));
        QVERIFY(t.find("weights", 1, 2, Block::Cross));
        QVERIFY(t.find("decoder_output", std::nullopt, std::nullopt, Block::None));
        QVERIFY(!t.find("logits", std::nullopt, std::nullopt, Block::None));
        // Every layer gets its own weights.
        QVERIFY(!m->weights.encoder[0].selfAttn.inProjWeight.isApprox(m->weights.encoder[1].selfAttn.inProjWeight));
        // The same seed gives the same model; the embeddings are the attention trace's.
        const Seq2SeqModel again = seededModel(c);
        QVERIFY(again.weights.decoder[2].ffn.linear2Weight == m->weights.decoder[2].ffn.linear2Weight);
        // An encoder stack alone stops at the encoder output.
        Config encoderStack = c;
        encoderStack.architecture = Architecture::EncoderStack;
        encoderStack.setLayers(3);
        const auto enc = std::make_shared<const Seq2SeqModel>(seededModel(encoderStack));
        const Trace e = computeModelTrace(enc, {"a", "b"}, {}, c);
        QVERIFY(e.find("encoder_output", std::nullopt, std::nullopt, Block::None));
        QVERIFY(!e.find("weights", 0, 0, Block::Cross));
    }

    // --- writing and reading ---

    void writeAndReadBack()
    {
        const TensorFile f = smallModelFile();
        const Seq2SeqModel m = modelFromTensors(f);
        const Seq2SeqModel again = modelFromTensors(parseSafetensors(serializeSafetensors(modelToTensors(m))));
        QCOMPARE(again.tgtVocab, m.tgtVocab);
        QVERIFY(again.generatorWeight == m.generatorWeight);
        QVERIFY(again.weights.decoder[0].crossAttn.outProjWeight == m.weights.decoder[0].crossAttn.outProjWeight);
        QVERIFY(again.spec.tokenizer == ModelTokenizer::Chars);
        // The shipped model survives a round trip bit for bit.
        const TensorFile s = modelToTensors(*shipped());
        const Seq2SeqModel back = modelFromTensors(parseSafetensors(serializeSafetensors(s)));
        QVERIFY(back.srcEmbedding == shipped()->srcEmbedding);
        QVERIFY(back.weights.encoder[1].ffn.linear1Weight == shipped()->weights.encoder[1].ffn.linear1Weight);
        // A seeded (open-vocabulary) model too.
        Config c;
        c.model = ModelKind::Seeded;
        const Seq2SeqModel seeded = seededModel(c);
        const Seq2SeqModel seededBack = modelFromTensors(modelToTensors(seeded));
        QVERIFY(seededBack.openVocabulary());
        QCOMPARE(seededBack.spec.seed, seeded.spec.seed);
        QVERIFY(seededBack.weights.decoder[1].norm3.gamma == seeded.weights.decoder[1].norm3.gamma);
    }

    void saveIsCrashSafe()
    {
        const QString dir = QDir::tempPath() + "/attnlab-model-test";
        QDir().mkpath(dir);
        const std::string path = (dir + "/m.safetensors").toStdString();
        saveModel(*shipped(), path);
        QVERIFY(loadModel(path).srcVocab == shipped()->srcVocab);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, saveModel(*shipped(), "/nonexistent-dir/m.safetensors"));
        QVERIFY(loadModel(path).hasHead()); // the earlier file is untouched
    }

    // --- broken checkpoints: a named error, never a crash ---

    void brokenCheckpoints_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing tensor") << "drop:decoder.layers.0.multihead_attn.in_proj_weight"
                                        << "missing tensor 'decoder.layers.0.multihead_attn.in_proj_weight' [24, 8]";
        QTest::newRow("missing embedding") << "drop:tgt_embed.weight" << "missing tensor 'tgt_embed.weight' [6, 8]";
        QTest::newRow("mis-shaped generator") << "shape:generator.weight" << "tensor 'generator.weight' has shape [8, 6] but must be [6, 8]";
        QTest::newRow("mis-shaped FFN") << "shape:encoder.layers.0.linear1.weight" << "tensor 'encoder.layers.0.linear1.weight'";
        QTest::newRow("unknown tensor") << "add:decoder.layers.1.norm1.weight" << "unknown tensor 'decoder.layers.1.norm1.weight' [8]";
        QTest::newRow("NaN weight") << "nan:encoder.layers.0.norm2.weight" << "tensor 'encoder.layers.0.norm2.weight' holds non-finite values";
        QTest::newRow("no format") << "meta:format=" << "not an Attention Lab model";
        QTest::newRow("other format") << "meta:format=attention-lab.weights" << "metadata 'format' is 'attention-lab.weights'";
        QTest::newRow("d_model not a number") << "meta:d_model=eight" << "metadata 'd_model' is 'eight', not a whole number";
        QTest::newRow("heads do not divide") << "meta:heads=3" << "the metadata describes an invalid model: d_model (8) must be a multiple of heads (3)";
        QTest::newRow("too many layers") << "meta:encoder_layers=99" << "metadata 'encoder_layers' is 99 but must be between 1 and 12";
        QTest::newRow("bad norm") << "meta:norm=middle" << "metadata 'norm' is 'middle' but must be post or pre";
        QTest::newRow("vocab not JSON") << "meta:src_vocab=[a" << "metadata 'src_vocab' is not a JSON array of strings";
        QTest::newRow("vocab of numbers") << "meta:src_vocab=[1,2]" << "metadata 'src_vocab' must hold only strings";
        QTest::newRow("vocab duplicate") << "meta:src_vocab=[\"<unk>\",\"a\",\"a\",\"b\"]" << "metadata 'src_vocab' holds 'a' twice";
        QTest::newRow("vocab without eos") << "meta:tgt_vocab=[\"<pad>\",\"<unk>\",\"<sos>\",\"x\",\"a\",\"b\"]"
                                          << "metadata 'tgt_vocab' must contain <eos>";
        QTest::newRow("vocab size != rows") << "meta:src_vocab=[\"<unk>\",\"a\"]" << "tensor 'src_embed.weight' has shape [4, 8] but must be [2, 8]";
        QTest::newRow("missing vocab") << "meta:tgt_vocab=" << "metadata 'tgt_vocab' is missing";
    }

    void brokenCheckpoints()
    {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        TensorFile f = smallModelFile();
        const std::string arg = what.section(':', 1).toStdString();
        if (what.startsWith("drop:")) {
            f.tensors.erase(arg);
        } else if (what.startsWith("shape:")) {
            std::swap(f.tensors.at(arg).shape[0], f.tensors.at(arg).shape[1]);
        } else if (what.startsWith("add:")) {
            f.tensors[arg] = f.tensors.at("encoder.layers.0.norm1.weight");
        } else if (what.startsWith("nan:")) {
            f.tensors.at(arg).values[0] = std::numeric_limits<float>::quiet_NaN();
        } else if (what.startsWith("meta:")) {
            const auto eq = arg.find('=');
            const std::string key = arg.substr(0, eq);
            const std::string value = arg.substr(eq + 1);
            if (value.empty())
                f.metadata.erase(key);
            else
                f.metadata[key] = value;
        }
        const QString got = message(f);
        QVERIFY2(got.contains(expected), qPrintable(got));
    }

    void metadataRefusalsAreLinesOfTheTable()
    {
        TensorFile f = smallModelFile();
        f.metadata["norm"] = "middle";
        try {
            modelFromTensors(f);
            QFAIL("a bad norm was read");
        } catch (const FormatError& e) {
            QCOMPARE(e.message().code, std::string("metadata_choice"));
            QCOMPARE(e.message().args, (std::vector<std::string>{"norm", "middle", "post", "pre"}));
            QCOMPARE(std::string(e.what()), std::string("metadata 'norm' is 'middle' but must be post or pre (docs/model-format.md)"));
        }
    }

    void truncatedAndGarbageFiles()
    {
        const QString dir = QDir::tempPath() + "/attnlab-model-test";
        QDir().mkpath(dir);
        const std::string bytes = serializeSafetensors(smallModelFile());
        for (const std::size_t cut : {std::size_t(0), std::size_t(7), std::size_t(100), bytes.size() / 2, bytes.size() - 1}) {
            const std::string path = (dir + "/cut.safetensors").toStdString();
            std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(cut));
            try {
                loadModel(path);
                QFAIL("a truncated model was read");
            } catch (const FormatError& e) {
                QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(FormatError, loadModel((dir + "/does-not-exist.safetensors").toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
