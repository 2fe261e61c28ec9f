// Opening Hugging Face model folders end to end: text -> the folder's tokenizer -> the pass
// (token ids as the reference tokenizer of scripts/gen_hf_reference.py gave them), and a
// one-line message naming what is wrong for each kind of bad folder.

#include "io/fileio.h"
#include "model/open.h"
#include "model/run.h"
#include "pretrained/model_folder.h"
#include "support/hf.h"
#include "support/reference.h"
#include "support/throws.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace attnlab;
using namespace attnlab::testing;
namespace fs = std::filesystem;

namespace {

/// A copy of a reference folder in `dir`, to break.
std::string copyFolder(const QTemporaryDir& dir, const std::string& name)
{
    const fs::path target = fs::path(dir.path().toStdString()) / name;
    fs::copy(hfDir() + "/" + name, target, fs::copy_options::recursive);
    return target.string();
}

void write(const std::string& path, const std::string& text)
{
    writeFileAtomically(path, text);
}

/// The folder's model.safetensors rewritten (as F32) after `change` edits its tensors.
template <typename F>
void rewriteWeights(const std::string& folder, F change)
{
    TensorFile f = parseSafetensors(readFile(folder + "/model.safetensors", 1 << 26));
    change(f);
    write(folder + "/model.safetensors", serializeSafetensors(f));
}

QString openError(const std::string& folder)
{
    return errorMessage<FormatError>([&] { openModel(folder); });
}

void expectError(const std::string& folder, const char* part)
{
    const QString message = openError(folder);
    QVERIFY2(message.contains(QString::fromUtf8(part)), qPrintable("expected '" + QString(part) + "' in: " + message));
    QVERIFY2(!message.contains('\n'), qPrintable(message));
}

} // namespace

class TestModelFolder : public QObject {
    Q_OBJECT

private slots:
    void textRunsThroughTheFoldersTokenizer()
    {
        int checked = 0;
        for (const char* name : {"gpt2_f32", "gpt2_prefix_f16", "bert_mlm_f32", "bert_model_cased", "bert_f16_pretrain"}) {
            const auto golden = readJson(hfDir() + "/" + name + ".json");
            auto model = std::make_shared<const Seq2SeqModel>(openModel(hfDir() + "/" + golden.at("folder").get<std::string>()));
            QVERIFY(originOf(*model) == ModelOrigin::Pretrained);
            for (const auto& input : golden.at("inputs")) {
                RunRequest r;
                r.text = input.at("text").get<std::string>();
                if (input.contains("text_b") && !input.at("text_b").is_null())
                    r.segmentB = input.at("text_b").get<std::string>();
                r.model = model;
                adoptModel(r.config, *model);
                r.config.model = ModelKind::File;
                const RunResult result = run(r);
                QCOMPARE(result.trace->tokenIds, input.at("token_ids").get<std::vector<int>>());
                QCOMPARE(result.trace->tokens, input.at("tokens").get<std::vector<std::string>>());
                if (input.contains("segment_ids"))
                    QCOMPARE(result.trace->segmentIds, input.at("segment_ids").get<std::vector<int>>());
                // The stages are the reference's: the last one checked here, every one in tst_pretrained_reference.
                const auto& stages = input.at("stages");
                const auto& last = stages.back();
                const Stage* s = result.trace->find(last.at("id").get<std::string>(), std::nullopt, std::nullopt, Block::None);
                QVERIFY(s);
                const Difference d = compare(s->main().values, jsonMatrix(last.at("data")));
                QVERIFY2(d.problem.empty() && d.max < 1e-4f, d.problem.c_str());
                ++checked;
            }
        }
        QCOMPARE(checked, 15);
    }

    void rowsAreLabelledForPeople()
    {
        auto model = std::make_shared<const Seq2SeqModel>(openModel(hfDir() + "/gpt2_f32"));
        RunRequest r;
        r.text = "The cat was tired.";
        r.model = model;
        adoptModel(r.config, *model);
        r.config.model = ModelKind::File;
        const auto trace = run(r).trace;
        QCOMPARE(trace->tokens.at(1), std::string("Ġc")); // the vocabulary's string in the trace
        QCOMPARE(trace->find("weights", 0, 0, Block::DecoderSelf)->main().rowLabels->at(1), std::string("␣c"));
        // A second segment is BERT's; a target is for encoder–decoder models.
        r.segmentB = "x";
        QVERIFY(invalidArgumentMessage([&] { run(r); }).contains("BERT"));
        r.segmentB.reset();
        r.target = "x";
        QVERIFY(invalidArgumentMessage([&] { run(r); }).contains("target"));
    }

    void longTextsAreCutKeepingBertsSpecialTokens()
    {
        const Seq2SeqModel m = openModel(hfDir() + "/bert_mlm_f32");
        const PretrainedTokens t = pretrainedTokens(*m.pretrained, "the cat sat on the mat and the dog", std::string("the cat sat"), 8);
        QCOMPARE(t.ids.size(), std::size_t(8));
        QCOMPARE(t.tokens.front(), std::string("[CLS]"));
        QCOMPARE(t.tokens.back(), std::string("[SEP]"));
        QCOMPARE(std::count(t.tokens.begin(), t.tokens.end(), std::string("[SEP]")), 2);
        QCOMPARE(t.segments.back(), 1);
        QCOMPARE(t.warnings.size(), std::size_t(1));
        QCOMPARE(t.warnings.front().code, std::string("tokens_cut"));
    }

