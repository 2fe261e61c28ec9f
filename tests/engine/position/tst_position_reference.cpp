// RoPE and ALiBi inside the attention block against an independent NumPy/PyTorch implementation
// of issue 14's definitions (scripts/make_position_goldens.py, goldens in
// tests/reference/position_schemes/): the block runs on the golden's X, weights and mask, and
// every stage the golden has must match within 1e-4 of each matrix's largest value. Also by hand:
// ALiBi's slopes, and the shift invariance of RoPE's and ALiBi's scores (q_m·k_n and the bias
// depend on m − n only). The relative and Transformer-XL cases of the same folder are for those
// schemes, which this engine does not compute yet.

#include "nn/attention.h"
#include "position/inside.h"
#include "support/goldens.h"
#include "support/reference.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::testing;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kDir = ATTNLAB_TEST_DATA "/position_schemes";

Eigen::VectorXf vector(const nlohmann::json& v)
{
    const auto values = v.get<std::vector<float>>();
    return Eigen::Map<const Eigen::VectorXf>(values.data(), static_cast<Eigen::Index>(values.size()));
}

struct BlockRun {
    StageList stages;
    std::vector<Message> warnings;
};

BlockRun runCase(const nlohmann::json& c, PositionalEncoding scheme)
{
    const auto n = c.at("n").get<Eigen::Index>();
    const int heads = c.at("heads").get<int>();
    AttentionWeights w;
    w.inProjWeight = matrix(c.at("in_proj_weight"));
    w.inProjBias = vector(c.at("in_proj_bias"));
    w.outProjWeight = matrix(c.at("out_proj_weight"));
    w.outProjBias = vector(c.at("out_proj_bias"));
    const Eigen::MatrixXf x = matrix(c.at("x"));
    const BoolMatrix blocked = matrix(c.at("blocked")).array() != 0;
    PositionOptions options;
    options.ropeBase = c.at("params").at("rope_base").get<double>();
    const Labels tokens = labels(n, "t");
    const AttentionBlockContext context{tokens, tokens, {}, std::nullopt, Block::None, {"input"}, {"input"}, "self_attn",
                                        AttentionKind::Full, {}, 42, scheme, options};
    BlockRun run;
    attentionBlock(x, x, w, heads, c.at("scale").get<bool>(), blocked, context, run.stages, run.warnings);
    return run;
}

} // namespace

class TestPositionReference : public QObject {
    Q_OBJECT
private slots:
    void everyStage_data()
    {
        QTest::addColumn<std::string>("name");
        for (const auto& name : readJson(kDir + "/cases.json").get<std::vector<std::string>>()) {
            const std::string scheme = readJson(kDir + "/" + name + ".json").at("scheme").get<std::string>();
            if (scheme == "rope" || scheme == "alibi")
                QTest::newRow(name.c_str()) << name;
        }
    }

    void everyStage()
    {
        QFETCH(std::string, name);
        const nlohmann::json c = readJson(kDir + "/" + name + ".json");
        const PositionalEncoding scheme = parsePositionalEncoding(c.at("scheme").get<std::string>()).value();
        const BlockRun run = runCase(c, scheme);
        const int heads = c.at("heads").get<int>();
        int compared = 0;
        for (const auto& [id, value] : c.at("stages").items()) {
            const bool headed = isPerHeadStage(id);
            for (int h = 0; h < (headed ? heads : 1); ++h) {
                const std::optional<int> head = headed ? std::optional<int>(h) : std::nullopt;
                const Stage* s = findStage(run.stages, id, head);
                QVERIFY2(s, qPrintable(QString::fromStdString(id + " is missing")));
                const QString what = QString::fromStdString(id) + QStringLiteral(" head %1").arg(h);
                const Eigen::MatrixXf want = matrix(headed ? value.at(static_cast<std::size_t>(h)) : value);
                if (id == "mask") // −∞ (null in the golden) exactly where the golden hides a key
                    QVERIFY2((s->main().values.array().isInf() == want.array().isNaN()).all(), qPrintable(what));
                expectClose(s->main().values, want, what);
                ++compared;
            }
        }
        QVERIFY(compared >= 12);
        // Only the scheme's own stages are added: ALiBi has no rotations, RoPE no bias.
        const auto own = positionStageIds(scheme);
        for (const std::string other : {"rope_angles", "q_rotated", "position_bias"}) {
            if (std::find(own.begin(), own.end(), other) == own.end())
                QVERIFY(!findStage(run.stages, other, 0) && !findStage(run.stages, other, std::nullopt));
        }
    }

