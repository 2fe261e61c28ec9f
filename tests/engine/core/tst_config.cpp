// Config: documented defaults, validation rules stated in words, limits, and the names of the
// enum values used on the command line, in trace JSON and in session files.
#include "core/config.h"
#include "core/message.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <stdexcept>

using attnlab::Config;
using attnlab::ConfigLimits;
using attnlab::MaskKind;
using attnlab::PositionalEncoding;
using attnlab::WeightsPreset;

using ConfigEdit = std::function<void(Config&)>;
Q_DECLARE_METATYPE(ConfigEdit)
Q_DECLARE_METATYPE(PositionalEncoding)
Q_DECLARE_METATYPE(MaskKind)
Q_DECLARE_METATYPE(WeightsPreset)

namespace {

QStringList problemsOf(const Config& c)
{
    QStringList out;
    for (const auto& p : c.problems())
        out << QString::fromStdString(p);
    return out;
}

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

class TestConfig : public QObject {
    Q_OBJECT

private slots:
    void aProblemIsALineOfTheTable()
    {
        // core/messages.h: validate() throws the first problem as a Message; problems() are its texts.
        Config c;
        c.padTo = -2;
        try {
            c.validate();
            QFAIL("no refusal");
        } catch (const attnlab::Error& e) {
            QCOMPARE(e.message().code, std::string("pad_to_negative"));
            QCOMPARE(e.message().args, (std::vector<std::string>{"-2"}));
            QCOMPARE(std::string(e.what()), c.problems().front());
        }
        c.padTo = 0;
        c.attention = attnlab::AttentionKind::Linformer;
        c.mask = MaskKind::Causal;
        QCOMPARE(c.problems(), (std::vector<std::string>{"linformer attention cannot use a causal mask: each projected key mixes every "
                                                         "position, later ones included; use no mask or the padding mask"}));
    }

    void defaults()
    {
        const Config c;
        QCOMPARE(c.dModel, 32);
        QCOMPARE(c.heads, 4);
        QCOMPARE(c.seed, std::uint64_t(42));
        // Enums are compared with QVERIFY: attnlab::toString hides QTest::toString from QCOMPARE.
        QVERIFY(c.positional == PositionalEncoding::Sinusoidal);
        QCOMPARE(c.embedScale, true);
        QCOMPARE(c.scaleScores, true);
        QVERIFY(c.mask == MaskKind::None);
        QCOMPARE(c.padTo, 0);
        QCOMPARE(c.maxTokens, 512);
        QVERIFY(c.weightsPreset == WeightsPreset::Seeded);
        QCOMPARE(c.dK(), 8);
        QCOMPARE(problemsOf(c), QStringList());
        c.validate(); // does not throw
    }

    void limits()
    {
        QCOMPARE(ConfigLimits::maxDModel, 2048);
        QCOMPARE(ConfigLimits::maxHeads, 64);
        QCOMPARE(ConfigLimits::maxTokens, 1024);
    }

