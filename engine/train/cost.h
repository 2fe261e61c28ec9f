#pragma once
/// What training will hold and take, from the sizes alone, before a weight is made
/// (docs/training.md, "Size and time"): the parameters four times over and once more per thread
/// (the model, its flat copy, Adam's two moments, a gradient buffer per thread), the activations
/// one batch keeps for its backward pass, the held-out evaluation's; the arithmetic of a step, of
/// the reports' evaluations and of the final one.

#include "core/cost.h"
#include "core/model_spec.h"
#include "train/trainer.h"

#include <cstdint>

namespace attnlab::train {

/// The pairs a run trains and evaluates on, as token counts.
struct TrainShape {
    double meanSource = 1;   ///< source tokens of a pair, on average
    double meanTarget = 1;   ///< target tokens (without <sos>/<eos>)
    int longestSource = 1;
    int longestTarget = 1;
    std::int64_t sourceVocabulary = 0;
    std::int64_t targetVocabulary = 0;
    std::int64_t trainPairs = 0; ///< a file's training pairs (--batch-all: each step's batch); 0 for a built-in task
    std::int64_t heldOutPairs = 0; ///< the pairs an evaluation samples from
};

/// The shape of `task`'s pairs (vocabularies: the task's, for a fresh model).
TrainShape shapeOf(const Task& task);

struct TrainCost {
    std::int64_t parameters = 0; ///< every trainable number
    std::int64_t bytes = 0;      ///< the most held at once
    double stepSeconds = 0;      ///< one update
    double seconds = 0;          ///< every step, the reports' evaluations and the final one

    WorkCost work() const { return {bytes, seconds}; }
    double stepsPerSecond() const { return stepSeconds > 0 ? 1 / stepSeconds : 0; }
};

/// The cost of training a model of `spec` (an encoder–decoder) on pairs of `shape` with `options`,
/// evaluating `reportPairs` held-out pairs at each of `reports` reports and `finalPairs` at the end
/// (or all there are, when fewer). The evaluations' greedy decoding is counted to the longest
/// target's end: a model that writes <eos> earlier takes less.
TrainCost estimateTraining(const ModelSpec& spec, const TrainShape& shape, const TrainOptions& options, int reports,
                           std::int64_t reportPairs, std::int64_t finalPairs);

} // namespace attnlab::train
