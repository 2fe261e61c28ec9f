#include "attention/measure.h"

#include "attention/features.h"
#include "attention/linformer.h"
#include "attention/lsh.h"
#include "attention/sparse.h"
#include "core/memory_meter.h"
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
/// Full attention holds one head's n x n scores: refused above 4 GiB of them.
constexpr double kMaxFullBytes = 4.0 * 1024 * 1024 * 1024;

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

std::vector<Eigen::MatrixXf> outputs(AttentionKind kind, const AttentionOptions& o, std::uint64_t seed, const GivenRandom& g,
                                     const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                                     const std::vector<Eigen::MatrixXf>& v, std::int64_t* cells)
{
    const std::size_t heads = q.size();
    const Eigen::Index n = q[0].rows();
    const float c = detail::scoreScale(true, q[0].cols());
    const detail::UserMask mask = noMask(n);
    std::vector<Eigen::MatrixXf> z(heads);
    switch (kind) {
    case AttentionKind::Full:
        for (std::size_t h = 0; h < heads; ++h)
            z[h] = fullHead(q[h], k[h], v[h], c);
        break;
    case AttentionKind::SlidingWindow:
    case AttentionKind::BigBird:
    case AttentionKind::Strided: {
        const detail::SparsePattern pattern = sparsePattern(kind, o, n, mask, stream("cost-bigbird", seed));
        const detail::SparsePlan plan = detail::planSparse(pattern, sparseOrder(kind, o, n));
        for (std::size_t h = 0; h < heads; ++h)
            z[h] = detail::sparseAttend(pattern, plan, q[h], k[h], v[h], c);
        if (cells)
            *cells = static_cast<std::int64_t>(pattern.keys.size());
        break;
    }
    case AttentionKind::Linformer:
        for (std::size_t h = 0; h < heads; ++h)
            z[h] = linformerHead(q[h], k[h], v[h], g.projectionE, g.projectionF, mask.padding, c).z;
        break;
    case AttentionKind::Performer:
    case AttentionKind::Linear:
        for (std::size_t h = 0; h < heads; ++h) {
            if (kind == AttentionKind::Performer)
                z[h] = performerHead(q[h], k[h], v[h], g.randomFeatures, mask).attention.z;
            else
                z[h] = featureAttend(eluFeatures(q[h]), eluFeatures(k[h]), v[h], mask).z;
        }
        break;
    case AttentionKind::Lsh: {
        std::int64_t total = 0;
        for (std::size_t h = 0; h < heads; ++h) {
            const Eigen::MatrixXf keys = q[h].rowwise().normalized();
            std::vector<int> order;
            const detail::SparsePattern pattern = lshPattern(lshBuckets(keys, g.randomRotations[h]), o.chunk, mask, order);
            z[h] = detail::sparseAttend(pattern, detail::planSparse(pattern, order), q[h], keys, v[h], c);
            total += static_cast<std::int64_t>(pattern.keys.size());
        }
        if (cells)
            *cells = total / static_cast<std::int64_t>(heads);
        break;
    }
    }
    return z;
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

std::vector<Eigen::MatrixXf> randomHeads(Eigen::Index n, int dK, int heads, SplitMix64 gen)
{
    std::vector<Eigen::MatrixXf> out(static_cast<std::size_t>(heads));
    for (auto& m : out)
        m = Eigen::MatrixXf::NullaryExpr(n, dK, [&]() { return gen.symmetric(1.0f); });
    return out;
}

/// The two plain GEMMs full attention needs for one head, timed: Q·Kᵀ and A·V.
double fullGemmSeconds(const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                       const std::vector<Eigen::MatrixXf>& v)
{
    double total = 0;
    for (std::size_t h = 0; h < q.size(); ++h) {
        const auto start = std::chrono::steady_clock::now();
        const RowMatrix s = q[h] * k[h].transpose();
        const Eigen::MatrixXf z = s * v[h]; // (heap results of opaque GEMM calls: not optimised away)
        total += seconds(std::chrono::steady_clock::now() - start);
    }
    return total;
}

} // namespace

std::vector<std::string> costProblems(const CostRequest& r)
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
        else if (r.kind == AttentionKind::Full && 4.0 * n * n > kMaxFullBytes)
            out.push_back("full attention at n = " + str(n) + " would hold " + str(static_cast<long long>(4.0 * n * n / (1 << 30)))
                          + " GiB of scores for one head: use n up to 32768");
        for (const int p : r.options.global) {
            if ((r.kind == AttentionKind::SlidingWindow || r.kind == AttentionKind::BigBird) && p >= n)
                out.push_back("global position " + str(p) + " is outside n = " + str(n));
        }
    }
    if (r.repeats < 1 || r.repeats > 100)
        out.push_back("repeats (" + str(r.repeats) + ") must be between 1 and 100");
    return out;
}

std::vector<Eigen::MatrixXf> attentionOutputs(AttentionKind kind, const AttentionOptions& options, std::uint64_t seed,
                                              const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                                              const std::vector<Eigen::MatrixXf>& v)
{
    const GivenRandom g = makeRandom(kind, options, q.at(0).rows(), static_cast<int>(q[0].cols()), static_cast<int>(q.size()), seed);
    return outputs(kind, options, seed, g, q, k, v, nullptr);
}

double attentionFlops(AttentionKind kind, const AttentionOptions& o, std::int64_t n, int dModel, int heads, std::int64_t cells)
{
    const double dK = static_cast<double>(dModel) / heads;
    const auto N = static_cast<double>(n);
    double perHead = 0;
    switch (kind) {
    case AttentionKind::Full:
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
        const auto q = randomHeads(n, dK, r.heads, stream("cost-q", r.seed));
        const auto k = randomHeads(n, dK, r.heads, stream("cost-k", r.seed));
        const auto v = randomHeads(n, dK, r.heads, stream("cost-v", r.seed));
        const GivenRandom g = makeRandom(r.kind, r.options, n, dK, r.heads, r.seed);
        CostPoint point;
        point.n = n;
        std::vector<double> times, gemms;
        std::int64_t cells = 0;
        for (int rep = 0; rep < r.repeats; ++rep) {
            const MemoryMeter meter;
            const auto start = std::chrono::steady_clock::now();
            const auto z = outputs(r.kind, r.options, r.seed, g, q, k, v, &cells);
            times.push_back(seconds(std::chrono::steady_clock::now() - start));
            point.peakBytes = std::max(point.peakBytes, meter.peakExtraBytes());
            result.memoryMeasured = meter.available();
            if (r.kind == AttentionKind::Full)
                gemms.push_back(fullGemmSeconds(q, k, v));
            if (r.progress && !r.progress(++done, total)) {
                result.cancelled = true;
                break;
            }
        }
        if (result.cancelled)
            break;
        point.medianSeconds = median(times);
        point.gemmSeconds = gemms.empty() ? 0 : median(gemms);
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
