// Each kind's cost descriptor (attention/kind_cost.h): what measuring it does, and the formulas
// of docs/attention-kinds.md, "Cost". Rates measured on a laptop's core (README, Performance):
// about 25 GFLOP/s for full attention's GEMMs (timed twice: the kind, then the plain GEMMs), 10
// for the others; the sparse kernel's tiles compute the allowed cells and about 32 more per row.
// Checked against runs (CPU time on this repository's 2-core machine): within a factor of 2.

#include "attention/kind_cost.h"

#include "attention/features.h"
#include "attention/flash.h"
#include "attention/linformer.h"
#include "attention/lsh.h"
#include "attention/sparse.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnlab {

namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

detail::UserMask noMask(Eigen::Index n)
{
    detail::UserMask m;
    m.padding.assign(static_cast<std::size_t>(n), 0);
    return m;
}

float scale(const CostHead& in)
{
    return detail::scoreScale(true, in.q.cols());
}

// ---- full and flash: every score --------------------------------------------------------

/// Full attention, head by head, with the scores row-major so that each row's softmax is contiguous.
Eigen::MatrixXf fullHead(const CostHead& in, std::int64_t*)
{
    const float c = scale(in);
    RowMatrix s = in.q * in.k.transpose();
    for (Eigen::Index i = 0; i < s.rows(); ++i) {
        auto row = s.row(i).array();
        row = ((row - row.maxCoeff()) * c).exp(); // softmax(c·s) = exp(c·(s − max s)) / Σ
        row /= row.sum();
    }
    return s * in.v;
}

std::int64_t everyCell(const AttentionOptions&, std::int64_t n)
{
    return n * n;
}

double fullFlops(const AttentionOptions&, double n, double dK, double)
{
    return 4.0 * n * n * dK; // Q·Kᵀ and A·V (flash: the same products, a tile at a time)
}

std::int64_t fullBytes(const AttentionOptions&, std::int64_t n, std::int64_t dK, std::int64_t)
{
    return 4 * n * n + 4 * n * dK; // the scores (then the weights, in place) and A·V
}

double fullSeconds(const AttentionOptions&, std::int64_t, int, double, double flops, std::int64_t)
{
    return 2 * flops / 25e9;
}

Eigen::MatrixXf flashOutput(const CostHead& in, std::int64_t* cells)
{
    const Eigen::Index n = in.q.rows();
    if (cells)
        *cells = static_cast<std::int64_t>(n) * n;
    return flashHead(in.q, in.k, in.v, scale(in), nullptr, in.options.queryBlock, in.options.keyBlock, false).z;
}

std::int64_t flashBytes(const AttentionOptions& o, std::int64_t n, std::int64_t dK, std::int64_t)
{
    // No n × n matrix: the running m and ℓ of every row (O(n)), one tile (S, then P̃; Q_i and
    // O_i) and K, V copied with one column per key for the tiles to read.
    const std::int64_t br = std::max(o.queryBlock, 1), bc = std::max(o.keyBlock, 1);
    return 8 * n + 4 * br * bc + 8 * br * dK + 8 * n * dK;
}

double flashSeconds(const AttentionOptions& o, std::int64_t n, int heads, double, double flops, std::int64_t)
{
    // Full attention's products, a tile at a time: small tiles run far below the rate of one
    // large GEMM (each tile's products, exps and rescaling cost about 0.2 µs besides).
    const double tiles = std::ceil(static_cast<double>(n) / std::max(o.queryBlock, 1))
                         * std::ceil(static_cast<double>(n) / std::max(o.keyBlock, 1)) * heads;
    return flops / 5e9 + 2e-7 * tiles;
}

// ---- sliding-window, bigbird, strided: one pattern for every head -----------------------

void sparseShared(AttentionKind kind, const AttentionOptions& o, std::uint64_t seed, Eigen::Index n, SharedWork& s)
{
    s.pattern = sparsePattern(kind, o, n, noMask(n), stream("cost-bigbird", seed));
    s.plan = detail::planSparse(s.pattern, sparseOrder(kind, o, n));
}

Eigen::MatrixXf sparseHead(const CostHead& in, std::int64_t* cells)
{
    if (cells)
        *cells = static_cast<std::int64_t>(in.shared.pattern.keys.size());
    return detail::sparseAttend(in.shared.pattern, in.shared.plan, in.q, in.k, in.v, scale(in));
}

