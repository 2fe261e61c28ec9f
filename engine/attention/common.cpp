#include "attention/common.h"

#include "core/messages.h"

#include "core/stage_builder.h"
#include "nn/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attnlab::detail {

bool UserMask::none() const
{
    return !dense && !causal && std::none_of(padding.begin(), padding.end(), [](char p) { return p != 0; });
}

UserMask userMask(const BoolMatrix& blocked)
{
    UserMask m;
    const Eigen::Index rows = blocked.rows();
    const Eigen::Index cols = blocked.cols();
    m.padding.assign(static_cast<std::size_t>(cols), 0);
    for (Eigen::Index j = 0; j < cols; ++j)
        m.padding[static_cast<std::size_t>(j)] = rows > 0 && blocked.col(j).all() ? 1 : 0;
    // What padding does not explain must be "j > i" exactly (or nothing).
    bool anyOther = false;
    bool causal = true;
    for (Eigen::Index j = 0; j < cols; ++j) {
        if (m.padding[static_cast<std::size_t>(j)])
            continue;
        for (Eigen::Index i = 0; i < rows; ++i) {
            const bool later = j > i;
            anyOther = anyOther || blocked(i, j);
            causal = causal && blocked(i, j) == later;
        }
    }
    if (anyOther && causal && rows == cols)
        m.causal = true;
    else if (anyOther)
        m.dense = &blocked;
    return m;
}

UserMask kernelMask(const KernelInput& in, std::string_view kind)
{
    UserMask m = userMask(in.blocked);
    if (m.dense)
        throw Error(say(coreMessage("kind_custom_mask"), kind));
    return m;
}

float scoreScale(bool scaleScores, Eigen::Index dK)
{
    return scaleScores ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(dK))) : 1.0f;
}

Eigen::MatrixXf softmaxWeights(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, float c, const BoolMatrix& blocked,
                               std::vector<Eigen::Index>* emptyRows)
{
    Eigen::MatrixXf s = q * k.transpose();
    s *= c;
    if (blocked.any())
        s += additiveMask(blocked);
    return rowSoftmax(s, emptyRows);
}

std::vector<Eigen::MatrixXf> addReference(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const float c = scoreScale(in.scaleScores, dK);
    std::vector<Eigen::MatrixXf> reference(static_cast<std::size_t>(heads));
    out.reference.resize(out.concat.rows(), out.concat.cols());
    for (int h = 0; h < heads; ++h) {
        auto& a = reference[static_cast<std::size_t>(h)];
        a = softmaxWeights(in.q[h], in.k[h], c, in.blocked);
        out.reference.middleCols(h * dK, dK).noalias() = a * in.v[h];
        putMatrix(addStage(stages, in.key("reference_weights", h), "Full attention's weights",
                           "A^full_h = softmax(Q_h·K_hᵀ / √d_k + M)  (what the kind approximates)", {in.key(in.qStage, h), in.key(in.kStage, h)}),
                  "A^full_h", a, in.queries, in.keys);
    }
    return reference;
}

void addError(const KernelInput& in, int h, const Eigen::MatrixXf& weights, const Eigen::MatrixXf& reference,
              const StageKey& weightsKey, StageList& stages)
{
    const Eigen::MatrixXf e = (weights - reference).cwiseAbs().rowwise().sum();
    static const Labels kColumn = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"L1"});
    putMatrix(addStage(stages, in.key("error", h), "Distance from full attention", "e_i = Σ_j |A_h,ij − A^full_h,ij|",
                       {weightsKey, in.key("reference_weights", h)}),
              "e_h", e, in.queries, kColumn);
}

SplitMix64 kindStream(const KernelInput& in, std::string_view name)
{
    std::string key(name);
    key += "@layer";
    key += in.layer ? std::to_string(*in.layer) : std::string("-");
    key += toString(in.block);
    return stream(key, in.seed);
}

