#pragma once
/// Attention kinds: what happens inside an attention block between the heads' projections
/// (Q_h, K_h, V_h) and their outputs Z_h. Full softmax attention is the one kind today; sparse,
/// low-rank, kernel and hashed attention (issue 13) are each one file in this folder plus one
/// line in kinds.cpp. The block around a kind (nn/attention.h) makes the q, k, v stages before it
/// and the concat and output stages after it.

#include "core/model_spec.h"
#include "core/trace.h"
#include "nn/mask.h"

#include <Eigen/Core>

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

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

    StageKey key(const char* id, std::optional<int> head = std::nullopt) const { return {id, head, layer, block}; }
};

/// A kind's kernel: appends its stages (each with its inputs, the block's q, k, v by key) and
/// writes head h's output Z_h (m x d_k) into columns h·d_k .. (h+1)·d_k − 1 of `concat`
/// (m x d), appending a head_output stage per head; warnings go to `warnings`.
using AttentionKernel = void (*)(const KernelInput& in, StageList& stages, Eigen::MatrixXf& concat,
                                 std::vector<Message>& warnings);

struct AttentionKindInfo {
    AttentionKind kind;
    std::string_view name;             ///< as in files and on the command line: "full"
    std::vector<std::string> stageIds; ///< the stages it appends, in order (per head where per-head)
    AttentionKernel kernel;
};

/// Every kind, in the order the settings offer them.
const std::vector<AttentionKindInfo>& attentionKinds();
/// The kind's entry (every AttentionKind has one).
const AttentionKindInfo& attentionKind(AttentionKind kind);

// The kernels, one per file.
void fullAttention(const KernelInput& in, StageList& stages, Eigen::MatrixXf& concat, std::vector<Message>& warnings);

} // namespace attnlab
