#include "attention/kind.h"

#include <stdexcept>

namespace attnlab {

const std::vector<AttentionKindInfo>& attentionKinds()
{
    const std::vector<std::string> sparse{"scores", "scaled", "mask", "masked_scores", "weights", "head_output", "reference_weights", "error"};
    static const std::vector<AttentionKindInfo> kKinds{
        {AttentionKind::Full, toString(AttentionKind::Full), {"scores", "scaled", "mask", "masked_scores", "weights", "head_output"}, fullAttention},
        {AttentionKind::SlidingWindow, toString(AttentionKind::SlidingWindow), sparse, sparseAttention},
        {AttentionKind::BigBird, toString(AttentionKind::BigBird), sparse, sparseAttention},
        {AttentionKind::Strided, toString(AttentionKind::Strided), sparse, sparseAttention},
        {AttentionKind::Linformer, toString(AttentionKind::Linformer),
         {"projection_e", "projection_f", "k_projected", "v_projected", "scores", "scaled", "weights", "head_output", "reference_weights", "error"},
         linformerAttention},
        {AttentionKind::Performer, toString(AttentionKind::Performer),
         {"random_features", "q_features", "k_features", "kv", "normalizer", "weights", "head_output", "reference_weights", "error"},
         performerAttention},
        {AttentionKind::Linear, toString(AttentionKind::Linear),
         {"q_features", "k_features", "kv", "normalizer", "weights", "head_output", "reference_weights", "error"}, linearAttention},
        {AttentionKind::Lsh, toString(AttentionKind::Lsh),
         {"random_rotations", "buckets", "scores", "scaled", "mask", "masked_scores", "weights", "head_output", "reference_weights", "error"},
         lshAttention, true},
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
