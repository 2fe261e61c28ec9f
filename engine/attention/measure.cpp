#include "attention/measure.h"

#include "attention/features.h"
#include "attention/flash.h"
#include "attention/linformer.h"
#include "attention/lsh.h"
#include "attention/sparse.h"
#include "core/memory_meter.h"
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

/// Full attention, head by head, with the scores row-major so that each row's softmax is contiguous.
Eigen::MatrixXf fullHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, float c)
{
    RowMatrix s = q * k.transpose();
    for (Eigen::Index i = 0; i < s.rows(); ++i) {
        auto row = s.row(i).array();
        row = ((row - row.maxCoeff()) * c).exp(); // softmax(c·s) = exp(c·(s − max s)) / Σ
        row /= row.sum();
    }
    return s * v;
}

detail::UserMask noMask(Eigen::Index n)
{
    detail::UserMask m;
    m.padding.assign(static_cast<std::size_t>(n), 0);
    return m;
}

/// The kind's random matrices, made before the clock starts (they are the model's parameters).
GivenRandom makeRandom(AttentionKind kind, const AttentionOptions& o, Eigen::Index n, int dK, int heads, std::uint64_t seed)
{
    GivenRandom g;
    if (kind == AttentionKind::Performer)
        g.randomFeatures = orthogonalRandomFeatures(o.features, dK, stream("cost-performer", seed));
    if (kind == AttentionKind::Linformer) {
        g.projectionE = linformerProjection(o.projDim, n, stream("cost-linformer-e", seed));
        g.projectionF = linformerProjection(o.projDim, n, stream("cost-linformer-f", seed));
    }
    if (kind == AttentionKind::Lsh) {
        for (int h = 0; h < heads; ++h)
            g.randomRotations.push_back(lshRotations(dK, o.buckets, stream("cost-lsh#" + std::to_string(h), seed)));
    }
    return g;
}

/// What a run builds once for every head: the sparse kinds' pattern and the plan of its walk.
struct Shared {
    detail::SparsePattern pattern;
    detail::SparsePlan plan;

    std::int64_t bytes() const
    {
        return static_cast<std::int64_t>(4 * (pattern.keys.capacity() + plan.order.capacity() + plan.unionKeys.capacity())
                                          + 8 * (pattern.offsets.capacity() + plan.tileStart.capacity() + plan.unionStart.capacity()));
    }
};

bool isSparse(AttentionKind kind)
{
    return kind == AttentionKind::SlidingWindow || kind == AttentionKind::BigBird || kind == AttentionKind::Strided;
}

Shared sharedWork(AttentionKind kind, const AttentionOptions& o, std::uint64_t seed, Eigen::Index n)
{
    Shared s;
    if (isSparse(kind)) {
        s.pattern = sparsePattern(kind, o, n, noMask(n), stream("cost-bigbird", seed));
        s.plan = detail::planSparse(s.pattern, sparseOrder(kind, o, n));
    }
    return s;
}

