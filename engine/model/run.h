#pragma once
/// The one entry point of the engine: what the Session, session loading and the command line
/// call to turn text and settings into a Trace (docs/architecture.md).
///
///   config.model == None   one attention block on `text` (nn/attention.h)
///   a model, no decoder    an encoder stack on `text`
///   a model with decoder   the encoder on `text`; the decoder on <sos> + `target` (teacher
///                          forcing), or greedy generation when there is no target and the model
///                          has an output head; a model without a head (a seeded one) reads
///                          `text` as its target.

#include "core/config.h"
#include "core/cost.h"
#include "model/model.h"
#include "pretrained/trace_detail.h"
#include "nn/attention.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace attnlab {

struct RunRequest {
    /// The sentence of one attention block or an encoder stack; the source of an encoder–decoder.
    std::string text;
    /// Teacher forcing: the decoder reads <sos> + these tokens. None: see above.
    std::optional<std::string> target;
    /// BERT's second segment: [CLS] text [SEP] segmentB [SEP] (token type ids 0, then 1).
    std::optional<std::string> segmentB;
    Config config;
    /// One attention block: the weights (imported, or made by ModelCache); null makes them from
    /// config.weightsPreset.
    std::shared_ptr<const AttentionWeights> weights;
    /// One attention block, config.mask == Custom: n x n, true = masked.
    std::optional<BoolMatrix> customMask;
    /// The model when config.model != None (ModelCache::model makes or finds it).
    std::shared_ptr<const Seq2SeqModel> model;
    /// Generation: the step whose trace is returned, 0-based; -1 for the last.
    int generationStep = -1;
    /// Generation: at most this many tokens (0: the model's max_target_length).
    int maxSteps = 0;
    /// Generation: called after each step with (steps done, most steps), when given.
    std::function<void(int, int)> progress;
    /// A pretrained model (GPT-2, BERT): how much of the pass the trace keeps
    /// (pretrained/trace_detail.h; by default compact when large).
    TraceKeep keep;
};

struct RunResult {
    /// The trace (never null): for generation, the chosen step. What the tokenizer said about
    /// the source and target comes first in its warnings.
    std::shared_ptr<const Trace> trace;
    /// Greedy generation's every step (empty when the decoder did not generate).
    Generation generation;
    /// What the tokenizer said about a model's source and target (also in front of trace's and
    /// every generation step's warnings).
    std::vector<Message> inputWarnings;
};

/// What the request will cost (core/cost.h), from its token counts and sizes alone. `model` is
/// the model it runs (null: a seeded model not made yet, whose weights count as made).
RunCost estimateRun(const RunRequest& request, const Seq2SeqModel* model);

/// Computes what the request asks for. Throws std::invalid_argument for a bad request (invalid
/// settings, no tokens, weights or a mask that do not fit, a missing model, too large a trace:
/// checked up front with estimateRun).
RunResult run(const RunRequest& request);

/// True when run(request) generates: a model with a decoder and an output head, no target, no
/// pretrained folder (GPT-2's generation is pretrained/generate.h's).
bool generates(const RunRequest& request);

/// run() for a request that generates, a step at a time (model/model.h's GreedyDecoder with
/// what run() adds: the checks, the tokenizer's warnings, the step asked for). The studio runs
/// the steps off its GUI thread, shows the steps done so far and stops between two steps.
class GenerationRun {
public:
    /// Checks the request as run() does, tokenizes the source and runs the encoder; no step
    /// yet. Throws as run(), and std::invalid_argument when the request does not generate.
    explicit GenerationRun(const RunRequest& request);
    /// One more token (nothing once finished()).
    void step() { m_decoder->step(); }
    /// True after <eos> or the length limit.
    bool finished() const { return m_decoder->finished(); }
    /// Steps done, and the most there can be.
    int done() const { return static_cast<int>(m_decoder->generation().size()); }
    int limit() const { return m_decoder->limit(); }
    /// The steps done so far (a copy shares the traces and stays valid while the steps go on).
    const Generation& generation() const { return m_decoder->generation(); }
    /// What run() returns for the steps done so far (at least one): the generation, the trace
    /// of the request's generationStep (the last step done when it is not done yet).
    RunResult result() const;

private:
    std::unique_ptr<GreedyDecoder> m_decoder;
    std::vector<Message> m_warnings;
    int m_wanted = -1;
};

/// `trace` with `warnings` in front of its own (the same trace when there are none).
std::shared_ptr<const Trace> withWarnings(std::shared_ptr<const Trace> trace, const std::vector<Message>& warnings);

/// Makes the weights and models a Config asks for, and keeps them: seeded weights are megabytes
/// of random numbers, made once per size and seed rather than on every keystroke.
class ModelCache {
public:
    /// One attention block's weights for config.weightsPreset, d_model and seed.
    std::shared_ptr<const AttentionWeights> presetWeights(const Config& config);
    /// The model config.model names: the shipped one, `file` (for ModelKind::File), or the
    /// seeded model the config's ModelSpec describes; null for ModelKind::None. Throws
    /// std::invalid_argument when there is none (no file open) or the config is invalid.
    std::shared_ptr<const Seq2SeqModel> model(const Config& config, const std::shared_ptr<const Seq2SeqModel>& file);

private:
    std::shared_ptr<const AttentionWeights> m_weights;
    Config m_weightsKey;
    std::shared_ptr<const Seq2SeqModel> m_seeded;
    ModelSpec m_seededKey;
};

/// Sets d_model and heads of a trained or file model into `config` (the widths its file fixes);
/// the rest of the config's ModelSpec keeps describing the user's seeded model.
void adoptModelWidths(Config& config, const Seq2SeqModel& model);
/// The model's ModelSpec in `config`, except what stays the run's: the scaling of the scores
/// (the command line reports the model it ran this way). A model's positions, embedding scale
/// and seed are part of it: run() reports them in the trace's config whatever the request said.
void adoptModel(Config& config, const Seq2SeqModel& model);

} // namespace attnlab
