// FlashAttention (Dao et al. 2022, "FlashAttention: Fast and Memory-Efficient Exact Attention with
// IO-Awareness", Algorithm 1), head by head: the same numbers as full softmax attention,
//   Z_h = softmax(Q_h·K_hᵀ / √d_k + M)·V_h,
// computed B_r queries × B_c keys at a time with the online softmax (Milakov & Gimelshein 2018):
// each query row keeps its running maximum m_i, its running sum ℓ_i and its output O_i so far, and
// rescales them whenever a later key block raises the maximum. Nothing n × n is computed for the
// output; the stages record m, ℓ and O after every key block, and the weights are made again from
// the final m and ℓ for display only (as FlashAttention's backward pass does).
//
// The loops run query block by query block, each over the key blocks in order (FlashAttention-2's
// order); Algorithm 1 runs the key blocks outside and the query blocks inside. Each row sees its
// key blocks in the same order either way, so every m, ℓ and O after a key block is the same.

#include "attention/flash.h"

#include "attention/common.h"
#include "core/stage_builder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace attnlab {

namespace {

using detail::addStage;
using detail::putMatrix;

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

} // namespace

// limits: maths kernel
FlashHead flashHead(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, float c, const BoolMatrix* blocked,
                    int queryBlock, int keyBlock, bool record)
{
    const Eigen::Index m = q.rows(), n = k.rows(), dK = v.cols();
    const Eigen::Index br = std::max(1, queryBlock), bc = std::max(1, keyBlock);
    const Eigen::Index tc = (n + bc - 1) / bc; // T_c key blocks
    FlashHead out;
    out.z.resize(m, dK);
    out.rowMax = Eigen::VectorXf::Constant(m, kMinusInfinity);
    out.rowSum = Eigen::VectorXf::Zero(m);
    if (record) {
        out.runningMax.resize(m, tc);
        out.runningSum.resize(m, tc);
        out.partialOutput.resize(m, tc * dK);
        out.tiles = Eigen::MatrixXf::Zero(m, n);
    }
    // The working set of one tile, what a GPU keeps in its on-chip SRAM: Q_i, O_i (one column per
    // query row, so that each row's vector is contiguous), K_j, V_j (one column per key), the
    // scores S (B_r x B_c, then P̃ in place) and one row's P̃·V_j. Nothing else grows with n but
    // m and ℓ.
    Eigen::MatrixXf qi(dK, br), oi(dK, br), s(br, bc);
    Eigen::VectorXf pv(dK);
    // K and V with one column per key, so that a key block's vectors are contiguous to load (the
    // layout a GPU kernel is given them in; the same size as K and V).
    const Eigen::MatrixXf kt = k.transpose(), vt = v.transpose();
    int tileNumber = 0;
    for (Eigen::Index r0 = 0; r0 < m; r0 += br) {
        const Eigen::Index rows = std::min(br, m - r0);
        qi.leftCols(rows) = q.middleRows(r0, rows).transpose(); // load Q_i
        oi.leftCols(rows).setZero();                            // O_i = 0 (m_i = −∞, ℓ_i = 0 above)
        auto rowMax = out.rowMax.segment(r0, rows);             // m_i
        auto rowSum = out.rowSum.segment(r0, rows);             // ℓ_i
        for (Eigen::Index t = 0, c0 = 0; c0 < n; ++t, c0 += bc) {
            const Eigen::Index cols = std::min(bc, n - c0);
            // A tile whose cells are all hidden changes nothing: it is skipped (a causal mask's
            // tiles above the diagonal).
            const bool skip = blocked && blocked->block(r0, c0, rows, cols).all();
            if (!skip) {
                if (record)
                    out.tiles.block(r0, c0, rows, cols).setConstant(static_cast<float>(++tileNumber));
                const auto kj = kt.middleCols(c0, cols); // K_j, V_j
                const auto vj = vt.middleCols(c0, cols);
                for (Eigen::Index i = 0; i < rows; ++i) {
                    // scores: s_ij = c·q_i·k_j for the tile's keys; hidden cells −∞.
                    auto si = s.row(i).head(cols);
                    float tileMax = kMinusInfinity; // m̃
                    for (Eigen::Index j = 0; j < cols; ++j) {
                        const bool hidden = blocked && (*blocked)(r0 + i, c0 + j);
                        si(j) = hidden ? kMinusInfinity : c * qi.col(i).dot(kj.col(j));
                        tileMax = std::max(tileMax, si(j));
                        if (hidden && record)
                            out.tiles(r0 + i, c0 + j) = 0;
                    }
                    // A row whose cells are all hidden here keeps its m, ℓ and O.
                    if (tileMax == kMinusInfinity)
                        continue;
                    // P̃ = exp(S − m̃) (at most 1: subtracting the maximum keeps exp from
                    // overflowing), ℓ̃ = rowsum(P̃), and P̃·V_j.
                    float tileSum = 0;
                    pv.setZero();
                    for (Eigen::Index j = 0; j < cols; ++j) {
                        const float p = std::exp(si(j) - tileMax); // exp(−∞) = 0 for hidden cells
                        tileSum += p;
                        if (p != 0)
                            pv += p * vj.col(j);
                    }
                    // m_new = max(m, m̃); the old terms and the tile's are rescaled to it:
                    // e^(m − m_new) is 0 while the row has seen no key (m = −∞).
                    const float mNew = std::max(rowMax(i), tileMax);
                    const float oldScale = std::exp(rowMax(i) - mNew);
                    const float tileScale = std::exp(tileMax - mNew);
                    const float sumNew = oldScale * rowSum(i) + tileScale * tileSum;
                    // O ← diag(ℓ_new)⁻¹·(diag(ℓ)·e^(m − m_new)·O + e^(m̃ − m_new)·P̃·V_j)
                    oi.col(i) = (oi.col(i) * (rowSum(i) * oldScale) + pv * tileScale) / sumNew;
                    rowMax(i) = mNew;
                    rowSum(i) = sumNew;
                }
            }
            if (record) {
                out.runningMax.block(r0, t, rows, 1) = rowMax;
                out.runningSum.block(r0, t, rows, 1) = rowSum;
                out.partialOutput.block(r0, t * dK, rows, dK) = oi.leftCols(rows).transpose();
            }
        }
        out.z.middleRows(r0, rows) = oi.leftCols(rows).transpose(); // write O_i
    }
    for (Eigen::Index i = 0; i < m; ++i) {
        if (out.rowSum(i) == 0)
            out.emptyRows.push_back(i);
    }
    return out;
}

