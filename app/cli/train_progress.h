#pragma once
// train's size and time, estimated before anything is made, and its progress while it runs.

#include "train/cost.h"
#include "train/trainer.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace attnlab::cli {

/// What training a model of `spec` (a fresh one with the task's vocabularies in `shape`, or the
/// --init model) with `options` will hold and take, with `reports` reports. Refuses (UsageError)
/// more steps than train::kMaxSteps, saying how long they would take, and (Error,
/// work_too_large) more memory than the limit, naming train's options to reduce; says on stderr
/// when the run is large (1 GB, 5 s: "note: a large run: … (1500 steps at about 190 steps/s)").
train::TrainCost checkTrainingCost(const ModelSpec& spec, const train::TrainShape& shape, const train::TrainOptions& options,
                                   int reports);

/// "1500 steps at about 190 steps/s" (or "at about 12 s a step").
std::string stepsText(int steps, const train::TrainCost& cost);

/// train's lines on stdout between its reports: at least one every 2 s of work (or
/// ATTNLAB_PROGRESS_AFTER_MS), with the step, the loss and the speed, during the steps and
/// during an evaluation, so that no run is silent for long.
class TrainProgress {
public:
    TrainProgress();

    /// After a step (`tokens` in all so far): a line when the last one is 2 s old and `mayPrint`
    /// (not on a step that is reported anyway).
    void afterStep(const train::StepRecord& record, std::size_t tokens, bool mayPrint);
    /// A report was printed: the next line is due 2 s from now.
    void reported();
    /// For Trainer::evaluate: a line saying how far the evaluation is when the last one is 2 s old.
    std::function<void(const train::EvaluationProgress&)> evaluating(const std::string& what);
    /// Seconds since the start.
    double seconds() const;

private:
    bool due() const;

    std::chrono::steady_clock::time_point m_start, m_last;
    std::chrono::milliseconds m_interval;
    train::StepRecord m_record; ///< the last step's
};

} // namespace attnlab::cli
