#pragma once
/// Bit-exact pseudo-random numbers (docs/engine.md, section 2).
///
/// std::uniform_real_distribution differs between standard libraries, so every seeded
/// value in Attention Lab comes from these few lines instead: the same seed gives the
/// same numbers on every machine, compiler and standard library.

#include <cstdint>
#include <string_view>
#include <utility>

namespace attnlab {

/// FNV-1a, 64-bit, over the bytes of `bytes`.
std::uint64_t fnv1a64(std::string_view bytes);

/// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state advanced by a constant, then mixed.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t state) : m_state(state) {}

    std::uint64_t next();

    /// Uniform in [0, 1): the top 24 bits of next() times 2^-24, exact in float32.
    float uniform();

    /// Uniform in [-a, a): float32(float32(2 * uniform() - 1) * a).
    float symmetric(float a);

    /// Uniform in [0, 1) in double: the top 53 bits of next() times 2^-53, exact.
    double uniform53();

private:
    std::uint64_t m_state;
};

/// Two independent standard normal numbers from two uniform53() of `gen` (Box–Muller):
/// r = √(−2 ln(1 − u₁)), a = 2π·u₂; returns (r·cos a, r·sin a). 1 − u₁ lies in (0, 1], so the
/// logarithm stays finite. Uses the standard library's log, cos and sin: the same numbers on
/// every run of one build, not bit-exact across standard libraries (seeded weights never use it).
std::pair<double, double> boxMuller(SplitMix64& gen);

/// Standard normal numbers from a SplitMix64 stream: both Box–Muller outputs, cos first.
class NormalStream {
public:
    explicit NormalStream(SplitMix64 gen) : m_gen(gen) {}

    double next();

private:
    SplitMix64 m_gen;
    bool m_hasSpare = false;
    double m_spare = 0;
};

/// The first output of a SplitMix64 started at `seed`: spreads nearby seeds apart.
std::uint64_t mixSeed(std::uint64_t seed);

/// The stream for a named table (a token, "#pos3", "#in_proj_weight") under a seed.
SplitMix64 stream(std::string_view key, std::uint64_t seed);

} // namespace attnlab
