#include "core/trace.h"

#include <algorithm>

namespace attnlab {

Stage& StageList::add()
{
    auto stage = std::make_shared<Stage>();
    Stage& s = *stage;
    m_stages.push_back(std::move(stage));
    return s;
}

void StageList::shareAll(const StageList& other)
{
    m_stages.insert(m_stages.end(), other.m_stages.begin(), other.m_stages.end());
}

const Stage* Trace::find(std::string_view id, std::optional<int> head) const
{
    return find(id, head, scopeLayer, scopeBlock);
}

const Stage* Trace::find(std::string_view id, std::optional<int> head, std::optional<int> layer, Block block) const
{
    return findStage(stages, id, head, layer, block);
}

const Stage* Trace::input(const Stage& stage, std::size_t i) const
{
    return i < stage.inputs.size() ? findKey(stage.inputs[i]) : nullptr;
}

const Stage* findStage(const StageList& stages, std::string_view id, std::optional<int> head, std::optional<int> layer,
                       Block block)
{
    for (const Stage& s : stages) {
        if (s.id == id && s.head == head && s.layer == layer && s.block == block)
            return &s;
    }
    return nullptr;
}

const std::vector<std::string>& stageIds()
{
    static const std::vector<std::string> kIds{
        "embedding", "positional_encoding", "input", "q", "k", "v", "scores", "scaled",
        "mask", "masked_scores", "weights", "head_output", "concat", "output",
    };
    return kIds;
}

bool isPerHeadStage(std::string_view id)
{
    static constexpr std::string_view kPerHead[] = {"q", "k", "v", "scores", "scaled", "masked_scores", "weights", "head_output"};
    return std::find(std::begin(kPerHead), std::end(kPerHead), id) != std::end(kPerHead);
}

const std::vector<std::string>& layerStageIds()
{
    static const std::vector<std::string> kIds{
        "attn_residual", "attn_norm", "cross_residual", "cross_norm", "ffn_hidden", "ffn_output",
        "ffn_residual", "ffn_norm", "layer_output", "encoder_output", "decoder_output",
    };
    return kIds;
}

const std::vector<std::string>& modelStageIds()
{
    static const std::vector<std::string> kIds{"logits", "probabilities"};
    return kIds;
}

const std::vector<std::string>& pretrainedStageIds()
{
    static const std::vector<std::string> kIds{"segment_embedding", "embedding_sum", "mlm_transform"};
    return kIds;
}

bool isLayerNormStage(std::string_view id)
{
    return id == "attn_norm" || id == "cross_norm" || id == "ffn_norm";
}

} // namespace attnlab