/// Each row's window of 2W + 1 (and `random` keys), the global rows' every key, every row's globals.
std::int64_t windowCells(const AttentionOptions& o, std::int64_t n, int random)
{
    const auto globals = static_cast<std::int64_t>(o.global.size());
    const std::int64_t row = std::min<std::int64_t>(n, 2LL * o.window + 1 + random);
    return n * row + 2 * globals * n;
}

std::int64_t strideCells(const AttentionOptions& o, std::int64_t n)
{
    return n * std::min<std::int64_t>(n, 2LL * o.stride - 1 + n / std::max(o.stride, 1)); // |i − j| < S, or S divides i − j
}

double patternFlops(const AttentionOptions&, double, double dK, double cells)
{
    return 4.0 * cells * dK; // q_i·k_j and a_ij·v_j over the allowed cells
}

std::int64_t sparseBytes(const AttentionOptions&, std::int64_t n, std::int64_t dK, std::int64_t cells)
{
    // The pattern's keys and the plan's tiles (their union of keys), offsets and order; the
    // kernel's row-major copies of Q, K, V and its output.
    return 8 * cells + 32 * n + 20 * n * dK;
}

/// And about 2 µs a row and head to walk the pattern, the tiles and their softmaxes. Rows that
/// share few keys make narrow tiles, which run slower: LSH's buckets at 4 GFLOP/s, strided's
/// columns (every S-th key: n/S of them, a different set for each residue) at 1.
double patternSeconds(double rate, std::int64_t n, int heads, double dK, double flops, std::int64_t cells)
{
    const double tiles = static_cast<double>(std::min(2 * cells, cells + 32 * n));
    return (flops + 4.0 * (tiles - static_cast<double>(cells)) * dK * heads) / rate + 2e-6 * static_cast<double>(n) * heads;
}

// ---- linformer, performer, linear: no scores ---------------------------------------------

void linformerRandom(const AttentionOptions& o, Eigen::Index n, int, int, std::uint64_t seed, GivenRandom& g)
{
    g.projectionE = linformerProjection(o.projDim, n, stream("cost-linformer-e", seed));
    g.projectionF = linformerProjection(o.projDim, n, stream("cost-linformer-f", seed));
}

Eigen::MatrixXf linformerOutput(const CostHead& in, std::int64_t*)
{
    return linformerHead(in.q, in.k, in.v, in.random.projectionE, in.random.projectionF, noMask(in.q.rows()).padding, scale(in)).z;
}

std::int64_t noCells(const AttentionOptions&, std::int64_t)
{
    return 0;
}

double linformerFlops(const AttentionOptions& o, double n, double dK, double)
{
    return 8.0 * n * o.projDim * dK; // E·K, F·V, Q·K'ᵀ, A·V'
}

std::int64_t linformerBytes(const AttentionOptions& o, std::int64_t n, std::int64_t dK, std::int64_t)
{
    return 8 * std::int64_t{o.projDim} * n * 2 + 12 * n * dK; // E and F (K x n), the n x K scores and weights, copies
}

double tenGflops(const AttentionOptions&, std::int64_t, int, double, double flops, std::int64_t)
{
    return flops / 10e9;
}

void performerRandom(const AttentionOptions& o, Eigen::Index, int dK, int, std::uint64_t seed, GivenRandom& g)
{
    g.randomFeatures = orthogonalRandomFeatures(o.features, dK, stream("cost-performer", seed));
}

Eigen::MatrixXf performerOutput(const CostHead& in, std::int64_t*)
{
    return performerHead(in.q, in.k, in.v, in.random.randomFeatures, noMask(in.q.rows())).attention.z;
}

double performerFlops(const AttentionOptions& o, double n, double dK, double)
{
    return 8.0 * n * o.features * dK + 2.0 * n * o.features; // Ω·q, Ω·k, φ(K)ᵀ·V, φ(Q)·KV, the normaliser
}

std::int64_t performerBytes(const AttentionOptions& o, std::int64_t n, std::int64_t dK, std::int64_t)
{
    // φ(Q), φ(K), their exponents (in double precision when they would overflow float's exp)
    return 24 * std::int64_t{o.features} * n + 4 * n * dK;
}

Eigen::MatrixXf linearOutput(const CostHead& in, std::int64_t*)
{
    return featureAttend(eluFeatures(in.q), eluFeatures(in.k), in.v, noMask(in.q.rows())).z;
}

double linearFlops(const AttentionOptions&, double n, double dK, double)
{
    return 4.0 * n * dK * dK + 2.0 * n * dK; // φ(K)ᵀ·V, φ(Q)·KV, the normaliser
}

