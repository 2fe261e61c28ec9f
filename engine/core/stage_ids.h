#pragma once
/// Every stage id the engine writes into a trace, in one table (issue 30 §4), with whether the
/// stage exists once per head. The studio's texts for each id (title, formula, explanation, the
/// view that draws it) are the stage catalogue of ui/session/stagecatalogue.h, keyed on these ids.

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// Who adds a stage to a trace.
enum class StageGroup {
    Attention, ///< every attention block: embedding … output (docs/engine.md, section 6)
    Kind,      ///< an attention kind other than full (attention/kind.h)
    Position,  ///< a position scheme inside attention (position/inside.h)
    Layer,     ///< an encoder or decoder layer around its attention (docs/transformer-layers.md)
    Model,     ///< a model's output head: logits, probabilities
    Pretrained, ///< only pretrained models (pretrained/forward.h): BERT's embeddings, rollout
    Gated,     ///< only modern decoders' layers (families/gated.h)
};

struct StageIdInfo {
    std::string_view id;
    StageGroup group;
    bool perHead = false; ///< computed once per (query) head
    /// Per head, counting key/value heads in a grouped-query block (query head h reads KV head
    /// h / (heads / kvHeads)): k, v, k_norm, k_rotated.
    bool kvHead = false;
};

/// Every stage id, group by group, each group in the order its stages appear in a trace.
std::span<const StageIdInfo> stageIdTable();
/// The entry of `id`, or null for an id no stage has.
const StageIdInfo* stageIdInfo(std::string_view id);
/// The ids of one group, in the table's order (core/trace.h's stageIds(), layerStageIds(), …).
std::vector<std::string> stageIdsOf(StageGroup group);

} // namespace attnlab
