#include "core/stage_ids.h"

#include <algorithm>

namespace attnlab {

namespace {

using G = StageGroup;
constexpr bool kPerHead = true;
constexpr bool kKvHead = true;

constexpr StageIdInfo kStageIds[] = {
    // The attention block, in the order of the math.
    {"embedding", G::Attention},
    {"positional_encoding", G::Attention},
    {"input", G::Attention},
    {"q", G::Attention, kPerHead},
    {"k", G::Attention, kPerHead, kKvHead},
    {"v", G::Attention, kPerHead, kKvHead},
    {"scores", G::Attention, kPerHead},
    {"scaled", G::Attention, kPerHead},
    {"mask", G::Attention}, // lsh's is per head (attention/kind.h: isPerHeadStage(id, kind))
    {"masked_scores", G::Attention, kPerHead},
    {"weights", G::Attention, kPerHead},
    {"head_output", G::Attention, kPerHead},
    {"concat", G::Attention},
    {"output", G::Attention},
    // The attention kinds' own stages (attention/kinds.cpp).
    {"projection_e", G::Kind},
    {"projection_f", G::Kind},
    {"k_projected", G::Kind, kPerHead},
    {"v_projected", G::Kind, kPerHead},
    {"random_features", G::Kind},
    {"q_features", G::Kind, kPerHead},
    {"k_features", G::Kind, kPerHead},
    {"kv", G::Kind, kPerHead},
    {"normalizer", G::Kind, kPerHead},
    {"random_rotations", G::Kind, kPerHead},
    {"buckets", G::Kind, kPerHead},
    {"tiles", G::Kind},
    {"running_max", G::Kind, kPerHead},
    {"running_sum", G::Kind, kPerHead},
    {"partial_output", G::Kind, kPerHead},
    {"reference_weights", G::Kind, kPerHead},
    {"error", G::Kind, kPerHead},
    {"reference_output", G::Kind},
    // The position schemes inside attention (position/inside.h), Transformer-XL's last.
    {"rope_angles", G::Position},
    {"q_rotated", G::Position, kPerHead},
    {"k_rotated", G::Position, kPerHead, kKvHead},
    {"position_bias", G::Position, kPerHead},
    {"relative_keys", G::Position},
    {"relative_values", G::Position},
    {"position_scores", G::Position, kPerHead},
    {"xl_w_r", G::Position, kPerHead},
    {"xl_u", G::Position, kPerHead},
    {"xl_v", G::Position, kPerHead},
    {"memory", G::Position},
    {"content_scores", G::Position, kPerHead},
    {"content_bias", G::Position, kPerHead},
    // An encoder or decoder layer's stages around its attention, and a model's after its stacks.
    {"attn_residual", G::Layer},
    {"attn_norm", G::Layer},
    {"cross_residual", G::Layer},
    {"cross_norm", G::Layer},
    {"ffn_hidden", G::Layer},
    {"ffn_output", G::Layer},
    {"ffn_residual", G::Layer},
    {"ffn_norm", G::Layer},
    {"layer_output", G::Layer},
    {"encoder_output", G::Layer},
    {"decoder_output", G::Layer},
    {"logits", G::Model},
    {"probabilities", G::Model},
    // Only pretrained models' traces.
    {"segment_embedding", G::Pretrained},
    {"embedding_sum", G::Pretrained},
    {"rollout", G::Pretrained},
    {"mlm_transform", G::Pretrained},
    // Only modern decoders' layers: Qwen3's q/k norms, the gated FFN, Gemma 3's post-norms.
    {"q_norm", G::Gated, kPerHead},
    {"k_norm", G::Gated, kPerHead, kKvHead},
    {"ffn_gate", G::Gated},
    {"ffn_up", G::Gated},
    {"attn_post_norm", G::Gated},
    {"ffn_post_norm", G::Gated},
};

} // namespace

std::span<const StageIdInfo> stageIdTable()
{
    return kStageIds;
}

const StageIdInfo* stageIdInfo(std::string_view id)
{
    const auto* it = std::find_if(std::begin(kStageIds), std::end(kStageIds), [&](const StageIdInfo& s) { return s.id == id; });
    return it == std::end(kStageIds) ? nullptr : it;
}

std::vector<std::string> stageIdsOf(StageGroup group)
{
    std::vector<std::string> out;
    for (const StageIdInfo& s : kStageIds) {
        if (s.group == group)
            out.emplace_back(s.id);
    }
    return out;
}

} // namespace attnlab
