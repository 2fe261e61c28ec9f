// Settings read from JSON (a session file's "config"): numbers are checked before they are
// converted. nlohmann's get<int>() turns 1e300 into undefined behaviour (found by
// fuzz_config_json under UBSan), wraps 4294967297 to 1 and cuts 2.5 to 2; each is refused
// with std::invalid_argument naming the key.
#include "io/config_json.h"

#include <QtTest>

using attnlab::Config;
using attnlab::configFromJson;
using attnlab::configToJson;

namespace {

/// The std::invalid_argument message configFromJson gives for `json`, or "" when it reads it.
QString refusal(const char* json)
{
    try {
        configFromJson(nlohmann::json::parse(json));
    } catch (const std::invalid_argument& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestConfigJson : public QObject {
    Q_OBJECT
private slots:
    void refused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        // The fuzzer's inputs, cut to the key that crashed.
        QTest::newRow("seed 7.7e50") << QByteArray(R"({"d_model": 8, "seed": 777777777777777777777777777777777777777777777777742})")
                                     << "config: 'seed' has the wrong type";
        QTest::newRow("d_model 7.7e92") << QByteArray(R"({"d_model": 7777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777715})")
                                        << "config: 'd_model' has the wrong type";
        QTest::newRow("d_model wraps to 1") << QByteArray(R"({"d_model": 4294967297})") << "config: 'd_model' is 4294967297, out of range";
        QTest::newRow("negative seed") << QByteArray(R"({"seed": -1})") << "config: 'seed' is -1, out of range";
        QTest::newRow("heads below int") << QByteArray(R"({"heads": -2147483649})") << "config: 'heads' is -2147483649, out of range";
        QTest::newRow("fraction") << QByteArray(R"({"max_tokens": 2.5})") << "config: 'max_tokens' has the wrong type";
        QTest::newRow("string number") << QByteArray(R"({"pad_to": "4"})") << "config: 'pad_to' has the wrong type";
        QTest::newRow("number as switch") << QByteArray(R"({"scale": 1})") << "config: 'scale' has the wrong type";
        QTest::newRow("eps beyond float") << QByteArray(R"({"layer_norm_eps": 1e300})") << "config: 'layer_norm_eps' is 1e+300, out of range";
        // −1 is the settings' marker for "as many rows as a segment", never a value in a file (issue 27 §5).
        QTest::newRow("memory -1") << QByteArray(R"({"pe": "xl", "memory": -1})")
                                   << "config: 'memory' is -1, out of range: 0 to 1024 rows (left out: as many as a segment)";
        QTest::newRow("eps as text") << QByteArray(R"({"layer_norm_eps": "small"})") << "config: 'layer_norm_eps' has the wrong type";
    }
    void refused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QCOMPARE(refusal(json.constData()), message);
    }

    void limitsAreRead()
    {
        const Config c = configFromJson(nlohmann::json::parse(
            R"({"seed": 18446744073709551615, "d_model": 2147483647, "heads": -2147483648, "layer_norm_eps": 3e38, "pad_to": null})"));
        QCOMPARE(c.seed, std::uint64_t(18446744073709551615ULL));
        QCOMPARE(c.dModel, 2147483647);
        QCOMPARE(c.heads, -2147483647 - 1);
        QCOMPARE(c.layerNormEps, 3e38f);
        QCOMPARE(c.padTo, 0);
        QVERIFY(!c.problems().empty()); // read, then refused by validation as usual
    }

    void writtenIsReadBack()
    {
        Config c;
        c.seed = 18446744073709551615ULL;
        c.layerNormEps = 1e-6f;
        c.model = attnlab::ModelKind::Seeded;
        c.setLayers(3);
        c.padTo = 4;
        QCOMPARE(configToJson(configFromJson(nlohmann::json::parse(configToJson(c).dump()))), configToJson(c));
    }
};

QTEST_APPLESS_MAIN(TestConfigJson)
#include "tst_config_json.moc"
