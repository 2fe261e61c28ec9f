// Attention weights (docs/engine.md, sections 5 and 8): presets, finding an
// nn.MultiheadAttention state dict in a safetensors file, and saving it back.
#include "io/fileio.h"
#include "nn/weights.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using attnlab::AttentionWeights;
using attnlab::FormatError;
using attnlab::Tensor;
using attnlab::TensorFile;
using attnlab::WeightsPreset;

namespace {

/// A tensor of `shape` holding 1, 2, 3, ... (row-major) plus `offset`.
Tensor counting(std::vector<std::int64_t> shape, float offset = 0.0f)
{
    std::int64_t n = 1;
    for (const auto d : shape)
        n *= d;
    Tensor t{"F32", std::move(shape), {}};
    for (std::int64_t i = 0; i < n; ++i)
        t.values.push_back(float(i + 1) + offset);
    return t;
}

/// A complete state dict for d = 2 under `prefix`.
void addBlock(TensorFile& f, const std::string& prefix, float offset = 0.0f)
{
    f.tensors[prefix + "in_proj_weight"] = counting({6, 2}, offset);
    f.tensors[prefix + "in_proj_bias"] = counting({6}, 100.0f + offset);
    f.tensors[prefix + "out_proj.weight"] = counting({2, 2}, 200.0f + offset);
    f.tensors[prefix + "out_proj.bias"] = counting({2}, 300.0f + offset);
}

TensorFile block(const std::string& prefix = {})
{
    TensorFile f;
    addBlock(f, prefix);
    return f;
}

/// The FormatError message of attentionWeightsFromTensors, or "!..." when something else happened.
QString formatErrorOf(const TensorFile& f, const std::optional<std::string>& prefix = {})
{
    try {
        attnlab::attentionWeightsFromTensors(f, prefix);
    } catch (const FormatError& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("!another exception: ") + QString::fromStdString(e.what());
    }
    return QStringLiteral("!no exception");
}

QByteArray where(const char* what, Eigen::Index r, Eigen::Index c, float got, float expected)
{
    return QByteArray(what) + "(" + QByteArray::number(r) + ", " + QByteArray::number(c) + "): got "
        + QByteArray::number(double(got), 'g', 9) + ", expected " + QByteArray::number(double(expected), 'g', 9);
}

/// Empty when equal bit for bit (same shape, same values); else the first difference.
QByteArray compareExact(const char* what, const Eigen::MatrixXf& got, const Eigen::MatrixXf& expected)
{
    if (got.rows() != expected.rows() || got.cols() != expected.cols())
        return QByteArray(what) + ": shape " + QByteArray::number(got.rows()) + " x " + QByteArray::number(got.cols())
            + ", expected " + QByteArray::number(expected.rows()) + " x " + QByteArray::number(expected.cols());
    for (Eigen::Index r = 0; r < got.rows(); ++r) {
        for (Eigen::Index c = 0; c < got.cols(); ++c) {
            if (got(r, c) != expected(r, c))
                return where(what, r, c, got(r, c), expected(r, c));
        }
    }
    return {};
}

#define COMPARE_EXACT(got, expected)                                                                                   \
    do {                                                                                                               \
        const QByteArray why_ = compareExact(#got, (got), (expected));                                                 \
        QVERIFY2(why_.isEmpty(), why_.constData());                                                                    \
    } while (false)

/// The hand-written d = 2 block of `block()`: in_proj_weight [[1,2],[3,4],...,[11,12]] etc.
void checkCountingBlock(const AttentionWeights& w, float offset = 0.0f)
{
    Eigen::MatrixXf in(6, 2);
    in << 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12;
    Eigen::MatrixXf out(2, 2);
    out << 201, 202, 203, 204;
    Eigen::VectorXf inBias(6);
    inBias << 101, 102, 103, 104, 105, 106;
    Eigen::VectorXf outBias(2);
    outBias << 301, 302;
    const float o = offset;
    COMPARE_EXACT(w.inProjWeight, (in.array() + o).matrix());
    COMPARE_EXACT(w.outProjWeight, (out.array() + o).matrix());
    COMPARE_EXACT(Eigen::MatrixXf(w.inProjBias), Eigen::MatrixXf((inBias.array() + o).matrix()));
    COMPARE_EXACT(Eigen::MatrixXf(w.outProjBias), Eigen::MatrixXf((outBias.array() + o).matrix()));
    QCOMPARE(w.dModel(), 2);
}

} // namespace

class TestWeights : public QObject {
    Q_OBJECT

private slots:
    // --- presets ---

