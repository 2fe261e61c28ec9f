#pragma once
/// Bit-exact pseudo-random numbers (docs/engine.md, section 2).
///
/// std::uniform_real_distribution differs between standard libraries, so every seeded
/// value in Attention Lab comes from these few lines instead: the same seed gives the
/// same numbers on every machine, compiler and standard library.

#include <cstdint>
#include <string_view>

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

private:
    std::uint64_t m_state;
};

/// The first output of a SplitMix64 started at `seed`: spreads nearby seeds apart.
std::uint64_t mixSeed(std::uint64_t seed);

/// The stream for a named table (a token, "#pos3", "#in_proj_weight") under a seed.
SplitMix64 stream(std::string_view key, std::uint64_t seed);

} // namespace attnlab
