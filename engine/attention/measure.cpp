#include "attention/measure.h"

#include "attention/kind_cost.h"
#include "core/memory_meter.h"
#include "core/options.h"
#include "core/message.h"
#include "core/random.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attnlab {

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr int kMaxLength = 1 << 20;

std::string str(long long v)
{
    return std::to_string(v);
}

const KindCost& costOf(AttentionKind kind)
{
    return *attentionKind(kind).cost;
}

/// The kind's random matrices, made before the clock starts (they are the model's parameters).
GivenRandom makeRandom(AttentionKind kind, const AttentionOptions& o, Eigen::Index n, int dK, int heads, std::uint64_t seed)
{
    GivenRandom g;
    if (const auto random = costOf(kind).random)
        random(o, n, dK, heads, seed, g);
    return g;
}

/// What a run builds once for every head (the sparse kinds' pattern and the plan of its walk).
SharedWork sharedWork(AttentionKind kind, const AttentionOptions& o, std::uint64_t seed, Eigen::Index n)
{
    SharedWork s;
    if (const auto shared = costOf(kind).shared)
        shared(kind, o, seed, n, s);
    return s;
}

double seconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// The next head's n x d_k matrix of Q, K or V: uniform in ±1, column by column from `gen`.
Eigen::MatrixXf nextHead(Eigen::Index n, int dK, SplitMix64& gen)
{
    return Eigen::MatrixXf::NullaryExpr(n, dK, [&]() { return gen.symmetric(1.0f); });
}

/// The two plain GEMMs full attention needs for one head, timed: Q·Kᵀ and A·V.
double fullGemmSeconds(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v)
{
    const auto start = std::chrono::steady_clock::now();
    const RowMatrix s = q * k.transpose();
    const Eigen::MatrixXf z = s * v; // (heap results of opaque GEMM calls: not optimised away)
    return seconds(std::chrono::steady_clock::now() - start);
}

/// The seconds of one run: one pass of `kind` over every head of n tokens, on one thread (the
/// kind's formula, kind_costs.cpp), with making its Q, K and V (3 ns a number).
double runSeconds(AttentionKind kind, const AttentionOptions& o, std::int64_t n, int dModel, int heads, std::int64_t cells)
{
    const double make = 3e-9 * 3.0 * static_cast<double>(n) * dModel;
    const double dK = static_cast<double>(dModel) / std::max(heads, 1);
    return costOf(kind).seconds(o, n, heads, dK, attentionFlops(kind, o, n, dModel, heads, cells), cells) + make;
}

} // namespace

MeasureEstimate estimateMeasure(const CostRequest& r, int n)
{
    MeasureEstimate e;
    e.n = n;
    const std::int64_t N = n, d = std::max(r.dModel, 1), heads = std::max(r.heads, 1), dK = std::max<std::int64_t>(1, d / heads);
    const KindCost& cost = costOf(r.kind);
    e.cells = cost.cells(r.options, N);
    // One head's Q, K, V and output, and what the kind holds beside them (4 bytes a float or an index).
    e.bytes = 16 * N * dK + cost.heldBytes(r.options, N, dK, e.cells);
    e.seconds = r.repeats * runSeconds(r.kind, r.options, N, static_cast<int>(d), static_cast<int>(heads), e.cells);
    return e;
}

WorkCost estimateMeasureCost(const CostRequest& r)
{
    WorkCost c;
    for (const int n : r.lengths) {
        const MeasureEstimate e = estimateMeasure(r, n);
        c.bytes = std::max(c.bytes, e.bytes);
        c.seconds += e.seconds;
    }
    return c;
}

std::vector<std::string> costProblems(const CostRequest& r, const std::string& reduce)
{
    std::vector<std::string> out;
    ModelSpec spec;
    spec.dModel = r.dModel;
    spec.heads = r.heads;
    spec.attention = r.kind;
    spec.attentionOptions = r.options;
    spec.setLayers(1);
    out = spec.problems();
    if (r.lengths.empty())
        out.push_back("give at least one sequence length n");
    for (const int n : r.lengths) {
        if (n < 2 || n > kMaxLength)
            out.push_back("n (" + str(n) + ") must be between 2 and " + str(kMaxLength));
        for (const int p : r.options.global) {
            if (readsOption(spec, *optionByKey("global")) && p >= n)
                out.push_back("global position " + str(p) + " is outside n = " + str(n));
        }
    }
    if (r.repeats < 1 || r.repeats > 100)
        out.push_back("repeats (" + str(r.repeats) + ") must be between 1 and 100");
    if (out.empty()) { // the sizes are valid: what they would hold
        for (const int n : r.lengths) {
            try {
                checkWork("at n = " + str(n) + ", measuring", {estimateMeasure(r, n).bytes, 0}, reduce);
            } catch (const Error& e) {
                out.push_back(e.what());
                break;
            }
        }
    }
    return out;
}