    void badFoldersSayWhatIsWrong()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string gpt2 = copyFolder(dir, "gpt2_bf16");
        const std::string bert = copyFolder(dir, "bert_mlm_f32");
        const std::string config = readFile(gpt2 + "/config.json", 1 << 20);

        expectError(dir.path().toStdString() + "/none", "No such file or directory");
        write(gpt2 + "/config.json", "{\"model_type\": \"gemma2\"}");
        expectError(gpt2, "model_type is 'gemma2' but Attention Lab opens gpt2, bert, llama, mistral, qwen2, qwen3 and gemma3_text");
        write(gpt2 + "/config.json", "{\"model_type\": \"gpt2\", \"n_embd\": 16}");
        expectError(gpt2, "n_head is missing");
        write(gpt2 + "/config.json", "{not json");
        expectError(gpt2, "config.json' is not valid JSON"); // named with its folder: 'DIR/config.json'
        expectError(gpt2, (gpt2 + "/config.json").c_str());
        auto j = nlohmann::json::parse(config);
        j["n_layer"] = 30;
        write(gpt2 + "/config.json", j.dump());
        expectError(gpt2, "n_layer is 30 but Attention Lab opens 1 to 24");
        j = nlohmann::json::parse(config);
        j["n_head"] = 3;
        write(gpt2 + "/config.json", j.dump());
        expectError(gpt2, "n_embd (16) must be a multiple of n_head (3)");
        j["n_head"] = 1;
        j["n_layer"] = 2; // the file has one layer
        write(gpt2 + "/config.json", j.dump());
        expectError(gpt2, "missing tensor 'h.1.ln_1.weight'");
        write(gpt2 + "/config.json", config);

        rewriteWeights(gpt2, [](TensorFile& f) { f.tensors["h.0.attn.extra"] = f.tensors.at("ln_f.bias"); });
        expectError(gpt2, "unknown tensor 'h.0.attn.extra'");
        rewriteWeights(gpt2, [](TensorFile& f) { f.tensors.erase("h.0.attn.extra"); f.tensors.at("wpe.weight").shape.at(0) -= 1; f.tensors.at("wpe.weight").values.resize(f.tensors.at("wpe.weight").values.size() - 16); });
        expectError(gpt2, "tensor 'wpe.weight' has shape [23, 16] but must be [24, 16]");

        fs::rename(gpt2 + "/model.safetensors", gpt2 + "/pytorch_model.bin");
        expectError(gpt2, "convert_to_safetensors.py");
        fs::remove(gpt2 + "/pytorch_model.bin");
        expectError(gpt2, "has no model.safetensors");
        fs::remove(gpt2 + "/config.json");
        expectError(gpt2, "has no config.json");

        fs::remove(bert + "/vocab.txt");
        expectError(bert, "has no vocab.txt");
        fs::copy(hfDir() + "/bert_mlm_f32/vocab.txt", bert + "/vocab.txt");
        write(bert + "/tokenizer_config.json", "{\"do_lower_case\": \"yes\"}");
        expectError(bert, "do_lower_case must be true or false");
        fs::remove(bert + "/tokenizer_config.json");
        write(bert + "/model.safetensors", "truncated");
        expectError(bert, "model.safetensors");
    }

    void refusalsAreLinesOfTheTables()
    {
        // A refusal is a table line with its arguments (the interface translates it), and its
        // English text is that line filled in.
        QTemporaryDir dir;
        const std::string gpt2 = copyFolder(dir, "gpt2_bf16");
        const auto refusal = [](const std::string& folder) {
            try {
                openModel(folder);
            } catch (const FormatError& e) {
                return e.message();
            }
            return Message{};
        };
        const auto filled = [](const Message& m) {
            const MessageTemplate* t = findMessageTemplate(m.code);
            return t ? fillTemplate(t->text, m.args) : std::string("no line ") + m.code;
        };
        const std::string config = readFile(gpt2 + "/config.json", 1 << 20);
        write(gpt2 + "/config.json", "{\"model_type\": \"gpt2\", \"n_embd\": 16}");
        Message m = refusal(gpt2);
        QCOMPARE(m.code, std::string("config_key_missing"));
        QCOMPARE(m.args.back(), std::string("n_head"));
        QCOMPARE(m.text, filled(m));
        write(gpt2 + "/config.json", config);

        write(gpt2 + "/model.safetensors", "truncated"); // named with its file, the reason after it
        m = refusal(gpt2);
        QCOMPARE(m.code, std::string("in_file"));
        QCOMPARE(m.args, std::vector<std::string>{gpt2 + "/model.safetensors"});
        QCOMPARE(m.reasons.size(), std::size_t(1));
        QCOMPARE(m.reasons.front().code, std::string("safetensors_header_length"));
        QCOMPARE(m.text, filled(m) + ": " + m.reasons.front().text);

        fs::remove(gpt2 + "/model.safetensors");
        m = refusal(gpt2);
        QCOMPARE(m.code, std::string("folder_no_safetensors"));
        QCOMPARE(m.text, "'" + gpt2 + "' has no model.safetensors");
        QCOMPARE(m.text, filled(m));
    }

    void aFolderThatIsNotAModelIsNamed()
    {
        QTemporaryDir dir;
        expectError(dir.path().toStdString(), "has no config.json");
    }
};

QTEST_APPLESS_MAIN(TestModelFolder)
#include "tst_model_folder.moc"