namespace {

/// "k1–4", "k5–8", "k9": the keys of each block (counted from 1), the columns of m and ℓ.
Labels keyBlockLabels(Eigen::Index n, Eigen::Index bc)
{
    std::vector<std::string> out;
    for (Eigen::Index c0 = 0; c0 < n; c0 += bc) {
        const Eigen::Index last = std::min(n, c0 + bc);
        // (appended: GCC 12 warns falsely on "k" + std::string)
        std::string label = std::string("k").append(std::to_string(c0 + 1));
        if (last > c0 + 1)
            label.append("–").append(std::to_string(last));
        out.push_back(std::move(label));
    }
    return std::make_shared<const std::vector<std::string>>(std::move(out));
}

/// "k1–4 d1", …: the columns of the partial outputs (block t's O in d_k columns).
Labels partialLabels(const Labels& blocks, const Labels& dims)
{
    std::vector<std::string> out;
    for (const auto& b : *blocks) {
        for (const auto& d : *dims)
            out.push_back(b + " " + d);
    }
    return std::make_shared<const std::vector<std::string>>(std::move(out));
}

/// The weights A = exp(c·Q·Kᵀ − m)/ℓ, made again from the final m and ℓ for display only.
Eigen::MatrixXf recomputedWeights(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, float c, const BoolMatrix& blocked,
                                  const FlashHead& f)
{
    Eigen::MatrixXf a = q * k.transpose();
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            a(i, j) = blocked(i, j) || f.rowSum(i) == 0 ? 0.0f : std::exp(c * a(i, j) - f.rowMax(i)) / f.rowSum(i);
        }
    }
    return a;
}

} // namespace

