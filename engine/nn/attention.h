#pragma once
/// Multi-head self-attention, computed stage by stage (docs/engine.md, section 6).
///
///   X = E·s + P                                   (n x d)
///   Q_h, K_h, V_h = columns of X·W_Qᵀ + b_Q, ...  (n x d_k)
///   A_h = softmax(Q_h·K_hᵀ / √d_k + M)            (n x n)
///   Z_h = A_h·V_h                                 (n x d_k)
///   O = [Z_0 | ... | Z_{h-1}]·W_Oᵀ + b_O          (n x d)

#include "attention/kind.h"
#include "core/config.h"
#include "nn/mask.h"
#include "core/trace.h"
#include "nn/weights.h"
#include "position/inside.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

struct Request {
    std::string sentence;
    Config config;
    /// Imported or cached weights; when null, made from config.weightsPreset (slower: the
    /// UI keeps them and recomputes only when d_model, seed or preset change).
    std::shared_ptr<const AttentionWeights> weights;
    /// Required when config.mask is MaskKind::Custom: n x n, true = masked.
    std::optional<BoolMatrix> customMask;
};

/// Computes every stage. Throws std::invalid_argument for a bad request (invalid config, no
/// tokens, weights of another width, a custom mask of the wrong size, a trace too large);
/// numeric events such as a fully masked row are warnings in the trace.
Trace computeTrace(const Request& request);

/// Where one attention block's stages go in a trace, and how their rows and columns are labelled.
struct AttentionBlockContext {
    Labels queryLabels;         ///< one per query (row of the query input), m
    Labels keyLabels;           ///< one per key (row of the key/value input), n
    Labels featureLabels;       ///< "d0" .. "d{d-1}"; made when null
    std::optional<int> layer;   ///< Stage::layer of every stage (none for a single block)
    Block block = Block::None;  ///< Stage::block of every stage
    StageKey queryInput;        ///< the stage holding the query input (recorded as q's input)
    StageKey keyValueInput;     ///< the stage holding the key/value input (k's and v's input)
    /// The weights' module in the model file: "encoder.layers.0.self_attn"; "self_attn" for a
    /// single attention block.
    std::string module = "self_attn";
    /// Which attention the block computes between its projections and its output.
    AttentionKind kind = AttentionKind::Full;
    /// The kind's settings, and the seed of its random matrices (the model's seed).
    AttentionOptions options;
    std::uint64_t seed = 0;
    /// The position scheme, when it acts inside attention (rope, alibi, relative: position/inside.h); any
    /// other scheme changes nothing here. Cross-attention blocks leave it sinusoidal.
    PositionalEncoding positional = PositionalEncoding::Sinusoidal;
    PositionOptions positionOptions;
    /// Relative positions: tables to use instead of the seeded ones (a test gives an independent
    /// implementation's); null to draw them from `seed`.
    const RelativeTables* givenRelative = nullptr;
    /// Transformer-XL: parameters to use instead of the seeded ones (a test's); null to draw them.
    const XlTables* givenXl = nullptr;
    /// > 0: the scores' scale instead of 1/√d_k, and the `scaled` stage's formula saying so
    /// (Gemma 3's query_pre_attn_scalar^−½); full attention only.
    float scoreScale = 0.0f;
    std::string scaleFormula = {};
    /// The `mask` stage's formula when the mask is more than the block's causal one (Gemma 3's
    /// sliding window); empty: the usual.
    std::string maskFormula = {};
};

