#pragma once
/// RoPE's inverse frequencies as the modern decoders set them (Hugging Face's
/// modeling_rope_utils.py; docs/pretrained-models.md):
///
///   default   ω_i = θ^(−2i/d_k),  i = 0 … d_k/2 − 1  (Su et al. 2021)
///   linear    ω_i / factor  (positions interpolated: pos / factor)
///   llama3    Llama 3.1's: wavelength λ_i = 2π/ω_i; λ_i < L/high kept, λ_i > L/low divided by
///             factor, in between s = (L/λ_i − low)/(high − low) and ω_i·((1 − s)/factor + s);
///             L = original_max_position_embeddings
///
/// The angle of pair i at position pos is pos·ω_i.

#include <vector>

namespace attnlab {

struct RopeScaling {
    enum Kind {
        None,
        Linear,
        Llama3,
    };
    Kind kind = None;
    double factor = 1.0;
    double lowFreqFactor = 1.0;
    double highFreqFactor = 4.0;
    int originalPositions = 8192;
};

/// ω_0 … ω_{d_k/2 − 1} of RoPE over d_k features with base θ, scaled as `scaling` says.
std::vector<double> ropeInverseFrequencies(int dK, double theta, const RopeScaling& scaling);

} // namespace attnlab
