// GPT-2's generation with a key/value cache: greedy picks and their probabilities against the
// full-recompute generation of scripts/gen_hf_reference.py, each cached step against a full
// pass (a gated decoder's cache fed several tokens at once too), and sampling's options.

#include "io/fileio.h"
#include "pretrained/forward.h"
#include "pretrained/generate.h"
#include "support/hf.h"
#include "support/reference.h"
#include "support/throws.h"

#include <QtTest>

#include <array>
#include <limits>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// The logits of a full pass over `ids` (n x V).
Eigen::MatrixXf fullLogits(const PretrainedWeights& w, const std::vector<int>& ids)
{
    PretrainedInput in;
    in.ids = ids;
    in.tokens = std::make_shared<const std::vector<std::string>>(ids.size(), "t");
    auto vocabulary = std::make_shared<const std::vector<std::string>>(static_cast<std::size_t>(w.config.vocabulary), "v");
    StageList stages;
    std::vector<Message> warnings;
    pretrainedPass(w, pretrainedSpec(w.config), in, vocabulary, stages, warnings);
    return findStage(stages, "logits", std::nullopt, std::nullopt, Block::None)->main().values;
}

} // namespace

class TestGenerate : public QObject {
    Q_OBJECT

private slots:
    void greedyMatchesTheReference()
    {
        int checked = 0;
        for (const char* name : {"gpt2_f32", "gpt2_prefix_f16", "gpt2_bf16"}) {
            const auto golden = readJson(hfDir() + "/" + name + ".json");
            const PretrainedWeights w = openWeights(hfDir() + "/" + golden.at("folder").get<std::string>());
            for (const auto& input : golden.at("inputs")) {
                const auto prompt = input.at("token_ids").get<std::vector<int>>();
                const auto& want = input.at("generation");
                const auto wantIds = want.at("new_ids").get<std::vector<int>>();
                const GeneratedTokens got = generateTokens(w, prompt, static_cast<int>(wantIds.size()), {});
                QCOMPARE(got.ids, wantIds);
                for (std::size_t i = 0; i < wantIds.size(); ++i)
                    QVERIFY(std::abs(got.probabilities[i] - want.at("probabilities")[i].get<float>()) < 1e-4f);
                ++checked;
            }
        }
        QCOMPARE(checked, 9);
    }

    void aCachedStepEqualsAFullPass()
    {
        const PretrainedWeights w = openWeights(hfDir() + "/gpt2_f32");
        const std::vector<int> ids{464, 269, 265, 373, 256, 72, 445, 13, 586};
        const Eigen::MatrixXf full = fullLogits(w, ids);
        Gpt2Cache cache(w);
        for (std::size_t t = 0; t < ids.size(); ++t) {
            const Eigen::RowVectorXf step = cache.step(ids[t]);
            const float largest = full.row(static_cast<Eigen::Index>(t)).cwiseAbs().maxCoeff();
            QVERIFY((step - full.row(static_cast<Eigen::Index>(t))).cwiseAbs().maxCoeff() <= 1e-4f * largest);
        }
        QCOMPARE(cache.length(), 9);
    }

    void aGatedCacheFedSeveralTokensEqualsAFullPass()
    {
        // A prompt fed at once (the weights read once for all its rows), then more tokens at
        // once, then one: each time the last position's logits are the full pass's row.
        for (const char* folder : {"llama_gqa_tied_f32", "qwen2_mqa_f16"}) {
            const PretrainedWeights w = openWeights(hfDir() + "/" + folder);
            const std::vector<int> ids{263, 220, 67, 78, 70, 220, 81, 64, 77, 265};
            const Eigen::MatrixXf full = fullLogits(w, ids);
            const auto check = [&](const Eigen::RowVectorXf& got, Eigen::Index row) {
                const float largest = full.row(row).cwiseAbs().maxCoeff();
                const float diff = (got - full.row(row)).cwiseAbs().maxCoeff();
                QVERIFY2(diff <= 1e-4f * largest, qPrintable(QString("%1, position %2: largest difference %3 (largest logit %4)")
                                                                 .arg(folder).arg(row).arg(diff).arg(largest)));
            };
            GatedCache cache(w);
            check(cache.feed({ids.begin(), ids.begin() + 6}), 5);
            QCOMPARE(cache.length(), 6);
            check(cache.feed({ids.begin() + 6, ids.begin() + 9}), 8);
            check(cache.step(ids[9]), 9);
            QCOMPARE(cache.length(), 10);
            QVERIFY(!invalidArgumentMessage([&] { cache.feed({}); }).isEmpty());
        }
    }

