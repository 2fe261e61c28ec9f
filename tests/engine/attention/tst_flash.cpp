// FlashAttention (attention/flash.h, issue 28 §7): every stage against an independent NumPy
// implementation of Algorithm 1 of Dao et al. 2022 (scripts/make_flash_goldens.py, goldens in
// tests/reference/flash/) — the running maximum m, the running sum ℓ and the partial output O
// after every key block, the tiles, the weights and the output; the output against softmax
// attention computed whole in double in this test, for random sizes (n not a multiple of the
// blocks, more queries than keys and fewer) and masks; its memory against full attention's in
// the cost measurement; and the block sizes' validation.

#include "attention/flash.h"
#include "attention/kind.h"
#include "attention/measure.h"
#include "core/model_spec.h"
#include "core/random.h"
#include "io/config_json.h"
#include "model/run.h"
#include "support/goldens.h"
#include "support/reference.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;
using namespace attnlab::testing;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kDir = ATTNLAB_TEST_DATA "/flash";

struct KernelRun {
    StageList stages;
    Eigen::MatrixXf concat;
    Eigen::MatrixXf reference;
    std::vector<Message> warnings;
};

KernelRun runKernel(const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k, const std::vector<Eigen::MatrixXf>& v,
                    const BoolMatrix& blocked, bool scale, const AttentionOptions& options)
{
    const auto m = q[0].rows(), n = k[0].rows();
    const auto dK = q[0].cols();
    const KernelInput in{q, k, v, blocked, scale, labels(m, "t"), labels(n, "t"), labels(dK, "d"), std::nullopt,
                         Block::None, AttentionKind::Flash, options, 42};
    KernelRun run;
    run.concat.resize(m, static_cast<Eigen::Index>(q.size()) * dK);
    KernelOutput out{run.concat, {}, run.warnings};
    attentionKind(AttentionKind::Flash).kernel(in, run.stages, out);
    run.reference = std::move(out.reference);
    return run;
}

/// Softmax attention computed whole, in double: Z = softmax(c·Q·Kᵀ + M)·V (a row with every key
/// hidden gives 0).
Eigen::MatrixXd softmaxAttention(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, double c,
                                 const BoolMatrix& blocked)
{
    Eigen::MatrixXd z = Eigen::MatrixXd::Zero(q.rows(), v.cols());
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
        double max = -std::numeric_limits<double>::infinity();
        Eigen::VectorXd s(k.rows());
        for (Eigen::Index j = 0; j < k.rows(); ++j) {
            s(j) = c * q.row(i).cast<double>().dot(k.row(j).cast<double>());
            if (!blocked(i, j))
                max = std::max(max, s(j));
        }
        double sum = 0;
        for (Eigen::Index j = 0; j < k.rows(); ++j) {
            if (blocked(i, j))
                continue;
            const double e = std::exp(s(j) - max);
            sum += e;
            z.row(i) += e * v.row(j).cast<double>();
        }
        if (sum > 0)
            z.row(i) /= sum;
    }
    return z;
}

Eigen::MatrixXf randomMatrix(Eigen::Index rows, Eigen::Index cols, SplitMix64& gen, float scale)
{
    return Eigen::MatrixXf::NullaryExpr(rows, cols, [&]() { return gen.symmetric(scale); });
}

} // namespace

class TestFlash : public QObject {
    Q_OBJECT
private slots:
    void goldens_data()
    {
        QTest::addColumn<std::string>("name");
        for (const auto& name : readJson(kDir + "/cases.json").get<std::vector<std::string>>())
            QTest::newRow(name.c_str()) << name;
    }