void addHeadOutput(const KernelInput& in, int h, const Eigen::MatrixXf& concat, std::string formula, std::vector<StageKey> inputs,
                   StageList& stages)
{
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    putMatrix(addStage(stages, in.key("head_output", h), "Head output", std::move(formula), std::move(inputs)), "Z_h",
              concat.middleCols(h * dK, dK), in.queries, in.headDims);
}

void SparsePattern::addRow(std::vector<int> rowKeys)
{
    std::sort(rowKeys.begin(), rowKeys.end());
    keys.insert(keys.end(), rowKeys.begin(), rowKeys.end());
    offsets.push_back(static_cast<std::int64_t>(keys.size()));
    ++rows;
}

BoolMatrix SparsePattern::hidden() const
{
    BoolMatrix out = BoolMatrix::Constant(rows, cols, true);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (auto p = offsets[static_cast<std::size_t>(i)]; p < offsets[static_cast<std::size_t>(i) + 1]; ++p)
            out(i, keys[static_cast<std::size_t>(p)]) = false;
    }
    return out;
}

SparsePlan planSparse(const SparsePattern& pattern, std::vector<int> order, int tile)
{
    SparsePlan plan;
    if (order.empty()) {
        order.resize(static_cast<std::size_t>(pattern.rows));
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = static_cast<int>(i);
    }
    plan.order = std::move(order);
    // A tile grows row by row while its GEMM (rows x union) stays within twice the cells its rows
    // need: a window's rows share most keys and make full tiles; rows with keys of their own
    // (BigBird's random keys) make small ones instead of one wide, mostly wasted product.
    std::vector<int> stamp(static_cast<std::size_t>(pattern.cols), -1);
    std::vector<int> keys;
    std::int64_t cells = 0;
    int rows = 0;
    const auto close = [&](std::int64_t end) {
        std::sort(keys.begin(), keys.end());
        plan.unionKeys.insert(plan.unionKeys.end(), keys.begin(), keys.end());
        plan.unionStart.push_back(static_cast<std::int64_t>(plan.unionKeys.size()));
        plan.tileStart.push_back(end);
        keys.clear();
        cells = 0;
        rows = 0;
    };
    const auto total = static_cast<std::int64_t>(plan.order.size());
    for (std::int64_t r = 0; r < total; ++r) {
        const auto i = static_cast<std::size_t>(plan.order[static_cast<std::size_t>(r)]);
        const std::int64_t count = pattern.offsets[i + 1] - pattern.offsets[i];
        int t = static_cast<int>(plan.tiles());
        std::int64_t added = 0;
        for (auto p = pattern.offsets[i]; p < pattern.offsets[i + 1]; ++p)
            added += stamp[static_cast<std::size_t>(pattern.keys[static_cast<std::size_t>(p)])] != t ? 1 : 0;
        const auto width = static_cast<std::int64_t>(keys.size()) + added;
        if (rows > 0 && (rows >= tile || (rows + 1) * width > 2 * (cells + count) + 64)) {
            close(r);
            t = static_cast<int>(plan.tiles());
        }
        for (auto p = pattern.offsets[i]; p < pattern.offsets[i + 1]; ++p) {
            const int j = pattern.keys[static_cast<std::size_t>(p)];
            if (stamp[static_cast<std::size_t>(j)] != t) {
                stamp[static_cast<std::size_t>(j)] = t;
                keys.push_back(j);
            }
        }
        cells += count;
        ++rows;
    }
    if (rows > 0)
        close(total);
    return plan;
}

