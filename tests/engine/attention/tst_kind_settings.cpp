// The attention kinds' settings: each option checked only for the kind that reads it, the
// combinations refused with the reason, the options in the trace's and session's JSON, and a
// seeded encoder stack running the kind in every layer through run().

#include "io/config_json.h"
#include "model/run.h"

#include <QtTest>

using namespace attnlab;

namespace {

std::string firstProblem(const Config& c)
{
    const auto p = c.problems();
    return p.empty() ? std::string() : p.front();
}

} // namespace

class TestKindSettings : public QObject {
    Q_OBJECT
private slots:
    void optionsAreCheckedForTheirKind()
    {
        Config c;
        c.attentionOptions.window = 0;
        c.attentionOptions.buckets = 3;
        QVERIFY(c.problems().empty()); // full attention reads neither
        c.attention = AttentionKind::SlidingWindow;
        QCOMPARE(firstProblem(c), std::string("window (0) must be between 1 and 1024"));
        c.attentionOptions.window = 2;
        c.attentionOptions.dilation = 0;
        QCOMPARE(firstProblem(c), std::string("dilation (0) must be between 1 and 1024"));
        c.attentionOptions.dilation = 1;
        c.attentionOptions.global = {-1};
        QCOMPARE(firstProblem(c), std::string("global position -1 must be between 0 and 1023"));
        c.attentionOptions.global = {};
        QVERIFY(c.problems().empty());
        c.attention = AttentionKind::Lsh;
        QVERIFY(firstProblem(c).rfind("buckets (3) must be an even number between 2 and 4096", 0) == 0);
        c.attentionOptions.buckets = 2;
        c.attentionOptions.chunk = -1;
        QVERIFY(firstProblem(c).rfind("chunk (-1) must be 0", 0) == 0);
        c.attentionOptions.chunk = 0;
        c.attentionOptions.global = {1};
        QVERIFY(c.problems().empty()); // kept for when a windowed kind is chosen again, like every option
        c.attentionOptions.global = {};
        c.attention = AttentionKind::Performer;
        c.attentionOptions.features = 5000;
        QCOMPARE(firstProblem(c), std::string("features (5000) must be between 1 and 4096"));
        c.attention = AttentionKind::Linformer;
        c.attentionOptions.projDim = 0;
        QCOMPARE(firstProblem(c), std::string("proj_dim (0) must be between 1 and 4096"));
        c.attention = AttentionKind::Strided;
        c.attentionOptions.stride = 0;
        QCOMPARE(firstProblem(c), std::string("stride (0) must be between 1 and 1024"));
    }

    void combinationsAreRefused()
    {
        Config c;
        c.attention = AttentionKind::Linformer;
        c.mask = MaskKind::CausalPadding;
        QVERIFY(firstProblem(c).rfind("linformer attention cannot use a causal mask", 0) == 0);
        c.mask = MaskKind::Padding;
        QVERIFY(c.problems().empty());
        c.attention = AttentionKind::Performer;
        c.mask = MaskKind::Custom;
        QCOMPARE(firstProblem(c), std::string("performer attention takes no mask, a causal or a padding mask, not a custom one"));
        c.attention = AttentionKind::Lsh;
        QVERIFY(c.problems().empty()); // the sparse and hashed kinds take any mask
        c.mask = MaskKind::None;
        c.model = ModelKind::Seeded;
        c.architecture = Architecture::EncoderDecoder;
        QVERIFY(firstProblem(c).rfind("lsh attention is for one attention block and for seeded encoder stacks", 0) == 0);
        c.architecture = Architecture::EncoderStack;
        c.setLayers(2);
        QVERIFY(c.problems().empty());
        c.model = ModelKind::Reversal;
        QVERIFY(!c.problems().empty());
    }

    void theOptionsRoundTripThroughJson()
    {
        Config c;
        c.attention = AttentionKind::BigBird;
        c.attentionOptions.window = 3;
        c.attentionOptions.dilation = 2;
        c.attentionOptions.random = 5;
        c.attentionOptions.global = {0, 7};
        const auto j = configToJson(c);
        QCOMPARE(j.at("attention").get<std::string>(), std::string("bigbird"));
        QVERIFY(!j.contains("features") && !j.contains("buckets")); // only what the kind reads
        QVERIFY(configFromJson(nlohmann::json::parse(j.dump())) == c);
        nlohmann::json bad = nlohmann::json::parse(j.dump());
        bad["global"] = "0,7";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, configFromJson(bad));
        bad["global"] = {0, 1.5};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, configFromJson(bad));
    }

    void anEncoderStackRunsTheKindInEveryLayer()
    {
        RunRequest r;
        r.text = "one two three four five six";
        r.config.model = ModelKind::Seeded;
        r.config.architecture = Architecture::EncoderStack;
        r.config.setLayers(2);
        r.config.attention = AttentionKind::SlidingWindow;
        r.config.attentionOptions.window = 1;
        r.model = std::make_shared<const Seq2SeqModel>(seededModel(r.config));
        const auto trace = run(r).trace;
        for (int layer = 0; layer < 2; ++layer) {
            const Stage* mask = trace->find("mask", std::nullopt, layer, Block::EncoderSelf);
            QVERIFY(mask);
            // Token 0 sees tokens 0 and 1 only.
            QCOMPARE(mask->main().values(0, 1), 0.0f);
            QVERIFY(std::isinf(mask->main().values(0, 2)));
            QVERIFY(trace->find("reference_output", std::nullopt, layer, Block::EncoderSelf));
        }
    }
};

QTEST_APPLESS_MAIN(TestKindSettings)
#include "tst_kind_settings.moc"