    void rules_data()
    {
        QTest::addColumn<ConfigEdit>("edit");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, ConfigEdit edit, const char* message) {
            QTest::newRow(name) << edit << QString::fromUtf8(message);
        };
        row("not_a_multiple", [](Config& c) { c.dModel = 10; c.heads = 3; },
            "d_model (10) must be a multiple of heads (3)");
        row("not_a_multiple_default_heads", [](Config& c) { c.dModel = 30; },
            "d_model (30) must be a multiple of heads (4)");
        row("d_model_1_two_heads", [](Config& c) { c.dModel = 1; c.heads = 2; },
            "d_model (1) must be a multiple of heads (2)");
        row("d_model_zero", [](Config& c) { c.dModel = 0; }, "d_model (0) must be between 1 and 2048");
        row("d_model_negative", [](Config& c) { c.dModel = -8; }, "d_model (-8) must be between 1 and 2048");
        row("d_model_too_large", [](Config& c) { c.dModel = 2049; c.heads = 1; }, "d_model (2049) must be between 1 and 2048");
        row("heads_zero", [](Config& c) { c.heads = 0; }, "heads (0) must be between 1 and 64");
        row("heads_too_many", [](Config& c) { c.dModel = 130; c.heads = 65; }, "heads (65) must be between 1 and 64");
        row("max_tokens_zero", [](Config& c) { c.maxTokens = 0; }, "max_tokens (0) must be between 1 and 1024");
        row("max_tokens_too_large", [](Config& c) { c.maxTokens = 1025; }, "max_tokens (1025) must be between 1 and 1024");
        row("pad_to_negative", [](Config& c) { c.padTo = -1; }, "pad_to (-1) must be 0 (no padding) or a positive length");
        row("pad_to_above_max_tokens", [](Config& c) { c.padTo = 600; }, "pad_to (600) must not exceed max_tokens (512)");
        row("pad_to_above_small_max_tokens", [](Config& c) { c.maxTokens = 4; c.padTo = 5; },
            "pad_to (5) must not exceed max_tokens (4)");
        row("eps_zero", [](Config& c) { c.layerNormEps = 0; }, "layer_norm_eps (0) must be a positive number");
        row("eps_nan", [](Config& c) { c.layerNormEps = std::nanf(""); }, "layer_norm_eps (nan) must be a positive number");
        row("layers_zero", [](Config& c) { c.setLayers(0); }, "layers (0) must be between 1 and 12");
        row("layers_too_many", [](Config& c) { c.setLayers(13); }, "layers (13) must be between 1 and 12");
        row("d_ff_negative", [](Config& c) { c.dFF = -1; }, "d_ff (-1) must be 0 (4·d_model) or between 1 and 8192");
        row("d_ff_too_wide", [](Config& c) { c.dFF = 8193; }, "d_ff (8193) must be 0 (4·d_model) or between 1 and 8192");
    }

