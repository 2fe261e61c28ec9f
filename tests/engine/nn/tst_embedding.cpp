// Token embeddings and positional encodings (docs/engine.md, sections 3 and 4): hand values,
// invariants (PE(pos+k) is a rotation of PE(pos)) and the Python reference of gen_reference.py.
#include "nn/embedding.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

using attnlab::PositionalEncoding;
using attnlab::positionalEncoding;
using attnlab::tokenEmbeddings;

namespace {

nlohmann::json loadJson(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    return nlohmann::json::parse(in);
}

/// The main matrix of stage `id` in a reference case of tests/reference/mha.
Eigen::MatrixXf referenceStage(const nlohmann::json& c, const std::string& id)
{
    for (const auto& stage : c.at("stages")) {
        if (stage.at("id") != id)
            continue;
        const auto& rows = stage.at("data");
        Eigen::MatrixXf m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.at(0).size()));
        for (Eigen::Index r = 0; r < m.rows(); ++r) {
            for (Eigen::Index col = 0; col < m.cols(); ++col)
                m(r, col) = rows.at(std::size_t(r)).at(std::size_t(col)).get<float>();
        }
        return m;
    }
    throw std::runtime_error("no stage " + id);
}

/// Empty when |got - expected| <= tol everywhere and the shapes agree; otherwise the largest
/// difference and where it is.
QByteArray compareMatrices(const Eigen::MatrixXf& got, const Eigen::MatrixXf& expected, float tol)
{
    if (got.rows() != expected.rows() || got.cols() != expected.cols())
        return QStringLiteral("shape %1 x %2, expected %3 x %4")
            .arg(got.rows()).arg(got.cols()).arg(expected.rows()).arg(expected.cols()).toUtf8();
    float worst = 0.0f;
    Eigen::Index wr = 0;
    Eigen::Index wc = 0;
    for (Eigen::Index r = 0; r < got.rows(); ++r) {
        for (Eigen::Index c = 0; c < got.cols(); ++c) {
            const float d = std::abs(got(r, c) - expected(r, c));
            if (!(d <= worst)) { // also catches NaN
                worst = d;
                wr = r;
                wc = c;
            }
        }
    }
    if (worst <= tol)
        return {};
    return QStringLiteral("max |diff| %1 at (%2, %3): got %4, expected %5 (tolerance %6)")
        .arg(double(worst)).arg(wr).arg(wc).arg(double(got(wr, wc)), 0, 'g', 9).arg(double(expected(wr, wc)), 0, 'g', 9)
        .arg(double(tol)).toUtf8();
}

#define COMPARE_MATRICES(got, expected, tol)                                                                           \
    do {                                                                                                               \
        const QByteArray why_ = compareMatrices((got), (expected), (tol));                                             \
        QVERIFY2(why_.isEmpty(), why_.constData());                                                                    \
    } while (false)

QByteArray valueText(const char* what, double got, double expected)
{
    return QByteArray(what) + ": got " + QByteArray::number(got, 'g', 9) + ", expected " + QByteArray::number(expected, 'g', 9);
}

} // namespace

class TestEmbedding : public QObject {
    Q_OBJECT

private slots:
    // --- token embeddings ---

    void sameTokenSameRow()
    {
        const std::vector<std::string> a{"the", "cat", "sat", "on", "the", "mat"};
        const std::vector<std::string> b{"a", "dog", "chased", "the", "cat"};
        const Eigen::MatrixXf ea = tokenEmbeddings(a, 16, 42);
        const Eigen::MatrixXf eb = tokenEmbeddings(b, 16, 42);
        QCOMPARE(ea.rows(), Eigen::Index(6));
        QCOMPARE(ea.cols(), Eigen::Index(16));
        COMPARE_MATRICES(ea.row(0), ea.row(4), 0.0f); // "the" twice in one sentence
        COMPARE_MATRICES(ea.row(0), eb.row(3), 0.0f); // "the" in two sentences
        COMPARE_MATRICES(ea.row(1), eb.row(4), 0.0f); // "cat"
        // Different tokens get different rows.
        QVERIFY(ea.row(0) != ea.row(1));
        QVERIFY(ea.row(1) != ea.row(2));
    }

    void caseMatters()
    {
        const Eigen::MatrixXf e = tokenEmbeddings({"The", "the"}, 8, 42);
        QVERIFY(e.row(0) != e.row(1));
    }

    void differentSeedsDiffer()
    {
        const std::vector<std::string> tokens{"the", "cat", "狗"};
        const Eigen::MatrixXf e1 = tokenEmbeddings(tokens, 8, 1);
        const Eigen::MatrixXf e2 = tokenEmbeddings(tokens, 8, 2);
        for (Eigen::Index r = 0; r < e1.rows(); ++r)
            QVERIFY2(e1.row(r) != e2.row(r), qPrintable(QStringLiteral("row %1 equal for seeds 1 and 2").arg(r)));
        // ...and the same seed gives the same table.
        COMPARE_MATRICES(tokenEmbeddings(tokens, 8, 1), e1, 0.0f);
    }

