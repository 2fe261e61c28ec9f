#include "position/scheme.h"

#include <stdexcept>

namespace attnlab {

const std::vector<PositionScheme>& positionSchemes()
{
    static const std::vector<PositionScheme> kSchemes{
        {PositionalEncoding::Sinusoidal,
         "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))", sinusoidalPositions},
        {PositionalEncoding::Learned, "P = learned position table [pos]", learnedPositions},
        {PositionalEncoding::None, "P = 0  (no positional encoding)", noPositions},
        // The schemes that act inside attention add nothing to X (position/inside.h).
        {PositionalEncoding::Rope, "P = 0  (RoPE rotates q and k inside attention instead)", noPositions},
        {PositionalEncoding::Alibi, "P = 0  (ALiBi adds −m_h·|i − j| to the scores instead)", noPositions},
        {PositionalEncoding::Relative, "P = 0  (relative positions add a learned key and value per distance j − i instead)", noPositions},
        {PositionalEncoding::Xl, "P = 0  (Transformer-XL scores each segment from the distances i − j instead)", noPositions},
    };
    return kSchemes;
}

const PositionScheme& positionScheme(PositionalEncoding kind)
{
    for (const auto& s : positionSchemes()) {
        if (s.kind == kind)
            return s;
    }
    // Unreachable for a valid enum value: every kind is listed above.
    throw std::invalid_argument("unknown position scheme");
}

} // namespace attnlab
