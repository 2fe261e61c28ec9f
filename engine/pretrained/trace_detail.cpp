#include "pretrained/trace_detail.h"

#include "core/model_spec.h"
#include "families/family.h"
#include "model/model.h"
#include "pretrained/forward.h"
#include "pretrained/model_folder.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab {

namespace {

using I = std::int64_t;

/// A compact trace keeps every layer's weights and output, and outside the layers all but the
/// output head's logits and probabilities (n x V each: 196 MB for GPT-2 at n = 1024).
bool keptInCompact(const StageKey& key)
{
    if (key.layer)
        return key.id == "weights" || key.id == "layer_output";
    return key.id != "logits" && key.id != "probabilities";
}

/// The ids a pass keeps to make `only`: the rollout is made from the weights, so they are kept
/// for it too (and not written).
std::vector<std::string> withInputs(std::vector<std::string> only)
{
    if (std::find(only.begin(), only.end(), "rollout") != only.end())
        only.push_back("weights");
    return only;
}

/// A stage id of every layer, with its shape; the stages outside the layers are the family's
/// (families/family.h), and the rollout and the output head every family's.
struct StageShape {
    const char* id;
    bool perLayer;
    bool normStatistics; ///< + the mean and the variance (n x 1 each)
    bool head;           ///< only with an output head
};

/// The numbers of the stages with this id, all heads and layers, of a pass on n tokens.
I stageCells(const StageShape& shape, const ModelSpec& s, I n, I vocabulary)
{
    const std::string_view id = shape.id;
    const I d = s.dModel, h = s.heads, layers = std::max(s.encoderLayers, s.decoderLayers);
    I cells = n * d; // per layer: concat, output, the residuals, the norms, ffn_output, layer_output; the embeddings
    if (id == "q" || id == "k" || id == "v" || id == "head_output")
        cells = n * d; // h heads of n x d/h
    else if (id == "scores" || id == "scaled" || id == "masked_scores" || id == "weights")
        cells = h * n * n;
    else if (id == "mask" || id == "rollout")
        cells = n * n;
    else if (id == "ffn_hidden")
        cells = n * s.feedForwardWidth();
    else if (id == "logits" || id == "probabilities")
        cells = n * vocabulary;
    if (shape.normStatistics)
        cells += 2 * n;
    return shape.perLayer ? layers * cells : cells;
}

/// The family's stages and those of every family, with their shapes.
std::vector<StageShape> stageShapes(const ModelFamily& family)
{
    std::vector<StageShape> shapes;
    for (const OuterStage& o : family.outerStages)
        shapes.push_back({o.id, false, o.normStatistics, o.head});
    for (const char* id : {"q", "k", "v", "scores", "scaled", "mask", "masked_scores", "weights", "head_output", "concat", "output",
                           "attn_residual", "ffn_hidden", "ffn_output", "ffn_residual", "layer_output"})
        shapes.push_back({id, true, false, false});
    for (const char* id : {"attn_norm", "ffn_norm"})
        shapes.push_back({id, true, true, false});
    shapes.push_back({"rollout", false, false, false});
    for (const char* id : {"logits", "probabilities"})
        shapes.push_back({id, false, false, true});
    return shapes;
}

I traceBytes(const ModelSpec& s, I n, I vocabulary, bool compact, const std::vector<std::string>& asked)
{
    const std::vector<std::string> only = withInputs(asked);
    I cells = 0;
    for (const StageShape& shape : stageShapes(familyOfSpec(s))) {
        const StageKey key{shape.id, std::nullopt, shape.perLayer ? std::optional<int>(0) : std::nullopt};
        const bool kept = !only.empty() ? std::find(only.begin(), only.end(), key.id) != only.end() : !compact || keptInCompact(key);
        if (kept && (!shape.head || vocabulary > 0))
            cells += stageCells(shape, s, n, vocabulary);
    }
    return 4 * cells;
}

} // namespace