std::int64_t linearBytes(const AttentionOptions&, std::int64_t n, std::int64_t dK, std::int64_t)
{
    return 12 * n * dK; // φ(Q), φ(K)
}

double linearSeconds(const AttentionOptions&, std::int64_t, int, double, double flops, std::int64_t)
{
    return flops / 5e9;
}

// ---- lsh: each head hashes with its own rotation -------------------------------------------

void lshRandom(const AttentionOptions& o, Eigen::Index, int dK, int heads, std::uint64_t seed, GivenRandom& g)
{
    for (int h = 0; h < heads; ++h)
        g.randomRotations.push_back(lshRotations(dK, o.buckets, stream("cost-lsh#" + std::to_string(h), seed)));
}

Eigen::MatrixXf lshOutput(const CostHead& in, std::int64_t* cells)
{
    const Eigen::MatrixXf keys = in.q.rowwise().normalized();
    std::vector<int> order;
    const detail::SparsePattern pattern
        = lshPattern(lshBuckets(keys, in.random.randomRotations[in.h]), in.options.chunk, noMask(in.q.rows()), order);
    if (cells)
        *cells = static_cast<std::int64_t>(pattern.keys.size());
    return detail::sparseAttend(pattern, detail::planSparse(pattern, order), in.q, keys, in.v, scale(in));
}

std::int64_t lshCells(const AttentionOptions& o, std::int64_t n)
{
    const std::int64_t bucket = std::max<std::int64_t>(1, n / std::max(o.buckets, 1));
    return n * (o.chunk > 0 ? std::min<std::int64_t>(bucket, 2LL * o.chunk) : bucket);
}

double lshFlops(const AttentionOptions& o, double n, double dK, double cells)
{
    return 2.0 * n * dK * (o.buckets / 2.0) + 4.0 * cells * dK; // hashing, then the buckets' cells
}

std::int64_t lshBytes(const AttentionOptions&, std::int64_t n, std::int64_t dK, std::int64_t cells)
{
    // The same per head as the sparse kinds (a tile's rows share their bucket: its union is the
    // bucket), the normalised keys, the buckets and their order.
    return 5 * cells + 24 * n * dK + 40 * n;
}

} // namespace

const KindCost kFullCost{nullptr, nullptr, fullHead, everyCell, fullFlops, fullBytes, fullSeconds, true};

const KindCost kSlidingWindowCost{
    nullptr, sparseShared, sparseHead, [](const AttentionOptions& o, std::int64_t n) { return windowCells(o, n, 0); },
    patternFlops, sparseBytes,
    [](const AttentionOptions&, std::int64_t n, int heads, double dK, double flops, std::int64_t cells) {
        return patternSeconds(10e9, n, heads, dK, flops, cells);
    }};

const KindCost kBigBirdCost{
    nullptr, sparseShared, sparseHead, [](const AttentionOptions& o, std::int64_t n) { return windowCells(o, n, o.random); },
    patternFlops, sparseBytes,
    [](const AttentionOptions&, std::int64_t n, int heads, double dK, double flops, std::int64_t cells) {
        return patternSeconds(10e9, n, heads, dK, flops, cells);
    }};

const KindCost kStridedCost{nullptr, sparseShared, sparseHead, strideCells, patternFlops, sparseBytes,
                            [](const AttentionOptions&, std::int64_t n, int heads, double dK, double flops, std::int64_t cells) {
                                return patternSeconds(1e9, n, heads, dK, flops, cells);
                            }};

const KindCost kLinformerCost{linformerRandom, nullptr, linformerOutput, noCells, linformerFlops, linformerBytes, tenGflops};

const KindCost kPerformerCost{performerRandom, nullptr, performerOutput, noCells, performerFlops, performerBytes, tenGflops};

const KindCost kLinearCost{nullptr, nullptr, linearOutput, noCells, linearFlops, linearBytes, linearSeconds};

const KindCost kLshCost{lshRandom, nullptr, lshOutput, lshCells, lshFlops, lshBytes,
                        [](const AttentionOptions&, std::int64_t n, int heads, double dK, double flops, std::int64_t cells) {
                            return patternSeconds(4e9, n, heads, dK, flops, cells);
                        }};

const KindCost kFlashCost{nullptr, nullptr, flashOutput, everyCell, fullFlops, flashBytes, flashSeconds};

} // namespace attnlab
