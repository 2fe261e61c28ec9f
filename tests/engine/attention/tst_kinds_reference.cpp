// Every attention kind against an independent NumPy/PyTorch implementation of its definition
// (scripts/make_attention_kind_goldens.py, goldens in tests/reference/attention_kinds/): the
// kernel runs on the golden's Q, K, V, mask and random matrices, and every stage the golden has
// must match — patterns exactly, numbers within 1e-4 of each matrix's largest value.

#include "attention/approximation.h"
#include "attention/kind.h"
#include "support/goldens.h"
#include "support/reference.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;
using attnlab::testing::readJson;
using namespace attnlab::testing;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kDir = ATTNLAB_TEST_DATA "/attention_kinds";

AttentionOptions optionsOf(const nlohmann::json& p)
{
    AttentionOptions o;
    o.window = p.at("window").get<int>();
    o.dilation = std::max(1, p.at("dilation").get<int>());
    o.global = p.at("global").get<std::vector<int>>();
    o.random = p.at("random").get<int>();
    o.stride = p.at("stride").get<int>();
    o.projDim = p.at("proj_dim").get<int>();
    o.features = p.at("features").get<int>();
    o.buckets = p.at("buckets").get<int>();
    o.chunk = p.at("chunk").get<int>();
    return o;
}

GivenRandom randomOf(const nlohmann::json& r)
{
    GivenRandom g;
    if (r.contains("random_features"))
        g.randomFeatures = matrix(r.at("random_features"));
    if (r.contains("projection_e")) {
        g.projectionE = matrix(r.at("projection_e"));
        g.projectionF = matrix(r.at("projection_f"));
    }
    if (r.contains("random_rotations"))
        g.randomRotations = perHead(r.at("random_rotations"));
    if (r.contains("random_keys"))
        g.randomKeys = r.at("random_keys").get<std::vector<std::vector<int>>>();
    return g;
}

/// The pattern: a cell is allowed exactly where the additive mask is finite (0).
void expectPattern(const Eigen::MatrixXf& mask, const Eigen::MatrixXf& allowed, const QString& what)
{
    QCOMPARE(mask.rows(), allowed.rows());
    QCOMPARE(mask.cols(), allowed.cols());
    for (Eigen::Index i = 0; i < mask.rows(); ++i) {
        for (Eigen::Index j = 0; j < mask.cols(); ++j)
            QVERIFY2(std::isfinite(mask(i, j)) == (allowed(i, j) != 0), qPrintable(what + QStringLiteral(" (%1, %2)").arg(i).arg(j)));
    }
}

struct KernelRun {
    StageList stages;
    Eigen::MatrixXf concat;
    Eigen::MatrixXf reference;
    std::vector<Message> warnings;
};

KernelRun runCase(const nlohmann::json& c, const GivenRandom& given, const AttentionOptions& options, AttentionKind kind)
{
    const auto n = c.at("n").get<Eigen::Index>();
    const int heads = c.at("heads").get<int>();
    const int dK = c.at("d_k").get<int>();
    const auto q = perHead(c.at("q"));
    // Reformer's keys are the normalised queries: the block makes them (nn/attention.cpp) and the
    // golden records them as its "k" stage.
    const auto k = kind == AttentionKind::Lsh ? perHead(c.at("stages").at("k")) : perHead(c.at("k"));
    const auto v = perHead(c.at("v"));
    const Eigen::MatrixXf blockedValues = matrix(c.at("blocked"));
    const BoolMatrix blocked = blockedValues.array() != 0;
    const KernelInput in{q, k, v, blocked, c.at("scale").get<bool>(), labels(n, "t"), labels(n, "t"), labels(dK, "d"), std::nullopt,
                         Block::None, kind, options, 42, &given};
    KernelRun run;
    run.concat.resize(n, static_cast<Eigen::Index>(heads) * dK);
    KernelOutput out{run.concat, {}, run.warnings};
    attentionKind(kind).kernel(in, run.stages, out);
    run.reference = std::move(out.reference);
    return run;
}

} // namespace

class TestKindsReference : public QObject {
    Q_OBJECT
private slots:
    void everyStage_data()
    {
        QTest::addColumn<std::string>("name");
        for (const auto& name : readJson(kDir + "/cases.json").get<std::vector<std::string>>())
            QTest::newRow(name.c_str()) << name;
    }

