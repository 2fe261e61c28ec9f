// The sparse kinds (docs/attention-kinds.md): each query attends only the keys its pattern allows,
// and the user's mask (causal, padding) hides keys on top of it.
//   sliding-window (Longformer): |i − j| ≤ W·D and (i − j) mod D = 0, plus global positions
//   bigbird: the window, plus R seeded random keys per query, plus global positions
//   strided (Sparse Transformer): |i − j| < S or (i − j) mod S = 0
// The output comes from the sparse kernel (common.h), which only computes the allowed cells; the
// n x n stages are made for display only.

#include "attention/sparse.h"

#include "core/stage_builder.h"
#include "nn/mask.h"

#include <algorithm>
#include <cstdlib>

namespace attnlab {

namespace {

using detail::SparsePattern;

/// Collects one row's keys without repeats (a stamp per key says which row took it last).
class RowKeys {
public:
    explicit RowKeys(Eigen::Index n) : m_stamp(static_cast<std::size_t>(n), -1) {}
    void start(Eigen::Index row)
    {
        m_row = row;
        m_keys.clear();
    }
    void add(Eigen::Index j)
    {
        if (m_stamp[static_cast<std::size_t>(j)] != m_row) {
            m_stamp[static_cast<std::size_t>(j)] = m_row;
            m_keys.push_back(static_cast<int>(j));
        }
    }
    bool has(Eigen::Index j) const { return m_stamp[static_cast<std::size_t>(j)] == m_row; }
    std::size_t size() const { return m_keys.size(); }
    const std::vector<int>& keys() const { return m_keys; }

private:
    std::vector<Eigen::Index> m_stamp;
    std::vector<int> m_keys;
    Eigen::Index m_row = -1;
};

/// BigBird's random keys of one row: R of the keys the row does not have yet, without
/// replacement. Drawn by rejection while most keys are free, from the list of free keys otherwise
/// (a partial Fisher–Yates shuffle); either way driven by `gen` alone.
void addRandomKeys(RowKeys& row, Eigen::Index n, int r, SplitMix64& gen)
{
    const auto free = static_cast<std::size_t>(n) - row.size();
    const std::size_t take = std::min<std::size_t>(static_cast<std::size_t>(r), free);
    if (take == 0)
        return;
    if (free >= 4 * take) {
        for (std::size_t t = 0; t < take;) {
            const auto j = std::min<Eigen::Index>(n - 1, static_cast<Eigen::Index>(gen.uniform53() * static_cast<double>(n)));
            if (!row.has(j)) {
                row.add(j);
                ++t;
            }
        }
        return;
    }
    std::vector<int> candidates;
    for (Eigen::Index j = 0; j < n; ++j) {
        if (!row.has(j))
            candidates.push_back(static_cast<int>(j));
    }
    for (std::size_t t = 0; t < take; ++t) {
        const auto left = candidates.size() - t;
        const auto pick = t + std::min(left - 1, static_cast<std::size_t>(gen.uniform53() * static_cast<double>(left)));
        std::swap(candidates[t], candidates[pick]);
    }
    for (std::size_t t = 0; t < take; ++t)
        row.add(candidates[t]);
}

/// The kind's own keys of row i (before the user's mask).
void kindKeys(AttentionKind kind, const AttentionOptions& o, Eigen::Index n, Eigen::Index i, const std::vector<int>& globals,
              bool globalRow, RowKeys& row)
{
    if (globalRow) {
        for (Eigen::Index j = 0; j < n; ++j)
            row.add(j);
        return;
    }
    if (kind == AttentionKind::Strided) {
        const Eigen::Index s = o.stride;
        for (Eigen::Index j = std::max<Eigen::Index>(0, i - s + 1); j <= std::min<Eigen::Index>(n - 1, i + s - 1); ++j)
            row.add(j);
        for (Eigen::Index j = i % s; j < n; j += s)
            row.add(j);
        return;
    }
    // The window: i − W·D, ..., i − D, i, i + D, ..., i + W·D, then the global columns.
    const Eigen::Index d = o.dilation;
    for (Eigen::Index t = -static_cast<Eigen::Index>(o.window); t <= o.window; ++t) {
        const Eigen::Index j = i + t * d;
        if (j >= 0 && j < n)
            row.add(j);
    }
    for (const int g : globals)
        row.add(g);
}

} // namespace

std::vector<int> globalPositions(const AttentionOptions& o, Eigen::Index n)
{
    std::vector<int> out;
    for (const int p : o.global) {
        if (p < 0 || p >= n)
            throw Error(messages::globalOutOfRange(p, n));
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

detail::SparsePattern sparsePattern(AttentionKind kind, const AttentionOptions& o, Eigen::Index n, const detail::UserMask& mask,
                                    SplitMix64 gen, const std::vector<std::vector<int>>& givenKeys)
{
    const bool windowed = kind == AttentionKind::SlidingWindow || kind == AttentionKind::BigBird;
    const std::vector<int> globals = windowed ? globalPositions(o, n) : std::vector<int>{};
    std::vector<char> isGlobal(static_cast<std::size_t>(n), 0);
    for (const int p : globals)
        isGlobal[static_cast<std::size_t>(p)] = 1;
    SparsePattern pattern;
    pattern.cols = n;
    RowKeys row(n);
    std::vector<int> keys;
    for (Eigen::Index i = 0; i < n; ++i) {
        row.start(i);
        const bool globalRow = isGlobal[static_cast<std::size_t>(i)] != 0;
        kindKeys(kind, o, n, i, globals, globalRow, row);
        // BigBird's random keys are drawn before the user's mask, the same for every head.
        if (kind == AttentionKind::BigBird && !givenKeys.empty()) {
            for (const int j : givenKeys.at(static_cast<std::size_t>(i)))
                row.add(j);
        } else if (kind == AttentionKind::BigBird && !globalRow) {
            addRandomKeys(row, n, o.random, gen);
        }
        keys.clear();
        for (const int j : row.keys()) {
            if (!mask.hides(i, j))
                keys.push_back(j);
        }
        pattern.addRow(keys);
    }
    return pattern;
}

std::vector<int> sparseOrder(AttentionKind kind, const AttentionOptions& o, Eigen::Index n)
{
    // Global rows (every key) first, then the others grouped by residue mod D, so that a tile's
    // rows share their (dilated) window.
    std::vector<int> order;
    const bool windowed = kind == AttentionKind::SlidingWindow || kind == AttentionKind::BigBird;
    std::vector<char> isGlobal(static_cast<std::size_t>(n), 0);
    if (windowed) {
        for (const int p : globalPositions(o, n)) {
            isGlobal[static_cast<std::size_t>(p)] = 1;
            order.push_back(p);
        }
    }
    const int step = windowed ? o.dilation : 1;
    for (int r = 0; r < step; ++r) {
        for (Eigen::Index i = r; i < n; i += step) {
            if (!isGlobal[static_cast<std::size_t>(i)])
                order.push_back(static_cast<int>(i));
        }
    }
    return order;
}

void sparseAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    const auto n = in.k[0].rows();
    const detail::UserMask mask = detail::userMask(in.blocked);
    std::vector<SparsePattern> pattern{sparsePattern(in.kind, in.options, n, mask, detail::kindStream(in, "bigbird"),
                                                     in.given ? in.given->randomKeys : std::vector<std::vector<int>>{})};
    const std::vector<detail::SparsePlan> plan{detail::planSparse(pattern[0], sparseOrder(in.kind, in.options, n))};
    // scores and scaled are shown for every cell; only the allowed ones are used.
    auto scores = detail::addScaledScores(in, "S_h = Q_h·K_hᵀ  (only the allowed cells are used)", stages);
    // mask: the pattern and the user's mask together, the same for every head.
    const std::vector<Eigen::MatrixXf> additive{additiveMask(pattern[0].hidden())};
    detail::putMatrix(detail::addStage(stages, in.key("mask"), "Mask", sparseMaskFormula(in.kind)), "M", additive[0], in.queries, in.keys);
    detail::addMaskedScores(in, scores, additive, false, stages);
    detail::addSparseOutputs(in, pattern, plan, "A_h = softmax(S''_h)  (over the allowed keys)", stages, out);
}

std::string sparseMaskFormula(AttentionKind kind)
{
    return std::string(attentionKind(kind).maskFormula);
}

} // namespace attnlab
