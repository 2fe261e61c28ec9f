// Comparing 狗咬了人 with 人咬了狗 against PyTorch: scripts/gen_compare_reference.py ran both
// sentences through its independent implementation (nn.MultiheadAttention), lined B up with A by
// token in numpy (P·B·Pᵀ) and subtracted, with and without positional encoding. The engine's
// traces, lined up by compare/matching.h, must give the same A, B, matched B and difference at
// every stage: zero up to rounding without positions, clearly not zero with them.

#include "compare/matching.h"
#include "model/run.h"
#include "support/reference.h"

#include <QtTest>

using namespace attnlab;
using attnlab::testing::compare;
using attnlab::testing::jsonMatrix;
using attnlab::testing::readJson;

namespace {

nlohmann::json reference()
{
    return readJson(ATTNLAB_TEST_DATA "/compare/dog_bites_man.json");
}

Trace traceOf(const std::string& text, const nlohmann::json& c, const std::string& pe)
{
    RunRequest r;
    r.text = text;
    r.config.dModel = c.at("d_model").get<int>();
    r.config.heads = c.at("heads").get<int>();
    r.config.seed = c.at("seed").get<std::uint64_t>();
    r.config.embedScale = c.at("embed_scale").get<bool>();
    r.config.scaleScores = c.at("scale").get<bool>();
    r.config.mask = parseMaskKind(c.at("mask").get<std::string>()).value();
    r.config.positional = parsePositionalEncoding(pe).value();
    return *run(r).trace;
}

/// A few float32 ulps of the matrix's largest value, as tst_reference allows (the GEMMs sum in
/// another order than PyTorch's).
float tolerance(const Eigen::MatrixXf& want)
{
    float scale = 1.0f;
    for (Eigen::Index i = 0; i < want.size(); ++i) {
        if (std::isfinite(want.data()[i]))
            scale = std::max(scale, std::abs(want.data()[i]));
    }
    return 4e-6f * scale;
}

void check(const char* what, const std::string& id, int head, const Eigen::MatrixXf& got, const Eigen::MatrixXf& want, float tol)
{
    const auto d = compare(got, want);
    QVERIFY2(d.problem.empty(), qPrintable(QString("%1 of %2 head %3: %4").arg(what, id.c_str()).arg(head).arg(d.problem.c_str())));
    QVERIFY2(d.max <= tol, qPrintable(QString("%1 of %2 head %3: max |diff| %4 at (%5, %6) exceeds %7")
                                           .arg(what, id.c_str())
                                           .arg(head)
                                           .arg(static_cast<double>(d.max), 0, 'g', 3)
                                           .arg(d.row)
                                           .arg(d.col)
                                           .arg(static_cast<double>(tol), 0, 'g', 3)));
}

} // namespace

class TestCompareReference : public QObject {
    Q_OBJECT
private slots:
    void theTokensArePermuted()
    {
        const auto ref = reference();
        const auto a = ref.at("tokens_a").get<std::vector<std::string>>();
        const auto b = ref.at("tokens_b").get<std::vector<std::string>>();
        const auto order = labelPermutation(a, b);
        QVERIFY(order);
        QCOMPARE(*order, ref.at("row_order").get<std::vector<int>>());
    }

    void everyStageMatchesPyTorch_data()
    {
        QTest::addColumn<QString>("pe");
        QTest::newRow("without positional encoding") << QStringLiteral("none");
        QTest::newRow("with sinusoidal positions") << QStringLiteral("sinusoidal");
    }

    void everyStageMatchesPyTorch()
    {
        QFETCH(QString, pe);
        const auto ref = reference();
        const nlohmann::json* c = nullptr;
        for (const auto& k : ref.at("cases")) {
            if (k.at("pe").get<std::string>() == pe.toStdString())
                c = &k;
        }
        QVERIFY(c);
        const Trace a = traceOf(ref.at("a").get<std::string>(), ref.at("config"), pe.toStdString());
        const Trace b = traceOf(ref.at("b").get<std::string>(), ref.at("config"), pe.toStdString());
        QCOMPARE(a.tokens, ref.at("tokens_a").get<std::vector<std::string>>());
        QCOMPARE(b.tokens, ref.at("tokens_b").get<std::vector<std::string>>());
        float largestWeights = 0;
        int stages = 0;
        for (const auto& s : c->at("stages")) {
            const std::string id = s.at("id").get<std::string>();
            const std::optional<int> head = s.at("head").is_null() ? std::nullopt : std::optional<int>(s.at("head").get<int>());
            const Stage* sa = a.find(id, head);
            const Stage* sb = b.find(id, head);
            QVERIFY2(sa && sb, id.c_str());
            const MatrixDifference d = difference(sa->main(), sb->main());
            // Rows are always tokens; columns are tokens too for the n x n stages, else features.
            QCOMPARE(int(d.rows), int(AxisMatch::ByToken));
            QCOMPARE(int(d.cols), int(s.at("token_columns").get<bool>() ? AxisMatch::ByToken : AxisMatch::Same));
            const Eigen::MatrixXf wantA = jsonMatrix(s.at("a"));
            const Eigen::MatrixXf wantB = jsonMatrix(s.at("b"));
            const float tol = std::max(tolerance(wantA), tolerance(wantB));
            const int h = head.value_or(-1);
            check("A", id, h, sa->main().values, wantA, tol);
            check("B", id, h, sb->main().values, wantB, tol);
            check("P·B·Pᵀ", id, h, d.matched, jsonMatrix(s.at("matched")), tol);
            check("A − P·B·Pᵀ", id, h, d.difference, jsonMatrix(s.at("difference")), 2 * tol);
            const float scale = sharedMaxAbs(sa->main().values, sb->main().values);
            if (pe == u"none") {
                // Without positions the model cannot tell who bit whom: zero at every stage.
                QVERIFY2(zeroUpToRounding(d, scale), qPrintable(QString("%1 head %2: largest |A − B| %3").arg(id.c_str()).arg(h).arg(d.largest)));
            }
            if (id == "weights")
                largestWeights = std::max(largestWeights, d.largest);
            ++stages;
        }
        QVERIFY(stages >= 14);
        if (pe == u"sinusoidal")
            QVERIFY2(largestWeights > 0.01f, qPrintable(QString("largest |A − B| of the weights %1").arg(largestWeights)));
    }
};

QTEST_APPLESS_MAIN(TestCompareReference)
#include "tst_compare_reference.moc"