namespace {

/// Row r of a tile: the softmax over its allowed keys of the tile's scores, written into row r
/// of `w` (zero elsewhere); returns false when the row has no key.
bool tileRowSoftmax(const SparsePattern& pattern, std::size_t i, const std::vector<int>& position, const Eigen::MatrixXf& s,
                    Eigen::Index r, Eigen::MatrixXf& w, std::vector<float>* weights)
{
    const auto begin = pattern.offsets[i];
    const auto end = pattern.offsets[i + 1];
    if (begin == end)
        return false;
    float max = -std::numeric_limits<float>::infinity();
    for (auto p = begin; p < end; ++p)
        max = std::max(max, s(r, position[static_cast<std::size_t>(pattern.keys[static_cast<std::size_t>(p)])]));
    float sum = 0;
    for (auto p = begin; p < end; ++p) {
        const int col = position[static_cast<std::size_t>(pattern.keys[static_cast<std::size_t>(p)])];
        const float e = std::exp(s(r, col) - max);
        w(r, col) = e;
        sum += e;
    }
    for (auto p = begin; p < end; ++p) {
        const int col = position[static_cast<std::size_t>(pattern.keys[static_cast<std::size_t>(p)])];
        w(r, col) /= sum;
        if (weights)
            (*weights)[static_cast<std::size_t>(p)] = w(r, col);
    }
    return true;
}

} // namespace

Eigen::MatrixXf sparseAttend(const SparsePattern& pattern, const SparsePlan& plan, const Eigen::MatrixXf& q,
                             const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, float c, std::vector<float>* weights,
                             std::vector<Eigen::Index>* emptyRows)
{
    // Token vectors as columns (d_k x n), so that gathering a token's vector is one contiguous copy.
    const Eigen::MatrixXf qT = q.transpose();
    const Eigen::MatrixXf kT = k.transpose();
    const Eigen::MatrixXf vT = v.transpose();
    Eigen::MatrixXf zT = Eigen::MatrixXf::Zero(v.cols(), q.rows());
    if (weights)
        weights->assign(pattern.keys.size(), 0.0f);
    std::vector<int> position(static_cast<std::size_t>(pattern.cols), 0);
    Eigen::MatrixXf qt, kt, vt, s, w, zt;
    for (std::size_t t = 0; t < plan.tiles(); ++t) {
        const auto r0 = plan.tileStart[t];
        const auto rows = static_cast<Eigen::Index>(plan.tileStart[t + 1] - r0);
        const auto u0 = plan.unionStart[t];
        const auto cols = static_cast<Eigen::Index>(plan.unionStart[t + 1] - u0);
        qt.resize(q.cols(), rows);
        for (Eigen::Index r = 0; r < rows; ++r)
            qt.col(r) = qT.col(plan.order[static_cast<std::size_t>(r0 + r)]);
        kt.resize(k.cols(), cols);
        vt.resize(v.cols(), cols);
        for (Eigen::Index u = 0; u < cols; ++u) {
            const int j = plan.unionKeys[static_cast<std::size_t>(u0 + u)];
            position[static_cast<std::size_t>(j)] = static_cast<int>(u);
            kt.col(u) = kT.col(j);
            vt.col(u) = vT.col(j);
        }
        s.noalias() = qt.transpose() * kt; // rows x cols
        s *= c;
        w.setZero(rows, cols);
        for (Eigen::Index r = 0; r < rows; ++r) {
            const auto i = static_cast<std::size_t>(plan.order[static_cast<std::size_t>(r0 + r)]);
            if (!tileRowSoftmax(pattern, i, position, s, r, w, weights) && emptyRows)
                emptyRows->push_back(static_cast<Eigen::Index>(i));
        }
        zt.noalias() = vt * w.transpose(); // d_k x rows
        for (Eigen::Index r = 0; r < rows; ++r)
            zT.col(plan.order[static_cast<std::size_t>(r0 + r)]) = zt.col(r);
    }
    if (emptyRows)
        std::sort(emptyRows->begin(), emptyRows->end());
    return zT.transpose();
}

