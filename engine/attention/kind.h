#pragma once
/// Attention kinds: what happens inside an attention block between the heads' projections
/// (Q_h, K_h, V_h) and their outputs Z_h: full softmax attention, and the sparse, low-rank, kernel
/// and hashed kinds of docs/attention-kinds.md, each one file in this folder plus one line in
/// kinds.cpp. The block around a kind (nn/attention.h) makes the q, k, v stages before it and the
/// concat and output stages after it.

#include "core/model_spec.h"
#include "core/trace.h"
#include "nn/mask.h"

#include <Eigen/Core>

#include <cstdint>
#include <optional>

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct RelativeTables; // position/inside.h
struct KindCost;       // attention/kind_cost.h

/// Random matrices to use instead of the seeded ones: a test gives an independent
/// implementation's, to compare every stage. Empty members are made from the seed as usual.
struct GivenRandom {
    Eigen::MatrixXf randomFeatures;              ///< performer's Ω (M x d_k)
    Eigen::MatrixXf projectionE, projectionF;    ///< linformer's E and F (K x n)
    std::vector<Eigen::MatrixXf> randomRotations; ///< lsh: R per head (d_k x B/2)
    std::vector<std::vector<int>> randomKeys;    ///< bigbird: the random keys of each query row
};

/// What a kind's kernel works on: one block's heads, and where its stages go.
struct KernelInput {
    const std::vector<Eigen::MatrixXf>& q; ///< Q_h (m x d_k), one per head
    const std::vector<Eigen::MatrixXf>& k; ///< K_h (n x d_k)
    const std::vector<Eigen::MatrixXf>& v; ///< V_h (n x d_k)
    const BoolMatrix& blocked;             ///< (m x n) true = key j is hidden from query i
    bool scaleScores;                      ///< divide the scores by √d_k
    Labels queries;                        ///< one per query
    Labels keys;                           ///< one per key
    Labels headDims;                       ///< "d0" .. "d{d_k-1}"
    std::optional<int> layer;              ///< the block's layer and block, for the stages' keys
    Block block = Block::None;
    AttentionKind kind = AttentionKind::Full;
    const AttentionOptions& options;       ///< the kind's settings
    std::uint64_t seed = 0;                ///< the block's seed for the kind's random matrices
    const GivenRandom* given = nullptr;    ///< random matrices given instead (tests)
    /// The stages q and k come from: "q_rotated", "k_rotated" when RoPE turned them.
    const char* qStage = "q";
    const char* kStage = "k";
    /// ALiBi: a bias per head (m x n) added to the scaled scores, as stage position_bias; null for none.
    const std::vector<Eigen::MatrixXf>* scoreBias = nullptr;
    /// Relative positions: the tables a^K, a^V (stages relative_keys, relative_values) whose
    /// q_i·a^K term joins the scores (stage position_scores) and whose a^V joins the outputs; null for none.
    const RelativeTables* relative = nullptr;
    /// Grouped-query attention: query heads per key/value head. k[h] and v[h] are then KV head
    /// h / kvGroup's, whose stages are numbered by KV head (kvKey).
    int kvGroup = 1;
    /// > 0: the scores' scale instead of 1/√d_k (Gemma's query_pre_attn_scalar^−½), said in
    /// scaleFormula; full attention only.
    float scoreScale = 0.0f;
    std::string scaleFormula = {};
    /// The mask stage's formula when it says more than "−∞ where hidden" (a sliding window).
    std::string maskFormula = {};

    StageKey key(const char* id, std::optional<int> head = std::nullopt) const { return {id, head, layer, block}; }
    /// The stage of the keys or values query head h read.
    StageKey kvKey(const char* id, int h) const { return {id, h / kvGroup, layer, block}; }
};

/// What a kernel writes besides its stages.
struct KernelOutput {
    /// C (m x d): head h's output Z_h (m x d_k) in columns h·d_k .. (h+1)·d_k − 1.
    Eigen::MatrixXf& concat;
    /// Every kind but full: the concatenated head outputs of full softmax attention on the same
    /// Q, K, V and mask (what the kind approximates), m x d.
    Eigen::MatrixXf reference;
    std::vector<Message>& warnings;
};

/// A kind's kernel: appends its stages (each with its inputs, the block's q, k, v by key), writes
/// every Z_h into `out.concat` with a head_output stage per head, and for an approximating kind
/// the reference_weights and error stages and `out.reference`.
using AttentionKernel = void (*)(const KernelInput& in, StageList& stages, KernelOutput& out);

/// Everything the program knows about one kind, in one place: kinds.cpp lists one per kind.
struct AttentionKindInfo {
    AttentionKind kind;
    std::string_view name;             ///< as in files and on the command line: "full"
    std::vector<std::string> stageIds; ///< the stages it appends, in order (per head where per-head)
    AttentionKernel kernel;
    /// How its cost is measured and estimated (attention/measure.h).
    const KindCost* cost = nullptr;
    /// The keys are the queries, normalised (Reformer's shared Q/K): the block's k stage holds
    /// K_h = Q_h / ‖Q_h‖ row by row instead of the key projection.
    bool sharedQueryKey = false;
    /// Stages that are one matrix for every block elsewhere but one per head in this kind (lsh's
    /// mask: each head hashes with its own rotation).
    std::vector<std::string> ownPerHeadStageIds = {};
    /// The mask stage's formula, for a kind whose mask is a pattern (the sparse kinds).
    std::string_view maskFormula = {};
};

/// Whether stage `id` of a block computing `kind` has one matrix per head: isPerHeadStage(id), and
/// lsh's mask (each head hashes with its own rotation).
bool isPerHeadStage(std::string_view id, AttentionKind kind);

/// The stage ids a kind adds to those of full attention (its own, reference_output), in order.
std::vector<std::string> kindStageIds(AttentionKind kind);

/// The kinds whose own stages (kindStageIds) include `id`: empty for a stage of every kind.
std::vector<AttentionKind> kindsComputing(std::string_view id);

/// Every kind, in the order the settings offer them.
const std::vector<AttentionKindInfo>& attentionKinds();
/// The kind's entry (every AttentionKind has one).
const AttentionKindInfo& attentionKind(AttentionKind kind);

// The kernels, one file each (sparse.cpp holds the three sparse patterns' kernel).
void fullAttention(const KernelInput& in, StageList& stages, KernelOutput& out);
void sparseAttention(const KernelInput& in, StageList& stages, KernelOutput& out);
void linformerAttention(const KernelInput& in, StageList& stages, KernelOutput& out);
void performerAttention(const KernelInput& in, StageList& stages, KernelOutput& out);
void linearAttention(const KernelInput& in, StageList& stages, KernelOutput& out);
void lshAttention(const KernelInput& in, StageList& stages, KernelOutput& out);
void flashAttention(const KernelInput& in, StageList& stages, KernelOutput& out);

} // namespace attnlab