    void modelSettings()
    {
        const Config c;
        QVERIFY(c.model == attnlab::ModelKind::None);
        QCOMPARE(c.encoderLayers, 2);
        QCOMPARE(c.decoderLayers, 2);
        QCOMPARE(c.feedForwardWidth(), 4 * c.dModel); // d_ff 0 means the paper's 4·d_model
        Config d;
        d.dFF = 48;
        QCOMPARE(d.feedForwardWidth(), 48);
        // Names, both ways.
        for (const auto m : {attnlab::ModelKind::None, attnlab::ModelKind::Seeded, attnlab::ModelKind::Reversal, attnlab::ModelKind::File})
            QVERIFY(attnlab::parseModelKind(attnlab::toString(m)) == m);
        QVERIFY(attnlab::parseNormPlacement("pre") == attnlab::NormPlacement::Pre);
        QVERIFY(attnlab::parseActivation("gelu") == attnlab::Activation::Gelu);
        QVERIFY(!attnlab::parseModelKind("transformer"));
        QVERIFY(!attnlab::parseNormPlacement("middle"));
    }
    void rules()
    {
        QFETCH(ConfigEdit, edit);
        QFETCH(QString, message);
        Config c;
        edit(c);
        QCOMPARE(problemsOf(c), QStringList{message});
        try {
            c.validate();
            QFAIL("validate() did not throw");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
    }

    void everyProblemIsListed()
    {
        Config c;
        c.dModel = 0;
        c.heads = 0;
        c.maxTokens = 0;
        c.padTo = -1;
        const QStringList problems = problemsOf(c);
        QCOMPARE(problems.size(), 4);
        QVERIFY2(problems.filter(QStringLiteral("d_model (0)")).size() == 1, qPrintable(problems.join('\n')));
        QVERIFY2(problems.filter(QStringLiteral("heads (0)")).size() == 1, qPrintable(problems.join('\n')));
        QVERIFY2(problems.filter(QStringLiteral("max_tokens (0)")).size() == 1, qPrintable(problems.join('\n')));
        QVERIFY2(problems.filter(QStringLiteral("pad_to (-1)")).size() == 1, qPrintable(problems.join('\n')));
        // validate() throws the first one.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.validate());
    }

    void validAtTheLimits_data()
    {
        QTest::addColumn<ConfigEdit>("edit");
        QTest::newRow("d_model_1") << ConfigEdit([](Config& c) { c.dModel = 1; c.heads = 1; });
        QTest::newRow("d_model_2048_heads_64") << ConfigEdit([](Config& c) { c.dModel = 2048; c.heads = 64; });
        QTest::newRow("d_equals_heads") << ConfigEdit([](Config& c) { c.dModel = 64; c.heads = 64; });
        QTest::newRow("max_tokens_1") << ConfigEdit([](Config& c) { c.maxTokens = 1; });
        QTest::newRow("max_tokens_1024") << ConfigEdit([](Config& c) { c.maxTokens = 1024; });
        QTest::newRow("pad_to_max_tokens") << ConfigEdit([](Config& c) { c.maxTokens = 16; c.padTo = 16; });
        QTest::newRow("pad_to_1") << ConfigEdit([](Config& c) { c.padTo = 1; });
        QTest::newRow("other_settings") << ConfigEdit([](Config& c) {
            c.seed = ~std::uint64_t(0);
            c.positional = PositionalEncoding::None;
            c.embedScale = false;
            c.scaleScores = false;
            c.mask = MaskKind::Custom;
            c.weightsPreset = WeightsPreset::Identity;
        });
    }
    void validAtTheLimits()
    {
        QFETCH(ConfigEdit, edit);
        Config c;
        edit(c);
        QCOMPARE(problemsOf(c), QStringList());
        c.validate();
    }

    void dK()
    {
        Config c;
        c.dModel = 512;
        c.heads = 8;
        QCOMPARE(c.dK(), 64);
        c.heads = 0;
        QCOMPARE(c.dK(), 0); // no division by zero
    }

    // --- names ---

    void positionalNames_data()
    {
        QTest::addColumn<PositionalEncoding>("value");
        QTest::addColumn<QString>("name");
        QTest::newRow("sinusoidal") << PositionalEncoding::Sinusoidal << "sinusoidal";
        QTest::newRow("learned") << PositionalEncoding::Learned << "learned";
        QTest::newRow("none") << PositionalEncoding::None << "none";
    }
    void positionalNames()
    {
        QFETCH(PositionalEncoding, value);
        QFETCH(QString, name);
        QCOMPARE(text(attnlab::toString(value)), name);
        QVERIFY(attnlab::parsePositionalEncoding(name.toStdString()) == value);
    }

    void maskNames_data()
    {
        QTest::addColumn<MaskKind>("value");
        QTest::addColumn<QString>("name");
        QTest::newRow("none") << MaskKind::None << "none";
        QTest::newRow("causal") << MaskKind::Causal << "causal";
        QTest::newRow("padding") << MaskKind::Padding << "padding";
        QTest::newRow("causal+padding") << MaskKind::CausalPadding << "causal+padding";
        QTest::newRow("custom") << MaskKind::Custom << "custom";
    }
    void maskNames()
    {
        QFETCH(MaskKind, value);
        QFETCH(QString, name);
        QCOMPARE(text(attnlab::toString(value)), name);
        QVERIFY(attnlab::parseMaskKind(name.toStdString()) == value);
    }

    void weightsPresetNames_data()
    {
        QTest::addColumn<WeightsPreset>("value");
        QTest::addColumn<QString>("name");
        QTest::newRow("seeded") << WeightsPreset::Seeded << "seeded";
        QTest::newRow("identity") << WeightsPreset::Identity << "identity";
    }
    void weightsPresetNames()
    {
        QFETCH(WeightsPreset, value);
        QFETCH(QString, name);
        QCOMPARE(text(attnlab::toString(value)), name);
        QVERIFY(attnlab::parseWeightsPreset(name.toStdString()) == value);
    }

    void unknownNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << "";
        QTest::newRow("word") << "random";
        QTest::newRow("trailing_space") << "causal ";
        QTest::newRow("leading_space") << " none";
        QTest::newRow("prefix") << "sinusoid";
        QTest::newRow("dash") << "causal-padding";
        QTest::newRow("both_order") << "padding+causal";
        QTest::newRow("index") << "0";
    }
    void unknownNames()
    {
        QFETCH(QString, name);
        const std::string s = name.toStdString();
        QVERIFY(!attnlab::parsePositionalEncoding(s).has_value());
        QVERIFY(!attnlab::parseMaskKind(s).has_value());
        QVERIFY(!attnlab::parseWeightsPreset(s).has_value());
    }

    void namesAreUnique()
    {
        // Each name parses back to its own value only in its own enum.
        QVERIFY(!attnlab::parseMaskKind("learned").has_value());
        QVERIFY(!attnlab::parseWeightsPreset("causal").has_value());
        QVERIFY(!attnlab::parsePositionalEncoding("identity").has_value());
    }
};

QTEST_APPLESS_MAIN(TestConfig)
#include "tst_config.moc"
