#pragma once
/// The cost of an attention kind, measured (docs/attention-kinds.md, "Cost"): the time and peak
/// extra memory of the attention computation alone — Q, K, V given, only what the output needs,
/// no n x n display stage — for a list of sequence lengths, with the FLOPs its formula says and
/// the log–log slope of time against n. The command line's `cost` and the studio's Cost view.

#include "core/cost.h"
#include "core/model_spec.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <vector>

namespace attnlab {

struct CostRequest {
    AttentionKind kind = AttentionKind::Full;
    AttentionOptions options;
    std::vector<int> lengths{256, 512, 1024, 2048, 4096}; ///< n, each at least 2
    int dModel = 512;
    int heads = 8;
    int repeats = 3;          ///< timed runs per n (the median is reported), at least 1
    std::uint64_t seed = 42;  ///< Q, K, V and the kind's random matrices
    /// Called after each timed run with (runs done, runs in all); return false to stop.
    std::function<bool(int, int)> progress;
};

struct CostPoint {
    int n = 0;
    double medianSeconds = 0;
    std::int64_t peakBytes = 0;   ///< the most memory one run held beyond Q, K, V (0 when unmeasurable)
    double flops = 0;             ///< by the kind's formula (matrix products; docs/attention-kinds.md)
    double gflops = 0;            ///< flops / median time / 10⁹
    double gemmSeconds = 0;       ///< full attention only: the median time of its two plain GEMMs (Q·Kᵀ, A·V)
};

struct CostResult {
    std::vector<CostPoint> points;
    double slope = 0;        ///< least squares of ln t on ln n over the points (0 with fewer than 2)
    bool cancelled = false;  ///< progress returned false: `points` holds the lengths finished
    bool memoryMeasured = false;
};

/// What measuring one n holds and takes, from the sizes alone (docs/attention-kinds.md, "Cost"):
/// Q, K and V (3·n·d floats) and the outputs (n·d), what the kind holds for one head at a time
/// (full: the n × n scores; the sparse kinds and LSH: their pattern's cells; Linformer: E, F and
/// n × K scores; Performer: φ(Q), φ(K)), and the time of `repeats` runs at the kind's rate on a
/// laptop (with full attention's plain GEMMs, and making Q, K and V).
struct MeasureEstimate {
    int n = 0;
    std::int64_t bytes = 0;
    double seconds = 0;
    std::int64_t cells = 0; ///< the scores one head computes (n² for full attention)
};
MeasureEstimate estimateMeasure(const CostRequest& request, int n);
/// The whole request: the largest bytes of its lengths (one is measured at a time) and the sum of
/// their seconds.
WorkCost estimateMeasureCost(const CostRequest& request);

/// Every problem of the request, one sentence each (empty when it can run). A length whose
/// measurement would hold more than CostLimits::maxWorkBytes is one ("at n = 32768, measuring
/// would need about 4.1 GB of memory; the limit is 4 GB: `reduce`").
std::vector<std::string> costProblems(const CostRequest& request, const std::string& reduce = "use a smaller n or d_model");

/// Measures every n in turn. Throws std::invalid_argument with the first problem.
CostResult measureCost(const CostRequest& request);

/// The kind's head outputs Z_h (n x d_k each) for Q, K, V split into heads, without stages.
std::vector<Eigen::MatrixXf> attentionOutputs(AttentionKind kind, const AttentionOptions& options, std::uint64_t seed,
                                              const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                                              const std::vector<Eigen::MatrixXf>& v);

/// The FLOPs of the kind's matrix products for n tokens (multiply and add counted apart).
double attentionFlops(AttentionKind kind, const AttentionOptions& options, std::int64_t n, int dModel, int heads,
                      std::int64_t allowedCells = 0);

/// Least squares slope of ln y on ln x.
double logLogSlope(const std::vector<double>& x, const std::vector<double>& y);

} // namespace attnlab