    // Every stage of the kernel against Algorithm 1 in NumPy: m (null = −∞), ℓ and O after
    // every key block, the tiles exactly, the weights, the head outputs and the output.
    void goldens()
    {
        QFETCH(std::string, name);
        const nlohmann::json c = readJson(kDir + "/" + name + ".json");
        AttentionOptions o;
        o.queryBlock = c.at("params").at("query_block").get<int>();
        o.keyBlock = c.at("params").at("key_block").get<int>();
        const BoolMatrix blocked = matrix(c.at("blocked")).array() != 0;
        const KernelRun run = runKernel(perHead(c.at("q")), perHead(c.at("k")), perHead(c.at("v")), blocked, c.at("scale").get<bool>(), o);
        const int heads = c.at("heads").get<int>();
        const auto& stages = c.at("stages");
        for (const auto& [id, value] : stages.items()) {
            if (id == "concat") {
                expectClose(run.concat, matrix(value), "concat");
            } else if (id == "output") {
                expectClose(run.concat * matrix(c.at("w_o")).transpose(), matrix(value), "output");
            } else if (id == "tiles") {
                const Stage* s = findStage(run.stages, id, std::nullopt);
                QVERIFY(s);
                const Eigen::MatrixXf want = matrix(value);
                QVERIFY2(s->main().values == want, qPrintable(QStringLiteral("tiles differ by up to %1")
                                                                   .arg((s->main().values - want).cwiseAbs().maxCoeff())));
            } else {
                for (int h = 0; h < heads; ++h) {
                    const Stage* s = findStage(run.stages, id, h);
                    QVERIFY2(s, qPrintable(QString::fromStdString(id + " is missing")));
                    const Eigen::MatrixXf want = matrix(value.at(static_cast<std::size_t>(h)));
                    const QString what = QString::fromStdString(id) + QStringLiteral(" head %1").arg(h);
                    expectClose(s->main().values, want, what);
                    if (QTest::currentTestFailed())
                        return;
                    // null in the golden: m is −∞ (the row has seen no visible key yet).
                    for (Eigen::Index i = 0; i < want.size(); ++i) {
                        if (std::isnan(want.data()[i]))
                            QVERIFY2(s->main().values.data()[i] == -std::numeric_limits<float>::infinity(), qPrintable(what));
                    }
                }
            }
        }
        // Every stage the kind lists has a golden, or is the comparison with full attention.
        for (const auto& id : attentionKind(AttentionKind::Flash).stageIds)
            QVERIFY2(stages.contains(id) || id == "reference_weights" || id == "error", qPrintable(QString::fromStdString(id)));
        // Exact: the distance from full attention is float rounding.
        for (int h = 0; h < heads; ++h) {
            const Stage* e = findStage(run.stages, "error", h);
            QVERIFY(e);
            QVERIFY2(e->main().values.maxCoeff() < 1e-5f, qPrintable(QStringLiteral("error %1").arg(e->main().values.maxCoeff())));
        }
        QVERIFY((run.concat - run.reference).cwiseAbs().maxCoeff() < 1e-5f);
    }

    // The output equals softmax attention computed whole, for sizes that are and are not
    // multiples of the blocks, more queries than keys and fewer (cross-attention), every mask.
    void equalsFullAttention_data()
    {
        QTest::addColumn<int>("queries");
        QTest::addColumn<int>("keys");
        QTest::addColumn<int>("queryBlock");
        QTest::addColumn<int>("keyBlock");
        QTest::addColumn<QString>("mask");
        QTest::newRow("n 1, blocks 4 x 4") << 1 << 1 << 4 << 4 << "none";
        QTest::newRow("n 7, blocks 4 x 4") << 7 << 7 << 4 << 4 << "none";
        QTest::newRow("n 8, blocks 4 x 4, causal") << 8 << 8 << 4 << 4 << "causal";
        QTest::newRow("n 13, blocks 3 x 5, causal") << 13 << 13 << 3 << 5 << "causal";
        QTest::newRow("n 13, blocks 1 x 1, padding") << 13 << 13 << 1 << 1 << "padding";
        QTest::newRow("n 29, blocks 8 x 2, causal+padding") << 29 << 29 << 8 << 2 << "causal+padding";
        QTest::newRow("n 33, blocks 64 x 64 (one tile)") << 33 << 33 << 64 << 64 << "none";
        QTest::newRow("n 50, blocks 7 x 16, random mask") << 50 << 50 << 7 << 16 << "random";
        QTest::newRow("n 100, blocks 16 x 16, causal") << 100 << 100 << 16 << 16 << "causal";
        QTest::newRow("5 queries, 11 keys, blocks 2 x 4") << 5 << 11 << 2 << 4 << "padding";
        QTest::newRow("11 queries, 5 keys, blocks 4 x 2") << 11 << 5 << 4 << 2 << "none";
        QTest::newRow("n 10, all keys of row 3 hidden") << 10 << 10 << 4 << 4 << "row3";
    }

