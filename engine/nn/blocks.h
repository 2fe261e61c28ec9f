#pragma once
/// The typed blocks the model families share (issue 30; llama.cpp's build_norm / build_ffn):
///
///   NormKind    LayerNorm: (x − mean)/√(var + ε)·γ + β;   RmsNorm: x/√(mean(x²) + ε)·γ
///               (Zhang & Sennrich 2019; Hugging Face's LlamaRMSNorm). Each states its statistics.
///   FfnKind     Plain(act): F = act(X·W_upᵀ + b_up)·W_downᵀ + b_down
///               Gated(act): F = (act(X·W_gateᵀ) ⊙ X·W_upᵀ)·W_downᵀ  (Shazeer 2020; LlamaMLP)
///   attention   `heads` query heads of head_dim d_k (not tied to d_model / heads) and kvHeads ≤
///               heads key/value heads: query head h reads KV head h / (heads / kvHeads), as
///               Hugging Face's repeat_kv (Ainslie et al. 2023); biases as the projections have
///               them; optional per-head q/k norms over d_k (Qwen3); RoPE in RopeLayout
///               Interleaved (pairs 2i, 2i+1) or HalfSplit (i, i + d_k/2: rotate_half).
///
/// Rows are tokens. The blocks take their linear layers as functions (a family's mapped weights,
/// a test's matrices), so nn/ knows no file layout.

#include "core/model_spec.h"
#include "core/trace.h"
#include "nn/attention.h"
#include "nn/transformer.h"

#include <Eigen/Core>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

enum class NormKind {
    LayerNorm,
    RmsNorm,
};

/// A norm's output and the statistics of its input it used.
struct NormResult {
    NormKind kind = NormKind::LayerNorm;
    Eigen::MatrixXf output;     ///< (n x d)
    Eigen::VectorXf mean;       ///< LayerNorm: (n) mean of each row
    Eigen::VectorXf variance;   ///< LayerNorm: (n) biased variance of each row
    Eigen::VectorXf meanSquare; ///< RmsNorm: (n) mean of the squares of each row
};

/// The norm of each row of x (n x d) over its d features, accumulated in double. w.beta may be
/// empty (no shift: RMSNorm, bias-free LayerNorms). Throws std::invalid_argument when γ is not d
/// wide, β neither empty nor d wide, or eps not positive.
NormResult normalize(const Eigen::MatrixXf& x, const LayerNormWeights& w, NormKind kind, float eps);

/// Puts a norm's statistics on its stage, as n x 1 matrices: "mean" and "variance" for a
/// LayerNorm, "mean_square" for an RMSNorm (a view keys on what the stage holds).
void putNormStatistics(Stage& stage, const NormResult& r, const Labels& rows);

/// An FFN's activation as a block applies it: its name in formulas and the function.
struct FfnActivation {
    const char* name = "ReLU";
    float (*apply)(float) = nullptr;
};
/// The model's activations (ReLU, GELU, GELU_tanh), and SiLU: x·σ(x) (Llama's, in a gated FFN).
FfnActivation ffnActivation(Activation activation);
FfnActivation siluActivation();

struct FfnKind {
    enum Shape {
        Plain,
        Gated,
    };
    Shape shape = Plain;
    FfnActivation activation;
};

/// A linear layer as a function: x (n x in) -> x·Wᵀ + b (n x out).
using Projection = std::function<Eigen::MatrixXf(const Eigen::MatrixXf&)>;

/// Where a block's stages go: their layer and block, the labels of their rows, the module prefix.
struct BlockPlace {
    std::optional<int> layer;
    Block block = Block::None;
    Labels rows;
    std::string modulePrefix; ///< "model.layers.0."
};

/// The feed-forward block on x (the stage `input`, named `in` in formulas). Plain: ffn_hidden
/// H = act(X·W_upᵀ + b), ffn_output F = H·W_downᵀ + b. Gated: ffn_gate G = X·W_gateᵀ, ffn_up
/// U = X·W_upᵀ, ffn_hidden H = act(G) ⊙ U, ffn_output F = H·W_downᵀ. `modules` name gate, up and
/// down under place.modulePrefix. Returns F.
Eigen::MatrixXf feedForwardBlock(const Eigen::MatrixXf& x, const FfnKind& kind, const Projection& gate, const Projection& up,
                                 const Projection& down, const StageKey& input, const std::string& in,
                                 const std::array<std::string, 3>& modules, const BlockPlace& place, StageList& stages);

enum class RopeLayout {
    Interleaved, ///< pairs (2i, 2i+1) turned by θ_i (the RoPE paper; position/inside.h)
    HalfSplit,   ///< pairs (i, i + d_k/2) turned by θ_i (Hugging Face's rotate_half)
};

/// RoPE's angles pos·ω_i (n x ω's size) for pos = 0 … n−1 of the inverse frequencies ω
/// (families/gated.h: rope_theta with its scaling), each product in double, then float.
Eigen::MatrixXf ropeAnglesOf(const std::vector<double>& inverseFrequencies, Eigen::Index n);

/// x (n x d_k) with row pos turned by angles(pos, ·) (ropeAngles), in `layout`.
Eigen::MatrixXf ropeRotate(const Eigen::MatrixXf& x, const Eigen::MatrixXf& angles, RopeLayout layout);

/// The shape of an attention block of a modern decoder.
struct AttentionShape {
    int heads = 1;
    int kvHeads = 1;  ///< ≤ heads, dividing it
    int headDim = 1;  ///< d_k
    std::optional<NormKind> qkNorm; ///< per-head norms of q and k over d_k, before RoPE
    float normEps = 1e-6f;
    std::optional<RopeLayout> rope; ///< RoPE, and in which layout
    double ropeBase = 10000.0;
    /// ω_i of the angles pos·ω_i when not empty (d_k / 2 of them: a scaled RoPE,
    /// position/rope_scaling.h); else ω_i = ropeBase^(−2i/d_k).
    std::vector<double> ropeInverseFrequencies;
};

struct AttentionBlockWeights {
    Projection q, k, v; ///< (n x heads·d_k), (n x kvHeads·d_k) twice
    Projection output;  ///< (n x heads·d_k) -> (n x d_model)
    LayerNormWeights qNorm, kNorm; ///< γ (d_k) of the q/k norms, when the shape has them
};

/// Self-attention of x, stage by stage: q (per query head), k and v (per key/value head) as
/// projected; q_norm and k_norm when the shape has q/k norms; q_rotated and k_rotated when it has
/// RoPE; then the kind's stages (scores … head_output) with query head h reading KV head
/// h / (heads / kvHeads), concat and output. Every per-head stage records its kvHead. `context`
/// places the stages (its positional scheme is not used: RoPE is the shape's). Returns
/// O (n x d_model).
Eigen::MatrixXf groupedAttention(const Eigen::MatrixXf& x, const AttentionBlockWeights& w, const AttentionShape& shape,
                                 bool scaleScores, const BoolMatrix& blocked, const AttentionBlockContext& context, StageList& stages,
                                 std::vector<Message>& warnings);

} // namespace attnlab
