// Performer (FAVOR+) where its features leave float's range (issue 27 §4): with large queries and
// keys — imported weights scaled ×10, scaled scores up to hundreds — every exponent ω·x̂ − ‖x̂‖²/2
// of a row can lie far below −87, and float's exp gave rows of implied weights that summed to 0
// and head outputs of 0. The kernel must give the estimate itself: checked against a computation
// written here in long double and log space, term by term from the definition
//   A_ij ∝ Σ_r exp(ω_r·q̂_i − ‖q̂_i‖²/2 + ω_r·k̂_j − ‖k̂_j‖²/2),  Z = A·V,
// which never calls the engine's Performer.

#include "attention/kind.h"
#include "core/random.h"
#include "core/trace.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;

namespace {

using Real = long double;

Eigen::MatrixXf gaussian(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, float scale)
{
    NormalStream normal{SplitMix64(seed)};
    return Eigen::MatrixXf::NullaryExpr(rows, cols, [&]() { return static_cast<float>(normal.next()) * scale; });
}

Labels labels(Eigen::Index n, const char* prefix)
{
    auto v = std::make_shared<std::vector<std::string>>();
    for (Eigen::Index i = 0; i < n; ++i)
        v->push_back(prefix + std::to_string(i));
    return v;
}

/// The estimate by its definition, in long double: for each allowed (i, j) the log of
/// Σ_r exp(eq_ir + ek_jr) (largest term first taken out), then each row's softmax of those logs.
struct Reference {
    Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> weights;
    Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> z;
};

Reference reference(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& omega,
                    const BoolMatrix& blocked)
{
    const Eigen::Index m = q.rows(), n = k.rows(), features = omega.rows(), dK = q.cols();
    const Real scale = 1 / std::pow(static_cast<Real>(dK), Real(0.25));
    const auto exponents = [&](const Eigen::MatrixXf& x) {
        Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic> e(x.rows(), features);
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            Real norm2 = 0;
            for (Eigen::Index c = 0; c < dK; ++c)
                norm2 += (x(i, c) * scale) * (x(i, c) * scale);
            for (Eigen::Index r = 0; r < features; ++r) {
                Real dot = 0;
                for (Eigen::Index c = 0; c < dK; ++c)
                    dot += static_cast<Real>(omega(r, c)) * x(i, c) * scale;
                e(i, r) = dot - norm2 / 2;
            }
        }
        return e;
    };
    const auto eq = exponents(q), ek = exponents(k);
    Reference out;
    out.weights.setZero(m, n);
    out.z.setZero(m, v.cols());
    for (Eigen::Index i = 0; i < m; ++i) {
        std::vector<Real> logs(static_cast<std::size_t>(n), -std::numeric_limits<Real>::infinity());
        Real top = -std::numeric_limits<Real>::infinity();
        for (Eigen::Index j = 0; j < n; ++j) {
            if (blocked(i, j))
                continue;
            Real largest = -std::numeric_limits<Real>::infinity();
            for (Eigen::Index r = 0; r < features; ++r)
                largest = std::max(largest, eq(i, r) + ek(j, r));
            Real sum = 0;
            for (Eigen::Index r = 0; r < features; ++r)
                sum += std::exp(eq(i, r) + ek(j, r) - largest);
            logs[static_cast<std::size_t>(j)] = largest + std::log(sum);
            top = std::max(top, logs[static_cast<std::size_t>(j)]);
        }
        if (!std::isfinite(top))
            continue; // no key: a row of 0
        Real total = 0;
        for (Eigen::Index j = 0; j < n; ++j)
            total += std::exp(logs[static_cast<std::size_t>(j)] - top);
        for (Eigen::Index j = 0; j < n; ++j) {
            out.weights(i, j) = std::exp(logs[static_cast<std::size_t>(j)] - top) / total;
            for (Eigen::Index c = 0; c < v.cols(); ++c)
                out.z(i, c) += out.weights(i, j) * v(j, c);
        }
    }
    return out;
}

struct Run {
    StageList stages;
    Eigen::MatrixXf concat;
    std::vector<Message> warnings;
};

/// Performer's kernel on one head (Ω given), as an attention block runs it.
Run runPerformer(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, const Eigen::MatrixXf& omega,
                 const BoolMatrix& blocked)
{
    const std::vector<Eigen::MatrixXf> qs{q}, ks{k}, vs{v};
    GivenRandom given;
    given.randomFeatures = omega;
    AttentionOptions options;
    options.features = static_cast<int>(omega.rows());
    const KernelInput in{qs, ks, vs, blocked, true, labels(q.rows(), "q"), labels(k.rows(), "k"), labels(q.cols(), "d"), std::nullopt,
                         Block::None, AttentionKind::Performer, options, 42, &given};
    Run run;
    run.concat.resize(q.rows(), q.cols());
    KernelOutput out{run.concat, {}, run.warnings};
    attentionKind(AttentionKind::Performer).kernel(in, run.stages, out);
    return run;
}

const Eigen::MatrixXf& stage(const Run& run, const char* id)
{
    const Stage* s = findStage(run.stages, id, 0, std::nullopt, Block::None);
    if (!s)
        qFatal("no stage %s", id);
    return s->main().values;
}

/// The mask of a case: "none", "causal", "padding" (the last two keys), "causal+padding".
BoolMatrix maskOf(const QString& mask, Eigen::Index n)
{
    BoolMatrix b = BoolMatrix::Constant(n, n, false);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j < n; ++j)
            b(i, j) = (mask.contains(QStringLiteral("causal")) && j > i) || (mask.contains(QStringLiteral("padding")) && j >= n - 2);
    }
    return b;
}

} // namespace

