#include "train_progress.h"

#include "options.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace attnlab::cli {

namespace {

/// 2 s, or ATTNLAB_PROGRESS_AFTER_MS (as the other commands' progress lines).
std::chrono::milliseconds progressInterval()
{
    const char* env = std::getenv("ATTNLAB_PROGRESS_AFTER_MS");
    if (env && *env) {
        char* end = nullptr;
        const long ms = std::strtol(env, &end, 10);
        if (*end == '\0' && ms >= 0)
            return std::chrono::milliseconds(ms);
    }
    return std::chrono::milliseconds(2000);
}

constexpr const char* kReduceTraining = "use a smaller --d-model or --d-ff, fewer --layers, a smaller --batch or fewer --threads";

} // namespace

std::string stepsText(int steps, const train::TrainCost& cost)
{
    char s[96];
    if (cost.stepSeconds >= 1)
        std::snprintf(s, sizeof s, "%d steps at about %s a step", steps, durationText(cost.stepSeconds).c_str());
    else
        std::snprintf(s, sizeof s, "%d steps at about %.0f steps/s", steps, cost.stepsPerSecond());
    return s;
}

train::TrainCost checkTrainingCost(const ModelSpec& spec, const train::TrainShape& shape, const train::TrainOptions& options,
                                   int reports)
{
    const train::TrainCost cost = estimateTraining(spec, shape, options, reports, 64, static_cast<std::int64_t>(train::kFinalEvaluationPairs));
    if (options.steps > train::kMaxSteps)
        throw UsageError("--steps (" + std::to_string(options.steps) + ") must be at most " + std::to_string(train::kMaxSteps) + ": "
                         + stepsText(options.steps, cost) + " would take about " + durationText(cost.stepSeconds * options.steps));
    checkWorkCost("training", cost.work(), kReduceTraining, stepsText(options.steps, cost));
    return cost;
}

TrainProgress::TrainProgress()
    : m_start(std::chrono::steady_clock::now())
    , m_last(m_start)
    , m_interval(progressInterval())
{
}

bool TrainProgress::due() const
{
    return std::chrono::steady_clock::now() - m_last >= m_interval;
}

double TrainProgress::seconds() const
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

void TrainProgress::reported()
{
    m_last = std::chrono::steady_clock::now();
}

void TrainProgress::afterStep(const train::StepRecord& r, std::size_t tokens, bool mayPrint)
{
    m_record = r;
    if (!mayPrint || !due())
        return;
    const double s = seconds();
    std::printf("step %6d  loss %.4f  lr %.6f  %.1f steps/s  %.0f tokens/s\n", r.step, r.loss, r.lr, r.step / s,
                static_cast<double>(tokens) / s);
    std::fflush(stdout);
    reported();
}

std::function<void(const train::EvaluationProgress&)> TrainProgress::evaluating(const std::string& what)
{
    return [this, what](const train::EvaluationProgress& p) {
        if (!due() || p.pairsDone >= p.pairs)
            return;
        const std::size_t last = std::min(p.pairs, p.pairsDone + train::kEvaluationChunk);
        char line[200];
        if (p.step > 0)
            std::snprintf(line, sizeof line, "%s: pairs %zu to %zu of %zu, greedy decoding token %d of at most %d", what.c_str(),
                          p.pairsDone + 1, last, p.pairs, p.step, p.steps);
        else
            std::snprintf(line, sizeof line, "%s: pairs %zu to %zu of %zu", what.c_str(), p.pairsDone + 1, last, p.pairs);
        std::printf("step %6d  loss %.4f  %.1f steps/s  (%s)\n", m_record.step, m_record.loss, m_record.step / seconds(), line);
        std::fflush(stdout);
        reported();
    };
}

} // namespace attnlab::cli
