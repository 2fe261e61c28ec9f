// The gated decoders (Llama, Qwen2, Qwen3; families/gated.h) against scripts/gen_decoder_reference.py:
// tiny random-weight Hugging Face folders (grouped and multi-query attention, tied and untied
// heads, llama3 RoPE scaling, q/k biases and norms, F32, F16, BF16, two shards) and every stage,
// the logits and greedy generation of an independent float64 PyTorch implementation.

#include "core/stage_builder.h"
#include "model/model.h"
#include "pretrained/forward.h"
#include "pretrained/generate.h"
#include "pretrained/model_folder.h"
#include "support/hf.h"
#include "support/reference.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;

namespace {


std::optional<int> optionalInt(const nlohmann::json& v)
{
    return v.is_null() ? std::nullopt : std::optional<int>(v.get<int>());
}

/// Compares one golden stage with ours: its matrices within 1e-4 of their largest value, its kv_head.
void checkStage(const StageList& stages, const nlohmann::json& g, const std::string& where0)
{
    const std::string id = g.at("id").get<std::string>();
    const std::optional<int> layer = optionalInt(g.at("layer")), head = optionalInt(g.at("head"));
    const std::string where = where0 + " stage " + id + " layer " + (layer ? std::to_string(*layer) : "-") + " head "
        + (head ? std::to_string(*head) : "-");
    const Stage* s = findStage(stages, id, head, layer, layer ? Block::DecoderSelf : Block::None);
    if (!s && !layer)
        s = findStage(stages, id, head, layer, Block::DecoderSelf);
    QVERIFY2(s, ("missing " + where).c_str());
    QVERIFY2(s->kvHead == optionalInt(g.at("kv_head")), (where + ": kv_head differs").c_str());
    for (const char* name : {"data", "mean_square"}) {
        if (!g.contains(name))
            continue;
        const Eigen::MatrixXf want = goldenValues(g.at(name));
        const LabeledMatrix* got = std::string(name) == "data" ? &s->main() : stageMatrix(*s, name);
        QVERIFY2(got, (where + ": no " + name).c_str());
        const Difference d = compare(got->values, want);
        QVERIFY2(d.problem.empty(), (where + " " + name + ": " + d.problem).c_str());
        const float tolerance = 1e-4f * finiteScale(want);
        QVERIFY2(d.max <= tolerance, (where + " " + name + ": off by " + std::to_string(d.max) + " at (" + std::to_string(d.row) + ", "
                                      + std::to_string(d.col) + "), tolerance " + std::to_string(tolerance))
                                         .c_str());
    }
}

} // namespace

class TestGatedReference : public QObject {
    Q_OBJECT

private:
    struct Case {
        std::string name;
        nlohmann::json golden;
        std::shared_ptr<const Seq2SeqModel> model;
    };
    std::vector<Case> m_cases;

private slots:
    void initTestCase()
    {
        for (const auto& c : readJson(hfDir() + "/decoder_cases.json")) {
            const std::string name = c.get<std::string>();
            const auto golden = readJson(hfDir() + "/" + name + ".json");
            auto model = std::make_shared<const Seq2SeqModel>(loadModelFolder(hfDir() + "/" + golden.at("folder").get<std::string>()));
            m_cases.push_back({name, golden, model});
        }
        QVERIFY(m_cases.size() >= 4);
    }

    void everyStageOfEveryCase()
    {
        for (const Case& c : m_cases) {
            const PretrainedModel& m = *c.model->pretrained;
            for (const auto& input : c.golden.at("inputs")) {
                PretrainedInput in;
                in.ids = input.at("token_ids").get<std::vector<int>>();
                in.tokens = std::make_shared<const std::vector<std::string>>(input.at("tokens").get<std::vector<std::string>>());
                StageList stages;
                std::vector<Message> warnings;
                pretrainedPass(m.weights, c.model->spec, in, m.vocabulary, stages, warnings);
                QVERIFY2(warnings.empty(), c.name.c_str());
                const std::string where = c.name + " " + input.at("name").get<std::string>();
                for (const auto& g : input.at("stages"))
                    checkStage(stages, g, where);
                QVERIFY(input.at("stages").size() > 60);
            }
        }
    }

