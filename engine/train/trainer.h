#pragma once
/// The training loop (docs/training.md): batches of a task, the forward and backward pass split
/// over threads, clipping, Adam and the schedule; the held-out loss and exact-match accuracy;
/// the model as it stands after any step.
///
/// Deterministic: the same seed, options and thread count give the same model bit for bit. The
/// batch is split into one contiguous run of examples per thread, each with its own gradient
/// buffer, summed in thread order; with one thread nothing is split.

#include "train/network.h"
#include "train/optimizer.h"
#include "train/pool.h"
#include "train/tasks.h"

#include "core/message.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::train {

/// The model sizes of the Training view's presets and `train --preset`.
enum class Preset {
    Classroom, ///< 1 + 1 layers, d_model 32, 4 heads, d_ff 64: the anti-diagonal in seconds
    Standard,  ///< 2 + 2 layers, d_model 64, 4 heads, d_ff 128: the shipped model's sizes
};
std::optional<Preset> parsePreset(std::string_view name);
/// A ModelSpec with the preset's sizes (Post-LN, ReLU, the other fields default).
ModelSpec presetSpec(Preset preset);

/// The schedule without --lr or --warmup: warm-up over 100 steps to a peak of defaultRate(d),
/// then 1/√t.
inline constexpr int kDefaultWarmup = 100;
/// The default peak rate: 0.024/√d_model (3e-3 for d 64, 4.2e-3 for d 32), measured on reversal.
double defaultRate(int dModel);

/// The most steps a run may take: 10 million steps are a day at the standard preset's speed.
inline constexpr int kMaxSteps = 10'000'000;

struct TrainOptions {
    int steps = 1500;            ///< --steps: updates; 1 … kMaxSteps
    int batch = 64;              ///< --batch: pairs per update (ignored with batchAll)
    Schedule schedule{3e-3, kDefaultWarmup, 64}; ///< --lr, --warmup (dModel set from the model)
    double labelSmoothing = 0;   ///< --label-smoothing ε, 0 … < 1
    std::optional<double> clipNorm; ///< --clip-norm C
    std::uint64_t seed = 1;      ///< --seed: the batches (and a fresh model's weights)
    int threads = 2;             ///< --threads: 1 … 64
    bool batchAll = false;       ///< --batch-all: every training pair in every update

    /// Throws std::invalid_argument naming the bad option and the rule.
    void validate() const;
};

struct StepRecord {
    int step = 0;        ///< 1, 2, …
    double loss = 0;     ///< the batch's mean token loss before the update
    double lr = 0;       ///< the rate of this update
    double gradNorm = 0; ///< before clipping
    std::size_t tokens = 0; ///< source + decoder tokens of the batch
};

/// Training that went wrong: at record().step the loss or the gradient is not finite (NaN or
/// infinity), or the update would make weights that are not — most often a learning rate far
/// too high. Thrown by Trainer::step() with that step's update not applied: the parameters stay
/// those of the step before. Not bad input but a failed run (the command line exits 1).
class Diverged : public MessageError<std::runtime_error> {
public:
    Diverged(const StepRecord& record, const std::string& what);
    const StepRecord& record() const { return m_record; }

private:
    StepRecord m_record;
};

struct Evaluation {
    double loss = 0;       ///< mean token loss (teacher forcing, no smoothing)
    double exactMatch = 0; ///< the share of pairs whose greedy output is exactly the target
    std::size_t pairs = 0; ///< the pairs evaluated
    std::size_t of = 0;    ///< the held-out pairs there are (pairs is a sample of them when fewer)
};

/// How far an evaluation is: pairs done of all, and the greedy decoding step of the pairs at hand
/// (0 while their loss is computed) of at most `steps`.
struct EvaluationProgress {
    std::size_t pairsDone = 0;
    std::size_t pairs = 0;
    int step = 0;
    int steps = 0;
};

/// The held-out pairs evaluated at once: the memory of an evaluation is a batch's, whatever the
/// sample's size.
inline constexpr std::size_t kEvaluationChunk = 64;
/// The sample `train` evaluates at the end (the reports take 64): the exact match is known to
/// about ±2 % with 512 pairs, and 62 000 pairs of a large file took over a minute.
inline constexpr std::size_t kFinalEvaluationPairs = 512;

class Trainer {
public:
    /// Trains `model` on `task`: the model's own tokenizer and vocabularies read the pairs (a
    /// fresh model has the task's). Throws std::invalid_argument for invalid options, a model that
    /// cannot be trained, or batchAll with a built-in task.
    Trainer(Seq2SeqModel model, Task task, TrainOptions options);

    /// One update. Not thread-safe: one thread drives a Trainer. Throws Diverged when the loss,
    /// the gradient or the updated weights are not finite (the parameters are left as they were).
    StepRecord step();
    int steps() const { return m_adam.steps(); }

    /// The held-out pairs (a built-in task's fixed sample; a file's held-out lines, or its
    /// training lines when none is held out): all of them, or, when there are more than `limit`
    /// (> 0), `limit` of them evenly spaced (pairs i·N/limit). Taken kEvaluationChunk at a time;
    /// greedy decoding goes as far as the longest target needs (its length + 1: a longer output
    /// cannot match), so a model that never writes <eos> costs no more. `progress`, when given, is
    /// called after each chunk's loss and each decoding step.
    Evaluation evaluate(std::size_t limit = 0, const std::function<void(const EvaluationProgress&)>& progress = {}) const;
    /// The model with the parameters of the last step (its name and description kept).
    Seq2SeqModel model() const;
    const Task& task() const { return m_task; }
    const TrainOptions& options() const { return m_options; }
    /// The pair every snapshot shows: the first held-out pair of 6 to 9 source tokens (else the first).
    Pair probe() const;

private:
    std::vector<Example> batch();

    Seq2SeqModel m_model;
    Task m_task;
    TrainOptions m_options;
    Layout m_layout;
    Vec<float> m_params;
    Vec<float> m_before; ///< the parameters before the update in progress (kept when it diverges)
    Adam m_adam;
    SplitMix64 m_random;
    std::vector<Vec<float>> m_grads; ///< one per thread
    std::unique_ptr<WorkerPool> m_pool;
    std::vector<Example> m_all;      ///< batchAll: every training pair
    std::vector<Example> m_heldOut;
    std::vector<Pair> m_heldOutPairs;
    int m_maxLength = 1;
};

} // namespace attnlab::train
