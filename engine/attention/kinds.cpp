#include "attention/kind.h"

#include <stdexcept>

namespace attnlab {

const std::vector<AttentionKindInfo>& attentionKinds()
{
    static const std::vector<AttentionKindInfo> kKinds{
        {AttentionKind::Full, toString(AttentionKind::Full), {"scores", "scaled", "mask", "masked_scores", "weights", "head_output"}, fullAttention},
    };
    return kKinds;
}

const AttentionKindInfo& attentionKind(AttentionKind kind)
{
    for (const auto& k : attentionKinds()) {
        if (k.kind == kind)
            return k;
    }
    // Unreachable for a valid enum value: every kind is listed above.
    throw std::invalid_argument("unknown attention kind");
}

} // namespace attnlab
