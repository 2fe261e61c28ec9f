#include "attention/kind.h"

#include "attention/kind_cost.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab {

const std::vector<AttentionKindInfo>& attentionKinds()
{
    using K = AttentionKind;
    const std::vector<std::string> sparse{"scores", "scaled", "mask", "masked_scores", "weights", "head_output", "reference_weights", "error"};
    static const std::vector<AttentionKindInfo> kKinds{
        {.kind = K::Full,
         .name = toString(K::Full),
         .stageIds = {"scores", "scaled", "mask", "masked_scores", "weights", "head_output"},
         .kernel = fullAttention,
         .cost = &kFullCost},
        {.kind = K::SlidingWindow,
         .name = toString(K::SlidingWindow),
         .stageIds = sparse,
         .kernel = sparseAttention,
         .cost = &kSlidingWindowCost,
         .maskFormula = "M_ij = 0 if |i − j| ≤ W·D and D divides i − j, or i or j is global (and the mask allows it), else −∞"},
        {.kind = K::BigBird,
         .name = toString(K::BigBird),
         .stageIds = sparse,
         .kernel = sparseAttention,
         .cost = &kBigBirdCost,
         .maskFormula = "M_ij = 0 in the window, for R random keys, or if i or j is global (and the mask allows it), else −∞"},
        {.kind = K::Strided,
         .name = toString(K::Strided),
         .stageIds = sparse,
         .kernel = sparseAttention,
         .cost = &kStridedCost,
         .maskFormula = "M_ij = 0 if |i − j| < S or S divides i − j (and the mask allows it), else −∞"},
        {.kind = K::Linformer,
         .name = toString(K::Linformer),
         .stageIds = {"projection_e", "projection_f", "k_projected", "v_projected", "scores", "scaled", "weights", "head_output",
                      "reference_weights", "error"},
         .kernel = linformerAttention,
         .cost = &kLinformerCost},
        {.kind = K::Performer,
         .name = toString(K::Performer),
         .stageIds = {"random_features", "q_features", "k_features", "kv", "normalizer", "weights", "head_output", "reference_weights",
                      "error"},
         .kernel = performerAttention,
         .cost = &kPerformerCost},
        {.kind = K::Linear,
         .name = toString(K::Linear),
         .stageIds = {"q_features", "k_features", "kv", "normalizer", "weights", "head_output", "reference_weights", "error"},
         .kernel = linearAttention,
         .cost = &kLinearCost},
        {.kind = K::Lsh,
         .name = toString(K::Lsh),
         .stageIds = {"random_rotations", "buckets", "scores", "scaled", "mask", "masked_scores", "weights", "head_output",
                      "reference_weights", "error"},
         .kernel = lshAttention,
         .cost = &kLshCost,
         .sharedQueryKey = true,
         .ownPerHeadStageIds = {"mask"}},
        {.kind = K::Flash,
         .name = toString(K::Flash),
         .stageIds = {"tiles", "running_max", "running_sum", "partial_output", "weights", "head_output", "reference_weights", "error"},
         .kernel = flashAttention,
         .cost = &kFlashCost},
    };
    return kKinds;
}

bool isPerHeadStage(std::string_view id, AttentionKind kind)
{
    if (isPerHeadStage(id))
        return true;
    const auto& own = attentionKind(kind).ownPerHeadStageIds;
    return std::find(own.begin(), own.end(), id) != own.end();
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
