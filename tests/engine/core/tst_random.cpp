// The bit-exact pseudo-random numbers of docs/engine.md, section 2, against the vectors that
// scripts/gen_reference.py (an independent Python implementation) wrote to prng.json.
#include "core/random.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

using attnlab::SplitMix64;

namespace {

nlohmann::json loadPrng()
{
    std::ifstream in(ATTNLAB_TEST_DATA "/prng.json");
    if (!in)
        throw std::runtime_error("cannot open " ATTNLAB_TEST_DATA "/prng.json");
    return nlohmann::json::parse(in);
}

/// A 64-bit value of prng.json: {"hex": "0x...", "dec": "..."}. Both spellings must agree.
std::uint64_t value64(const nlohmann::json& v)
{
    const std::uint64_t hex = std::stoull(v.at("hex").get<std::string>(), nullptr, 16);
    const std::uint64_t dec = std::stoull(v.at("dec").get<std::string>(), nullptr, 10);
    if (hex != dec)
        throw std::runtime_error("prng.json: hex and dec differ for " + v.dump());
    return hex;
}

QByteArray hex64(std::uint64_t v)
{
    return "0x" + QByteArray::number(qulonglong(v), 16).rightJustified(16, '0');
}

/// Exact float equality, printing both values (and their bits) on failure.
QByteArray floatsDiffer(float got, float expected)
{
    return "got " + QByteArray::number(double(got), 'g', 9) + " (0x"
        + QByteArray::number(std::bit_cast<std::uint32_t>(got), 16) + "), expected "
        + QByteArray::number(double(expected), 'g', 9) + " (0x"
        + QByteArray::number(std::bit_cast<std::uint32_t>(expected), 16) + ")";
}

} // namespace

class TestRandom : public QObject {
    Q_OBJECT

private:
    nlohmann::json m_prng;

private slots:
    void initTestCase()
    {
        m_prng = loadPrng();
        QVERIFY(m_prng.contains("fnv1a64") && m_prng.contains("mix") && m_prng.contains("stream"));
    }

    // --- against the Python vectors ---