std::vector<Eigen::MatrixXf> attentionOutputs(AttentionKind kind, const AttentionOptions& options, std::uint64_t seed,
                                              const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                                              const std::vector<Eigen::MatrixXf>& v)
{
    const GivenRandom g = makeRandom(kind, options, q.at(0).rows(), static_cast<int>(q[0].cols()), static_cast<int>(q.size()), seed);
    const SharedWork shared = sharedWork(kind, options, seed, q[0].rows());
    std::vector<Eigen::MatrixXf> z;
    for (std::size_t h = 0; h < q.size(); ++h)
        z.push_back(costOf(kind).head({options, g, shared, h, q[h], k.at(h), v.at(h)}, nullptr));
    return z;
}

double attentionFlops(AttentionKind kind, const AttentionOptions& o, std::int64_t n, int dModel, int heads, std::int64_t cells)
{
    const double dK = static_cast<double>(dModel) / heads;
    return costOf(kind).flopsPerHead(o, static_cast<double>(n), dK, static_cast<double>(cells)) * heads;
}

double logLogSlope(const std::vector<double>& x, const std::vector<double>& y)
{
    const std::size_t m = std::min(x.size(), y.size());
    if (m < 2)
        return 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < m; ++i) {
        const double lx = std::log(x[i]);
        const double ly = std::log(y[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    const double den = static_cast<double>(m) * sxx - sx * sx;
    return den != 0 ? (static_cast<double>(m) * sxy - sx * sy) / den : 0;
}

CostResult measureCost(const CostRequest& r)
{
    if (const auto p = costProblems(r); !p.empty())
        throw std::invalid_argument(p.front());
    CostResult result;
    const KindCost& cost = costOf(r.kind);
    const int dK = r.dModel / r.heads;
    const int total = static_cast<int>(r.lengths.size()) * r.repeats;
    int done = 0;
    for (const int n : r.lengths) {
        const GivenRandom g = makeRandom(r.kind, r.options, n, dK, r.heads, r.seed);
        CostPoint point;
        point.n = n;
        std::vector<double> times, gemms;
        std::int64_t cells = 0;
        for (int rep = 0; rep < r.repeats; ++rep) {
            // Each run makes the heads' Q, K, V one head at a time (untimed; the same numbers in
            // every run), so that only one head's inputs are ever held: at n = 2^20 and d_model
            // 512 all of them would be 6 GB, one head's 768 MB.
            SplitMix64 qs = stream("cost-q", r.seed), ks = stream("cost-k", r.seed), vs = stream("cost-v", r.seed);
            const MemoryMeter sharedMeter;
            auto start = std::chrono::steady_clock::now();
            const SharedWork shared = sharedWork(r.kind, r.options, r.seed, n);
            double run = seconds(std::chrono::steady_clock::now() - start), gemm = 0;
            std::int64_t peak = sharedMeter.peakExtraBytes(), allCells = 0;
            for (std::size_t h = 0; h < static_cast<std::size_t>(r.heads); ++h) {
                const Eigen::MatrixXf q = nextHead(n, dK, qs), k = nextHead(n, dK, ks), v = nextHead(n, dK, vs);
                const MemoryMeter meter;
                start = std::chrono::steady_clock::now();
                std::int64_t headCells = 0;
                const Eigen::MatrixXf z = cost.head({r.options, g, shared, h, q, k, v}, &headCells);
                allCells += headCells;
                run += seconds(std::chrono::steady_clock::now() - start);
                peak = std::max(peak, shared.bytes() + meter.peakExtraBytes());
                if (cost.timesPlainGemms)
                    gemm += fullGemmSeconds(q, k, v);
            }
            cells = allCells / r.heads; // LSH's buckets differ from head to head: their mean
            times.push_back(run);
            gemms.push_back(gemm);
            point.peakBytes = std::max(point.peakBytes, peak);
            result.memoryMeasured = sharedMeter.available();
            if (r.progress && !r.progress(++done, total)) {
                result.cancelled = true;
                break;
            }
        }
        if (result.cancelled)
            break;
        point.medianSeconds = median(times);
        point.gemmSeconds = cost.timesPlainGemms ? median(gemms) : 0;
        point.flops = attentionFlops(r.kind, r.options, n, r.dModel, r.heads, cells);
        point.gflops = point.medianSeconds > 0 ? point.flops / point.medianSeconds / 1e9 : 0;
        result.points.push_back(point);
    }
    std::vector<double> ns, ts;
    for (const auto& p : result.points) {
        ns.push_back(p.n);
        ts.push_back(std::max(p.medianSeconds, 1e-9));
    }
    result.slope = logLogSlope(ns, ts);
    return result;
}

} // namespace attnlab
