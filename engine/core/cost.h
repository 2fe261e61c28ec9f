#pragma once
/// What a run will cost, estimated from the sizes alone before anything is built: the bytes of
/// the weights a seeded model needs, the bytes of the trace, and the arithmetic. Making 1.4
/// billion seeded weights takes half a minute and 5.6 GB; a trace of 12 layers of width 2048
/// over 1024 tokens takes 2 GB and a minute and a half. Both are refused or announced up front.

#include "core/model_spec.h"

#include <cstdint>
#include <string>

namespace attnlab {

struct RunCost {
    /// The weights that must be made (a seeded model's or one block's preset); 0 when a file
    /// or the shipped model provides them.
    std::int64_t weightBytes = 0;
    /// Every stage matrix of the trace (the last step's, for generation).
    std::int64_t traceBytes = 0;
    /// The numbers in the trace (its JSON holds about 11 bytes for each).
    std::int64_t traceNumbers = 0;
    /// Multiplications and additions, all passes (every generation step) included.
    double operations = 0;
    /// The numbers every pass writes (every generation step's trace, each made anew): for a
    /// generation they, not the arithmetic, take most of the time.
    double numbersWritten = 0;
    /// Seconds on a laptop: arithmetic at 2·10¹⁰ per second, 2.5 ns per number written (the
    /// score matrices' exp, fresh memory for every step's trace), 25 ns per seeded weight.
    /// Measured on the shipped model made never to write <eos> (bench/generation_estimate.sh):
    /// 1024 generation steps take 4 times what the arithmetic alone says.
    double seconds() const;
};

/// The shape of a run for estimateCost.
struct RunShape {
    bool singleBlock = false;     ///< one attention block (no model)
    std::int64_t source = 0;      ///< tokens of the sentence, or of a model's source
    std::int64_t target = 0;      ///< decoder input tokens (0: an encoder stack or one block)
    std::int64_t vocabulary = 0;  ///< the output head's rows (0: none)
    bool makeWeights = true;      ///< the weights are made (seeded), not read
    int generationSteps = 0;      ///< > 0: greedy generation up to this many decoder passes
};

/// The cost of running `spec` on `shape`.
RunCost estimateCost(const ModelSpec& spec, const RunShape& shape);

/// Above these the engine refuses (too_large); above the warning sizes (1 GB together, 5 s) the
/// command line says so first (large_run).
struct CostLimits {
    static constexpr std::int64_t maxWeightBytes = 2LL << 30;
    static constexpr std::int64_t maxTraceBytes = 2LL << 30;
    /// Any other work (WorkCost): what a run may hold at most, its weights and its trace together.
    static constexpr std::int64_t maxWorkBytes = maxWeightBytes + maxTraceBytes;
    static constexpr std::int64_t warnBytes = 1LL << 30;
    static constexpr double warnSeconds = 5.0;
};

/// Throws Error (too_large) when the weights or the trace would exceed CostLimits.
void checkCost(const RunCost& cost);
/// True when the run is large enough to say so before starting (large_run).
bool isLargeRun(const RunCost& cost);

/// What a piece of work other than a trace will hold and take — training (train/cost.h),
/// measuring an attention kind (attention/measure.h), drawing a picture (ui/export) — estimated
/// from its sizes before anything is made, and held to the same limits as a run.
struct WorkCost {
    std::int64_t bytes = 0; ///< the most memory it holds at once
    double seconds = 0;     ///< its time on a laptop
};

/// Throws Error (work_too_large) when `cost` holds more than CostLimits::maxWorkBytes: "`what`
/// would need about 9.3 GB of memory; the limit is 4 GB: `reduce`".
void checkWork(const std::string& what, const WorkCost& cost, const std::string& reduce);
/// True above CostLimits' warning sizes (1 GB, 5 s): large enough to say so first (large_work).
bool isLargeWork(const WorkCost& cost);
/// "830 MB", "9.3 GB" (binary units, as the limits are).
std::string sizeText(std::int64_t bytes);
/// "8 s", "12 min", "3.5 h", "129 days".
std::string durationText(double seconds);

} // namespace attnlab
