#pragma once
/// Internal to the attention kinds (engine/attention/): what every approximating kind shares —
/// the user's mask taken apart, full attention as the reference, the error stage, the kinds'
/// seeded random streams — and the sparse kernel that only computes the allowed cells.

#include "attention/kind.h"
#include "core/random.h"

#include <Eigen/Core>

#include <cstdint>
#include <string_view>
#include <vector>

namespace attnlab::detail {

/// The user's mask as the kinds need it: which keys are padding, whether later keys are hidden
/// (causal), and the dense matrix for anything else (a custom mask).
struct UserMask {
    std::vector<char> padding; ///< per key: 1 = padding (hidden from every query)
    bool causal = false;       ///< key j > query i is hidden
    const BoolMatrix* dense = nullptr; ///< when set, the mask is this matrix (true = hidden)

    bool hides(Eigen::Index i, Eigen::Index j) const
    {
        if (dense)
            return (*dense)(i, j);
        return (causal && j > i) || padding[static_cast<std::size_t>(j)] != 0;
    }
    /// Neither padding nor causal nor dense: every key is visible.
    bool none() const;
};

/// Takes `blocked` (m x n) apart: padding = keys hidden from every query; causal = what is left is
/// exactly "j > i". When it is neither (a custom mask), `dense` points at `blocked`.
UserMask userMask(const BoolMatrix& blocked);

/// The user's mask for a kind that only knows padding and causal masks (linformer, performer,
/// linear); throws std::invalid_argument for any other (the settings' checks refuse it first).
UserMask kernelMask(const KernelInput& in, std::string_view kind);

/// The multiplier of the scores: 1/√d_k, or 1 when scaling is off.
float scoreScale(bool scaleScores, Eigen::Index dK);

/// The row softmax of c·Q·Kᵀ + M: full attention's weights (m x n); rows whose keys are all
/// hidden are zero and their indices go to `emptyRows` when given.
Eigen::MatrixXf softmaxWeights(const Eigen::MatrixXf& q, const Eigen::MatrixXf& k, float c, const BoolMatrix& blocked,
                               std::vector<Eigen::Index>* emptyRows = nullptr);

/// Appends reference_weights for every head (full softmax attention on the kernel's Q, K, V and
/// mask) and writes full attention's head outputs into out.reference; returns the weights.
std::vector<Eigen::MatrixXf> addReference(const KernelInput& in, StageList& stages, KernelOutput& out);

/// Appends head h's error stage: e_i = Σ_j |A_ij − A^full_ij| (m x 1), from `weights` (the
/// stage `weightsKey`, or the matrix implied by it) and the reference weights.
void addError(const KernelInput& in, int h, const Eigen::MatrixXf& weights, const Eigen::MatrixXf& reference,
              const StageKey& weightsKey, StageList& stages);

/// The stream of one of a kind's random matrices in this block: the same for a seed, layer and
/// name ("performer", "lsh#2" for head 2), different across layers.
SplitMix64 kindStream(const KernelInput& in, std::string_view name);

/// Appends head h's head_output stage for Z_h, already written into its columns of out.concat.
void addHeadOutput(const KernelInput& in, int h, const Eigen::MatrixXf& concat, std::string formula, std::vector<StageKey> inputs,
                   StageList& stages);

/// Which keys each query attends, row by row (sorted key indices): the pattern of a sparse kind.
struct SparsePattern {
    Eigen::Index rows = 0;
    Eigen::Index cols = 0;
    std::vector<std::int64_t> offsets{0}; ///< rows + 1: row i's keys are keys[offsets[i] .. offsets[i+1])
    std::vector<int> keys;

    Eigen::Index count(Eigen::Index i) const { return offsets[static_cast<std::size_t>(i) + 1] - offsets[static_cast<std::size_t>(i)]; }
    /// Appends the next row's keys (any order, no repeats); they are sorted.
    void addRow(std::vector<int> rowKeys);
    /// rows x cols, true where the pattern does NOT allow the cell (like a mask).
    BoolMatrix hidden() const;
};

/// How the sparse kernel walks a pattern: queries `tile` at a time in a chosen order, each tile
/// against the sorted union of its rows' keys (one small GEMM per tile and head). Made once per
/// pattern and shared by every head that uses it.
struct SparsePlan {
    std::vector<int> order;                   ///< the queries, in the order they are taken
    std::vector<std::int64_t> tileStart{0};   ///< tile t: order[tileStart[t] .. tileStart[t+1])
    std::vector<int> unionKeys;               ///< tile t's keys: unionKeys[unionStart[t] .. unionStart[t+1])
    std::vector<std::int64_t> unionStart{0};

    std::size_t tiles() const { return tileStart.size() - 1; }
};

/// The plan for `pattern`, taking queries in `order` (every row in turn when empty): rows whose
/// keys overlap should be neighbours in it (a window's rows in position order, Reformer's rows
/// sorted by bucket) so that each tile's union stays close to each row's keys.
SparsePlan planSparse(const SparsePattern& pattern, std::vector<int> order = {}, int tile = 32);

/// The sparse kernel: Z (m x d_k) = softmax over each row's allowed keys of c·q_i·k_j, times V;
/// the work is about the pattern's cells, not m·n. A row with no allowed key gets zeros (and its
/// index goes to `emptyRows` when given). `weights`, when given, receives the softmax weights in
/// the pattern's layout (one per allowed cell).
Eigen::MatrixXf sparseAttend(const SparsePattern& pattern, const SparsePlan& plan, const Eigen::MatrixXf& q,
                             const Eigen::MatrixXf& k, const Eigen::MatrixXf& v, float c, std::vector<float>* weights = nullptr,
                             std::vector<Eigen::Index>* emptyRows = nullptr);

/// The stages every score-based sparse kind shares (sparse.cpp, lsh.cpp), each for every head:
/// scores (with `scoresFormula`) and scaled, shown for every cell; returns the scaled scores.
std::vector<Eigen::MatrixXf> addScaledScores(const KernelInput& in, const char* scoresFormula, StageList& stages);

/// masked_scores = scaled + the head's mask: masks[h] (a mask stage per head, perHeadMask) or
/// masks[0] (one mask stage without a head). Frees the scaled scores.
void addMaskedScores(const KernelInput& in, std::vector<Eigen::MatrixXf>& scaled, const std::vector<Eigen::MatrixXf>& masks,
                     bool perHeadMask, StageList& stages);

/// weights (from the sparse kernel, over each head's pattern), head_output, reference_weights and
/// error, for every head; patterns and plans hold one per head, or one for all.
void addSparseOutputs(const KernelInput& in, const std::vector<SparsePattern>& patterns, const std::vector<SparsePlan>& plans,
                      const char* weightsFormula, StageList& stages, KernelOutput& out);

/// The sparse weights as a dense m x n matrix (zero outside the pattern), for display.
Eigen::MatrixXf denseWeights(const SparsePattern& pattern, const std::vector<float>& weights);

} // namespace attnlab::detail
