// Running what the command line asks for: the cost checked and announced first, then run(),
// with a long generation's progress on stderr.

#include "options.h"

#include "core/message.h"

#include <QtGlobal>

#include <algorithm>
#include <chrono>
#include <iostream>

namespace attnlab::cli {

void checkRunCost(const RunRequest& r, const Seq2SeqModel* model)
{
    const RunCost cost = estimateRun(r, model);
    checkCost(cost);
    if (isLargeRun(cost))
        std::cerr << "attention-lab-cli: note: " << messages::largeRun(static_cast<double>(cost.weightBytes + cost.traceBytes) / (1 << 20),
                                                                       cost.seconds()).text
                  << '\n';
}

void checkWorkCost(const std::string& what, const WorkCost& cost, const std::string& reduce, const std::string& detail)
{
    checkWork(what, cost, reduce);
    if (isLargeWork(cost))
        std::cerr << "attention-lab-cli: note: " << messages::largeWork(sizeText(cost.bytes), durationText(cost.seconds), detail).text
                  << '\n';
}

Trace computeCliTrace(const TraceOptions& o, Generation* generation)
{
    RunRequest r;
    r.config = o.request.config;
    if (!o.model) {
        r.text = o.request.sentence;
        r.weights = o.request.weights;
        r.customMask = o.request.customMask;
        r.config.validate();
        checkRunCost(r, nullptr);
        return *run(r).trace;
    }
    r.text = o.source;
    r.target = o.target;
    r.segmentB = o.segmentB;
    r.model = o.model;
    r.maxSteps = o.maxLength;
    // A pretrained model's trace keeps every stage the command writes (--stages: only those,
    // so that GPT-2 small's n = 1024 weights fit in memory), never a compact one.
    r.keep.detail = TraceDetail::Full;
    r.keep.only = o.stages;
    if (!o.costChecked)
        checkRunCost(r, o.model.get());
    // A long generation says how far it is: a line per tenth of its length limit on stderr,
    // once it has run for 2 seconds (or ATTNLAB_PROGRESS_AFTER_MS), with the time left should it
    // go on to its limit: the time so far scaled by the work still to do (each step costs more
    // than the one before it).
    bool set = false;
    const int afterMs = qEnvironmentVariableIntValue("ATTNLAB_PROGRESS_AFTER_MS", &set);
    const auto quiet = std::chrono::milliseconds(set ? afterMs : 2000);
    const auto secondsUpTo = [r, model = o.model.get()](int steps) {
        RunRequest upTo = r;
        upTo.maxSteps = steps;
        return estimateRun(upTo, model).seconds();
    };
    r.progress = [last = -1, start = std::chrono::steady_clock::now(), quiet, secondsUpTo](int done, int most) mutable {
        const int tenth = done * 10 / std::max(most, 1);
        const auto elapsed = std::chrono::steady_clock::now() - start;
        if (tenth != last && elapsed >= quiet) {
            last = tenth;
            std::cerr << "attention-lab-cli: generating: step " << done << " of at most " << most;
            if (done < most) {
                const double spent = std::chrono::duration<double>(elapsed).count();
                const double left = spent * (secondsUpTo(most) / std::max(secondsUpTo(done), 1e-9) - 1);
                std::cerr << " (at most about " << static_cast<long long>(left + 0.5) << " s left)";
            }
            std::cerr << '\n';
        }
    };
    if (!o.target && o.model->spec.decoderLayers > 0 && !o.model->hasHead())
        throw std::invalid_argument("this model has no output head (a seeded model): generation needs a trained model; "
                                    "give --target TEXT (teacher forcing)");
    RunResult result = run(r);
    if (generation)
        *generation = std::move(result.generation);
    return *result.trace;
}

} // namespace attnlab::cli