    void fnv1a64Reference_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<quint64>("expected");
        const auto prng = loadPrng();
        for (const auto& v : prng.at("fnv1a64")) {
            const std::string input = v.at("input").get<std::string>();
            const QByteArray name = input.empty() ? QByteArray("empty") : QByteArray::fromStdString(input);
            QTest::newRow(name.constData()) << QByteArray::fromStdString(input) << quint64(value64(v));
        }
    }
    void fnv1a64Reference()
    {
        QFETCH(QByteArray, input);
        QFETCH(quint64, expected);
        const std::uint64_t got = attnlab::fnv1a64({input.constData(), std::size_t(input.size())});
        QCOMPARE(hex64(got), hex64(expected));
    }

    void mixSeedReference_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("expected");
        const auto prng = loadPrng();
        for (const auto& v : prng.at("mix")) {
            const auto seed = v.at("seed").get<std::uint64_t>();
            QTest::addRow("seed_%llu", qulonglong(seed)) << quint64(seed) << quint64(value64(v));
        }
    }
    void mixSeedReference()
    {
        QFETCH(quint64, seed);
        QFETCH(quint64, expected);
        QCOMPARE(hex64(attnlab::mixSeed(seed)), hex64(expected));
        // mix(seed) is the first output of SplitMix64 started at seed.
        QCOMPARE(hex64(SplitMix64(seed).next()), hex64(expected));
    }

    void streamReference()
    {
        const auto& s = m_prng.at("stream");
        const std::string key = s.at("key").get<std::string>();
        const auto seed = s.at("seed").get<std::uint64_t>();
        const std::uint64_t initial = value64(s.at("initial_state"));
        QCOMPARE(hex64(attnlab::fnv1a64(key) ^ attnlab::mixSeed(seed)), hex64(initial));

        const auto& outputs = s.at("outputs");
        QVERIFY(outputs.size() >= 4);
        SplitMix64 fromKey = attnlab::stream(key, seed);
        SplitMix64 fromState(initial);
        for (std::size_t i = 0; i < outputs.size(); ++i) {
            const std::uint64_t expected = value64(outputs[i]);
            QCOMPARE(hex64(fromKey.next()), hex64(expected));
            QCOMPARE(hex64(fromState.next()), hex64(expected));
        }
    }

    void uniformReference()
    {
        const auto& s = m_prng.at("stream");
        const auto& expected = s.at("uniform");
        SplitMix64 rng = attnlab::stream(s.at("key").get<std::string>(), s.at("seed").get<std::uint64_t>());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const float want = static_cast<float>(expected[i].get<double>());
            QVERIFY(double(want) == expected[i].get<double>()); // the file holds exact float32 values
            const float got = rng.uniform();
            QVERIFY2(got == want, ("uniform #" + QByteArray::number(qulonglong(i)) + ": " + floatsDiffer(got, want)).constData());
        }
    }

    void symmetricReference()
    {
        const auto& s = m_prng.at("stream");
        const auto& expected = s.at("symmetric_sqrt3");
        SplitMix64 rng = attnlab::stream(s.at("key").get<std::string>(), s.at("seed").get<std::uint64_t>());
        const float sqrt3 = static_cast<float>(std::sqrt(3.0));
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const float want = static_cast<float>(expected[i].get<double>());
            const float got = rng.symmetric(sqrt3);
            QVERIFY2(got == want, ("symmetric #" + QByteArray::number(qulonglong(i)) + ": " + floatsDiffer(got, want)).constData());
        }
    }

    // --- hand facts ---

    void fnv1a64Hand()
    {
        // The offset basis, and published FNV-1a 64 test vectors (www.isthe.com/chongo/tech/comp/fnv).
        QCOMPARE(hex64(attnlab::fnv1a64("")), hex64(0xCBF29CE484222325ULL));
        QCOMPARE(hex64(attnlab::fnv1a64("a")), hex64(0xAF63DC4C8601EC8CULL));
        QCOMPARE(hex64(attnlab::fnv1a64("foobar")), hex64(0x85944171F73967E8ULL));
        // Bytes are unsigned: (basis XOR 0xFF) * prime.
        QCOMPARE(hex64(attnlab::fnv1a64("\xFF")), hex64(0xAF64724C8602EB6EULL));
        // An embedded NUL byte is hashed, not a terminator.
        QVERIFY(attnlab::fnv1a64(std::string_view("a\0b", 3)) != attnlab::fnv1a64("a"));
    }

    void splitMix64Hand()
    {
        // SplitMix64 from state 0: the well-known first output of Vigna's splitmix64.c.
        QCOMPARE(hex64(SplitMix64(0).next()), hex64(0xE220A8397B1DCDAFULL));
    }

    void uniformIsOnTheGrid()
    {
        SplitMix64 rng(12345);
        float lo = 1.0f;
        float hi = 0.0f;
        double sum = 0.0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const float u = rng.uniform();
            QVERIFY2(u >= 0.0f && u < 1.0f, QByteArray::number(double(u), 'g', 9).constData());
            const double scaled = double(u) * 16777216.0; // 2^24
            QVERIFY2(scaled == std::floor(scaled), qPrintable(QStringLiteral("%1 is not a multiple of 2^-24").arg(double(u), 0, 'g', 9)));
            lo = std::min(lo, u);
            hi = std::max(hi, u);
            sum += u;
        }
        // The whole interval is reached (not, say, [0, 0.5) from 23 bits).
        QVERIFY2(lo < 1e-4f, QByteArray::number(double(lo), 'g', 9).constData());
        QVERIFY2(hi > 1.0f - 1e-4f, QByteArray::number(double(hi), 'g', 9).constData());
        // Mean 0.5 with a standard error of 0.29 / sqrt(n) = 0.00065: 0.01 is 15 errors away.
        QVERIFY2(std::abs(sum / n - 0.5) < 0.01, QByteArray::number(sum / n, 'g', 9).constData());
    }

    void uniformUsesTheTop24Bits()
    {
        // uniform(z) = (z >> 40) * 2^-24 for the next() output z of an identical generator.
        SplitMix64 a(987654321);
        SplitMix64 b(987654321);
        for (int i = 0; i < 1000; ++i) {
            const std::uint64_t z = a.next();
            const float want = static_cast<float>(double(z >> 40) / 16777216.0);
            const float got = b.uniform();
            QVERIFY2(got == want, floatsDiffer(got, want).constData());
        }
    }

    // --- doubles and normal numbers (the lessons' demonstrations) ---

    void uniform53FromTheReferenceOutputs()
    {
        // uniform53(z) = (z >> 11) · 2^-53 of the Python reference's next() outputs, exactly.
        const auto& s = m_prng.at("stream");
        SplitMix64 rng = attnlab::stream(s.at("key").get<std::string>(), s.at("seed").get<std::uint64_t>());
        for (const auto& out : s.at("outputs")) {
            const double want = std::ldexp(static_cast<double>(value64(out) >> 11), -53);
            const double got = rng.uniform53();
            QVERIFY2(got == want, qPrintable(QStringLiteral("got %1, want %2").arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
            QVERIFY(got >= 0.0 && got < 1.0);
        }
    }

    void boxMullerByHand()
    {
        // r = √(−2 ln(1 − u₁)), a = 2π·u₂ from the reference's first two outputs, in long double.
        const auto& s = m_prng.at("stream");
        const auto& outputs = s.at("outputs");
        const long double u1 = std::ldexp(static_cast<long double>(value64(outputs[0]) >> 11), -53);
        const long double u2 = std::ldexp(static_cast<long double>(value64(outputs[1]) >> 11), -53);
        const long double r = std::sqrt(-2.0L * std::log(1.0L - u1));
        const long double a = 2.0L * 3.141592653589793238462643383279502884L * u2;
        SplitMix64 rng = attnlab::stream(s.at("key").get<std::string>(), s.at("seed").get<std::uint64_t>());
        const auto [c, sn] = attnlab::boxMuller(rng);
        const double dc = std::abs(c - static_cast<double>(r * std::cos(a)));
        const double ds = std::abs(sn - static_cast<double>(r * std::sin(a)));
        QVERIFY2(dc < 1e-14 && ds < 1e-14, qPrintable(QStringLiteral("cos output off by %1, sin output by %2").arg(dc).arg(ds)));
    }

    void normalStreamUsesBothOutputs()
    {
        // Each pair of uniforms gives two numbers, cosine first; the next pair comes from the next two.
        SplitMix64 pairs(7);
        attnlab::NormalStream normal(SplitMix64(7));
        for (int i = 0; i < 100; ++i) {
            const auto [c, s] = attnlab::boxMuller(pairs);
            QCOMPARE(normal.next(), c);
            QCOMPARE(normal.next(), s);
        }
        // Standard normal: over 200 000 numbers the mean's standard error is 0.0022 and the
        // variance's 0.0032; the bounds are about 5 of them.
        attnlab::NormalStream many(SplitMix64(2017));
        const int n = 200000;
        double sum = 0, sq = 0;
        for (int i = 0; i < n; ++i) {
            const double x = many.next();
            sum += x;
            sq += x * x;
        }
        const double mean = sum / n;
        const double var = sq / n - mean * mean;
        QVERIFY2(std::abs(mean) < 0.011 && std::abs(var - 1) < 0.016, qPrintable(QStringLiteral("mean %1, variance %2").arg(mean).arg(var)));
    }

    void symmetricRange_data()
    {
        QTest::addColumn<float>("a");
        QTest::newRow("one") << 1.0f;
        QTest::newRow("sqrt3") << static_cast<float>(std::sqrt(3.0));
        QTest::newRow("quarter") << 0.25f;
        QTest::newRow("small") << 1e-3f;
        QTest::newRow("large") << 1000.0f;
    }
    void symmetricRange()
    {
        QFETCH(float, a);
        SplitMix64 rng(2024);
        float lo = a;
        float hi = -a;
        for (int i = 0; i < 100000; ++i) {
            const float v = rng.symmetric(a);
            QVERIFY2(v >= -a && v < a, qPrintable(QStringLiteral("%1 outside [-%2, %2)").arg(double(v), 0, 'g', 9).arg(double(a))));
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        QVERIFY2(lo < -0.999f * a && hi > 0.999f * a,
                 qPrintable(QStringLiteral("range [%1, %2] for a = %3").arg(double(lo)).arg(double(hi)).arg(double(a))));
    }

    void symmetricFormula()
    {
        // symmetric(a) = float32(float32(2 * uniform - 1) * a) on the same draw.
        const float a = static_cast<float>(1.0 / std::sqrt(8.0));
        SplitMix64 u(77);
        SplitMix64 s(77);
        for (int i = 0; i < 1000; ++i) {
            const float unit = 2.0f * u.uniform() - 1.0f;
            const float want = unit * a;
            const float got = s.symmetric(a);
            QVERIFY2(got == want, floatsDiffer(got, want).constData());
        }
    }

    void determinism()
    {
        SplitMix64 a(42);
        SplitMix64 b(42);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(hex64(a.next()), hex64(b.next()));

        SplitMix64 s1 = attnlab::stream("cat", 7);
        SplitMix64 s2 = attnlab::stream("cat", 7);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(hex64(s1.next()), hex64(s2.next()));
    }

    void streamsDiffer()
    {
        const std::uint64_t base = attnlab::stream("cat", 7).next();
        QVERIFY(attnlab::stream("cat", 8).next() != base);  // another seed
        QVERIFY(attnlab::stream("Cat", 7).next() != base);  // keys are case-sensitive bytes
        QVERIFY(attnlab::stream("cats", 7).next() != base); // another key
        QVERIFY(attnlab::mixSeed(0) != attnlab::mixSeed(1));
        // Consecutive outputs of one generator differ.
        SplitMix64 rng(0);
        const std::uint64_t first = rng.next();
        QVERIFY(rng.next() != first);
    }
};

QTEST_APPLESS_MAIN(TestRandom)
#include "tst_random.moc"