std::vector<Eigen::MatrixXf> addScaledScores(const KernelInput& in, const char* scoresFormula, StageList& stages)
{
    const int heads = static_cast<int>(in.q.size());
    const float c = scoreScale(in.scaleScores, static_cast<Eigen::Index>(in.headDims->size()));
    std::vector<Eigen::MatrixXf> scores(static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
        scores[h].noalias() = in.q[h] * in.k[h].transpose();
        putMatrix(addStage(stages, in.key("scores", h), "Scores Q·Kᵀ", scoresFormula, {in.key(in.qStage, h), in.key(in.kStage, h)}), "S_h", scores[h],
                  in.queries, in.keys);
    }
    for (int h = 0; h < heads; ++h) {
        scores[h] *= c;
        putMatrix(addStage(stages, in.key("scaled", h), "Scaled scores", in.scaleScores ? "S'_h = S_h / √d_k" : "S'_h = S_h  (scaling off)",
                           {in.key("scores", h)}),
                  "S'_h", scores[h], in.queries, in.keys);
    }
    return scores;
}

void addMaskedScores(const KernelInput& in, std::vector<Eigen::MatrixXf>& scaled, const std::vector<Eigen::MatrixXf>& masks,
                     bool perHead, StageList& stages)
{
    for (std::size_t h = 0; h < scaled.size(); ++h) {
        const int head = static_cast<int>(h);
        scaled[h] += masks[perHead ? h : 0];
        const StageKey mask = perHead ? in.key("mask", head) : in.key("mask");
        putMatrix(addStage(stages, in.key("masked_scores", head), "Masked scores", perHead ? "S''_h = S'_h + M_h" : "S''_h = S'_h + M",
                           {in.key("scaled", head), mask}),
                  "S''_h", scaled[h], in.queries, in.keys);
        scaled[h].resize(0, 0);
    }
}

void addSparseOutputs(const KernelInput& in, const std::vector<SparsePattern>& patterns, const std::vector<SparsePlan>& plans,
                      const char* weightsFormula, StageList& stages, KernelOutput& out)
{
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const float c = scoreScale(in.scaleScores, dK);
    std::vector<Eigen::MatrixXf> weights(static_cast<std::size_t>(heads));
    std::vector<Eigen::Index> emptyRows;
    for (int h = 0; h < heads; ++h) {
        const std::size_t p = patterns.size() > 1 ? static_cast<std::size_t>(h) : 0;
        std::vector<float> w;
        out.concat.middleCols(h * dK, dK) = sparseAttend(patterns[p], plans[p], in.q[h], in.k[h], in.v[h], c, &w, &emptyRows);
        weights[h] = denseWeights(patterns[p], w);
        putMatrix(addStage(stages, in.key("weights", h), "Attention weights", weightsFormula, {in.key("masked_scores", h)}), "A_h",
                  weights[h], in.queries, in.keys);
    }
    std::sort(emptyRows.begin(), emptyRows.end());
    emptyRows.erase(std::unique(emptyRows.begin(), emptyRows.end()), emptyRows.end());
    for (const auto row : emptyRows)
        out.warnings.push_back(messages::allKeysMasked(in.block, in.layer, row, (*in.queries)[static_cast<std::size_t>(row)]));
    for (int h = 0; h < heads; ++h)
        addHeadOutput(in, h, out.concat, "Z_h = A_h·V_h", {in.key("weights", h), in.key("v", h)}, stages);
    const auto reference = addReference(in, stages, out);
    for (int h = 0; h < heads; ++h)
        addError(in, h, weights[h], reference[h], in.key("weights", h), stages);
}

Eigen::MatrixXf denseWeights(const SparsePattern& pattern, const std::vector<float>& weights)
{
    Eigen::MatrixXf out = Eigen::MatrixXf::Zero(pattern.rows, pattern.cols);
    for (Eigen::Index i = 0; i < pattern.rows; ++i) {
        for (auto p = pattern.offsets[static_cast<std::size_t>(i)]; p < pattern.offsets[static_cast<std::size_t>(i) + 1]; ++p)
            out(i, pattern.keys[static_cast<std::size_t>(p)]) = weights[static_cast<std::size_t>(p)];
    }
    return out;
}

} // namespace attnlab::detail
