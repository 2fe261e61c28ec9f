// RoPE's inverse frequencies with the modern decoders' scalings (position/rope_scaling.h).

#include "position/rope_scaling.h"

#include <cmath>
#include <numbers>

namespace attnlab {

std::vector<double> ropeInverseFrequencies(int dK, double theta, const RopeScaling& s)
{
    std::vector<double> omega(static_cast<std::size_t>(dK / 2));
    for (int i = 0; i < dK / 2; ++i) {
        // ω_i = θ^(−2i/d_k), in double as ropeAngles.
        const double w = std::pow(theta, -2.0 * i / dK);
        double scaled = w;
        if (s.kind == RopeScaling::Linear) {
            scaled = w / s.factor;
        } else if (s.kind == RopeScaling::Llama3) {
            // Long wavelengths (low frequencies) are interpolated by the factor, short ones kept,
            // the band between blended smoothly.
            const double wavelength = 2 * std::numbers::pi / w;
            const double low = s.originalPositions / s.lowFreqFactor;
            const double high = s.originalPositions / s.highFreqFactor;
            if (wavelength > low) {
                scaled = w / s.factor;
            } else if (wavelength >= high) {
                const double smooth = (s.originalPositions / wavelength - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
                scaled = (1 - smooth) * w / s.factor + smooth * w;
            }
        }
        omega[static_cast<std::size_t>(i)] = scaled;
    }
    return omega;
}

} // namespace attnlab