    void samplingIsSeededAndOptionsAreChecked()
    {
        const PretrainedWeights w = openWeights(hfDir() + "/gpt2_f32");
        const std::vector<int> prompt{464, 269, 265};
        SamplingOptions o;
        o.temperature = 1.5f;
        o.seed = 7;
        const GeneratedTokens a = generateTokens(w, prompt, 12, o);
        const GeneratedTokens b = generateTokens(w, prompt, 12, o);
        QCOMPARE(a.ids, b.ids);
        o.seed = 8;
        QVERIFY(generateTokens(w, prompt, 12, o).ids != a.ids);
        // top-k 1 leaves one token: the greedy choice whatever the temperature and seed.
        o.topK = 1;
        QCOMPARE(generateTokens(w, prompt, 6, o).ids, generateTokens(w, prompt, 6, {}).ids);
        // A tiny top-p also keeps only the likeliest token.
        o.topK = 0;
        o.topP = 1e-6f;
        QCOMPARE(generateTokens(w, prompt, 6, o).ids, generateTokens(w, prompt, 6, {}).ids);
        SamplingOptions bad;
        bad.temperature = 0.0f;
        QVERIFY(!invalidArgumentMessage([&] { generateTokens(w, prompt, 4, bad); }).isEmpty());
        bad = {};
        bad.topP = 1.5f;
        QVERIFY(invalidArgumentMessage([&] { generateTokens(w, prompt, 4, bad); }).contains("top-p"));
        QVERIFY(!invalidArgumentMessage([&] { generateTokens(w, {}, 4, {}); }).isEmpty());
        QVERIFY(invalidArgumentMessage([&] { generateTokens(w, {100000}, 4, {}); }).contains("outside the vocabulary"));
    }

    // logits / T overflowed float for T ≤ ~1e-37 (issue 27 §4): every probability became NaN and
    // the draw fell on some other token. However small T is, sampling is now greedy's choice.
    void tinyTemperaturesPickTheGreedyToken_data()
    {
        QTest::addColumn<float>("temperature");
        QTest::newRow("1e-38") << 1e-38f;
        QTest::newRow("smallest normal float") << std::numeric_limits<float>::min();
        QTest::newRow("smallest float") << std::numeric_limits<float>::denorm_min();
        QTest::newRow("1e-30") << 1e-30f;
    }

    void tinyTemperaturesPickTheGreedyToken()
    {
        QFETCH(float, temperature);
        // By hand: logits of 250 and 251 (token 1 the largest by 1), and far smaller ones.
        Eigen::RowVectorXf logits(5);
        logits << 250.0f, 251.0f, -3.0f, 250.999f, 0.0f;
        SamplingOptions o;
        o.temperature = temperature;
        for (std::uint64_t seed = 0; seed < 50; ++seed) {
            SplitMix64 random(seed);
            QCOMPARE(chooseToken(logits, o, random), 1);
        }
        // A whole generation with the tiny test GPT-2 equals the greedy one.
        const PretrainedWeights w = openWeights(hfDir() + "/gpt2_f32");
        const std::vector<int> prompt{464, 269, 265};
        o.seed = 3;
        QCOMPARE(generateTokens(w, prompt, 8, o).ids, generateTokens(w, prompt, 8, {}).ids);
    }

    // A huge temperature flattens the distribution to uniform, without overflow either.
    void hugeTemperaturesAreUniform()
    {
        Eigen::RowVectorXf logits(4);
        logits << 300.0f, -300.0f, 0.0f, 1.0f;
        SamplingOptions o;
        o.temperature = std::numeric_limits<float>::max();
        std::array<int, 4> seen{};
        for (std::uint64_t seed = 0; seed < 400; ++seed) {
            SplitMix64 random(seed);
            ++seen[static_cast<std::size_t>(chooseToken(logits, o, random))];
        }
        for (const int count : seen)
            QVERIFY2(count > 50, qPrintable(QStringLiteral("%1 %2 %3 %4").arg(seen[0]).arg(seen[1]).arg(seen[2]).arg(seen[3])));
    }

    void generationStopsAtTheModelsPositions()
    {
        const PretrainedWeights w = openWeights(hfDir() + "/gpt2_bf16"); // 24 positions
        const std::vector<int> prompt(20, 300);
        const GeneratedTokens g = generateTokens(w, prompt, 100, {});
        QVERIFY(g.endOfText || static_cast<int>(prompt.size() + g.ids.size()) <= w.config.positions + 1);
        QVERIFY(g.ids.size() <= 5);
    }
};

QTEST_APPLESS_MAIN(TestGenerate)
#include "tst_generate.moc"
