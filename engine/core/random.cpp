#include "core/random.h"

#include <cmath>
#include <numbers>

namespace attnlab {

std::uint64_t fnv1a64(std::string_view bytes)
{
    std::uint64_t h = 0xCBF29CE484222325ULL;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001B3ULL;
    }
    return h;
}

std::uint64_t SplitMix64::next()
{
    m_state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = m_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

float SplitMix64::uniform()
{
    // 24 bits fill a float's mantissa exactly, so no rounding happens here.
    return static_cast<float>(next() >> 40) * 0x1.0p-24f;
}

float SplitMix64::symmetric(float a)
{
    const float unit = 2.0f * uniform() - 1.0f; // exact: uniform() has 24 significant bits
    return unit * a;
}

double SplitMix64::uniform53()
{
    // 53 bits fill a double's mantissa exactly.
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::pair<double, double> boxMuller(SplitMix64& gen)
{
    const double u1 = 1.0 - gen.uniform53(); // (0, 1]: the logarithm stays finite
    const double u2 = gen.uniform53();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 2.0 * std::numbers::pi * u2;
    return {r * std::cos(a), r * std::sin(a)};
}

double NormalStream::next()
{
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spare;
    }
    const auto [first, second] = boxMuller(m_gen);
    m_spare = second;
    m_hasSpare = true;
    return first;
}

std::uint64_t mixSeed(std::uint64_t seed)
{
    return SplitMix64(seed).next();
}

SplitMix64 stream(std::string_view key, std::uint64_t seed)
{
    return SplitMix64(fnv1a64(key) ^ mixSeed(seed));
}

} // namespace attnlab