void flashAttention(const KernelInput& in, StageList& stages, KernelOutput& out)
{
    const int heads = static_cast<int>(in.q.size());
    const auto dK = static_cast<Eigen::Index>(in.headDims->size());
    const float c = detail::scoreScale(in.scaleScores, dK);
    const int br = in.options.queryBlock, bc = in.options.keyBlock;
    std::vector<FlashHead> f;
    for (int h = 0; h < heads; ++h)
        f.push_back(flashHead(in.q[h], in.k[h], in.v[h], c, &in.blocked, br, bc, true));
    for (const auto row : f[0].emptyRows) // every head has the same mask
        out.warnings.push_back(messages::allKeysMasked(in.block, in.layer, row, (*in.queries)[static_cast<std::size_t>(row)]));

    const std::string blocks = "B_r = " + std::to_string(br) + " queries × B_c = " + std::to_string(bc) + " keys";
    putMatrix(addStage(stages, in.key("tiles"), "Tiles",
                       "tile number of each score s_ij, in the order computed (" + blocks + "; 0: hidden by the mask)",
                       {in.key(in.qStage, 0), in.key(in.kStage, 0)}),
              "T", f[0].tiles, in.queries, in.keys);
    const Labels blockLabels = keyBlockLabels(in.k[0].rows(), bc);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("running_max", h), "Running maximum",
                           "m_i ← max(m_i, rowmax_j s_ij) after each key block  (s_ij = q_i·k_j / √d_k + M_ij)",
                           {in.key(in.qStage, h), in.key(in.kStage, h), in.key("tiles")}),
                  "m_h", f[h].runningMax, in.queries, blockLabels);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("running_sum", h), "Running sum",
                           "ℓ_i ← e^(m_old − m_new)·ℓ_i + Σ_j e^(s_ij − m_new) after each key block",
                           {in.key(in.qStage, h), in.key(in.kStage, h), in.key("running_max", h)}),
                  "ℓ_h", f[h].runningSum, in.queries, blockLabels);
    const Labels partial = partialLabels(blockLabels, in.headDims);
    for (int h = 0; h < heads; ++h)
        putMatrix(addStage(stages, in.key("partial_output", h), "Partial output",
                           "O_i ← (ℓ_old·e^(m_old − m_new)·O_i + Σ_j e^(s_ij − m_new)·v_j) / ℓ_new after each key block",
                           {in.key("running_max", h), in.key("running_sum", h), in.key("v", h)}),
                  "O_h", f[h].partialOutput, in.queries, partial);
    std::vector<Eigen::MatrixXf> weights(static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
        weights[h] = recomputedWeights(in.q[h], in.k[h], c, in.blocked, f[h]);
        putMatrix(addStage(stages, in.key("weights", h), "Attention weights",
                           "A_h,ij = e^(s_ij − m_i) / ℓ_i  (made again from the final m and ℓ, only to be shown)",
                           {in.key(in.qStage, h), in.key(in.kStage, h), in.key("running_max", h), in.key("running_sum", h)}),
                  "A_h", weights[h], in.queries, in.keys);
    }
    for (int h = 0; h < heads; ++h) {
        out.concat.middleCols(h * dK, dK) = f[h].z;
        detail::addHeadOutput(in, h, out.concat, "Z_h = O after the last key block  (= softmax(S''_h)·V_h)",
                              {in.key("partial_output", h)}, stages);
    }
    const auto reference = detail::addReference(in, stages, out);
    for (int h = 0; h < heads; ++h)
        detail::addError(in, h, weights[h], reference[h], in.key("weights", h), stages);
}

} // namespace attnlab
