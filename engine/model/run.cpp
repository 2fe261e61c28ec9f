#include "model/run.h"

#include "model/messages.h"
#include "model/shipped.h"
#include "pretrained/model_folder.h"
#include "text/tokenizer.h"

#include <algorithm>

#include <stdexcept>

namespace attnlab {

namespace {

/// What every model run starts with: the request checked, the config reporting what the model
/// did, and the source's tokens with what the tokenizer said.
struct ModelInput {
    Config config;
    std::vector<std::string> source;
    std::vector<Message> warnings;
};

ModelInput modelInput(const RunRequest& r)
{
    r.config.validate();
    if (!r.model)
        throw Error(say(modelMessage("no_model_chosen")));
    // The trace reports what the model did: its own positions, embedding scale and seed (a
    // trained model's settings of those are part of it), the run's score scaling.
    ModelInput in;
    in.config = r.config;
    in.config.positional = r.model->spec.positional;
    in.config.embedScale = r.model->spec.embedScale;
    in.config.seed = r.model->spec.seed;
    if (r.segmentB && !(r.model->pretrained && r.model->pretrained->wordPiece))
        throw Error(messages::segmentBNotBert());
    if (r.model->pretrained) {
        // GPT-2 and BERT read their text as it is: no padding, their own masks (GPT-2's causal).
        in.config.mask = MaskKind::None;
        in.config.padTo = 0;
    } else {
        in.source = modelTokens(*r.model, r.text, false, in.config.maxTokens, in.warnings);
        padSource(*r.model, in.source, in.config.padTo, in.warnings);
    }
    return in;
}

/// The trace of step `wanted` (-1: the last) of a generation that has at least one step.
std::shared_ptr<const Trace> stepTrace(const Generation& g, int wanted)
{
    const int last = static_cast<int>(g.size()) - 1;
    const int at = wanted < 0 ? last : std::min(wanted, last);
    return g.step(static_cast<std::size_t>(at));
}

RunResult runModel(const RunRequest& r)
{
    ModelInput in = modelInput(r);
    const Config& c = in.config;
    const std::shared_ptr<const Seq2SeqModel>& model = r.model;
    RunResult out;
    std::vector<Message>& warnings = in.warnings;
    if (model->pretrained) {
        if (r.target)
            throw Error(messages::pretrainedTarget());
        const PretrainedTokens tokens = pretrainedTokens(*model->pretrained, r.text, r.segmentB, c.maxTokens);
        out.inputWarnings = tokens.warnings;
        out.trace = withWarnings(std::make_shared<const Trace>(computePretrainedTrace(model, tokens, c, r.keep)), out.inputWarnings);
        return out;
    }
    if (model->spec.architecture == Architecture::EncoderStack) {
        if (r.target)
            throw Error(messages::targetWithoutDecoder());
        out.trace = std::make_shared<const Trace>(computeModelTrace(model, in.source, {}, c));
    } else if (r.target || !model->hasHead()) {
        // Teacher forcing; a model without a head cannot generate and reads the source instead.
        const auto input = teacherForcingInput(*model, r.target ? *r.target : r.text, c.maxTokens, warnings);
        out.trace = std::make_shared<const Trace>(computeModelTrace(model, in.source, input, c));
    } else {
        out.generation = generate(model, in.source, c, r.maxSteps, r.progress);
        out.trace = stepTrace(out.generation, r.generationStep);
    }
    out.trace = withWarnings(std::move(out.trace), warnings);
    out.inputWarnings = std::move(warnings);
    return out;
}

} // namespace

RunCost estimateRun(const RunRequest& r, const Seq2SeqModel* model)
{
    const Config& c = r.config;
    RunShape shape;
    if (c.model == ModelKind::None) {
        shape.singleBlock = true;
        shape.source = static_cast<std::int64_t>(tokenize(r.text, c.maxTokens, c.padTo).tokens.size());
        shape.makeWeights = !r.weights;
        return estimateCost(c, shape);
    }
    const ModelSpec& spec = model ? model->spec : static_cast<const ModelSpec&>(c);
    std::vector<Message> ignored;
    if (model && model->pretrained) {
        shape.source = static_cast<std::int64_t>(pretrainedTokens(*model->pretrained, r.text, r.segmentB, c.maxTokens).ids.size());
        shape.makeWeights = false;
        shape.vocabulary = model->hasHead() ? model->pretrained->config().vocabulary : 0;
        RunCost cost = estimateCost(spec, shape);
        cost.traceBytes = pretrainedTraceBytes(spec, shape.source, shape.vocabulary, r.keep);
        cost.traceNumbers = cost.traceBytes / 4;
        return cost;
    }
    shape.source = std::max<std::int64_t>(static_cast<std::int64_t>(specTokens(spec, r.text, false, c.maxTokens, ignored).size()),
                                          c.padTo);
    shape.makeWeights = !model;
    if (spec.architecture == Architecture::EncoderDecoder) {
        const bool head = model && model->hasHead();
        if (!r.target && head) {
            shape.generationSteps = r.maxSteps > 0 ? std::min(r.maxSteps, kMaxTargetLength) : spec.maxTargetLength;
        } else {
            const auto target = specTokens(spec, r.target ? *r.target : r.text, true, c.maxTokens, ignored);
            shape.target = 1 + static_cast<std::int64_t>(target.size());
        }
        shape.vocabulary = head ? static_cast<std::int64_t>(model->tgtVocab.size()) : 0;
    }
    return estimateCost(spec, shape);
}

RunResult run(const RunRequest& r)
{
    r.config.validate(); // before estimating: the sizes must be valid
    checkCost(estimateRun(r, r.model.get()));
    if (r.config.model != ModelKind::None)
        return runModel(r);
    Request block;
    block.sentence = r.text;
    block.config = r.config;
    block.weights = r.weights;
    block.customMask = r.customMask;
    RunResult out;
    out.trace = std::make_shared<const Trace>(computeTrace(block));
    return out;
}

bool generates(const RunRequest& r)
{
    return r.config.model != ModelKind::None && r.model && !r.model->pretrained && !r.target
        && r.model->spec.architecture == Architecture::EncoderDecoder && r.model->hasHead();
}

GenerationRun::GenerationRun(const RunRequest& r)
{
    if (!generates(r))
        throw std::invalid_argument("this request does not generate");
    r.config.validate();
    checkCost(estimateRun(r, r.model.get()));
    ModelInput in = modelInput(r);
    m_decoder = std::make_unique<GreedyDecoder>(r.model, in.source, in.config, r.maxSteps);
    m_warnings = std::move(in.warnings);
    m_wanted = r.generationStep;
}

RunResult GenerationRun::result() const
{
    RunResult out;
    out.generation = m_decoder->generation();
    out.trace = withWarnings(stepTrace(out.generation, m_wanted), m_warnings);
    out.inputWarnings = m_warnings;
    return out;
}

std::shared_ptr<const Trace> withWarnings(std::shared_ptr<const Trace> trace, const std::vector<Message>& warnings)
{
    if (warnings.empty())
        return trace;
    auto copy = std::make_shared<Trace>(*trace); // stages are shared, not copied
    copy->warnings.insert(copy->warnings.begin(), warnings.begin(), warnings.end());
    return copy;
}

std::shared_ptr<const AttentionWeights> ModelCache::presetWeights(const Config& c)
{
    c.validate(); // never make weights for an invalid width
    const bool cached = m_weights && m_weightsKey.weightsPreset == c.weightsPreset && m_weightsKey.dModel == c.dModel
        && m_weightsKey.seed == c.seed;
    if (!cached) {
        m_weights = std::make_shared<const AttentionWeights>(attnlab::presetWeights(c.weightsPreset, c.dModel, c.seed));
        m_weightsKey = c;
    }
    return m_weights;
}

std::shared_ptr<const Seq2SeqModel> ModelCache::model(const Config& c, const std::shared_ptr<const Seq2SeqModel>& file)
{
    switch (c.model) {
    case ModelKind::Reversal:
        return shippedModel(); // throws with the reason when the build is broken
    case ModelKind::File:
        if (!file)
            throw Error(messages::noModelFile());
        return file;
    case ModelKind::Seeded: {
        // The model is its ModelSpec; scaling the scores does not change the weights.
        ModelSpec wanted = c;
        wanted.scaleScores = true;
        if (!m_seeded || !(m_seededKey == wanted)) {
            c.validate();
            m_seeded = std::make_shared<const Seq2SeqModel>(seededModel(c));
            m_seededKey = wanted;
        }
        return m_seeded;
    }
    case ModelKind::None:
        break;
    }
    return nullptr;
}

void adoptModelWidths(Config& c, const Seq2SeqModel& m)
{
    // Only the widths: layers, d_ff, norm and activation describe a seeded model.
    c.dModel = m.spec.dModel;
    c.heads = m.spec.heads;
}

void adoptModel(Config& c, const Seq2SeqModel& m)
{
    ModelSpec spec = m.spec;
    // What stays the user's: the scaling of the scores (an experiment on any model).
    spec.scaleScores = c.scaleScores;
    static_cast<ModelSpec&>(c) = spec;
}

} // namespace attnlab
