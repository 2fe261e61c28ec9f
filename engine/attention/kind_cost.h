#pragma once
/// How an attention kind is measured and estimated (attention/measure.h; docs/attention-kinds.md,
/// "Cost"): its random matrices, the work its heads share, one head's output with only what the
/// output needs, and the formulas of its scores, FLOPs, memory and time. One KindCost per kind in
/// kind_costs.cpp; kinds.cpp's table points each kind at its own.

#include "attention/common.h"
#include "attention/kind.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>

namespace attnlab {

/// What a run builds once for every head: the sparse kinds' pattern and the plan of its walk.
struct SharedWork {
    detail::SparsePattern pattern;
    detail::SparsePlan plan;

    std::int64_t bytes() const
    {
        return static_cast<std::int64_t>(4 * (pattern.keys.capacity() + plan.order.capacity() + plan.unionKeys.capacity())
                                          + 8 * (pattern.offsets.capacity() + plan.tileStart.capacity() + plan.unionStart.capacity()));
    }
};

/// One head to measure: Q_h, K_h, V_h (n x d_k) of head h, with the run's random matrices and shared work.
struct CostHead {
    const AttentionOptions& options;
    const GivenRandom& random;
    const SharedWork& shared;
    std::size_t h;
    const Eigen::MatrixXf& q;
    const Eigen::MatrixXf& k;
    const Eigen::MatrixXf& v;
};

struct KindCost {
    /// The kind's random matrices for n tokens and `heads` heads of d_k, from the seed's "cost-…"
    /// streams (made before the clock starts: they are the model's parameters); null for none.
    void (*random)(const AttentionOptions& o, Eigen::Index n, int dK, int heads, std::uint64_t seed, GivenRandom& out) = nullptr;
    /// What every head shares, built inside the timed run (the sparse kinds' pattern); null for none.
    void (*shared)(AttentionKind kind, const AttentionOptions& o, std::uint64_t seed, Eigen::Index n, SharedWork& out) = nullptr;
    /// One head's output Z_h (n x d_k); `cells`, when given, receives the scores it computed (left
    /// alone by a kind that computes no scores).
    Eigen::MatrixXf (*head)(const CostHead& in, std::int64_t* cells) = nullptr;
    /// The scores one head computes at n (the sparse kinds and LSH: as their patterns allow them;
    /// LSH's buckets taken as equal); 0 for a kind without scores.
    std::int64_t (*cells)(const AttentionOptions& o, std::int64_t n) = nullptr;
    /// The FLOPs of one head's matrix products (multiply and add counted apart), given its scores.
    double (*flopsPerHead)(const AttentionOptions& o, double n, double dK, double cells) = nullptr;
    /// What the kind holds for one head beside Q, K, V and the outputs (4 bytes a float or an index).
    std::int64_t (*heldBytes)(const AttentionOptions& o, std::int64_t n, std::int64_t dK, std::int64_t cells) = nullptr;
    /// The seconds of one pass over every head, without making Q, K and V; `flops` is attentionFlops'.
    double (*seconds)(const AttentionOptions& o, std::int64_t n, int heads, double dK, double flops, std::int64_t cells) = nullptr;
    /// Full attention: its two plain GEMMs (Q·Kᵀ, A·V) are timed too, for comparison.
    bool timesPlainGemms = false;
};

// One per kind (kind_costs.cpp).
extern const KindCost kFullCost;
extern const KindCost kSlidingWindowCost;
extern const KindCost kBigBirdCost;
extern const KindCost kStridedCost;
extern const KindCost kLinformerCost;
extern const KindCost kPerformerCost;
extern const KindCost kLinearCost;
extern const KindCost kLshCost;
extern const KindCost kFlashCost;

} // namespace attnlab