/// One multi-head attention block, stage by stage (docs/engine.md, section 6). Appends to
/// `stages`, in this order, q, k, v, scores, scaled (once per head each), mask, masked_scores,
/// weights, head_output (once per head each), concat and output, and returns O (m x d):
///
///   queryInput     X_q  (m x d)   Q_h = columns of X_q·W_Qᵀ + b_Q           (m x d_k)
///   keyValueInput  X_kv (n x d)   K_h, V_h = columns of X_kv·W_Kᵀ + b_K, ...  (n x d_k)
///   blocked             (m x n)   true = key j is hidden from query i
///   O = [softmax(Q_h·K_hᵀ·c + M)·V_h]_h ·W_Oᵀ + b_O, c = 1/√d_k (or 1 when !scaleScores)
///
/// Self-attention passes the same matrix object as both inputs (the three projections are then
/// one GEMM); cross-attention passes the decoder stream and the encoder output (memory).
/// A query whose keys are all blocked gets zero weights and a warning in `warnings`. The inputs
/// must not be matrices held in `stages`: appending stages may move them.
/// Throws std::invalid_argument when the shapes disagree (inputs, weights, mask, labels),
/// heads does not divide d, or m·n·heads exceeds ConfigLimits::maxAttentionCells.
Eigen::MatrixXf attentionBlock(const Eigen::MatrixXf& queryInput, const Eigen::MatrixXf& keyValueInput,
                               const AttentionWeights& weights, int heads, bool scaleScores, const BoolMatrix& blocked,
                               const AttentionBlockContext& context, StageList& stages,
                               std::vector<Message>& warnings);

/// The part of an attention block after its projections, for models whose weights are not laid
/// out as an nn.MultiheadAttention (GPT-2's c_attn, BERT's query/key/value): the q, k, v stages of
/// every head (head h: columns h·d_k .. (h+1)·d_k − 1 of each projection), the kind's kernel and
/// concat. Q is m x d, K and V n x d. For a kind other than full, `reference` (when given)
/// receives full attention's concatenated head outputs on the same Q, K, V. A block is cross-attention when context.queryInput and
/// context.keyValueInput differ (the k and v formulas then read Mem). Returns C (m x d). Throws
/// std::invalid_argument as attentionBlock.
Eigen::MatrixXf attentionHeads(const Eigen::Ref<const Eigen::MatrixXf>& q, const Eigen::Ref<const Eigen::MatrixXf>& k,
                               const Eigen::Ref<const Eigen::MatrixXf>& v, int heads, bool scaleScores,
                               const BoolMatrix& blocked, const AttentionBlockContext& context, StageList& stages,
                               std::vector<Message>& warnings, Eigen::MatrixXf* reference = nullptr);
/// The kind's kernel and concat on heads whose stages the caller appended (a grouped-query block,
/// nn/blocks.h): q[h] (m x d_k) per query head, held by the stages `qStage`; k[g] and v[g]
/// (n x d_k) per key/value head, held by `kStage` and "v" with head g. Query head h reads KV
/// head h / (q.size() / k.size()). Returns C (m x heads·d_k). Throws std::invalid_argument as
/// attentionHeads, and when the KV heads do not divide the query heads.
Eigen::MatrixXf groupedHeads(const std::vector<Eigen::MatrixXf>& q, const std::vector<Eigen::MatrixXf>& k,
                             const std::vector<Eigen::MatrixXf>& v, const char* qStage, const char* kStage, bool scaleScores,
                             const BoolMatrix& blocked, const AttentionBlockContext& context, StageList& stages,
                             std::vector<Message>& warnings);
/// Transformer-XL's heads of a self-attention block (nn/xl_heads.cpp, docs/position-schemes.md):
/// the parameters xl_w_r, xl_u, xl_v of every head, then every segment's stages (key.segment = τ):
/// memory, q, k, v, content_scores, position_scores, content_bias, position_bias, scores, scaled,
/// mask, masked_scores, weights, head_output. `input` is the block's input X (n x d), q, k, v its
/// projections; `blocked` the user's mask (n x n), to which the scheme adds causality. Returns
/// C (n x d): each segment's head outputs in its rows.
Eigen::MatrixXf xlHeads(const Eigen::MatrixXf& input, const Eigen::Ref<const Eigen::MatrixXf>& q, const Eigen::Ref<const Eigen::MatrixXf>& k,
                        const Eigen::Ref<const Eigen::MatrixXf>& v, int heads, bool scaleScores, const BoolMatrix& blocked,
                        const AttentionBlockContext& context, StageList& stages, std::vector<Message>& warnings);

/// Appends the block's output stage, O (m x d) = C·W_Oᵀ + b_O as the caller computed it.
void addAttentionOutput(const Eigen::MatrixXf& out, const AttentionBlockContext& context, StageList& stages);

} // namespace attnlab