bool isCompact(const ModelSpec& spec, std::int64_t n, std::int64_t vocabulary, const TraceKeep& options)
{
    if (!options.only.empty() || options.detail == TraceDetail::Full)
        return false;
    return options.detail == TraceDetail::Compact || traceBytes(spec, n, vocabulary, false, {}) > kCompactAboveBytes;
}

std::int64_t pretrainedTraceBytes(const ModelSpec& spec, std::int64_t n, std::int64_t vocabulary, const TraceKeep& options)
{
    return traceBytes(spec, n, vocabulary, isCompact(spec, n, vocabulary, options), options.only);
}

void keepStages(StageList& stages, bool compact, const std::vector<std::string>& only, bool deferHead)
{
    if (!only.empty()) {
        const std::vector<std::string> ids = withInputs(only);
        stages.setKeep([ids](const StageKey& k) { return std::find(ids.begin(), ids.end(), k.id) != ids.end(); }, false);
    }
    else if (compact)
        stages.setKeep(keptInCompact, true);
    else if (deferHead)
        stages.setKeep([](const StageKey& k) { return k.layer || (k.id != "logits" && k.id != "probabilities"); }, true);
}

namespace {

/// The dropped stages of one layer (or of the output head) made again from what `full` kept.
StageList remake(const Trace& full, std::optional<int> layer, Block block)
{
    if (!full.model || !full.model->pretrained)
        throw std::invalid_argument("only a pretrained model's compact trace has stages to make again");
    const PretrainedModel& m = *full.model->pretrained;
    ModelSpec spec = full.model->spec;
    spec.scaleScores = full.config.scaleScores;
    const ModelFamily& family = modelFamily(m.family());
    const Block stack = family.block();
    const Stage* input = full.find("input", std::nullopt, std::nullopt, stack);
    if (!input)
        throw std::invalid_argument("the trace has no input stage to start from");
    StageList out;
    std::vector<Message> warnings; // the pass reported them already
    if (!layer) {
        // The head reads ln_f's output (GPT-2) or the MLM transform (BERT).
        const Stage* x = full.find(family.headInput, std::nullopt, std::nullopt, Block::None);
        if (!x)
            throw std::invalid_argument("the trace kept no input for the output head");
        detail::addHeadStages(m.weights, x->main().values, x->main().rowLabels, m.vocabulary, out);
        return out;
    }
    const Stage* from = *layer == 0 ? input : full.find("layer_output", std::nullopt, *layer - 1, block);
    if (!from)
        throw std::invalid_argument("the trace kept no input for layer " + std::to_string(*layer + 1));
    detail::pretrainedLayer(m.weights, spec, *layer, from->main().values, input->main().rowLabels, out, warnings);
    return out;
}

} // namespace

StageList blockStages(const Trace& full, std::optional<int> layer, Block block)
{
    const auto here = [&](const StageKey& k) { return k.layer == layer && k.block == block; };
    const auto& dropped = full.stages.dropped();
    const bool remade = std::any_of(dropped.begin(), dropped.end(), [&](const DroppedStage& d) { return here(d.key); });
    const StageList again = remade ? remake(full, layer, block) : StageList{};
    StageList out;
    auto next = dropped.begin();
    for (std::size_t i = 0; i <= full.stages.size(); ++i) {
        for (; next != dropped.end() && next->before == i; ++next) {
            if (!here(next->key))
                continue;
            const StageKey& k = next->key;
            const auto at = std::find_if(again.begin(), again.end(), [&](const Stage& s) { return s.key() == k; });
            if (at == again.end())
                throw std::invalid_argument("stage " + k.id + " could not be made again");
            out.share(again.pointer(static_cast<std::size_t>(at - again.begin())));
        }
        if (i < full.stages.size() && here(full.stages[i]))
            out.share(full.stages.pointer(i));
    }
    return out;
}

} // namespace attnlab