/// One head's output Z_h (n x d_k); `cells`, when given, receives the scores it computed.
Eigen::MatrixXf headOutput(AttentionKind kind, const AttentionOptions& o, const GivenRandom& g, const Shared& shared, std::size_t h,
                           const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, std::int64_t* cells)
{
    const Eigen::Index n = q.rows();
    const float c = detail::scoreScale(true, q.cols());
    switch (kind) {
    case AttentionKind::Full:
        return fullHead(q, k, v, c);
    case AttentionKind::SlidingWindow:
    case AttentionKind::BigBird:
    case AttentionKind::Strided:
        if (cells)
            *cells = static_cast<std::int64_t>(shared.pattern.keys.size());
        return detail::sparseAttend(shared.pattern, shared.plan, q, k, v, c);
    case AttentionKind::Linformer:
        return linformerHead(q, k, v, g.projectionE, g.projectionF, noMask(n).padding, c).z;
    case AttentionKind::Performer:
        return performerHead(q, k, v, g.randomFeatures, noMask(n)).attention.z;
    case AttentionKind::Linear:
        return featureAttend(eluFeatures(q), eluFeatures(k), v, noMask(n)).z;
    case AttentionKind::Lsh: {
        const Eigen::MatrixXf keys = q.rowwise().normalized();
        std::vector<int> order;
        const detail::SparsePattern pattern = lshPattern(lshBuckets(keys, g.randomRotations[h]), o.chunk, noMask(n), order);
        if (cells)
            *cells = static_cast<std::int64_t>(pattern.keys.size());
        return detail::sparseAttend(pattern, detail::planSparse(pattern, order), q, keys, v, c);
    }
    case AttentionKind::Flash:
        if (cells)
            *cells = static_cast<std::int64_t>(n) * n;
        return flashHead(q, k, v, c, nullptr, o.queryBlock, o.keyBlock, false).z;
    }
    return {};
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

/// The seconds of one run: one pass of `kind` over every head of n tokens, on one thread, with
/// making its Q, K and V (3 ns a number). Rates measured on a laptop's core (README, Performance):
/// about 25 GFLOP/s for full attention's GEMMs (timed twice: the kind, then the plain GEMMs), 10
/// for the others; the sparse kernel's tiles compute the allowed cells and about 32 more per row.
/// Checked against runs (CPU time on this repository's 2-core machine): within a factor of 2.
double runSeconds(AttentionKind kind, const AttentionOptions& o, std::int64_t n, int dModel, int heads, std::int64_t cells)
{
    const double make = 3e-9 * 3.0 * static_cast<double>(n) * dModel;
    const double dK = static_cast<double>(dModel) / std::max(heads, 1);
    switch (kind) {
    case AttentionKind::Full:
        return 2 * attentionFlops(kind, o, n, dModel, heads, cells) / 25e9 + make;
    case AttentionKind::SlidingWindow:
    case AttentionKind::BigBird:
    case AttentionKind::Strided:
    case AttentionKind::Lsh: {
        // And about 2 µs a row and head to walk the pattern, the tiles and their softmaxes. Rows
        // that share few keys make narrow tiles, which run slower: LSH's buckets at 4 GFLOP/s,
        // strided's columns (every S-th key: n/S of them, a different set for each residue) at 1.
        const double tiles = static_cast<double>(std::min(2 * cells, cells + 32 * n));
        const double rate = kind == AttentionKind::Strided ? 1e9 : kind == AttentionKind::Lsh ? 4e9 : 10e9;
        return (attentionFlops(kind, o, n, dModel, heads, cells) + 4.0 * (tiles - static_cast<double>(cells)) * dK * heads) / rate
            + 2e-6 * static_cast<double>(n) * heads + make;
    }
    case AttentionKind::Linear:
        return attentionFlops(kind, o, n, dModel, heads, cells) / 5e9 + make;
    case AttentionKind::Flash: {
        // Full attention's products, a tile at a time: small tiles run far below the rate of one
        // large GEMM (each tile's products, exps and rescaling cost about 0.2 µs besides).
        const double tiles = std::ceil(static_cast<double>(n) / std::max(o.queryBlock, 1))
                             * std::ceil(static_cast<double>(n) / std::max(o.keyBlock, 1)) * heads;
        return attentionFlops(kind, o, n, dModel, heads, cells) / 5e9 + 2e-7 * tiles + make;
    }
    case AttentionKind::Linformer:
    case AttentionKind::Performer:
        return attentionFlops(kind, o, n, dModel, heads, cells) / 10e9 + make;
    }
    return make;
}

} // namespace

namespace {

/// The scores one head computes at n (for the sparse kinds and LSH, as their patterns allow
/// them; LSH's buckets taken as equal).
std::int64_t estimatedCells(AttentionKind kind, const AttentionOptions& o, std::int64_t n)
{
    const auto globals = static_cast<std::int64_t>(o.global.size());
    switch (kind) {
    case AttentionKind::Full:
    case AttentionKind::Flash: // every score, a tile at a time
        return n * n;
    case AttentionKind::SlidingWindow:
    case AttentionKind::BigBird: {
        // Each row's window of 2W + 1, the global rows' every key, every row's globals; BigBird's R.
        const std::int64_t row = std::min<std::int64_t>(n, 2LL * o.window + 1 + (kind == AttentionKind::BigBird ? o.random : 0));
        return n * row + 2 * globals * n;
    }
    case AttentionKind::Strided:
        return n * std::min<std::int64_t>(n, 2LL * o.stride - 1 + n / std::max(o.stride, 1)); // |i − j| < S, or S divides i − j
    case AttentionKind::Lsh: {
        const std::int64_t bucket = std::max<std::int64_t>(1, n / std::max(o.buckets, 1));
        return n * (o.chunk > 0 ? std::min<std::int64_t>(bucket, 2LL * o.chunk) : bucket);
    }
    case AttentionKind::Linformer:
    case AttentionKind::Performer:
    case AttentionKind::Linear:
        return 0;
    }
    return 0;
}

} // namespace

