// Bare PyTorch state dicts (nn.TransformerEncoderLayer, nn.TransformerEncoder,
// nn.TransformerDecoderLayer saved with no metadata) read as models, against the modules' own
// forward() recorded by scripts/gen_hf_reference.py; and the messages for bad files.

#include "io/fileio.h"
#include "model/state_dict.h"
#include "support/reference.h"
#include "support/throws.h"

#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// f must throw a FormatError whose message contains `part`.
template <typename F>
void expectFormatError(F f, const char* part)
{
    const QString message = errorMessage<FormatError>(f);
    QVERIFY2(message.contains(QString::fromUtf8(part)), qPrintable("expected '" + QString(part) + "' in: " + message));
}

std::string bareDir()
{
    return ATTNLAB_TEST_DATA "/hf/bare";
}

TensorFile bareFile(const std::string& name)
{
    return parseSafetensors(readFile(bareDir() + "/" + name + ".safetensors", 1 << 24));
}

StateDictOptions optionsOf(const nlohmann::json& o)
{
    StateDictOptions s;
    s.heads = o.at("heads").get<int>();
    s.norm = *parseNormPlacement(o.at("norm").get<std::string>());
    s.activation = *parseActivation(o.at("activation").get<std::string>());
    s.layerNormEps = o.at("eps").get<float>();
    return s;
}

BoolMatrix boolMatrix(const nlohmann::json& rows)
{
    const Eigen::MatrixXf m = jsonMatrix(rows);
    return m.array() != 0.0f;
}

} // namespace

class TestStateDict : public QObject {
    Q_OBJECT

private slots:
    void modulesMatchPyTorch()
    {
        const auto cases = readJson(bareDir() + "/cases.json");
        QCOMPARE(cases.size(), std::size_t(3));
        for (const auto& c : cases) {
            const std::string name = c.get<std::string>();
            const auto golden = readJson(bareDir() + "/" + name + ".json");
            const auto& o = golden.at("options");
            const Seq2SeqModel m = modelFromStateDict(bareFile(name), optionsOf(o));
            // What the shapes say.
            QCOMPARE(m.spec.dModel, o.at("d_model").get<int>());
            QCOMPARE(m.spec.feedForwardWidth(), o.at("d_ff").get<int>());
            QCOMPARE(m.spec.finalNorms, o.at("final_norm").get<bool>());
            QVERIFY(m.openVocabulary());
            const bool decoder = !golden.at("inputs").at("tgt").is_null();
            QCOMPARE(decoder ? m.spec.decoderLayers : m.spec.encoderLayers, o.at("layers").get<int>());
            for (const auto& run : golden.at("runs")) {
                TransformerInputs in;
                if (decoder) {
                    in.src = jsonMatrix(golden.at("inputs").at("memory"));
                    in.tgt = jsonMatrix(golden.at("inputs").at("tgt"));
                    if (!run.at("tgt_mask").is_null())
                        in.tgtMask = boolMatrix(run.at("tgt_mask"));
                    else
                        in.tgtMask = BoolMatrix::Constant(in.tgt.rows(), in.tgt.rows(), false);
                } else {
                    in.src = jsonMatrix(golden.at("inputs").at("src"));
                }
                const TransformerTrace t = computeTransformer(in, m.weights, m.spec);
                const Eigen::MatrixXf& got = decoder ? t.decoderOutput : t.encoderOutput;
                const Difference d = compare(got, jsonMatrix(run.at("output")));
                QVERIFY2(d.problem.empty(), (name + ": " + d.problem).c_str());
                QVERIFY2(d.max < 1e-4f, (name + ": off by " + std::to_string(d.max)).c_str());
            }
        }
    }

    void whatTheFileCannotSayMustBeGiven()
    {
        expectFormatError([] { modelFromStateDict(bareFile("encoder_layer_post_relu"), {}); }, "--heads");
        StateDictOptions three;
        three.heads = 3; // d_model 16
        expectFormatError([&] { modelFromStateDict(bareFile("encoder_layer_post_relu"), three); },
                                  "d_model (16) must be a multiple of heads (3)");
    }

    void messagesNameTheUsersTensors()
    {
        StateDictOptions o;
        o.heads = 4;
        TensorFile layer = bareFile("encoder_layer_post_relu");
        layer.tensors.erase("linear2.weight");
        expectFormatError([&] { modelFromStateDict(layer, o); }, "missing tensor 'linear2.weight'");
        TensorFile stack = bareFile("encoder_pre_gelu_2");
        stack.tensors["layers.1.extra"] = stack.tensors.at("norm.bias");
        o.heads = 2;
        expectFormatError([&] { modelFromStateDict(stack, o); }, "unknown tensor 'layers.1.extra'");
        TensorFile shapes = bareFile("encoder_pre_gelu_2");
        shapes.tensors.at("layers.1.norm2.weight").shape = {8};
        shapes.tensors.at("layers.1.norm2.weight").values.resize(8);
        expectFormatError([&] { modelFromStateDict(shapes, o); }, "'layers.1.norm2.weight'");
        TensorFile other;
        other.tensors["fc.weight"] = stack.tensors.at("norm.bias");
        expectFormatError([&] { modelFromStateDict(other, o); }, "nn.TransformerEncoderLayer");
    }
};

QTEST_APPLESS_MAIN(TestStateDict)
#include "tst_state_dict.moc"
