// RoPE, ALiBi and relative positions inside the attention block against an independent
// NumPy/PyTorch implementation of issue 14's definitions (scripts/make_position_goldens.py,
// goldens in tests/reference/position_schemes/): the block runs on the golden's X, weights, mask
// and (relative) tables, and every stage the golden has must match within 1e-4 of each matrix's
// largest value. Also by hand: ALiBi's slopes, Shaw's clipping, and the shift invariance of
// RoPE's, ALiBi's and relative positions' scores (they depend on m − n only). Transformer-XL:
// every stage of every segment (memory, the four score terms, mask, weights, head outputs) and
// the whole-input concat and output, and its segments by hand.

#include "nn/attention.h"
#include "position/inside.h"
#include "position/shift.h"
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
    options.maxDistance = c.at("params").at("max_distance").get<int>();
    options.segment = c.at("params").at("segment").get<int>();
    options.memory = c.at("params").at("memory").get<int>();
    RelativeTables tables;
    if (scheme == PositionalEncoding::Relative)
        tables = {matrix(c.at("tables").at("relative_keys")), matrix(c.at("tables").at("relative_values")), options.maxDistance};
    XlTables xl;
    if (scheme == PositionalEncoding::Xl) {
        xl.wR = perHead(c.at("tables").at("xl_w_r"));
        for (int h = 0; h < c.at("heads").get<int>(); ++h) {
            xl.u.push_back(vector(c.at("tables").at("xl_u").at(static_cast<std::size_t>(h))).transpose());
            xl.v.push_back(vector(c.at("tables").at("xl_v").at(static_cast<std::size_t>(h))).transpose());
        }
    }
    const Labels tokens = labels(n, "t");
    AttentionBlockContext context{tokens, tokens, {}, std::nullopt, Block::None, {"input"}, {"input"}, "self_attn",
                                  AttentionKind::Full, {}, 42, scheme, options};
    if (scheme == PositionalEncoding::Relative)
        context.givenRelative = &tables;
    if (scheme == PositionalEncoding::Xl)
        context.givenXl = &xl;
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
            if (scheme == "rope" || scheme == "alibi" || scheme == "relative")
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
        for (const std::string other : {"rope_angles", "q_rotated", "position_bias", "relative_keys", "position_scores"}) {
            if (std::find(own.begin(), own.end(), other) == own.end())
                QVERIFY(!findStage(run.stages, other, 0) && !findStage(run.stages, other, std::nullopt));
        }
    }

    void xlEverySegment_data()
    {
        QTest::addColumn<std::string>("name");
        for (const auto& name : readJson(kDir + "/cases.json").get<std::vector<std::string>>()) {
            if (readJson(kDir + "/" + name + ".json").at("scheme") == "xl")
                QTest::newRow(name.c_str()) << name;
        }
    }

    void xlEverySegment()
    {
        QFETCH(std::string, name);
        const nlohmann::json c = readJson(kDir + "/" + name + ".json");
        const BlockRun run = runCase(c, PositionalEncoding::Xl);
        const int heads = c.at("heads").get<int>();
        const nlohmann::json& stages = c.at("stages");
        const auto compare = [&](const std::string& id, const nlohmann::json& value, std::optional<int> segment) {
            const bool headed = isPerHeadStage(id);
            for (int h = 0; h < (headed ? heads : 1); ++h) {
                const std::optional<int> head = headed ? std::optional<int>(h) : std::nullopt;
                const QString what = QString::fromStdString(id) + QStringLiteral(" head %1 segment %2").arg(h).arg(segment.value_or(-1));
                const Stage* s = attnlab::findStage(run.stages, StageKey{id, head, std::nullopt, Block::None, segment});
                QVERIFY2(s, qPrintable(what + QStringLiteral(" is missing")));
                const nlohmann::json& v = headed ? value.at(static_cast<std::size_t>(h)) : value;
                // xl_u and xl_v are one vector per head: the engine's 1 x d_k.
                const Eigen::MatrixXf want = v.at(0).is_array() ? matrix(v) : Eigen::MatrixXf(vector(v).transpose());
                if (id == "mask")
                    QVERIFY2((s->main().values.array().isInf() == want.array().isNaN()).all(), qPrintable(what));
                expectClose(s->main().values, want, what);
            }
        };
        for (const char* id : {"xl_w_r", "xl_u", "xl_v", "concat", "output"})
            compare(id, stages.at(id), std::nullopt);
        int compared = 0;
        for (const auto& seg : stages.at("segments")) {
            const int tau = seg.at("segment").get<int>();
            for (const auto& [id, value] : seg.items()) {
                if (id == "segment" || id == "query_positions" || id == "key_positions")
                    continue;
                if (id == "memory" && value.empty()) { // no memory (segment 0, M = 0): no stage
                    QVERIFY(!attnlab::findStage(run.stages, StageKey{"memory", std::nullopt, std::nullopt, Block::None, tau}));
                    continue;
                }
                compare(id, value, tau);
                ++compared;
            }
        }
        QVERIFY(compared >= 13 * static_cast<int>(stages.at("segments").size())); // 13 stages per segment, and its memory
        QVERIFY(run.warnings.empty());
    }

    void xlSegmentsByHand()
    {
        // n = 8, L = 3, M = 5: segments of 3, 3, 2 rows; memories min(5, s) = 0, 3, 5.
        const auto segments = xlSegments(8, 3, 5);
        QCOMPARE(segments.size(), std::size_t(3));
        QCOMPARE(segments[2].start, 6);
        QCOMPARE(segments[2].length, 2);
        QCOMPARE(segments[1].memory, 3);
        QCOMPARE(segments[2].memory, 5);
        QCOMPARE(segments[2].firstKey(), 1);
        QCOMPARE(segments[2].keys(), 7);
        // The sinusoid at distances −1 … 1 (d = 4): R[0] = (sin 0, cos 0, …) = (0, 1, 0, 1); R[−1] = (−sin 1, cos 1, …).
        const Eigen::MatrixXf r = xlDistanceSinusoid(-1, 1, 4);
        QCOMPARE(r.rows(), 3);
        QCOMPARE(r(1, 0), 0.0f);
        QCOMPARE(r(1, 1), 1.0f);
        QVERIFY(std::abs(r(0, 0) + std::sin(1.0f)) < 1e-7f);
        QVERIFY(std::abs(r(0, 3) - std::cos(0.01f)) < 1e-7f);
    }

    void lengthExperimentMatchesTheGolden()
    {
        // One (q, k) pair 3 apart moved along n = 64 and 512: rope, alibi and relative give the
        // golden's scores, the same at every position; sinusoidal the golden's, changing.
        const nlohmann::json c = readJson(kDir + "/shift_invariance.json");
        AttentionWeights w;
        w.inProjWeight = matrix(c.at("in_proj_weight"));
        w.inProjBias = vector(c.at("in_proj_bias"));
        const int heads = c.at("heads").get<int>();
        const int dK = c.at("d_k").get<int>();
        RelativeTables tables{matrix(c.at("relative_keys")), Eigen::MatrixXf::Zero(2 * c.at("max_distance").get<int>() + 1, dK),
                              c.at("max_distance").get<int>()};
        ShiftPair pair{vector(c.at("token_q")).transpose(), vector(c.at("token_k")).transpose(), w, heads, c.at("offset").get<int>(), 0, {}, nullptr};
        pair.options.ropeBase = c.at("rope_base").get<double>();
        pair.options.maxDistance = tables.maxDistance;
        pair.relative = &tables;
        for (const auto& length : c.at("lengths")) {
            const int n = length.at("n").get<int>();
            for (const char* name : {"rope", "alibi", "relative", "sinusoidal"}) {
                const auto got = shiftScores(parsePositionalEncoding(name).value(), pair, n);
                const auto want = length.at("scores").at(name).get<std::vector<std::vector<double>>>();
                QCOMPARE(got.size(), want.size());
                for (std::size_t h = 0; h < want.size(); ++h) {
                    QCOMPARE(got[h].size(), want[h].size());
                    double lo = got[h][0], hi = got[h][0];
                    for (std::size_t p = 0; p < want[h].size(); ++p) {
                        QVERIFY2(std::abs(got[h][p] - want[h][p]) <= 1e-4 * std::max(1.0, std::abs(want[h][p])),
                                 qPrintable(QStringLiteral("%1 n %2 head %3 p %4: %5, want %6").arg(name).arg(n).arg(h).arg(p).arg(got[h][p]).arg(want[h][p])));
                        lo = std::min(lo, got[h][p]);
                        hi = std::max(hi, got[h][p]);
                    }
                    if (std::string_view(name) == "sinusoidal")
                        QVERIFY(hi - lo > 0.5);
                    else
                        QVERIFY2(hi - lo < 1e-4, qPrintable(QStringLiteral("%1 spreads %2").arg(name).arg(hi - lo)));
                }
            }
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
        // Relative positions: q_p·a^K of distance +3 is the same for every p.
        const RelativeTables t = relativeTables(4, dK, 7);
        const Eigen::MatrixXf rel = relativeScores(q, n, t);
        for (int p = 1; p + gap < n; ++p)
            QCOMPARE(rel(p, p + gap), rel(0, gap));
    }

    void shawClippingByHand()
    {
        // K = 1, d_k = 2: a^K rows are distances −1, 0, +1; every key further left shares row 0,
        // every key further right row 2.
        RelativeTables t;
        t.maxDistance = 1;
        t.keys.resize(3, 2);
        t.keys << 1, 0, 0, 1, 2, 2;
        t.values.resize(3, 2);
        t.values << 10, 0, 0, 10, 5, 5;
        QCOMPARE(relativeRow(0, 3, 1), 2);
        QCOMPARE(relativeRow(3, 0, 1), 0);
        QCOMPARE(relativeRow(2, 2, 1), 1);
        Eigen::MatrixXf q(3, 2);
        q << 1, 2, 3, 4, 5, 6;
        const Eigen::MatrixXf p = relativeScores(q, 3, t);
        // Row 0 (query 0): keys at distances 0, +1, +2 → rows 1, 2, 2: q·(0,1) = 2, q·(2,2) = 6, 6.
        QCOMPARE(p(0, 0), 2.0f);
        QCOMPARE(p(0, 1), 6.0f);
        QCOMPARE(p(0, 2), 6.0f);
        // Row 2 (query 2 = (5, 6)): distances −2, −1, 0 → rows 0, 0, 1: 5, 5, 6.
        QCOMPARE(p(2, 0), 5.0f);
        QCOMPARE(p(2, 1), 5.0f);
        QCOMPARE(p(2, 2), 6.0f);
        // Σ_j α_ij a^V: query 0 with weights (0.5, 0.25, 0.25) → 0.5·(0,10) + 0.5·(5,5) = (2.5, 7.5).
        Eigen::MatrixXf a = Eigen::MatrixXf::Zero(3, 3);
        a.row(0) << 0.5f, 0.25f, 0.25f;
        const Eigen::MatrixXf z = relativeValues(a, t);
        QCOMPARE(z(0, 0), 2.5f);
        QCOMPARE(z(0, 1), 7.5f);
        QCOMPARE(z(1, 0), 0.0f);
    }

    void seededTablesAreStandardNormal()
    {
        // The engine's own tables: (2K+1) x d_k, the same for a seed, N(0, 1) in the large.
        const RelativeTables a = relativeTables(64, 32, 42), b = relativeTables(64, 32, 42), c = relativeTables(64, 32, 43);
        QCOMPARE(a.keys.rows(), 129);
        QCOMPARE(a.values.cols(), 32);
        QVERIFY(a.keys == b.keys && a.values == b.values);
        QVERIFY(a.keys != c.keys);
        QVERIFY(a.keys != a.values);
        const double mean = a.keys.mean();
        const double var = (a.keys.array() - mean).square().mean();
        QVERIFY2(std::abs(mean) < 0.05 && std::abs(var - 1) < 0.1, qPrintable(QStringLiteral("%1 %2").arg(mean).arg(var)));
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