    void everyStage()
    {
        QFETCH(std::string, name);
        const nlohmann::json c = readJson(kDir + "/" + name + ".json");
        const AttentionKind kind = parseAttentionKind(c.at("kind").get<std::string>()).value();
        const GivenRandom given = randomOf(c.at("random"));
        const KernelRun run = runCase(c, given, optionsOf(c.at("params")), kind);
        const int heads = c.at("heads").get<int>();
        const auto& stages = c.at("stages");
        int compared = 0;
        for (const auto& [id, value] : stages.items()) {
            if (id == "concat") {
                expectClose(run.concat, matrix(value), "concat");
            } else if (id == "output") {
                expectClose(run.concat * matrix(c.at("w_o")).transpose(), matrix(value), "output");
            } else if (id == "approximation") {
                const Eigen::MatrixXf wo = matrix(c.at("w_o"));
                const Approximation a = compareOutputs(run.concat * wo.transpose(), run.reference * wo.transpose());
                QVERIFY(std::abs(a.outputMaxAbs - value.at("output_max_abs").get<double>()) <= 1e-4 * std::max(1.0, a.outputMaxAbs));
                QVERIFY(std::abs(a.outputRelFro - value.at("output_rel_fro").get<double>()) <= 1e-4 * std::max(1.0, a.outputRelFro));
            } else if (id == "k" || id == "implied_weights") {
                continue; // the block's input (above), and linformer's A·F, which its error stage checks
            } else {
                const bool perHeadStage = isPerHeadStage(id) || (id == "mask" && kind == AttentionKind::Lsh) || id == "allowed";
                const bool headed = perHeadStage && (id != "allowed" || kind == AttentionKind::Lsh);
                for (int h = 0; h < (headed ? heads : 1); ++h) {
                    const std::optional<int> head = headed ? std::optional<int>(h) : std::nullopt;
                    const std::string ours = id == "allowed" ? "mask" : id;
                    const Stage* s = findStage(run.stages, ours, head);
                    QVERIFY2(s, qPrintable(QString::fromStdString(ours + " is missing")));
                    const auto& want = headed ? value.at(static_cast<std::size_t>(h)) : value;
                    const QString what = QString::fromStdString(id) + QStringLiteral(" head %1").arg(h);
                    if (id == "allowed")
                        expectPattern(s->main().values, matrix(want), what);
                    else if (id == "mask")
                        expectPattern(s->main().values, matrix(want).unaryExpr([](float x) { return std::isnan(x) ? 0.0f : 1.0f; }), what);
                    else
                        expectClose(s->main().values, matrix(want), what);
                    if (QTest::currentTestFailed())
                        return;
                }
            }
            ++compared;
        }
        // Every stage the kind lists is in the golden, so nothing went unchecked.
        for (const auto& id : attentionKind(kind).stageIds) {
            const bool isRandom = id == "random_features" || id == "projection_e" || id == "projection_f" || id == "random_rotations";
            QVERIFY2(isRandom || stages.contains(id), qPrintable(QString::fromStdString(id + " has no golden")));
        }
        QVERIFY(compared >= 6);
    }

    // Performer's estimate converges to softmax attention as M grows: with the golden's Ω for
    // each M the mean error is the golden's, and with our own seeded Ω it falls from M = 16 to 1024.
    void performerConverges()
    {
        const nlohmann::json c = readJson(kDir + "/performer_convergence.json");
        const auto features = c.at("features").get<std::vector<int>>();
        const auto wantError = c.at("mean_error").get<std::vector<double>>();
        std::vector<double> ours;
        for (std::size_t m = 0; m < features.size(); ++m) {
            GivenRandom given;
            given.randomFeatures = matrix(c.at("random_features").at(m));
            AttentionOptions o;
            o.features = features[m];
            const auto meanError = [&](const GivenRandom& g) {
                nlohmann::json shaped = c;
                const auto n = c.at("n").get<int>();
                shaped["blocked"] = std::vector<std::vector<int>>(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n), 0));
                const KernelRun run = runCase(shaped, g, o, AttentionKind::Performer);
                double sum = 0;
                int count = 0;
                for (const Stage& s : run.stages) {
                    if (s.id == "error") {
                        sum += s.main().values.sum();
                        count += static_cast<int>(s.main().values.size());
                    }
                }
                return sum / count;
            };
            const double e = meanError(given);
            QVERIFY2(std::abs(e - wantError[m]) <= 1e-4 * std::max(1.0, wantError[m]),
                     qPrintable(QStringLiteral("M = %1: %2, want %3").arg(features[m]).arg(e).arg(wantError[m])));
            ours.push_back(meanError(GivenRandom{}));
        }
        QVERIFY2(ours.back() < ours.front() / 2, qPrintable(QStringLiteral("seeded Ω: %1 at M = 16, %2 at M = 1024").arg(ours.front()).arg(ours.back())));
    }
};

QTEST_APPLESS_MAIN(TestKindsReference)
#include "tst_kinds_reference.moc"