    // Gemma 3's trace says what it computed: a sliding layer's mask names its window (the full
    // layer's does not), the scaled scores name query_pre_attn_scalar, the input E·√d.
    void gemmaStagesSayTheirWindowAndScale()
    {
        const Case& c = m_cases.at(4); // gemma3_sliding_bf16
        QCOMPARE(c.name, std::string("gemma3_sliding_bf16"));
        const auto& input = c.golden.at("inputs").at(0);
        PretrainedInput in;
        in.ids = input.at("token_ids").get<std::vector<int>>();
        in.tokens = std::make_shared<const std::vector<std::string>>(input.at("tokens").get<std::vector<std::string>>());
        StageList stages;
        std::vector<Message> warnings;
        pretrainedPass(c.model->pretrained->weights, c.model->spec, in, c.model->pretrained->vocabulary, stages, warnings);
        const auto formula = [&](const char* id, std::optional<int> head, std::optional<int> layer) {
            const Stage* s = findStage(stages, id, head, layer, layer ? Block::DecoderSelf : Block::None);
            return s ? s->formula : std::string("(none)");
        };
        for (int layer = 0; layer < 3; ++layer)
            QCOMPARE(formula("mask", std::nullopt, layer), std::string("M_ij = 0 if 0 ≤ i − j < 3, else −∞  (a sliding window of 3 keys)"));
        QCOMPARE(formula("mask", std::nullopt, 3), std::string("M_ij = −∞ if key j is hidden from query i, else 0"));
        QCOMPARE(formula("scaled", 2, 3), std::string("S'_h = S_h / √6  (query_pre_attn_scalar)"));
        const Stage* x = findStage(stages, "input", std::nullopt, std::nullopt, Block::DecoderSelf);
        QVERIFY(x && x->formula.find("E·√d") != std::string::npos);
        QCOMPARE(formula("attn_post_norm", std::nullopt, 1), std::string("P_1 = O / √(mean(O²) + ε) · (1 + w_p1)"));
    }

    void greedyGenerationWithTheCache()
    {
        for (const Case& c : m_cases) {
            for (const auto& input : c.golden.at("inputs")) {
                const auto& want = input.at("generation");
                const auto steps = static_cast<int>(want.at("new_ids").size());
                const GeneratedTokens got = generateTokens(c.model->pretrained->weights, input.at("token_ids").get<std::vector<int>>(), steps, {});
                QCOMPARE(got.ids, want.at("new_ids").get<std::vector<int>>());
                for (int i = 0; i < steps; ++i)
                    QVERIFY2(std::abs(got.probabilities[static_cast<std::size_t>(i)] - jsonFloat(want.at("probabilities")[static_cast<std::size_t>(i)])) < 1e-4f,
                             c.name.c_str());
            }
        }
    }

    void theFoldersTokenizerGivesTheGoldenIds()
    {
        for (const Case& c : m_cases) {
            for (const auto& input : c.golden.at("inputs")) {
                const PretrainedTokens t = pretrainedTokens(*c.model->pretrained, input.at("text").get<std::string>(), std::nullopt, 64);
                QCOMPARE(t.ids, input.at("token_ids").get<std::vector<int>>());
            }
        }
    }

    void theConfigSaysWhatItRead()
    {
        const HfConfig& c = m_cases.at(1).model->pretrained->config(); // llama3_untied_bf16_sharded
        QCOMPARE(c.kvHeads, 2);
        QCOMPARE(c.headDim, 16);
        QVERIFY(c.ropeScaling.kind == RopeScaling::Llama3);
        QVERIFY(!c.tiedEmbeddings && c.qkvBias && c.outputBias && c.mlpBias);
        QCOMPARE(m_cases.at(1).model->pretrained->weights.files.size(), std::size_t{2});
        const HfConfig& q = m_cases.at(2).model->pretrained->config(); // qwen2_mqa_f16
        QVERIFY(q.qkvBias && !q.outputBias && q.tiedEmbeddings && q.kvHeads == 1);
        QVERIFY(m_cases.at(3).model->pretrained->config().qkNorm);
    }
};

QTEST_APPLESS_MAIN(TestGatedReference)
#include "tst_gated_reference.moc"
