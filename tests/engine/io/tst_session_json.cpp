// Session files (docs/session-format.md) read and written by the engine: the documented example,
// a file with every part written and read back, the exact bytes the writer makes, and every
// kind of bad text refused with its coded message (nothing else escapes: the JSON library's
// own errors, among them the number overflow fuzz_session found, become session_not_json).
#include "io/config_json.h"
#include "io/session_json.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace attnlab;

namespace {

/// The code of the Error parsing `text` gives ("" when it parses; "invalid_argument: …" for
/// another std::invalid_argument; "other: …" for anything else).
QString refusal(const std::string& text, QString* message = nullptr)
{
    try {
        parseSessionJson(text);
    } catch (const attnlab::Error& e) {
        if (message)
            *message = QString::fromStdString(e.message().text);
        return QString::fromStdString(e.message().code);
    } catch (const std::invalid_argument& e) {
        return QStringLiteral("invalid_argument: ") + e.what();
    } catch (const std::exception& e) {
        return QStringLiteral("other: ") + e.what();
    }
    return {};
}

/// A valid session file with `change` merged in (a null value removes the key).
std::string session(const nlohmann::json& change = nlohmann::json::object())
{
    nlohmann::json j = {{"format", "attention-lab.session"}, {"version", 1}, {"sentence", "a b c"},
                        {"config", {{"d_model", 8}, {"heads", 2}}}, {"weights", {{"source", "seeded"}}}};
    j.merge_patch(change);
    return j.dump();
}

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestSessionJson : public QObject {
    Q_OBJECT
private slots:
    void documentedExample()
    {
        // docs/session-format.md's example, as written there.
        const SessionFile s = parseSessionJson(R"({
 "format": "attention-lab.session", "version": 1, "sentence": "<sos> Je vais bien",
 "config": {"d_model": 16, "heads": 2, "d_k": 8, "seed": 7, "pe": "sinusoidal", "embed_scale": true, "scale": true,
            "mask": "causal", "pad_to": null, "max_tokens": 512, "weights_preset": "seeded"},
 "weights": {"source": "seeded"}, "custom_mask": null, "step": "scaled", "head": 1})");
        QCOMPARE(s.sentence, std::string("<sos> Je vais bien"));
        QCOMPARE(s.config.dModel, 16);
        QCOMPARE(s.config.seed, std::uint64_t(7));
        QVERIFY(s.config.mask == MaskKind::Causal);
        QVERIFY(!s.weights && !s.customMask && !s.lesson && !s.target && !s.transformer);
        QCOMPARE(s.step, std::string("scaled"));
        QCOMPARE(s.head, 1);
        QCOMPARE(s.generationStep, -1);
    }

    void everyPartReadsBack()
    {
        SessionFile s;
        s.sentence = "狗咬了人 \x1b]0;x\x07";
        s.config.model = ModelKind::File;
        s.config.mask = MaskKind::Custom;
        s.weights = SessionWeights{"/tmp/w.safetensors", std::string("\0\1\2\xff", 4)};
        s.customMask = BoolMatrix(2, 2);
        *s.customMask << false, true, true, false;
        s.step = "weights";
        s.head = 3;
        s.transformer = true;
        s.stepLayer = 1;
        s.stepBlock = Block::Cross;
        s.target = "le chat";
        s.generationStep = 2;
        s.modelPath = "m.safetensors";
        s.lesson = SessionLesson{":/lessons/en/04-look-ahead-mask.md", 2};
        const std::string text = sessionJson(s);
        const SessionFile back = parseSessionJson(text);
        QCOMPARE(back.sentence, s.sentence);
        QVERIFY(configToJson(back.config) == configToJson(s.config));
        QVERIFY(back.weights == s.weights);
        QVERIFY(back.customMask && *back.customMask == *s.customMask);
        QCOMPARE(back.step, s.step);
        QCOMPARE(back.head, s.head);
        QVERIFY(back.transformer);
        QCOMPARE(back.stepLayer, s.stepLayer);
        QVERIFY(back.stepBlock == Block::Cross);
        QCOMPARE(back.target, s.target);
        QCOMPARE(back.generationStep, 2);
        QCOMPARE(back.modelPath, s.modelPath);
        QVERIFY(back.lesson == s.lesson);
        QCOMPARE(sessionJson(back), text);
    }