    void identity_data()
    {
        QTest::addColumn<int>("d");
        QTest::newRow("d1") << 1;
        QTest::newRow("d4") << 4;
        QTest::newRow("d32") << 32;
    }
    void identity()
    {
        QFETCH(int, d);
        const AttentionWeights w = attnlab::presetWeights(WeightsPreset::Identity, d, 42);
        const Eigen::MatrixXf eye = Eigen::MatrixXf::Identity(d, d);
        QCOMPARE(w.inProjWeight.rows(), Eigen::Index(3 * d));
        QCOMPARE(w.inProjWeight.cols(), Eigen::Index(d));
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjWeight.topRows(d)), eye);        // W_Q
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjWeight.middleRows(d, d)), eye);  // W_K
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjWeight.bottomRows(d)), eye);     // W_V
        COMPARE_EXACT(w.outProjWeight, eye);                                   // W_O
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjBias), Eigen::MatrixXf::Zero(3 * d, 1));
        COMPARE_EXACT(Eigen::MatrixXf(w.outProjBias), Eigen::MatrixXf::Zero(d, 1));
        QCOMPARE(w.dModel(), d);
        QCOMPARE(w.source, std::string("identity"));
        QVERIFY(!w.heads.has_value());
    }

    void seeded_data()
    {
        QTest::addColumn<int>("d");
        QTest::newRow("d8") << 8;
        QTest::newRow("d32") << 32;
        QTest::newRow("d64") << 64;
    }
    void seeded()
    {
        QFETCH(int, d);
        const AttentionWeights w = attnlab::presetWeights(WeightsPreset::Seeded, d, 42);
        QCOMPARE(w.inProjWeight.rows(), Eigen::Index(3 * d));
        QCOMPARE(w.inProjWeight.cols(), Eigen::Index(d));
        QCOMPARE(w.outProjWeight.rows(), Eigen::Index(d));
        QCOMPARE(w.outProjWeight.cols(), Eigen::Index(d));
        QCOMPARE(w.source, std::string("seeded"));

        // Xavier-uniform for in_proj (fan_in d, fan_out 3d) and nn.Linear's U(-1/sqrt d, 1/sqrt d).
        const float inBound = static_cast<float>(std::sqrt(6.0 / (4.0 * d)));
        const float outBound = static_cast<float>(1.0 / std::sqrt(double(d)));
        const struct {
            const char* name;
            const Eigen::MatrixXf& m;
            float bound;
        } checks[] = {{"in_proj_weight", w.inProjWeight, inBound}, {"out_proj.weight", w.outProjWeight, outBound}};
        for (const auto& c : checks) {
            const float lo = c.m.minCoeff();
            const float hi = c.m.maxCoeff();
            const QByteArray range = QByteArray(c.name) + ": range [" + QByteArray::number(double(lo), 'g', 9) + ", "
                + QByteArray::number(double(hi), 'g', 9) + "], bound " + QByteArray::number(double(c.bound), 'g', 9);
            QVERIFY2(lo >= -c.bound && hi < c.bound, range.constData());
            // The bound is (nearly) reached: not a narrower distribution.
            QVERIFY2(lo < -0.8f * c.bound && hi > 0.8f * c.bound, range.constData());
        }
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjBias), Eigen::MatrixXf::Zero(3 * d, 1));
        COMPARE_EXACT(Eigen::MatrixXf(w.outProjBias), Eigen::MatrixXf::Zero(d, 1));
    }

    void seededDeterminism()
    {
        const AttentionWeights a = attnlab::presetWeights(WeightsPreset::Seeded, 16, 7);
        const AttentionWeights b = attnlab::presetWeights(WeightsPreset::Seeded, 16, 7);
        COMPARE_EXACT(a.inProjWeight, b.inProjWeight);
        COMPARE_EXACT(a.outProjWeight, b.outProjWeight);

        const AttentionWeights c = attnlab::presetWeights(WeightsPreset::Seeded, 16, 8);
        QVERIFY((a.inProjWeight - c.inProjWeight).cwiseAbs().maxCoeff() > 0.01f);
        QVERIFY((a.outProjWeight - c.outProjWeight).cwiseAbs().maxCoeff() > 0.01f);
        // W_Q, W_K and W_V are different draws.
        QVERIFY(a.inProjWeight.topRows(16) != a.inProjWeight.middleRows(16, 16));
        QVERIFY(a.inProjWeight.middleRows(16, 16) != a.inProjWeight.bottomRows(16));
        // W_O comes from its own stream, not from the first draws of in_proj_weight's: compare the
        // unit draws (value / bound) of both in row-major order.
        const double inBound = static_cast<float>(std::sqrt(6.0 / (4.0 * 16)));
        const double outBound = static_cast<float>(1.0 / std::sqrt(16.0));
        double maxUnitDiff = 0.0;
        for (int r = 0; r < 16; ++r) {
            for (int c = 0; c < 16; ++c)
                maxUnitDiff = std::max(maxUnitDiff, std::abs(a.outProjWeight(r, c) / outBound - a.inProjWeight(r, c) / inBound));
        }
        QVERIFY2(maxUnitDiff > 0.1, QByteArray::number(maxUnitDiff).constData());
    }

    void identityIgnoresSeed()
    {
        const AttentionWeights a = attnlab::presetWeights(WeightsPreset::Identity, 8, 1);
        const AttentionWeights b = attnlab::presetWeights(WeightsPreset::Identity, 8, 2);
        COMPARE_EXACT(a.inProjWeight, b.inProjWeight);
    }

    // --- from tensors ---

    void foundWithoutPrefix()
    {
        checkCountingBlock(attnlab::attentionWeightsFromTensors(block()));
    }

    void foundWithPrefix_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::newRow("self_attn") << QStringLiteral("self_attn.");
        QTest::newRow("nested") << QStringLiteral("encoder.layers.0.self_attn.");
    }
    void foundWithPrefix()
    {
        QFETCH(QString, prefix);
        const TensorFile f = block(prefix.toStdString());
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f));
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f, prefix.toStdString()));
    }

    void otherTensorsAreIgnored()
    {
        TensorFile f = block("self_attn.");
        f.tensors["linear1.weight"] = counting({4, 2});
        f.tensors["norm1.bias"] = counting({2});
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f));
    }

    void missingBiasesAreZero()
    {
        TensorFile f = block("self_attn.");
        f.tensors.erase("self_attn.in_proj_bias");
        f.tensors.erase("self_attn.out_proj.bias");
        const AttentionWeights w = attnlab::attentionWeightsFromTensors(f);
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjBias), Eigen::MatrixXf::Zero(6, 1));
        COMPARE_EXACT(Eigen::MatrixXf(w.outProjBias), Eigen::MatrixXf::Zero(2, 1));
        QCOMPARE(w.inProjWeight(1, 0), 3.0f); // row-major: row 1 is [3, 4]
        QCOMPARE(w.outProjWeight(0, 1), 202.0f);
    }

    void badTensors_data()
    {
        QTest::addColumn<QString>("remove");  // a tensor to remove ("" = none)
        QTest::addColumn<QString>("reshape"); // a tensor to replace...
        QTest::addColumn<QList<int>>("shape"); // ...by a tensor of this shape
        QTest::addColumn<QStringList>("mentions");
        const QString p = QStringLiteral("self_attn.");
        QTest::newRow("missing_out_proj_weight") << p + "out_proj.weight" << QString() << QList<int>{}
                                                 << QStringList{"self_attn.out_proj.weight", "[2, 2]"};
        QTest::newRow("in_proj_weight_not_3d") << QString() << p + "in_proj_weight" << QList<int>{5, 2}
                                               << QStringList{"self_attn.in_proj_weight", "[5, 2]", "[3d, d]"};
        QTest::newRow("in_proj_weight_1d") << QString() << p + "in_proj_weight" << QList<int>{12}
                                           << QStringList{"self_attn.in_proj_weight", "[3d, d]"};
        QTest::newRow("in_proj_weight_transposed") << QString() << p + "in_proj_weight" << QList<int>{2, 6}
                                                   << QStringList{"self_attn.in_proj_weight", "[2, 6]", "[3d, d]"};
        QTest::newRow("in_proj_bias") << QString() << p + "in_proj_bias" << QList<int>{4}
                                      << QStringList{"self_attn.in_proj_bias", "[4]", "[6]"};
        QTest::newRow("out_proj_weight") << QString() << p + "out_proj.weight" << QList<int>{2, 3}
                                         << QStringList{"self_attn.out_proj.weight", "[2, 3]", "[2, 2]"};
        QTest::newRow("out_proj_weight_flat") << QString() << p + "out_proj.weight" << QList<int>{4}
                                              << QStringList{"self_attn.out_proj.weight", "[4]", "[2, 2]"};
        QTest::newRow("out_proj_bias") << QString() << p + "out_proj.bias" << QList<int>{3}
                                       << QStringList{"self_attn.out_proj.bias", "[3]", "[2]"};
        QTest::newRow("out_proj_bias_2d") << QString() << p + "out_proj.bias" << QList<int>{2, 1}
                                          << QStringList{"self_attn.out_proj.bias", "[2, 1]", "[2]"};
    }
    void badTensors()
    {
        QFETCH(QString, remove);
        QFETCH(QString, reshape);
        QFETCH(QList<int>, shape);
        QFETCH(QStringList, mentions);
        TensorFile f = block("self_attn.");
        if (!remove.isEmpty())
            QVERIFY(f.tensors.erase(remove.toStdString()) == 1);
        if (!reshape.isEmpty()) {
            QVERIFY(f.tensors.count(reshape.toStdString()));
            f.tensors[reshape.toStdString()] = counting(std::vector<std::int64_t>(shape.begin(), shape.end()));
        }
        const QString msg = formatErrorOf(f);
        QVERIFY2(!msg.startsWith(QLatin1Char('!')), qPrintable(msg));
        for (const auto& m : mentions)
            QVERIFY2(msg.contains(m), qPrintable(QStringLiteral("'%1' not in: %2").arg(m, msg)));
    }

    void noAttentionWeights()
    {
        TensorFile f;
        f.tensors["linear.weight"] = counting({2, 2});
        const QString msg = formatErrorOf(f);
        QVERIFY2(!msg.startsWith(QLatin1Char('!')) && msg.contains(QStringLiteral("in_proj_weight")), qPrintable(msg));
        QVERIFY2(!formatErrorOf(TensorFile{}).startsWith(QLatin1Char('!')), "empty file");
    }

    void severalPrefixes()
    {
        TensorFile f;
        addBlock(f, "encoder.self_attn.", 0.0f);
        addBlock(f, "decoder.self_attn.", 1000.0f);
        const QString msg = formatErrorOf(f);
        QVERIFY2(!msg.startsWith(QLatin1Char('!')), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("encoder.self_attn.")) && msg.contains(QStringLiteral("decoder.self_attn.")),
                 qPrintable(msg));
        // An explicit prefix picks one block.
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f, std::string("encoder.self_attn.")), 0.0f);
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f, std::string("decoder.self_attn.")), 1000.0f);
        // A prefix that holds nothing names what is missing.
        const QString missing = formatErrorOf(f, std::string("nope."));
        QVERIFY2(!missing.startsWith(QLatin1Char('!')) && missing.contains(QStringLiteral("nope.in_proj_weight")),
                 qPrintable(missing));
    }

    void prefixedAndUnprefixed()
    {
        // A block at the top level and one under a prefix are two blocks as well.
        TensorFile f = block();
        addBlock(f, "self_attn.", 1000.0f);
        QVERIFY2(!formatErrorOf(f).startsWith(QLatin1Char('!')), qPrintable(formatErrorOf(f)));
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f, std::string()), 0.0f);
        checkCountingBlock(attnlab::attentionWeightsFromTensors(f, std::string("self_attn.")), 1000.0f);
    }

    void separateProjections()
    {
        // nn.MultiheadAttention with kdim/vdim != embed_dim stores q/k/v_proj_weight instead.
        TensorFile f;
        f.tensors["self_attn.q_proj_weight"] = counting({2, 2});
        f.tensors["self_attn.k_proj_weight"] = counting({2, 3});
        f.tensors["self_attn.v_proj_weight"] = counting({2, 3});
        f.tensors["self_attn.in_proj_bias"] = counting({6});
        f.tensors["self_attn.out_proj.weight"] = counting({2, 2});
        const QString msg = formatErrorOf(f);
        QVERIFY2(!msg.startsWith(QLatin1Char('!')), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("proj_weight")), qPrintable(msg));
    }

    void nonFiniteValues_data()
    {
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<float>("value");
        const float inf = std::numeric_limits<float>::infinity();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        QTest::newRow("in_proj_weight_inf") << "in_proj_weight" << inf;
        QTest::newRow("in_proj_weight_nan") << "in_proj_weight" << nan;
        QTest::newRow("in_proj_bias_minus_inf") << "in_proj_bias" << -inf;
        QTest::newRow("out_proj_weight_nan") << "out_proj.weight" << nan;
        QTest::newRow("out_proj_bias_nan") << "out_proj.bias" << nan;
    }
    void nonFiniteValues()
    {
        QFETCH(QString, tensor);
        QFETCH(float, value);
        TensorFile f = block();
        f.tensors.at(tensor.toStdString()).values.back() = value;
        const QString msg = formatErrorOf(f);
        QVERIFY2(!msg.startsWith(QLatin1Char('!')), qPrintable(msg));
    }

    void numHeadsMetadata()
    {
        TensorFile f = block();
        QVERIFY(!attnlab::attentionWeightsFromTensors(f).heads.has_value());
        f.metadata.emplace("num_heads", "2");
        const AttentionWeights w = attnlab::attentionWeightsFromTensors(f);
        QVERIFY(w.heads.has_value());
        QCOMPARE(*w.heads, 2);
    }

    // A head count that is not one is refused with the rule, never passed over (issue 27 §5).
    void badNumHeadsMetadataIsRefused_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("zero") << "0";
        QTest::newRow("negative") << "-2";
        QTest::newRow("not a number") << "abc";
        QTest::newRow("trailing text") << "2x";
        QTest::newRow("empty") << "";
        QTest::newRow("does not divide d_model 2") << "3";
        QTest::newRow("more than 64") << "128";
        QTest::newRow("beyond int") << "99999999999";
    }

    void badNumHeadsMetadataIsRefused()
    {
        QFETCH(QString, value);
        TensorFile f = block();
        f.metadata.emplace("num_heads", value.toStdString());
        const QString msg = formatErrorOf(f);
        QVERIFY2(msg.startsWith(QStringLiteral("metadata num_heads is '%1' but must be a whole number from 1 to 64 that divides "
                                               "d_model (2)").arg(value)),
                 qPrintable(msg));
    }

    void pythonFileWithoutBiases()
    {
        // Written by scripts/gen_reference.py: d = 8, 2 heads, no bias tensors.
        const AttentionWeights w = attnlab::loadAttentionWeights(ATTNLAB_TEST_DATA "/mha/no_bias.safetensors");
        QCOMPARE(w.dModel(), 8);
        QCOMPARE(w.inProjWeight.rows(), Eigen::Index(24));
        QVERIFY(w.heads.has_value());
        QCOMPARE(*w.heads, 2);
        COMPARE_EXACT(Eigen::MatrixXf(w.inProjBias), Eigen::MatrixXf::Zero(24, 1));
        COMPARE_EXACT(Eigen::MatrixXf(w.outProjBias), Eigen::MatrixXf::Zero(8, 1));
        QVERIFY(w.inProjWeight.cwiseAbs().maxCoeff() > 0.0f);
    }

    // --- save and load ---

    void saveLoadRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("weights.safetensors").toStdString();
        AttentionWeights w = attnlab::presetWeights(WeightsPreset::Seeded, 8, 3);
        w.inProjBias.setLinSpaced(24, -1.0f, 1.0f); // non-zero biases travel too
        w.outProjBias.setLinSpaced(8, 0.5f, 4.0f);
        attnlab::saveAttentionWeights(w, 4, path);

        const AttentionWeights back = attnlab::loadAttentionWeights(path);
        COMPARE_EXACT(back.inProjWeight, w.inProjWeight);
        COMPARE_EXACT(back.outProjWeight, w.outProjWeight);
        COMPARE_EXACT(Eigen::MatrixXf(back.inProjBias), Eigen::MatrixXf(w.inProjBias));
        COMPARE_EXACT(Eigen::MatrixXf(back.outProjBias), Eigen::MatrixXf(w.outProjBias));
        QVERIFY(back.heads.has_value());
        QCOMPARE(*back.heads, 4);
        QCOMPARE(back.source, "file:" + path);

        // The file is an F32 state dict without prefix, with Attention Lab's metadata.
        const TensorFile f = attnlab::readSafetensors(path);
        QCOMPARE(f.tensors.size(), std::size_t(4));
        for (const char* name : {"in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"}) {
            QVERIFY2(f.tensors.count(name), name);
            QCOMPARE(f.tensors.at(name).dtype, std::string("F32"));
        }
        QVERIFY(f.tensors.at("in_proj_weight").shape == (std::vector<std::int64_t>{24, 8}));
        // Row-major: element (1, 0) is the 9th value.
        QCOMPARE(f.tensors.at("in_proj_weight").values.at(8), w.inProjWeight(1, 0));
        QCOMPARE(f.metadata.at("format"), std::string("attention-lab.weights"));
        QCOMPARE(f.metadata.at("num_heads"), std::string("4"));
    }

    void loadErrorsNameThePath()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string missing = dir.filePath("missing.safetensors").toStdString();
        try {
            attnlab::loadAttentionWeights(missing);
            QFAIL("no FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find(missing) != std::string::npos, e.what());
        }
        // A valid safetensors file without attention weights.
        const std::string other = dir.filePath("other.safetensors").toStdString();
        TensorFile f;
        f.tensors["linear.weight"] = counting({2, 2});
        attnlab::writeFileAtomically(other, attnlab::serializeSafetensors(f));
        try {
            attnlab::loadAttentionWeights(other);
            QFAIL("no FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find(other) != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestWeights)
#include "tst_weights.moc"