    void equalsFullAttention()
    {
        QFETCH(int, queries);
        QFETCH(int, keys);
        QFETCH(int, queryBlock);
        QFETCH(int, keyBlock);
        QFETCH(QString, mask);
        SplitMix64 gen(static_cast<std::uint64_t>(queries * 1000 + keys * 10 + queryBlock));
        const int dK = 8, heads = 2;
        std::vector<Eigen::MatrixXf> q, k, v;
        for (int h = 0; h < heads; ++h) {
            // Scores up to about ±30: the maximum moves from block to block and exp would
            // overflow without it.
            q.push_back(randomMatrix(queries, dK, gen, 4.0f));
            k.push_back(randomMatrix(keys, dK, gen, 4.0f));
            v.push_back(randomMatrix(keys, dK, gen, 1.0f));
        }
        BoolMatrix blocked = BoolMatrix::Constant(queries, keys, false);
        for (Eigen::Index i = 0; i < queries; ++i) {
            for (Eigen::Index j = 0; j < keys; ++j) {
                if (mask.contains(QStringLiteral("causal")) && j > i)
                    blocked(i, j) = true;
                if (mask.contains(QStringLiteral("padding")) && j >= keys - 2 && keys > 2)
                    blocked(i, j) = true;
                if (mask == u"random" && gen.uniform53() < 0.4)
                    blocked(i, j) = true;
                if (mask == u"row3" && i == 3)
                    blocked(i, j) = true;
            }
        }
        AttentionOptions o;
        o.queryBlock = queryBlock;
        o.keyBlock = keyBlock;
        const KernelRun run = runKernel(q, k, v, blocked, true, o);
        double largest = 0;
        Eigen::Index where = -1;
        for (int h = 0; h < heads; ++h) {
            const Eigen::MatrixXd want = softmaxAttention(q[h], k[h], v[h], 1.0 / std::sqrt(double(dK)), blocked);
            const Eigen::MatrixXd diff = (run.concat.middleCols(h * dK, dK).cast<double>() - want).cwiseAbs();
            Eigen::Index r = 0, col = 0;
            if (diff.maxCoeff(&r, &col) > largest) {
                largest = diff(r, col);
                where = r;
            }
            // The output-only path (what `cost` times) gives the same numbers.
            const FlashHead f = flashHead(q[h], k[h], v[h], 1.0f / std::sqrt(float(dK)), &blocked, queryBlock, keyBlock, false);
            QVERIFY((f.z - run.concat.middleCols(h * dK, dK)).cwiseAbs().maxCoeff() == 0.0f);
            // The weights made again from m and ℓ are a softmax: rows sum to 1 (0 when every key is hidden).
            const Stage* w = findStage(run.stages, "weights", h);
            QVERIFY(w);
            for (Eigen::Index i = 0; i < queries; ++i) {
                const float sum = w->main().values.row(i).sum();
                QVERIFY2(std::abs(sum - (blocked.row(i).all() ? 0.0f : 1.0f)) < 1e-5f, qPrintable(QStringLiteral("row %1 sums to %2").arg(i).arg(sum)));
            }
        }
        QVERIFY2(largest < 1e-5, qPrintable(QStringLiteral("largest difference %1 in row %2").arg(largest).arg(where)));
        QCOMPARE(run.warnings.size(), std::size_t(mask == u"row3" ? 1 : 0));
    }

    // The cost measurement: no n × n matrix. At n = 2048 full attention holds the 16 MB of
    // scores; FlashAttention holds its output, m and ℓ, one tile and K, V in the tiles' layout
    // (about 2 MB at d_k = 64) — O(n).
    void memoryIsLinear()
    {
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("the process's peak memory is AddressSanitizer's (its shadow and quarantine), not the measurement's");
#endif
        CostRequest r;
        r.lengths = {2048};
        r.dModel = 64;
        r.heads = 1;
        r.repeats = 1;
        r.kind = AttentionKind::Full;
        const CostResult full = measureCost(r);
        r.kind = AttentionKind::Flash;
        const CostResult flash = measureCost(r);
        if (!flash.memoryMeasured)
            QSKIP("this system cannot measure a process's peak memory");
        const auto f = static_cast<double>(flash.points.at(0).peakBytes), a = static_cast<double>(full.points.at(0).peakBytes);
        const QString figures = QStringLiteral("flash %1 MB, full %2 MB").arg(f / 1e6).arg(a / 1e6);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(a > 16e6 && f < a / 4, qPrintable(figures));
        QCOMPARE(flash.points.at(0).flops, full.points.at(0).flops); // the same products, a tile at a time
        // Estimated before it runs: O(n) for flash, so n = 2^20 fits (one head's Q, K, V and
        // output, 1 GB) where full attention's 4 TB of scores do not.
        r.lengths = {1 << 20};
        QVERIFY(costProblems(r).empty());
        QVERIFY(estimateMeasure(r, 1 << 20).bytes < std::int64_t{2} << 30); // one head's Q, K, V and output: 1 GB
        r.kind = AttentionKind::Full;
        QVERIFY(!costProblems(r).empty());
    }