    void meanZeroVarianceOneOverD()
    {
        // Components are uniform in [-sqrt(3/d), sqrt(3/d)): mean 0, variance 1/d, so that
        // E * sqrt(d) has unit variance. 2000 tokens x 64 components = 128000 draws with a
        // fixed seed: deterministic, no flakes. Standard errors of d * mean and d * variance
        // are about 0.0028 and 0.0025; the bounds are ten times that.
        const int d = 64;
        std::vector<std::string> tokens;
        for (int i = 0; i < 2000; ++i)
            tokens.push_back("tok" + std::to_string(i));
        const Eigen::MatrixXf e = tokenEmbeddings(tokens, d, 42);
        const double n = double(e.size());
        const double mean = e.cast<double>().sum() / n;
        const double variance = (e.cast<double>().array() - mean).square().sum() / n;
        QVERIFY2(std::abs(mean * std::sqrt(double(d))) < 0.03, valueText("mean * sqrt(d)", mean * std::sqrt(double(d)), 0.0).constData());
        QVERIFY2(std::abs(variance * d - 1.0) < 0.03, valueText("variance * d", variance * d, 1.0).constData());
        // Uniform in [-sqrt(3/d), sqrt(3/d)), reaching both ends.
        const float bound = static_cast<float>(std::sqrt(3.0 / d));
        QVERIFY2(e.minCoeff() >= -bound, valueText("min", e.minCoeff(), -bound).constData());
        QVERIFY2(e.maxCoeff() < bound, valueText("max", e.maxCoeff(), bound).constData());
        QVERIFY2(e.maxCoeff() > 0.99f * bound && e.minCoeff() < -0.99f * bound,
                 qPrintable(QStringLiteral("range [%1, %2], bound %3").arg(double(e.minCoeff())).arg(double(e.maxCoeff())).arg(double(bound))));
    }

    void matchesPythonPrngVectors()
    {
        // prng.json: symmetric_sqrt3[0] = symmetric(first draw of stream("the", 42), sqrt(3)),
        // which is the embedding of "the" for d = 1 (bound sqrt(3 / 1)).
        const auto prng = loadJson(ATTNLAB_TEST_DATA "/prng.json");
        const auto& s = prng.at("stream");
        QCOMPARE(s.at("key").get<std::string>(), std::string("the"));
        Eigen::MatrixXf expected(1, 1);
        expected(0, 0) = s.at("symmetric_sqrt3").at(0).get<float>();
        COMPARE_MATRICES(tokenEmbeddings({"the"}, 1, s.at("seed").get<std::uint64_t>()), expected, 0.0f);
    }

