// attention-lab-cli cost: the measured cost of an attention kind against n (attention/measure.h).

#include "attention_options.h"
#include "options.h"

#include "attention/measure.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace attnlab::cli {

namespace {

constexpr const char* kReduceCost = "use a smaller --n or --d-model";

std::vector<int> parseLengths(const std::string& value)
{
    std::vector<int> out;
    std::stringstream in(value);
    std::string item;
    while (std::getline(in, item, ','))
        out.push_back(parseIntOption("--n", item));
    if (out.empty())
        throw UsageError("--n expects lengths separated by commas, like 256,512,1024");
    return out;
}

void printTable(const CostRequest& r, const CostResult& result)
{
    std::printf("%s attention, d_model %d, %d heads, median of %d runs, one thread\n", std::string(toString(r.kind)).c_str(), r.dModel,
                r.heads, r.repeats);
    std::printf("%8s %12s %12s %12s %10s%s\n", "n", "median s", "peak MB", "GFLOP", "GFLOP/s",
                r.kind == AttentionKind::Full ? "   GEMMs s" : "");
    for (const CostPoint& p : result.points) {
        std::printf("%8d %12.6f %12.1f %12.3f %10.2f", p.n, p.medianSeconds, static_cast<double>(p.peakBytes) / 1e6, p.flops / 1e9,
                    p.gflops);
        if (r.kind == AttentionKind::Full)
            std::printf(" %10.6f", p.gemmSeconds);
        std::printf("\n");
    }
    std::printf("log-log slope of time against n: %.3f\n", result.slope);
    if (!result.memoryMeasured)
        std::printf("(peak memory could not be measured on this system)\n");
}

nlohmann::ordered_json costJson(const CostRequest& r, const CostResult& result)
{
    nlohmann::ordered_json j;
    j["attention"] = toString(r.kind);
    j["d_model"] = r.dModel;
    j["heads"] = r.heads;
    j["repeats"] = r.repeats;
    j["points"] = nlohmann::ordered_json::array();
    for (const CostPoint& p : result.points) {
        nlohmann::ordered_json point{{"n", p.n}, {"median_s", p.medianSeconds}, {"peak_bytes", p.peakBytes}, {"flops", p.flops},
                                     {"gflops", p.gflops}};
        if (r.kind == AttentionKind::Full)
            point["gemm_median_s"] = p.gemmSeconds; // the plain GEMMs Q·Kᵀ and A·V in the same run
        // What was estimated before: the memory with one head's Q, K, V, and all the runs' time.
        const MeasureEstimate e = estimateMeasure(r, p.n);
        point["estimated_bytes"] = e.bytes;
        point["estimated_s"] = e.seconds;
        j["points"].push_back(point);
    }
    j["slope"] = result.slope;
    return j;
}

} // namespace

int runCost(const std::vector<std::string>& args)
{
    CostRequest r;
    AttentionGiven kind;
    bool json = false;
    readOptions(args, [&](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--n")
            r.lengths = parseLengths(value());
        else if (a == "--d-model")
            r.dModel = parseIntOption(a, value());
        else if (a == "--heads")
            r.heads = parseIntOption(a, value());
        else if (a == "--repeats")
            r.repeats = parseIntOption(a, value());
        else if (a == "--seed")
            r.seed = parseSeedOption(a, value());
        else if (a == "--json")
            json = true;
        else
            return readAttentionOption(a, value, kind);
        return true;
    });
    ModelSpec spec;
    applyAttentionOptions(kind, spec);
    r.kind = spec.attention;
    r.options = spec.attentionOptions;
    if (const auto p = costProblems(r, kReduceCost); !p.empty())
        throw UsageError(p.front());
    // A long or large measurement says so first (it builds nothing before the note).
    checkWorkCost("measuring", estimateMeasureCost(r), kReduceCost);
    const CostResult result = measureCost(r);
    if (json)
        std::cout << costJson(r, result).dump(2) << '\n';
    else
        printTable(r, result);
    return 0;
}

} // namespace attnlab::cli
