// GPT-2 and BERT passes against scripts/gen_hf_reference.py: tiny random-weight Hugging Face
// folders (F32, F16, BF16; with and without prefixes, buffers, heads, old LayerNorm names) and
// every stage recorded by an independent plain-PyTorch implementation of each architecture.

#include "io/fileio.h"
#include "io/mapped_safetensors.h"
#include "pretrained/forward.h"
#include "pretrained/hf_config.h"
#include "support/hf.h"
#include "support/reference.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// The matrix `name` of a golden stage entry ("data", "mean", "variance").
Eigen::MatrixXf goldenMatrix(const nlohmann::json& stage, const char* name)
{
    return goldenValues(stage.at(name));
}

/// Every golden stage of one input equals ours within 1e-4 of its matrix's largest value.
void checkInput(const std::string& caseName, const PretrainedWeights& w, const nlohmann::json& input)
{
    PretrainedInput in;
    in.ids = input.at("token_ids").get<std::vector<int>>();
    if (input.contains("segment_ids"))
        in.segments = input.at("segment_ids").get<std::vector<int>>();
    in.tokens = std::make_shared<const std::vector<std::string>>(input.at("tokens").get<std::vector<std::string>>());
    ModelSpec spec = pretrainedSpec(w.config);
    auto vocabulary = std::make_shared<std::vector<std::string>>();
    for (int i = 0; i < w.config.vocabulary; ++i)
        vocabulary->push_back(std::to_string(i));
    StageList stages;
    std::vector<Message> warnings;
    pretrainedPass(w, spec, in, vocabulary, stages, warnings);
    QVERIFY2(warnings.empty(), caseName.c_str());

    int compared = 0;
    for (const auto& g : input.at("stages")) {
        const std::string id = g.at("id").get<std::string>();
        const std::optional<int> layer = g.at("layer").is_null() ? std::nullopt : std::optional<int>(g.at("layer").get<int>());
        const std::optional<int> head = g.at("head").is_null() ? std::nullopt : std::optional<int>(g.at("head").get<int>());
        const Block block = w.config.family == PretrainedFamily::Gpt2 ? Block::DecoderSelf : Block::EncoderSelf;
        // Stages outside the layers carry the block of their side (embeddings) or none (the outputs).
        const Stage* s = findStage(stages, id, head, layer, layer ? block : Block::None);
        if (!s && !layer)
            s = findStage(stages, id, head, layer, block);
        const std::string where = caseName + " " + input.at("name").get<std::string>() + " stage " + id + " layer "
            + (layer ? std::to_string(*layer) : "-") + " head " + (head ? std::to_string(*head) : "-");
        QVERIFY2(s, ("missing " + where).c_str());
        for (const char* name : {"data", "mean", "variance"}) {
            if (!g.contains(name))
                continue;
            const Eigen::MatrixXf want = goldenMatrix(g, name);
            const LabeledMatrix* got = std::string(name) == "data" ? &s->main() : stageMatrix(*s, name);
            QVERIFY2(got, (where + ": no " + name).c_str());
            const Difference d = compare(got->values, want);
            QVERIFY2(d.problem.empty(), (where + " " + name + ": " + d.problem).c_str());
            const float tolerance = 1e-4f * finiteScale(want);
            QVERIFY2(d.max <= tolerance, (where + " " + name + ": off by " + std::to_string(d.max) + " at (" + std::to_string(d.row)
                                          + ", " + std::to_string(d.col) + "), tolerance " + std::to_string(tolerance))
                                             .c_str());
            ++compared;
        }
    }
    QVERIFY2(compared >= 20, caseName.c_str());
}

} // namespace

class TestPretrainedReference : public QObject {
    Q_OBJECT

private slots:
    void everyStageOfEveryCase()
    {
        const auto cases = readJson(hfDir() + "/cases.json");
        QVERIFY(cases.size() >= 6);
        for (const auto& c : cases) {
            const std::string name = c.get<std::string>();
            const auto golden = readJson(hfDir() + "/" + name + ".json");
            const PretrainedWeights w = openWeights(hfDir() + "/" + golden.at("folder").get<std::string>());
            for (const auto& input : golden.at("inputs"))
                checkInput(name, w, input);
        }
    }

    void f32WeightsAreMappedNotCopied()
    {
        const PretrainedWeights w = openWeights(hfDir() + "/gpt2_f32");
        QVERIFY(w.tokens.values.mapped);
        QVERIFY(w.layers.at(0).attention.qkv->weight.mapped);
        QVERIFY(w.layers.at(1).down.weight.mapped);
        // The views point into the file's mapping.
        const auto* begin = reinterpret_cast<const char*>(w.tokens.values.data);
        QVERIFY(begin != nullptr);
        const PretrainedWeights half = openWeights(hfDir() + "/gpt2_prefix_f16");
        QVERIFY(!half.tokens.values.mapped); // F16 is converted
    }
};

QTEST_APPLESS_MAIN(TestPretrainedReference)
#include "tst_pretrained_reference.moc"