    void matchesPythonReferenceCase_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::newRow("basic_en") << QStringLiteral("basic_en");
        QTest::newRow("learned_pe") << QStringLiteral("learned_pe");
        QTest::newRow("pe_none") << QStringLiteral("pe_none");
        QTest::newRow("causal_je") << QStringLiteral("causal_je");
    }
    void matchesPythonReferenceCase()
    {
        QFETCH(QString, caseName);
        const auto c = loadJson(ATTNLAB_TEST_DATA "/mha/" + caseName.toStdString() + ".json");
        const auto& cfg = c.at("config");
        const std::vector<std::string> tokens = c.at("tokens").get<std::vector<std::string>>();
        const int d = cfg.at("d_model").get<int>();
        const auto seed = cfg.at("seed").get<std::uint64_t>();
        const auto kind = attnlab::parsePositionalEncoding(cfg.at("pe").get<std::string>());
        QVERIFY(kind.has_value());
        const int n = int(tokens.size());

        // E and P are bit-exact float32 in the reference (Python's float32 arithmetic); the
        // sinusoid may differ by an ulp between libms.
        COMPARE_MATRICES(tokenEmbeddings(tokens, d, seed), referenceStage(c, "embedding"), 0.0f);
        const float peTol = *kind == PositionalEncoding::Sinusoidal ? 1e-6f : 0.0f;
        COMPARE_MATRICES(positionalEncoding(*kind, n, d, seed), referenceStage(c, "positional_encoding"), peTol);
        const float s = attnlab::embeddingScale(d, cfg.at("embed_scale").get<bool>());
        const Eigen::MatrixXf x = tokenEmbeddings(tokens, d, seed) * s + positionalEncoding(*kind, n, d, seed);
        COMPARE_MATRICES(x, referenceStage(c, "input"), 1e-6f);
    }

    // --- embedding scale ---

    void embeddingScale_data()
    {
        QTest::addColumn<int>("d");
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<float>("expected");
        QTest::newRow("d64") << 64 << true << 8.0f;
        QTest::newRow("d16") << 16 << true << 4.0f;
        QTest::newRow("d1") << 1 << true << 1.0f;
        QTest::newRow("d32") << 32 << true << 5.65685415f; // float32(sqrt(32)) = float32(5.656854249...)
        QTest::newRow("d512") << 512 << true << 22.6274166f;
        QTest::newRow("off") << 64 << false << 1.0f;
        QTest::newRow("off_d32") << 32 << false << 1.0f;
    }
    void embeddingScale()
    {
        QFETCH(int, d);
        QFETCH(bool, enabled);
        QFETCH(float, expected);
        const float got = attnlab::embeddingScale(d, enabled);
        QVERIFY2(got == expected, valueText("scale", got, expected).constData());
    }

    // --- sinusoidal positional encoding ---

    void sinusoidalHandValues()
    {
        const Eigen::MatrixXf p = positionalEncoding(PositionalEncoding::Sinusoidal, 51, 4, 0);
        QCOMPARE(p.rows(), Eigen::Index(51));
        QCOMPARE(p.cols(), Eigen::Index(4));
        // Position 0: every angle is 0, so [sin 0, cos 0, ...] = [0, 1, 0, 1].
        Eigen::MatrixXf row0(1, 4);
        row0 << 0.0f, 1.0f, 0.0f, 1.0f;
        COMPARE_MATRICES(p.topRows(1), row0, 0.0f);
        // Pair i = 0 has angle pos: PE(1, 0) = sin 1, PE(1, 1) = cos 1.
        struct Expected {
            int pos;
            int col;
            double value;
        };
        const Expected values[] = {
            {1, 0, 0.8414709848078965},   // sin(1)
            {1, 1, 0.5403023058681398},   // cos(1)
            // Pair i = 1 of d = 4: angle pos / 10000^(2/4) = pos / 100.
            {1, 2, 0.009999833334166664}, // sin(0.01)
            {1, 3, 0.9999500004166653},   // cos(0.01)
            {3, 2, 0.02999550020249566},  // sin(0.03)
            {3, 3, 0.9995500337489875},   // cos(0.03)
            {5, 2, 0.04997916927067833},  // sin(0.05)
            {50, 2, 0.479425538604203},   // sin(0.5)
            {50, 3, 0.8775825618903728},  // cos(0.5)
        };
        for (const auto& e : values) {
            const float got = p(e.pos, e.col);
            QVERIFY2(std::abs(double(got) - e.value) < 1e-7,
                     valueText(qPrintable(QStringLiteral("PE(%1, %2)").arg(e.pos).arg(e.col)), got, e.value).constData());
        }
    }

    void sinusoidalOddWidth()
    {
        // d = 5: pairs (0, 1) with angle pos, (2, 3) with pos / 10000^(2/5), and column 4 alone is
        // the sin of pair i = 2: pos / 10000^(4/5) = pos / 1584.893192461114.
        const Eigen::MatrixXf p = positionalEncoding(PositionalEncoding::Sinusoidal, 1000, 5, 0);
        QCOMPARE(p.cols(), Eigen::Index(5));
        const double f1 = 1.0 / 39.810717055349734; // 10000^(2/5)
        const double f2 = 1.0 / 1584.893192461114;  // 10000^(4/5)
        for (const int pos : {0, 1, 7, 100, 999}) {
            const double expected[5] = {std::sin(pos), std::cos(pos), std::sin(pos * f1), std::cos(pos * f1), std::sin(pos * f2)};
            for (int c = 0; c < 5; ++c) {
                QVERIFY2(std::abs(double(p(pos, c)) - expected[c]) < 1e-6,
                         valueText(qPrintable(QStringLiteral("PE(%1, %2)").arg(pos).arg(c)), p(pos, c), expected[c]).constData());
            }
        }
        // Column 4 is a sine, not a cosine: 0 at position 0.
        QCOMPARE(p(0, 4), 0.0f);
        QVERIFY(p(999, 4) > 0.55f && p(999, 4) < 0.60f); // sin(0.6303) = 0.5893
    }

    void sinusoidalIsARotation_data()
    {
        QTest::addColumn<int>("d");
        QTest::newRow("d4") << 4;
        QTest::newRow("d16") << 16;
        QTest::newRow("d512") << 512;
        QTest::newRow("d7") << 7;
    }
    void sinusoidalIsARotation()
    {
        // For each (sin, cos) pair with frequency w_i = 1 / 10000^(2i/d):
        //   [PE(pos+k, 2i), PE(pos+k, 2i+1)] = R(k w_i) [PE(pos, 2i), PE(pos, 2i+1)],
        //   R(t) = [[cos t, sin t], [-sin t, cos t]]   (sin(a+t) = sin a cos t + cos a sin t,
        //                                              cos(a+t) = cos a cos t - sin a sin t)
        QFETCH(int, d);
        const int n = 300;
        const Eigen::MatrixXf p = positionalEncoding(PositionalEncoding::Sinusoidal, n, d, 0);
        double worst = 0.0;
        QString where;
        for (const int pos : {0, 1, 5, 17, 100, 200}) {
            for (const int k : {1, 2, 10, 33, 99}) {
                for (int i = 0; 2 * i + 1 < d; ++i) {
                    const double t = k / std::pow(10000.0, 2.0 * i / d);
                    const double s = p(pos, 2 * i);
                    const double c = p(pos, 2 * i + 1);
                    const double rs = std::cos(t) * s + std::sin(t) * c;
                    const double rc = -std::sin(t) * s + std::cos(t) * c;
                    const double diff = std::max(std::abs(rs - p(pos + k, 2 * i)), std::abs(rc - p(pos + k, 2 * i + 1)));
                    if (diff > worst) {
                        worst = diff;
                        where = QStringLiteral("pos %1, k %2, i %3").arg(pos).arg(k).arg(i);
                    }
                }
            }
        }
        QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("max |R(k) PE(pos) - PE(pos+k)| = %1 at %2").arg(worst).arg(where)));
    }

    void sinusoidalBounded()
    {
        const Eigen::MatrixXf p = positionalEncoding(PositionalEncoding::Sinusoidal, 1024, 64, 0);
        QVERIFY2(p.cwiseAbs().maxCoeff() <= 1.0f, QByteArray::number(double(p.cwiseAbs().maxCoeff())).constData());
        // Each pair lies on the unit circle.
        double worst = 0.0;
        for (Eigen::Index pos = 0; pos < p.rows(); ++pos) {
            for (Eigen::Index i = 0; i < 32; ++i)
                worst = std::max(worst, std::abs(std::hypot(double(p(pos, 2 * i)), double(p(pos, 2 * i + 1))) - 1.0));
        }
        QVERIFY2(worst < 1e-6, QByteArray::number(worst).constData());
    }

    void sinusoidalIgnoresSeed()
    {
        const Eigen::MatrixXf a = positionalEncoding(PositionalEncoding::Sinusoidal, 10, 8, 1);
        const Eigen::MatrixXf b = positionalEncoding(PositionalEncoding::Sinusoidal, 10, 8, 2);
        COMPARE_MATRICES(a, b, 0.0f);
    }

    // --- learned and none ---

    void learnedTable()
    {
        const Eigen::MatrixXf a = positionalEncoding(PositionalEncoding::Learned, 64, 32, 7);
        QCOMPARE(a.rows(), Eigen::Index(64));
        QCOMPARE(a.cols(), Eigen::Index(32));
        COMPARE_MATRICES(positionalEncoding(PositionalEncoding::Learned, 64, 32, 7), a, 0.0f); // deterministic
        // Row pos depends on pos only, not on n.
        COMPARE_MATRICES(positionalEncoding(PositionalEncoding::Learned, 5, 32, 7), a.topRows(5), 0.0f);
        // Uniform in [-1, 1), reaching both ends.
        QVERIFY2(a.minCoeff() >= -1.0f && a.maxCoeff() < 1.0f,
                 qPrintable(QStringLiteral("range [%1, %2]").arg(double(a.minCoeff())).arg(double(a.maxCoeff()))));
        QVERIFY2(a.minCoeff() < -0.95f && a.maxCoeff() > 0.95f,
                 qPrintable(QStringLiteral("range [%1, %2]").arg(double(a.minCoeff())).arg(double(a.maxCoeff()))));
        // Rows differ from each other.
        QVERIFY(a.row(0) != a.row(1));
        // Other seed, other table; and not the sinusoid (row 0 is not [0, 1, 0, 1, ...]).
        const Eigen::MatrixXf b = positionalEncoding(PositionalEncoding::Learned, 64, 32, 8);
        QVERIFY((a - b).cwiseAbs().maxCoeff() > 0.1f);
        const Eigen::MatrixXf sin = positionalEncoding(PositionalEncoding::Sinusoidal, 64, 32, 7);
        QVERIFY((a - sin).cwiseAbs().maxCoeff() > 0.1f);
    }

    void noneIsZero()
    {
        const Eigen::MatrixXf p = positionalEncoding(PositionalEncoding::None, 6, 10, 42);
        QCOMPARE(p.rows(), Eigen::Index(6));
        QCOMPARE(p.cols(), Eigen::Index(10));
        COMPARE_MATRICES(p, Eigen::MatrixXf::Zero(6, 10), 0.0f);
    }
};

QTEST_APPLESS_MAIN(TestEmbedding)
#include "tst_embedding.moc"
