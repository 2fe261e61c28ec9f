// Gated-decoder folders with one mistake each (issue 31): each is refused with one line that
// names the mistake (a config.json key and its value, a tensor, a shard), never ignored.

#include "families/gated.h"
#include "io/safetensors.h"
#include "model/model.h"
#include "pretrained/forward.h"
#include "pretrained/model_folder.h"
#include "support/hf.h"
#include "support/reference.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace attnlab;
using namespace attnlab::testing;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

/// A copy of a reference folder in `dir`, its config.json changed by `edit`.
std::string copyFolder(const QTemporaryDir& dir, const std::string& name, const std::function<void(Json&)>& edit)
{
    const fs::path to = fs::path(dir.path().toStdString()) / name;
    fs::create_directories(to);
    fs::copy(hfDir() + "/" + name, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    Json config = readJson((to / "config.json").string());
    edit(config);
    std::ofstream(to / "config.json") << config.dump(2);
    return to.string();
}

/// The one line loadModelFolder throws.
std::string refusal(const std::string& folder)
{
    try {
        loadModelFolder(folder);
    } catch (const FormatError& e) {
        return e.what();
    }
    return "(opened)";
}

} // namespace

class TestGatedFolders : public QObject {
    Q_OBJECT

private slots:
    void eachMistakeIsNamed_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("config");   // JSON merged into config.json (null removes a key)
        QTest::addColumn<QString>("expected"); // what the one line says
        const QString llama = "llama_gqa_tied_f32", untied = "llama3_untied_bf16_sharded", qwen2 = "qwen2_mqa_f16", qwen3 = "qwen3_qknorm_f32";
        QTest::newRow("unknown model_type") << llama << R"({"model_type": "gemma2"})"
                                            << "model_type is 'gemma2' but Attention Lab opens gpt2, bert, llama, mistral, qwen2, qwen3 and gemma3_text";
        QTest::newRow("yarn") << llama << R"({"rope_scaling": {"rope_type": "yarn", "factor": 4.0}})" << "rope_scaling has rope_type 'yarn'";
        QTest::newRow("dynamic (old key type)") << llama << R"({"rope_scaling": {"type": "dynamic", "factor": 2.0}})"
                                                << "rope_scaling has rope_type 'dynamic'";
        QTest::newRow("longrope in rope_parameters") << qwen3 << R"({"rope_parameters": {"rope_type": "longrope", "rope_theta": 10000.0}})"
                                                     << "rope_parameters has rope_type 'longrope'";
        QTest::newRow("llama3 without its factors") << llama << R"({"rope_scaling": {"rope_type": "llama3", "factor": 8.0}})"
                                                    << "rope_scaling has no low_freq_factor";
        QTest::newRow("gelu") << llama << R"({"hidden_act": "gelu"})" << "hidden_act is 'gelu' but Attention Lab computes silu for Llama";
        QTest::newRow("soft-capping") << llama << R"({"final_logit_softcapping": 30.0})" << "final_logit_softcapping is set";
        QTest::newRow("qwen2 sliding window") << qwen2 << R"({"use_sliding_window": true})"
                                              << "use_sliding_window is true: Attention Lab does not compute Qwen2's sliding-window attention";
        QTest::newRow("qwen3 sliding window") << qwen3 << R"({"use_sliding_window": true})" << "use_sliding_window is true";
        QTest::newRow("mistral sliding window") << llama << R"({"model_type": "mistral", "sliding_window": 4096})"
                                                << "sliding_window is 4096: Attention Lab does not compute Mistral's sliding-window attention";
        QTest::newRow("kv heads not dividing") << llama << R"({"num_key_value_heads": 4})"
                                               << "num_key_value_heads (4) must divide num_attention_heads (6)";
        QTest::newRow("odd head_dim") << qwen3 << R"({"head_dim": 7})" << "head_dim (7) must be even";
        QTest::newRow("untied without lm_head") << llama << R"({"tie_word_embeddings": false})" << "missing tensor 'lm_head.weight' [292, 24]";
        QTest::newRow("mis-shaped tensor") << llama << R"({"intermediate_size": 41})"
                                           << "tensor 'layers.0.mlp.gate_proj.weight' has shape [40, 24] but must be [41, 24]";
        QTest::newRow("qwen2 weights as llama") << qwen2 << R"({"model_type": "llama"})"
                                                << "unknown tensor 'layers.0.self_attn.k_proj.bias' [8]";
        QTest::newRow("no q_norm") << llama << R"({"model_type": "qwen3", "head_dim": 4})" << "missing tensor 'layers.0.self_attn.q_norm.weight' [4]";
        QTest::newRow("partial rotary") << llama << R"({"partial_rotary_factor": 0.5})" << "partial_rotary_factor is 0.5";
        // Gemma 3 (families/gemma3/).
        const QString gemma = "gemma3_sliding_bf16";
        QTest::newRow("gemma attention soft-capping") << gemma << R"({"attn_logit_softcapping": 50.0})" << "attn_logit_softcapping is set";
        QTest::newRow("gemma final soft-capping") << gemma << R"({"final_logit_softcapping": 30.0})" << "final_logit_softcapping is set";
        QTest::newRow("gemma unknown layer type")
            << gemma << R"({"layer_types": ["sliding_attention", "sliding_attention", "chunked_attention", "full_attention"]})"
            << "layer_types holds 'chunked_attention' but Attention Lab computes 'sliding_attention' and 'full_attention' layers";
        QTest::newRow("gemma layer_types too short") << gemma << R"({"layer_types": ["full_attention"]})"
                                                     << "layer_types has 1 entries but num_hidden_layers is 4";
        QTest::newRow("gemma activation") << gemma << R"({"hidden_activation": "gelu"})"
                                          << "hidden_activation is 'gelu' but Attention Lab computes gelu_pytorch_tanh for Gemma 3";
        QTest::newRow("gemma yarn") << gemma << R"({"rope_scaling": {"rope_type": "yarn", "factor": 8.0}})" << "rope_scaling has rope_type 'yarn'";
        QTest::newRow("gemma rope_parameters not per layer type")
            << gemma << R"({"rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}})"
            << "rope_parameters must hold one object per layer type, full_attention and sliding_attention";
        QTest::newRow("gemma scaled sliding RoPE")
            << gemma
            << R"({"rope_parameters": {"full_attention": {"rope_type": "default"}, "sliding_attention": {"rope_type": "linear", "factor": 2.0}}})"
            << "rope_parameters.sliding_attention is scaled";
        QTest::newRow("gemma dynamic full RoPE")
            << gemma << R"({"rope_parameters": {"full_attention": {"rope_type": "dynamic", "factor": 2.0}, "sliding_attention": {}}})"
            << "rope_parameters.full_attention has rope_type 'dynamic'";
        QTest::newRow("gemma bidirectional") << gemma << R"({"use_bidirectional_attention": true})"
                                             << "use_bidirectional_attention is true: Attention Lab computes Gemma 3's causal attention only";
        QTest::newRow("gemma query_pre_attn_scalar") << gemma << R"({"query_pre_attn_scalar": 0})" << "query_pre_attn_scalar must be a positive number";
        QTest::newRow("gemma sliding_window") << gemma << R"({"sliding_window": 0})" << "sliding_window";
        QTest::newRow("qwen3 weights as gemma") << qwen3 << R"({"model_type": "gemma3_text", "rope_parameters": null})"
                                                << "missing tensor 'layers.0.pre_feedforward_layernorm.weight' [24]";
    }

    void eachMistakeIsNamed()
    {
        QFETCH(QString, folder);
        QFETCH(QString, config);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = copyFolder(dir, folder.toStdString(), [&](Json& c) { c.merge_patch(Json::parse(config.toStdString())); });
        const std::string said = refusal(path);
        QVERIFY2(said.find(expected.toStdString()) != std::string::npos, said.c_str());
        QVERIFY2(said.find('\n') == std::string::npos, said.c_str());
    }

    void shardsThatAreNotThere()
    {
        QTemporaryDir dir;
        const std::string path = copyFolder(dir, "llama3_untied_bf16_sharded", [](Json&) {});
        fs::remove(fs::path(path) / "model-00002-of-00002.safetensors");
        QVERIFY2(refusal(path).find("model-00002-of-00002.safetensors' is missing (model.safetensors.index.json names it)") != std::string::npos,
                 refusal(path).c_str());
        // An index that points outside the folder, or at a shard without the tensor.
        Json index = readJson(path + "/model.safetensors.index.json");
        index["weight_map"]["model.norm.weight"] = "../model-00001-of-00002.safetensors";
        std::ofstream(fs::path(path) / "model.safetensors.index.json") << index.dump();
        QVERIFY2(refusal(path).find("not a file name in the folder") != std::string::npos, refusal(path).c_str());
        fs::copy_file(hfDir() + "/llama3_untied_bf16_sharded/model-00002-of-00002.safetensors", fs::path(path) / "model-00002-of-00002.safetensors");
        index["weight_map"]["model.norm.weight"] = "model-00001-of-00002.safetensors";
        std::ofstream(fs::path(path) / "model.safetensors.index.json") << index.dump();
        QVERIFY2(refusal(path).find("puts tensor 'model.norm.weight' in 'model-00001-of-00002.safetensors', which does not hold it")
                     != std::string::npos,
                 refusal(path).c_str());
    }

    void theGoodFoldersOpen()
    {
        for (const char* name : {"llama_gqa_tied_f32", "llama3_untied_bf16_sharded", "qwen2_mqa_f16", "qwen3_qknorm_f32", "gemma3_sliding_bf16"})
            QCOMPARE(QString::fromStdString(refusal(hfDir() + "/" + name)), QStringLiteral("(opened)"));
        // Mistral without a sliding window is Llama's computation.
        QTemporaryDir dir;
        const std::string mistral = copyFolder(dir, "llama_gqa_tied_f32", [](Json& c) {
            c["model_type"] = "mistral";
            c["sliding_window"] = nullptr;
        });
        QCOMPARE(QString::fromStdString(refusal(mistral)), QStringLiteral("(opened)"));
    }

    // Gemma 3's config in its three forms gives the same layers: layer_types, the older
    // sliding_window_pattern (every pattern-th layer full, configuration_gemma3.py), and the
    // newer rope_parameters per layer type; a linear rope_scaling turns the full layers only.
    void gemmaConfigForms()
    {
        const auto configOf = [](const std::string& folder) { return loadModelFolder(folder).pretrained->config(); };
        const HfConfig golden = configOf(hfDir() + "/gemma3_sliding_bf16");
        QCOMPARE(golden.slidingWindows, (std::vector<int>{3, 3, 3, 0}));
        QCOMPARE(golden.ropeTheta, 1e6);
        QCOMPARE(golden.ropeLocalTheta, 1e4);
        QCOMPARE(golden.queryPreAttnScalar, 6.0);
        QVERIFY(golden.tiedEmbeddings && golden.qkNorm && golden.sandwichNorms && golden.normPlusOne && golden.gegluTanh);
        QCOMPARE(golden.embeddingScale, 4.90625f); // √24 = 4.899 as a bfloat16, as torch rounds it
        QTemporaryDir dir;
        const std::string pattern = copyFolder(dir, "gemma3_sliding_bf16", [](Json& c) {
            c.erase("layer_types");
            c["sliding_window_pattern"] = 4;
        });
        QCOMPARE(configOf(pattern).slidingWindows, (std::vector<int>{3, 3, 3, 0}));
        QTemporaryDir dir2;
        const std::string byDefault = copyFolder(dir2, "gemma3_sliding_bf16", [](Json& c) { c.erase("layer_types"); });
        QCOMPARE(configOf(byDefault).slidingWindows, (std::vector<int>{3, 3, 3, 3})); // the default pattern, 6
        QTemporaryDir dir3;
        const std::string newer = copyFolder(dir3, "gemma3_sliding_bf16", [](Json& c) {
            for (const char* key : {"rope_theta", "rope_local_base_freq", "rope_scaling"})
                c.erase(key);
            c["rope_parameters"] = Json::parse(R"({"full_attention": {"rope_type": "linear", "factor": 2.0, "rope_theta": 500000.0},
                                                   "sliding_attention": {"rope_type": "default", "rope_theta": 20000.0}})");
        });
        const HfConfig n = configOf(newer);
        QCOMPARE(n.ropeTheta, 5e5);
        QCOMPARE(n.ropeLocalTheta, 2e4);
        QVERIFY(n.ropeScaling.kind == RopeScaling::Linear);
        // ω_1 of head_dim 8: θ^(−2/8); the full layer's divided by the factor, the sliding one's not.
        QCOMPARE(detail::gatedInverseFrequencies(n, 0).at(1), std::pow(2e4, -0.25));
        QCOMPARE(detail::gatedInverseFrequencies(n, 3).at(1), std::pow(5e5, -0.25) / 2.0);
    }

    // query_pre_attn_scalar = head_dim (gemma-3-270m: 256) is the usual 1/√d_k: any attention
    // kind computes it; another scalar is computed by full attention only, and said.
    void gemmaScaleWithOtherAttentionKinds()
    {
        const auto pass = [](const std::string& folder) {
            const Seq2SeqModel m = loadModelFolder(folder);
            ModelSpec spec = m.spec;
            spec.attention = AttentionKind::Flash;
            PretrainedInput in;
            in.ids = {1, 2, 3, 4, 5};
            in.tokens = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a", "b", "c", "d", "e"});
            StageList stages;
            std::vector<Message> warnings;
            pretrainedPass(m.pretrained->weights, spec, in, m.pretrained->vocabulary, stages, warnings);
            return stages.size();
        };
        QTemporaryDir dir;
        const std::string same = copyFolder(dir, "gemma3_sliding_bf16", [](Json& c) { c["query_pre_attn_scalar"] = 8; });
        try {
            QVERIFY(pass(same) > 100);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        try {
            pass(hfDir() + "/gemma3_sliding_bf16");
            QFAIL("a flash-attention pass with query_pre_attn_scalar 6 ran");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("query_pre_attn_scalar") != std::string::npos, e.what());
        }
    }

    // gemma-3-270m's config.json as google/gemma-3-270m ships it (transformers 4.55): 18 layers,
    // five sliding (window 512) then one full, three times.
    void gemma270mConfig()
    {
        const HfConfig c = parseHfConfig(R"({"_sliding_window_pattern": 6, "architectures": ["Gemma3ForCausalLM"], "attention_bias": false,
            "attention_dropout": 0.0, "attn_logit_softcapping": null, "bos_token_id": 2, "eos_token_id": 1,
            "final_logit_softcapping": null, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 640,
            "initializer_range": 0.02, "intermediate_size": 2048,
            "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention",
                            "full_attention", "sliding_attention", "sliding_attention", "sliding_attention", "sliding_attention",
                            "sliding_attention", "full_attention", "sliding_attention", "sliding_attention", "sliding_attention",
                            "sliding_attention", "sliding_attention", "full_attention"],
            "max_position_embeddings": 32768, "model_type": "gemma3_text", "num_attention_heads": 4, "num_hidden_layers": 18,
            "num_key_value_heads": 1, "pad_token_id": 0, "query_pre_attn_scalar": 256, "rms_norm_eps": 1e-06,
            "rope_local_base_freq": 10000.0, "rope_scaling": null, "rope_theta": 1000000.0, "sliding_window": 512,
            "torch_dtype": "bfloat16", "transformers_version": "4.55.0.dev0", "use_bidirectional_attention": false,
            "use_cache": true, "vocab_size": 262144})");
        QVERIFY(c.family == PretrainedFamily::Gemma3);
        QCOMPARE(c.dModel, 640);
        QCOMPARE(c.dFF, 2048);
        QCOMPARE(c.layers, 18);
        QCOMPARE(c.heads, 4);
        QCOMPARE(c.kvHeads, 1);
        QCOMPARE(c.headDim, 256);
        QCOMPARE(c.queryPreAttnScalar, 256.0);
        QVERIFY(c.tiedEmbeddings); // Gemma3TextConfig's default: the file does not say
        std::vector<int> windows(18, 512);
        windows[5] = windows[11] = windows[17] = 0;
        QCOMPARE(c.slidingWindows, windows);
        QCOMPARE(c.ropeTheta, 1e6);
        QCOMPARE(c.ropeLocalTheta, 1e4);
        QCOMPARE(c.vocabulary, 262144);
    }

    // A folder with tokenizer.json tokenizes with it (and tokenizer_config.json), not with
    // vocab.json and merges.txt, which it need not have (Llama 3 ships only tokenizer.json). The
    // ids are transformers.js's for that file (tests/reference/tokenizers/hf/cases.json); the
    // WordPiece file's 56 tokens fit the test model's 292.
    void tokenizerJsonIsTheFoldersTokenizer()
    {
        QTemporaryDir dir;
        const std::string path = copyFolder(dir, "llama_gqa_tied_f32", [](Json&) {});
        const fs::path made = std::string(ATTNLAB_TEST_DATA "/tokenizers/hf/wordpiece");
        for (const char* f : {"tokenizer.json", "tokenizer_config.json"})
            fs::copy_file(made / f, fs::path(path) / f, fs::copy_options::overwrite_existing);
        const Json cases = readJson(ATTNLAB_TEST_DATA "/tokenizers/hf/cases.json");
        const auto check = [&](const PretrainedModel& m) {
            QCOMPARE(m.tokenizerFile(), "tokenizer.json");
            int checked = 0;
            for (const Json& c : cases["wordpiece"]) {
                const auto expected = c["ids_special"].get<std::vector<int>>();
                if (static_cast<int>(expected.size()) > m.config().positions)
                    continue; // the model would cut it
                const PretrainedTokens t = pretrainedTokens(m, c["text"].get<std::string>(), std::nullopt, m.config().positions);
                QCOMPARE(t.ids, expected);
                ++checked;
                for (std::size_t i = 0; i < t.ids.size(); ++i)
                    QCOMPARE(t.labels[i], m.display(t.ids[i]));
            }
            QVERIFY(checked >= 30);
            QCOMPARE(m.decode({m.tokenizerSize() - 1}).empty(), false);
        };
        check(*loadModelFolder(path).pretrained);
        // Without vocab.json and merges.txt it opens all the same.
        fs::remove(fs::path(path) / "vocab.json");
        fs::remove(fs::path(path) / "merges.txt");
        check(*loadModelFolder(path).pretrained);
        // Without any tokenizer, the line says what would do.
        fs::remove(fs::path(path) / "tokenizer.json");
        QVERIFY2(refusal(path).find("has no tokenizer.json (Llama's tokenizer needs tokenizer.json, or vocab.json and merges.txt)")
                     != std::string::npos,
                 refusal(path).c_str());
    }
};

QTEST_APPLESS_MAIN(TestGatedFolders)
#include "tst_gated_folders.moc"
