// --model: what it opens (an Attention Lab model, the shipped one, a bare PyTorch state dict, a
// Hugging Face folder) and which of the other options apply to each.

#include "options.h"

#include "families/gated.h"
#include "model/open.h"
#include "model/shipped.h"
#include "position/inside.h"
#include "text/printable.h"

#include <algorithm>
#include <filesystem>

namespace attnlab::cli {

namespace {

/// "sinusoidal positions, embeddings × √d_model": what a trained model fixes, in words.
std::string positionsOf(const Seq2SeqModel& m)
{
    return std::string(toString(m.spec.positional)) + " positions, embeddings " + (m.spec.embedScale ? "× √d_model" : "unscaled");
}

/// The checks of the options against the model they open.
void checkAgainst(const Seq2SeqModel& m, const ModelOptions& g)
{
    const ModelOrigin origin = originOf(m);
    const bool shapes = g.layers || g.dFF;
    const bool stateDictOptions = g.norm || g.activation || g.eps;
    if (origin == ModelOrigin::StateDict) {
        if (shapes)
            throw UsageError("--layers and --d-ff come from the state dict's shapes (" + std::to_string(m.spec.encoderLayers)
                             + " encoder and " + std::to_string(m.spec.decoderLayers) + " decoder layers, d_ff "
                             + std::to_string(m.spec.feedForwardWidth()) + ")");
    } else {
        if (shapes || stateDictOptions)
            throw UsageError("--layers, --d-ff, --norm, --activation and --layer-norm-eps describe a seeded model (or a bare "
                             "state dict); a --model file has its own");
        if (!g.modelOwns.empty())
            throw UsageError(g.modelOwns.front() + " does not apply to a trained model: its positions, embedding scale and seed "
                             "are part of it (" + positionsOf(m) + "); --no-scale does apply");
    }
    if ((g.dModel && *g.dModel != m.spec.dModel) || (g.heads && *g.heads != m.spec.heads))
        throw UsageError("--d-model and --heads must be the model's (d_model " + std::to_string(m.spec.dModel) + ", heads "
                         + std::to_string(m.spec.heads) + ")");
    // What the model reads: GPT-2 and BERT read one text (--sentence); a state dict without
    // decoder layers reads --sentence or --source; the others translate a --source.
    const bool encoderDecoder = m.spec.architecture == Architecture::EncoderDecoder;
    if (origin == ModelOrigin::Pretrained && (g.source || g.target))
        throw UsageError(std::string(m.spec.architecture == Architecture::DecoderOnly ? "GPT-2" : "BERT")
                         + " reads one text: give --sentence, not --source or --target");
    if (g.sentence && (encoderDecoder || origin == ModelOrigin::AttentionLab))
        throw UsageError("a model translates a --source (and optionally a --target), not a --sentence");
    if (g.segmentB && !(m.pretrained && m.spec.architecture == Architecture::EncoderStack))
        throw UsageError("--segment-b is BERT's second segment; this model reads one text");
}

} // namespace

std::vector<std::string> parseStageList(const std::string& value)
{
    std::vector<std::string> known = stageIds();
    for (const auto* more : {&layerStageIds(), &modelStageIds(), &pretrainedStageIds(), &gatedStageIds()})
        known.insert(known.end(), more->begin(), more->end());
    for (const AttentionKindInfo& kind : attentionKinds()) {
        const auto ids = kindStageIds(kind.kind);
        known.insert(known.end(), ids.begin(), ids.end());
    }
    for (const std::string& id : allPositionStageIds())
        known.push_back(id);
    std::vector<std::string> ids;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        const std::string id = value.substr(start, comma - start);
        if (std::find(known.begin(), known.end(), id) == known.end())
            throw UsageError("--stages: unknown stage " + inQuotes(id) + " (docs/trace-format.md lists the stage ids)");
        ids.push_back(id);
        start = comma + 1;
    }
    return ids;
}

std::shared_ptr<const Seq2SeqModel> openCliModel(const ModelOptions& g, const Config& config, ModelKind& kind)
{
    std::shared_ptr<const Seq2SeqModel> m;
    if (g.path == "reversal" && !std::filesystem::exists(g.path)) {
        m = shippedModel();
        kind = ModelKind::Reversal;
    } else {
        // A state dict's heads, norm, activation and ε are the options'; its embeddings are seeded.
        std::optional<StateDictOptions> bare;
        if (g.heads) {
            StateDictOptions s;
            s.heads = *g.heads;
            s.norm = g.norm.value_or(s.norm);
            s.activation = g.activation.value_or(s.activation);
            s.layerNormEps = g.eps.value_or(s.layerNormEps);
            s.seed = config.seed;
            s.positional = config.positional;
            s.embedScale = config.embedScale;
            bare = s;
        }
        m = std::make_shared<const Seq2SeqModel>(openModel(g.path, bare));
        kind = ModelKind::File;
    }
    checkAgainst(*m, g);
    return m;
}

} // namespace attnlab::cli