MeasureEstimate estimateMeasure(const CostRequest& r, int n)
{
    MeasureEstimate e;
    e.n = n;
    const std::int64_t N = n, d = std::max(r.dModel, 1), heads = std::max(r.heads, 1), dK = std::max<std::int64_t>(1, d / heads);
    e.cells = estimatedCells(r.kind, r.options, N);
    // One head's Q, K, V and output, and what the kind holds beside them (4 bytes a float or an index).
    std::int64_t kind = 0;
    switch (r.kind) {
    case AttentionKind::Full:
        kind = 4 * N * N + 4 * N * dK; // the scores (then the weights, in place) and A·V
        break;
    case AttentionKind::SlidingWindow:
    case AttentionKind::BigBird:
    case AttentionKind::Strided:
        // The pattern's keys and the plan's tiles (their union of keys), offsets and order; the
        // kernel's row-major copies of Q, K, V and its output.
        kind = 8 * e.cells + 32 * N + 20 * N * dK;
        break;
    case AttentionKind::Lsh:
        // The same per head (a tile's rows share their bucket: its union is the bucket), the
        // normalised keys, the buckets and their order.
        kind = 5 * e.cells + 24 * N * dK + 40 * N;
        break;
    case AttentionKind::Linformer:
        kind = 8 * std::int64_t{r.options.projDim} * N * 2 + 12 * N * dK; // E and F (K x n), the n x K scores and weights, copies
        break;
    case AttentionKind::Performer:
        // φ(Q), φ(K), their exponents (in double precision when they would overflow float's exp)
        kind = 24 * std::int64_t{r.options.features} * N + 4 * N * dK;
        break;
    case AttentionKind::Linear:
        kind = 12 * N * dK; // φ(Q), φ(K)
        break;
    case AttentionKind::Flash: {
        // No n × n matrix: the running m and ℓ of every row (O(n)), one tile (S, then P̃; Q_i and
        // O_i) and K, V copied with one column per key for the tiles to read.
        const std::int64_t br = std::max(r.options.queryBlock, 1), bc = std::max(r.options.keyBlock, 1);
        kind = 8 * N + 4 * br * bc + 8 * br * dK + 8 * N * dK;
        break;
    }
    }
    e.bytes = 16 * N * dK + kind;
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
            if ((r.kind == AttentionKind::SlidingWindow || r.kind == AttentionKind::BigBird) && p >= n)
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
    const Shared shared = sharedWork(kind, options, seed, q[0].rows());
    std::vector<Eigen::MatrixXf> z;
    for (std::size_t h = 0; h < q.size(); ++h)
        z.push_back(headOutput(kind, options, g, shared, h, q[h], k.at(h), v.at(h), nullptr));
    return z;
}

double attentionFlops(AttentionKind kind, const AttentionOptions& o, std::int64_t n, int dModel, int heads, std::int64_t cells)
{
    const double dK = static_cast<double>(dModel) / heads;
    const auto N = static_cast<double>(n);
    double perHead = 0;
    switch (kind) {
    case AttentionKind::Full:
    case AttentionKind::Flash: // the same products, a tile at a time
        perHead = 4.0 * N * N * dK; // Q·Kᵀ and A·V
        break;
    case AttentionKind::SlidingWindow:
    case AttentionKind::BigBird:
    case AttentionKind::Strided:
        perHead = 4.0 * static_cast<double>(cells) * dK; // q_i·k_j and a_ij·v_j over the allowed cells
        break;
    case AttentionKind::Linformer:
        perHead = 8.0 * N * o.projDim * dK; // E·K, F·V, Q·K'ᵀ, A·V'
        break;
    case AttentionKind::Performer:
        perHead = 8.0 * N * o.features * dK + 2.0 * N * o.features; // Ω·q, Ω·k, φ(K)ᵀ·V, φ(Q)·KV, the normaliser
        break;
    case AttentionKind::Linear:
        perHead = 4.0 * N * dK * dK + 2.0 * N * dK; // φ(K)ᵀ·V, φ(Q)·KV, the normaliser
        break;
    case AttentionKind::Lsh:
        perHead = 2.0 * N * dK * (o.buckets / 2.0) + 4.0 * static_cast<double>(cells) * dK; // hashing, then the buckets' cells
        break;
    }
    return perHead * heads;
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
            const Shared shared = sharedWork(r.kind, r.options, r.seed, n);
            double run = seconds(std::chrono::steady_clock::now() - start), gemm = 0;
            std::int64_t peak = sharedMeter.peakExtraBytes(), allCells = 0;
            for (std::size_t h = 0; h < static_cast<std::size_t>(r.heads); ++h) {
                const Eigen::MatrixXf q = nextHead(n, dK, qs), k = nextHead(n, dK, ks), v = nextHead(n, dK, vs);
                const MemoryMeter meter;
                start = std::chrono::steady_clock::now();
                std::int64_t headCells = 0;
                const Eigen::MatrixXf z = headOutput(r.kind, r.options, g, shared, h, q, k, v, &headCells);
                allCells += headCells;
                run += seconds(std::chrono::steady_clock::now() - start);
                peak = std::max(peak, shared.bytes() + meter.peakExtraBytes());
                if (r.kind == AttentionKind::Full)
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
        point.gemmSeconds = r.kind == AttentionKind::Full ? median(gemms) : 0;
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
