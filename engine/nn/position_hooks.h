#pragma once
/// The position schemes that act inside a self-attention block instead of adding a vector to X
/// (docs/position-schemes.md), each as one hook in one table: what it does to the heads' q and
/// k, the stages it adds, and what it hands the kind's kernel (the stages to read q and k from, a
/// bias per head, the relative tables). attentionHeads (nn/attention.cpp) runs a block's scheme
/// through its hook; Transformer-XL changes the block's shape and has xlHeads (nn/xl_heads.h).

#include "attention/kind.h"
#include "nn/attention.h"
#include "position/inside.h"

#include <Eigen/Core>

#include <optional>
#include <vector>

namespace attnlab {

/// What a scheme hands the kernel; it lives until the kernel returns.
struct SchemeInKernel {
    const char* qStage = "q";
    const char* kStage = "k";
    std::vector<Eigen::MatrixXf> scoreBias; ///< per head, m x n; empty: none
    std::optional<RelativeTables> relative;

    /// Points the kernel's input at what the scheme made.
    void into(KernelInput& in) const;
};

/// The heads of one self-attention block, as its scheme's hook finds them: q (m x d_k) and k
/// (n x d_k) per head (per key/value head for k), which a hook may turn in place.
struct SchemeHeads {
    std::vector<Eigen::MatrixXf>& q;
    std::vector<Eigen::MatrixXf>& k;
    const AttentionBlockContext& context;
    const Labels& headDims;
    StageList& stages;
};

/// A scheme acting inside attention: its hook adds its stages and fills `out`.
struct InsideScheme {
    PositionalEncoding scheme;
    void (*hook)(SchemeHeads& heads, SchemeInKernel& out);
};

/// The table's entry for `scheme`, or null: a scheme that adds a vector to X, none, or
/// Transformer-XL (which has a block of its own).
const InsideScheme* insideScheme(PositionalEncoding scheme);

} // namespace attnlab