    // Block sizes are checked with the rule in the message; the JSON of a run keeps them.
    void blockSizes_data()
    {
        QTest::addColumn<int>("queryBlock");
        QTest::addColumn<int>("keyBlock");
        QTest::addColumn<QString>("problem");
        QTest::newRow("defaults") << 4 << 4 << "";
        QTest::newRow("one by one") << 1 << 1 << "";
        QTest::newRow("largest") << 4096 << 4096 << "";
        QTest::newRow("query block 0") << 0 << 4 << "query_block (0) must be between 1 and 4096: the queries are taken B_r at a time (a tile's rows)";
        QTest::newRow("key block -3") << 4 << -3 << "key_block (-3) must be between 1 and 4096: the keys are taken B_c at a time (a tile's columns)";
        QTest::newRow("query block 4097") << 4097 << 4 << "query_block (4097) must be between 1 and 4096: the queries are taken B_r at a time (a tile's rows)";
    }

    void blockSizes()
    {
        QFETCH(int, queryBlock);
        QFETCH(int, keyBlock);
        QFETCH(QString, problem);
        ModelSpec spec;
        spec.attention = AttentionKind::Flash;
        spec.attentionOptions.queryBlock = queryBlock;
        spec.attentionOptions.keyBlock = keyBlock;
        const auto problems = spec.problems();
        if (problem.isEmpty()) {
            QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
        } else {
            QCOMPARE(problems.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(problems.front()), problem);
        }
        // Another kind does not read them.
        spec.attention = AttentionKind::Full;
        QVERIFY(spec.problems().empty());
    }

    // The blocks go through the session's and trace's JSON (only with the kind), and a seeded
    // encoder stack runs the kind in every layer with full attention's output.
    void jsonAndAnEncoderStack()
    {
        Config c;
        c.attention = AttentionKind::Flash;
        c.attentionOptions.queryBlock = 3;
        c.attentionOptions.keyBlock = 5;
        const auto j = configToJson(c);
        QCOMPARE(j.at("attention").get<std::string>(), std::string("flash"));
        QCOMPARE(j.at("query_block").get<int>(), 3);
        QCOMPARE(j.at("key_block").get<int>(), 5);
        QVERIFY(!j.contains("buckets"));
        QVERIFY(configFromJson(nlohmann::json::parse(j.dump())) == c);
        c.attention = AttentionKind::Full;
        QVERIFY(!configToJson(c).contains("query_block"));

        RunRequest r;
        r.text = "one two three four five six seven";
        r.config.model = ModelKind::Seeded;
        r.config.architecture = Architecture::EncoderStack;
        r.config.setLayers(2);
        r.config.attention = AttentionKind::Flash;
        r.config.attentionOptions.queryBlock = 2;
        r.config.attentionOptions.keyBlock = 3;
        r.model = std::make_shared<const Seq2SeqModel>(seededModel(r.config));
        const auto trace = run(r).trace;
        for (int layer = 0; layer < 2; ++layer) {
            const Stage* m = trace->find("running_max", 0, layer, Block::EncoderSelf);
            QVERIFY(m);
            QCOMPARE(m->main().values.cols(), Eigen::Index(3)); // keys 1–3, 4–6, 7
            QCOMPARE(QString::fromStdString(m->main().colLabels->back()), QStringLiteral("k7"));
            const Stage* out = trace->find("output", std::nullopt, layer, Block::EncoderSelf);
            const Stage* ref = trace->find("reference_output", std::nullopt, layer, Block::EncoderSelf);
            QVERIFY(out && ref);
            QVERIFY((out->main().values - ref->main().values).cwiseAbs().maxCoeff() < 1e-5f);
        }
    }

    void defaultsForAClassroomSentence()
    {
        const AttentionOptions o;
        QCOMPARE(o.queryBlock, 4);
        QCOMPARE(o.keyBlock, 4);
        QCOMPARE(parseAttentionKind("flash"), std::optional<AttentionKind>(AttentionKind::Flash));
        QCOMPARE(toString(AttentionKind::Flash), std::string_view("flash"));
    }
};

QTEST_APPLESS_MAIN(TestFlash)
#include "tst_flash.moc"