    void alibiSlopes_data()
    {
        QTest::addColumn<std::string>("name");
        QTest::newRow("8 heads") << std::string("alibi_h8_causal");
        QTest::newRow("12 heads") << std::string("alibi_h12_causal");
        QTest::newRow("4 heads") << std::string("alibi_h4_none");
    }

    void alibiSlopes()
    {
        QFETCH(std::string, name);
        const nlohmann::json c = readJson(kDir + "/" + name + ".json");
        const auto want = c.at("slopes").get<std::vector<double>>();
        const auto got = attnlab::alibiSlopes(c.at("heads").get<int>());
        QCOMPARE(got.size(), want.size());
        // The golden keeps 9 significant digits.
        for (std::size_t h = 0; h < got.size(); ++h)
            QVERIFY2(std::abs(got[h] - want[h]) <= 1e-8 * want[h], qPrintable(QStringLiteral("head %1: %2, want %3").arg(h).arg(got[h]).arg(want[h])));
    }

    void alibiSlopesByHand()
    {
        // 8 heads: 1/2, 1/4, …, 1/256. 3 heads: those of 2 (1/16, 1/256), then the first of 4's (1/4).
        const auto eight = attnlab::alibiSlopes(8);
        for (int h = 0; h < 8; ++h)
            QCOMPARE(eight[static_cast<std::size_t>(h)], std::pow(0.5, h + 1));
        QCOMPARE(attnlab::alibiSlopes(3), (std::vector<double>{1.0 / 16, 1.0 / 256, 1.0 / 4}));
        QCOMPARE(attnlab::alibiSlopes(1), (std::vector<double>{1.0 / 256}));
    }

    void scoresDependOnTheDistanceOnly()
    {
        // One q and one k placed at positions (p, p + 3) for every p of a 512-token input: RoPE's
        // q̃·k̃ and ALiBi's bias stay the same to float rounding (the length experiment of issue 14).
        const int n = 512, dK = 16, gap = 3;
        Eigen::MatrixXf q(n, dK), k(n, dK);
        Eigen::RowVectorXf q0(dK), k0(dK);
        for (int i = 0; i < dK; ++i) {
            q0(i) = std::sin(1.3f * i + 0.2f);
            k0(i) = std::cos(0.7f * i - 0.5f);
        }
        q.rowwise() = q0;
        k.rowwise() = k0;
        const Eigen::MatrixXf angles = ropeAngles(n, dK, 10000);
        const Eigen::MatrixXf qr = ropeRotate(q, angles), kr = ropeRotate(k, angles);
        const float first = qr.row(0).dot(kr.row(gap));
        for (int p = 1; p + gap < n; ++p)
            QVERIFY2(std::abs(qr.row(p).dot(kr.row(p + gap)) - first) <= 2e-5f * std::max(1.0f, std::abs(first)),
                     qPrintable(QStringLiteral("position %1").arg(p)));
        // Rotation keeps lengths: RoPE changes directions, not sizes.
        QVERIFY(std::abs(qr.row(300).norm() - q0.norm()) <= 1e-5f);
        const Eigen::MatrixXf bias = alibiBias(n, n, 0.25);
        for (int p = 0; p + gap < n; ++p) {
            QCOMPARE(bias(p, p + gap), -0.75f);
            QCOMPARE(bias(p + gap, p), -0.75f);
        }
        QCOMPARE(bias(7, 7), 0.0f);
        QVERIFY(!std::signbit(bias(7, 7)));
    }

    void theAnglesByHand()
    {
        // θ_{pos,i} = pos / B^(2i/d_k): d_k = 4, B = 100 → pair 0 turns 1 rad per position, pair 1 0.1.
        const Eigen::MatrixXf a = ropeAngles(3, 4, 100);
        QCOMPARE(a.rows(), 3);
        QCOMPARE(a.cols(), 2);
        QCOMPARE(a(2, 0), 2.0f);
        QVERIFY(std::abs(a(2, 1) - 0.2f) < 1e-7f);
        // (1, 0) turned by 90°: (0, 1).
        Eigen::MatrixXf x(1, 2);
        x << 1, 0;
        Eigen::MatrixXf quarter(1, 1);
        quarter << static_cast<float>(M_PI / 2);
        const Eigen::MatrixXf r = ropeRotate(x, quarter);
        QVERIFY(std::abs(r(0, 0)) < 1e-7f && std::abs(r(0, 1) - 1) < 1e-7f);
    }
};

QTEST_MAIN(TestPositionReference)
#include "tst_position_reference.moc"