class TestPerformerStable : public QObject {
    Q_OBJECT
private slots:
    void largeQueriesAndKeys_data()
    {
        QTest::addColumn<float>("scale");      // of the Gaussian queries and keys
        QTest::addColumn<QString>("mask");
        QTest::addColumn<bool>("spreadKeys"); // keys of very different sizes (×1 … ×6)
        QTest::addColumn<bool>("lateGiant");  // the last key far larger than the others (causal: early rows)
        // Scale 10 with d_k = 8: ‖x̂‖²/2 ≈ 140, scaled scores up to about 250 (the issue's ×10 weights).
        for (const char* mask : {"none", "causal", "padding", "causal+padding"}) {
            QTest::addRow("×10 %s", mask) << 10.0f << mask << false << false;
            QTest::addRow("×10 spread keys %s", mask) << 10.0f << mask << true << false;
            QTest::addRow("×10 late giant key %s", mask) << 10.0f << mask << false << true;
            QTest::addRow("×30 %s", mask) << 30.0f << mask << false << false;
        }
        QTest::addRow("×1 none (the float path)") << 1.0f << "none" << false << false;
    }

    void largeQueriesAndKeys()
    {
        QFETCH(float, scale);
        QFETCH(QString, mask);
        QFETCH(bool, spreadKeys);
        QFETCH(bool, lateGiant);
        const Eigen::Index n = 12;
        const int dK = 8, features = 16;
        const Eigen::MatrixXf q = gaussian(n, dK, 1, scale);
        Eigen::MatrixXf k = gaussian(n, dK, 2, scale);
        const Eigen::MatrixXf v = gaussian(n, dK, 3, 1.0f);
        const Eigen::MatrixXf omega = gaussian(features, dK, 4, 1.0f);
        if (spreadKeys) {
            for (Eigen::Index j = 0; j < n; ++j)
                k.row(j) *= 1.0f + 5.0f * static_cast<float>(j % 4) / 3.0f;
        }
        if (lateGiant)
            k.row(n - 3) *= 8.0f;
        const BoolMatrix blocked = maskOf(mask, n);
        const Reference want = reference(q, k, v, omega, blocked);
        const Run run = runPerformer(q, k, v, omega, blocked);
        const Eigen::MatrixXf& weights = stage(run, "weights");
        const Eigen::MatrixXf& z = stage(run, "head_output");
        QVERIFY(weights.allFinite() && z.allFinite());
        QVERIFY(run.warnings.empty());
        double worstWeight = 0, worstZ = 0, worstSum = 0;
        Eigen::Index at = -1;
        for (Eigen::Index i = 0; i < n; ++i) {
            worstSum = std::max(worstSum, std::abs(static_cast<double>(weights.row(i).sum()) - 1.0)); // every row has a key
            for (Eigen::Index j = 0; j < n; ++j) {
                const double d = std::abs(static_cast<double>(weights(i, j) - want.weights(i, j)));
                if (d > worstWeight) {
                    worstWeight = d;
                    at = i * n + j;
                }
                if (blocked(i, j))
                    QCOMPARE(weights(i, j), 0.0f);
            }
            for (Eigen::Index c = 0; c < dK; ++c)
                worstZ = std::max(worstZ, std::abs(static_cast<double>(z(i, c) - want.z(i, c))));
        }
        const double largestV = v.cwiseAbs().maxCoeff();
        const QByteArray where = QByteArray("largest differences: weights ") + QByteArray::number(worstWeight) + " at (" + QByteArray::number(at / n)
                                 + ", " + QByteArray::number(at % n) + "), head output " + QByteArray::number(worstZ) + ", row sum "
                                 + QByteArray::number(worstSum);
        QVERIFY2(worstSum < 1e-5, where.constData());
        QVERIFY2(worstWeight < 1e-5, where.constData());
        QVERIFY2(worstZ < 1e-5 * largestV * n, where.constData());
        // The error against full attention is the kernel's own: it is at most 2 and finite.
        QVERIFY(stage(run, "error").allFinite() && stage(run, "error").maxCoeff() <= 2.0f + 1e-5f);
    }

    // Queries a million times too large: the exponents (≈ 1e12) are beyond what a double holds to
    // 1e-6, so no computation gives the estimate exactly; the trace says so, and its weights are
    // still probabilities.
    void beyondDoublePrecisionIsAWarning()
    {
        const Eigen::Index n = 6;
        const int dK = 8;
        const Eigen::MatrixXf q = gaussian(n, dK, 5, 1e6f), k = gaussian(n, dK, 6, 1e6f), v = gaussian(n, dK, 7, 1.0f);
        const Eigen::MatrixXf omega = gaussian(16, dK, 8, 1.0f);
        const Run run = runPerformer(q, k, v, omega, maskOf(QStringLiteral("none"), n));
        QCOMPARE(run.warnings.size(), std::size_t(1));
        QCOMPARE(run.warnings.front().code, std::string("performer_precision"));
        QVERIFY2(QString::fromStdString(run.warnings.front().text).contains(QStringLiteral("approximate")), run.warnings.front().text.c_str());
        const Eigen::MatrixXf& weights = stage(run, "weights");
        QVERIFY(weights.allFinite() && stage(run, "head_output").allFinite());
        for (Eigen::Index i = 0; i < n; ++i)
            QVERIFY(std::abs(weights.row(i).sum() - 1.0f) < 1e-5f);
    }
};

QTEST_APPLESS_MAIN(TestPerformerStable)
#include "tst_performer_stable.moc"
