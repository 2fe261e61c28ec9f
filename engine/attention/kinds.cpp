#include "attention/kind.h"

#include <algorithm>
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
        {AttentionKind::Flash, toString(AttentionKind::Flash),
         {"tiles", "running_max", "running_sum", "partial_output", "weights", "head_output", "reference_weights", "error"}, flashAttention},
    };
    return kKinds;
}

bool isPerHeadStage(std::string_view id, AttentionKind kind)
{
    return isPerHeadStage(id) || (kind == AttentionKind::Lsh && id == "mask");
}

std::vector<std::string> kindStageIds(AttentionKind kind)
{
    if (kind == AttentionKind::Full)
        return {};
    const auto& full = attentionKind(AttentionKind::Full).stageIds;
    std::vector<std::string> out;
    for (const auto& id : attentionKind(kind).stageIds) {
        if (std::find(full.begin(), full.end(), id) == full.end())
            out.push_back(id);
    }
    out.push_back("reference_output");
    return out;
}

std::vector<AttentionKind> kindsComputing(std::string_view id)
{
    std::vector<AttentionKind> out;
    for (const auto& k : attentionKinds()) {
        const auto ids = kindStageIds(k.kind);
        if (std::find(ids.begin(), ids.end(), id) != ids.end())
            out.push_back(k.kind);
    }
    return out;
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
