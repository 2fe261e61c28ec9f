// The engine against PyTorch: every stage of every case written by scripts/gen_reference.py
// (nn.MultiheadAttention plus torch ops, an independent implementation of docs/engine.md).

#include "nn/attention.h"
#include "support/reference.h"

#include <QtTest>

using namespace attnlab;
using attnlab::testing::compare;
using attnlab::testing::jsonMatrix;
using attnlab::testing::readJson;
using attnlab::testing::referenceDir;

Q_DECLARE_METATYPE(std::string)

namespace {

Request requestFor(const nlohmann::json& c)
{
    Request r;
    r.sentence = c.at("sentence").get<std::string>();
    Config& cfg = r.config;
    cfg.dModel = c.at("d_model").get<int>();
    cfg.heads = c.at("heads").get<int>();
    cfg.seed = c.at("seed").get<std::uint64_t>();
    cfg.positional = parsePositionalEncoding(c.at("pe").get<std::string>()).value();
    cfg.embedScale = c.at("embed_scale").get<bool>();
    cfg.scaleScores = c.at("scale").get<bool>();
    cfg.mask = parseMaskKind(c.at("mask").get<std::string>()).value();
    cfg.padTo = c.at("pad_to").is_null() ? 0 : c.at("pad_to").get<int>();
    cfg.maxTokens = c.at("max_tokens").get<int>();
    cfg.weightsPreset = parseWeightsPreset(c.at("weights_preset").get<std::string>()).value();
    if (!c.at("weights").is_null()) // the prefix is found by the engine itself
        r.weights = std::make_shared<AttentionWeights>(loadAttentionWeights(referenceDir() + "/" + c.at("weights").get<std::string>()));
    if (!c.at("custom_mask").is_null()) {
        const auto& rows = c.at("custom_mask");
        BoolMatrix m(rows.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            for (std::size_t j = 0; j < rows.size(); ++j)
                m(i, j) = rows[i][j].get<int>() != 0;
        }
        r.customMask = m;
    }
    return r;
}

/// How close a stage must be. Embeddings, positions, X and the mask are defined bit-exactly;
/// the rest goes through GEMMs whose summation order differs from PyTorch's, so a few float32
/// ulps of the largest value in the matrix are allowed.
float tolerance(const std::string& id, const Eigen::MatrixXf& want)
{
    if (id == "embedding" || id == "positional_encoding" || id == "input" || id == "mask")
        return 0.0f;
    float scale = 1.0f;
    for (Eigen::Index i = 0; i < want.size(); ++i) {
        if (std::isfinite(want.data()[i]))
            scale = std::max(scale, std::abs(want.data()[i]));
    }
    return 4e-6f * scale;
}

} // namespace

class TestReference : public QObject {
    Q_OBJECT
private slots:
    void everyStageMatchesPyTorch_data()
    {
        QTest::addColumn<std::string>("name");
        for (const auto& name : attnlab::testing::referenceCases())
            QTest::newRow(name.c_str()) << name;
    }

    void everyStageMatchesPyTorch()
    {
        QFETCH(std::string, name);
        const auto ref = readJson(referenceDir() + "/" + name + ".json");
        const Trace trace = computeTrace(requestFor(ref.at("config")));

        QCOMPARE(trace.tokens, ref.at("tokens").get<std::vector<std::string>>());
        const auto& stages = ref.at("stages");
        // Every stage of the reference, and no other, in the same order.
        QCOMPARE(trace.stages.size(), stages.size());
        for (std::size_t i = 0; i < stages.size(); ++i) {
            const auto& s = stages[i];
            const std::string id = s.at("id").get<std::string>();
            const std::optional<int> head = s.at("head").is_null() ? std::nullopt : std::optional<int>(s.at("head").get<int>());
            const Stage& got = trace.stages[i];
            QVERIFY2(got.id == id && got.head == head,
                     qPrintable(QString("stage %1: got %2/%3, want %4/%5").arg(i).arg(got.id.c_str()).arg(got.head.value_or(-1))
                                    .arg(id.c_str()).arg(head.value_or(-1))));
            const Eigen::MatrixXf want = jsonMatrix(s.at("data"));
            const auto d = compare(got.main().values, want);
            const float tol = tolerance(id, want);
            QVERIFY2(d.problem.empty(), qPrintable(QString("%1 head %2: %3").arg(id.c_str()).arg(head.value_or(-1)).arg(d.problem.c_str())));
            QVERIFY2(d.max <= tol, qPrintable(QString("%1 head %2: max |diff| %3 at (%4, %5) exceeds %6")
                                                   .arg(id.c_str())
                                                   .arg(head.value_or(-1))
                                                   .arg(static_cast<double>(d.max), 0, 'g', 3)
                                                   .arg(d.row)
                                                   .arg(d.col)
                                                   .arg(static_cast<double>(tol), 0, 'g', 3)));
        }
        // The fully masked row is the one place where we define what PyTorch leaves as NaN.
        if (name == "custom_full_row")
            QVERIFY(!trace.warnings.empty());
    }
};

QTEST_APPLESS_MAIN(TestReference)
#include "tst_reference.moc"