    void writtenBytes()
    {
        // The layout the studio has always written: one key a line (dump(1)), keys in this order,
        // a line break at the end; the weights as standard base64 with padding.
        SessionFile s;
        s.sentence = "hi";
        s.weights = SessionWeights{"w.safetensors", std::string("f")};
        s.step = "q";
        const std::string text = sessionJson(s);
        QVERIFY(text.starts_with("{\n \"format\": \"attention-lab.session\",\n \"version\": 1,\n \"sentence\": \"hi\",\n \"config\": {\n  \"d_model\": 32,"));
        QVERIFY(text.find("\n \"weights\": {\n  \"source\": \"file\",\n  \"path\": \"w.safetensors\",\n  \"embedded_safetensors_base64\": \"Zg==\"\n },\n \"custom_mask\": null,\n \"step\": \"q\",\n \"head\": 0\n}\n")
                != std::string::npos);
        QVERIFY(text.find("step_layer") == std::string::npos); // a Transformer's keys only for a Transformer
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, const std::string& text, const char* code, const char* message) {
            QTest::newRow(name) << QByteArray::fromStdString(text) << QString::fromUtf8(code) << QString::fromUtf8(message);
        };
        row("empty", "", "session_not_json", "not valid JSON: parse error at line 1, column 1: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
        row("truncated", session().substr(0, 20), "session_not_json", "");
        // fuzz_session: nlohmann throws out_of_range (not parse_error) for a number beyond double.
        row("number overflow", session({{"head", 1}}).replace(session({{"head", 1}}).find("\"head\":1"), 8, "\"head\":1e315"),
            "session_not_json", "not valid JSON: number overflow parsing '1e315'");
        row("deep nesting", session().insert(1, "\"x\":" + std::string(40, '[') + std::string(40, ']') + ","), "session_json_limits",
            "the JSON nests deeper than 32 levels or holds more than 2000000 values");
        row("array", "[1]", "session_format", "not an Attention Lab session file");
        row("other format", session({{"format", "attention-lab.trace"}}), "session_format", "");
        row("format a number", session({{"format", 7}}), "session_format", "");
        row("version 2", session({{"version", 2}}), "session_version", "unsupported version 2");
        row("no version", session({{"version", nullptr}}), "session_version", "unsupported version null");
        row("version text", session({{"version", std::string(100, 'x')}}), "session_version", "");
        row("no sentence", session({{"sentence", nullptr}}), "session_missing", "'sentence' is missing");
        row("sentence a number", session({{"sentence", 5}}), "session_type", "'sentence' must be a string");
        row("no weights", session({{"weights", nullptr}}), "session_missing", "'weights' is missing");
        row("weights a list", session({{"weights", {1, 2}}}), "session_type", "'weights' must be an object");
        row("bad base64", session({{"weights", {{"source", "file"}, {"embedded_safetensors_base64", "Zm9v!"}}}}), "session_type",
            "'weights.embedded_safetensors_base64' must be base64 text");
        row("head 1e300", session({{"head", 1e300}}), "session_type", "'head' must be a whole number");
        row("head beyond int", session({{"head", 4294967296LL}}), "session_type", "'head' must be a whole number");
        row("head text", session({{"head", "1"}}), "session_type", "");
        row("layer text", session({{"step_layer", "1"}}), "session_type", "'step_layer' must be a whole number or null");
        row("target a number", session({{"target", 3}}), "session_type", "'target' must be a string or null");
        row("mask not square", session({{"custom_mask", {{0, 1}, {1}}}}), "session_mask_not_square", "custom_mask is not square");
        row("mask of twos", session({{"custom_mask", {{0, 2}, {1, 0}}}}), "session_type", "'custom_mask' must be rows of values 0 or 1");
        row("mask of text", session({{"custom_mask", {{"0"}}}}), "session_type", "");
        row("mask a number", session({{"custom_mask", 1}}), "session_type", "");
        row("lesson step -1", session({{"lesson", {{"path", "a.md"}, {"step", -1}}}}), "session_lesson_place",
            "the lesson's path is empty or its step is negative");
        row("lesson without path", session({{"lesson", {{"step", 1}}}}), "session_missing", "'lesson.path' is missing");
        row("lesson a string", session({{"lesson", "a.md"}}), "session_type", "'lesson' must be an object");
        row("config a list", session({{"config", {1}}}), "invalid_argument: config: not a JSON object", "");
        row("config d_model wraps", session({{"config", {{"d_model", 4294967297LL}}}}), "invalid_argument: config: 'd_model' is 4294967297, out of range", "");
    }
    void refused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, code);
        QFETCH(QString, message);
        QString got;
        QCOMPARE(refusal(text.toStdString(), &got), code);
        if (!message.isEmpty())
            QCOMPARE(got, message);
    }

    void maskOfTheLongestSentence()
    {
        // 1024 x 1024 is read; 1025 rows are refused before any row is looked at.
        std::string rows1024;
        std::string oneRow = "[0";
        for (int i = 1; i < 1024; ++i)
            oneRow += ",0";
        oneRow += "]";
        for (int i = 0; i < 1024; ++i)
            rows1024 += (i ? "," : "") + oneRow;
        const std::string base = session();
        const auto withMask = [&](const std::string& rows) { return base.substr(0, base.size() - 1) + ",\"custom_mask\":[" + rows + "]}"; };
        const SessionFile s = parseSessionJson(withMask(rows1024));
        QCOMPARE(s.customMask->rows(), Eigen::Index(1024));
        QString message;
        QCOMPARE(refusal(withMask(rows1024 + ",[0]"), &message), QStringLiteral("session_mask_size"));
        QCOMPARE(message, QStringLiteral("custom_mask has 1025 rows, more than the 1024 tokens of the longest sentence"));
    }

    void embeddedWeights()
    {
        SessionWeights w{"custom.safetensors", readText(ATTNLAB_TEST_DATA "/mha/custom.safetensors")};
        const AttentionWeights fromSession = sessionWeights(w);
        const AttentionWeights fromFile = loadAttentionWeights(ATTNLAB_TEST_DATA "/mha/custom.safetensors");
        QVERIFY(fromSession.inProjWeight == fromFile.inProjWeight && fromSession.outProjBias == fromFile.outProjBias);
        QCOMPARE(fromSession.source, std::string("file:custom.safetensors"));
        // Broken embedded weights are a FormatError, not a file read.
        w.embedded = std::string("not safetensors");
        QVERIFY_THROWS_EXCEPTION(FormatError, sessionWeights(w));
    }
};

QTEST_APPLESS_MAIN(TestSessionJson)
#include "tst_session_json.moc"
