#pragma once
/// Transformer encoder and decoder layers, stage by stage (docs/transformer-layers.md), with
/// PyTorch's semantics (nn.TransformerEncoderLayer, nn.TransformerDecoderLayer, nn.Transformer;
/// batch_first, one sequence, dropout 0). Rows are tokens, d = d_model, everything float32.
///
///   LN(x)   = (x − mean) / √(var + ε) · γ + β      per row; biased variance over the d features
///   FFN(x)  = act(x·W_1ᵀ + b_1)·W_2ᵀ + b_2         act = ReLU or exact GELU;  (n x d_ff) inside
///   Post-LN encoder layer:  N_1 = LN_1(X + SA(X));           Y = LN_2(N_1 + FFN(N_1))
///   Pre-LN encoder layer:   R_1 = X + SA(LN_1(X));           Y = R_1 + FFN(LN_2(R_1))
///   Post-LN decoder layer:  N_1 = LN_1(Y + SA(Y));  N_2 = LN_2(N_1 + CA(N_1, Mem));  LN_3(N_2 + FFN(N_2))
///   Pre-LN decoder layer:   R_1 = Y + SA(LN_1(Y));  R_2 = R_1 + CA(LN_2(R_1), Mem);  R_2 + FFN(LN_3(R_2))
///
/// SA is the multi-head self-attention block of attention.h; CA the same block with queries from
/// the decoder stream and keys and values from the encoder output Mem. Every function appends its
/// stages, with their layer and block, to a stage list in the order of the math.

#include "core/model_spec.h"
#include "nn/attention.h"
#include "nn/mask.h"
#include "io/safetensors.h"
#include "core/trace.h"
#include "nn/weights.h"

#include <Eigen/Core>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {


// --- Weights, in PyTorch's layout (the state dict names are in the comments) ---

struct LayerNormWeights {
    Eigen::VectorXf gamma; ///< norm*.weight (d)
    Eigen::VectorXf beta;  ///< norm*.bias (d)
};

struct FeedForwardWeights {
    Eigen::MatrixXf linear1Weight; ///< linear1.weight (d_ff x d): H = act(X·W_1ᵀ + b_1)
    Eigen::VectorXf linear1Bias;   ///< linear1.bias (d_ff)
    Eigen::MatrixXf linear2Weight; ///< linear2.weight (d x d_ff): F = H·W_2ᵀ + b_2
    Eigen::VectorXf linear2Bias;   ///< linear2.bias (d)
};

struct EncoderLayerWeights {
    AttentionWeights selfAttn; ///< self_attn.*
    FeedForwardWeights ffn;    ///< linear1.*, linear2.*
    LayerNormWeights norm1;    ///< norm1.*: around self-attention
    LayerNormWeights norm2;    ///< norm2.*: around the feed-forward network
};

struct DecoderLayerWeights {
    AttentionWeights selfAttn;  ///< self_attn.*
    AttentionWeights crossAttn; ///< multihead_attn.*: queries from the decoder, keys and values from the memory
    FeedForwardWeights ffn;     ///< linear1.*, linear2.*
    LayerNormWeights norm1;     ///< norm1.*: around self-attention
    LayerNormWeights norm2;     ///< norm2.*: around cross-attention
    LayerNormWeights norm3;     ///< norm3.*: around the feed-forward network
};

struct TransformerWeights {
    std::vector<EncoderLayerWeights> encoder;    ///< encoder.layers.{i}.*
    std::vector<DecoderLayerWeights> decoder;    ///< decoder.layers.{i}.*
    std::optional<LayerNormWeights> encoderNorm; ///< encoder.norm.* (final norm of the encoder stack)
    std::optional<LayerNormWeights> decoderNorm; ///< decoder.norm.*
    /// Where the weights came from, e.g. "file:<path>".
    std::string source;
};

// --- One function per stage ---

/// LayerNorm of each row over its d features, with the statistics of its input.
struct LayerNormResult {
    Eigen::MatrixXf output;   ///< (n x d) (x − mean)/√(variance + ε)·γ + β
    Eigen::VectorXf mean;     ///< (n) mean of each input row
    Eigen::VectorXf variance; ///< (n) biased variance of each input row (divided by d, not d − 1)
};

/// attn_norm, cross_norm, ffn_norm: LN(x) (n x d). Throws std::invalid_argument when γ or β
/// does not have d values or eps is not positive.
LayerNormResult layerNorm(const Eigen::MatrixXf& x, const LayerNormWeights& w, float eps);

/// attn_residual, cross_residual, ffn_residual: x + sublayer (n x d), an exact float32 sum.
Eigen::MatrixXf residual(const Eigen::MatrixXf& x, const Eigen::MatrixXf& sublayer);

/// Exact GELU of one value: x/2·(1 + erf(x/√2)).
float gelu(float x);
/// GELU's tanh approximation (GPT-2's gelu_new): x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
float geluTanh(float x);
/// "ReLU", "GELU", "GELU_tanh": the activation as formulas write it.
const char* activationName(Activation activation);
/// The activation applied to every element.
Eigen::MatrixXf activate(Activation activation, const Eigen::MatrixXf& x);

/// ffn_hidden: H (n x d_ff) = act(X (n x d) · W_1ᵀ (d x d_ff) + b_1).
Eigen::MatrixXf feedForwardHidden(const Eigen::MatrixXf& x, const FeedForwardWeights& w, Activation activation);
/// ffn_output: F (n x d) = H (n x d_ff) · W_2ᵀ (d_ff x d) + b_2.
Eigen::MatrixXf feedForwardOutput(const Eigen::MatrixXf& hidden, const FeedForwardWeights& w);

// --- Layers and stacks ---
// Each appends its stages to `stages` (layer = `layer`, blocks as in docs/transformer-layers.md)
// and the warnings of fully masked query rows to `warnings`, and returns its output. A blocked
// matrix is true where a key is hidden from a query (combineMasks merges PyTorch's attn_mask and
// key_padding_mask). Labels name the rows (one per token). Inputs must not be matrices held in
// `stages` (appending stages may move them). Throws std::invalid_argument for invalid options
// or shapes that disagree with them (inputs, weights, masks, labels); nothing is appended then.

/// One encoder layer on X (n x d); block "encoder_self"; returns layer_output (n x d).
Eigen::MatrixXf encoderLayer(const Eigen::MatrixXf& x, const EncoderLayerWeights& w, const ModelSpec& spec,
                             const BoolMatrix& blocked, const Labels& tokens, int layer, StageList& stages,
                             std::vector<Message>& warnings);

/// The parts of one layer whose weights are not laid out as PyTorch's (GPT-2's and BERT's,
/// engine/pretrained/): each part computes its matrix; layerOfParts appends the stages around them
/// exactly as encoderLayer does (Post-LN or Pre-LN as the spec says).
struct LayerParts {
    /// Self-attention on `input` (held by the stage `inputKey`): appends q .. output, returns O.
    std::function<Eigen::MatrixXf(const Eigen::MatrixXf& input, const StageKey& inputKey)> attention;
    /// The feed-forward network: H = act(X·W_1ᵀ + b_1) (n x d_ff), then F = H·W_2ᵀ + b_2 (n x d).
    std::function<Eigen::MatrixXf(const Eigen::MatrixXf& x)> hidden;
    std::function<Eigen::MatrixXf(const Eigen::MatrixXf& h)> output;
    const LayerNormWeights* norm1 = nullptr; ///< around (Post-LN) or before (Pre-LN) the attention
    const LayerNormWeights* norm2 = nullptr; ///< around or before the feed-forward network
    /// The stages' modules under modulePrefix: the two norms, then the FFN's two linear layers.
    std::array<std::string, 4> modules{"norm1", "norm2", "linear1", "linear2"};
    std::string modulePrefix; ///< "encoder.layers.0.", "h.0."
    Block block = Block::EncoderSelf;
};

/// One layer made of `parts` on X (n x d), with the stages of encoderLayer in parts.block;
/// returns layer_output. Throws std::invalid_argument for a stream or norms of the wrong shape.
Eigen::MatrixXf layerOfParts(const Eigen::MatrixXf& x, const LayerParts& parts, const ModelSpec& spec, const Labels& tokens,
                             int layer, StageList& stages);

/// A stack's final stage `id` (encoder_output, decoder_output), named `name` in its formula:
/// LN(x) with its statistics when `norm` is given (the LayerNorm module `module`, e.g. "ln_f"),
/// else x itself. `last` is the last layer's output stage.
Eigen::MatrixXf stackOutput(const char* id, const char* title, const char* name, const Eigen::MatrixXf& x, const StageKey& last,
                            const LayerNormWeights* norm, float eps, const std::string& module, const Labels& tokens,
                            const Labels& dims, StageList& stages);

/// One decoder layer on Y (m x d) with the encoder output Mem (n x d): self-attention (block
/// "decoder_self", mask selfBlocked m x m, usually causal), cross-attention (block "cross", mask
/// crossBlocked m x n) and the feed-forward network (block "decoder_self"); returns layer_output (m x d).
Eigen::MatrixXf decoderLayer(const Eigen::MatrixXf& y, const Eigen::MatrixXf& memory, const DecoderLayerWeights& w,
                             const ModelSpec& spec, const BoolMatrix& selfBlocked, const BoolMatrix& crossBlocked,
                             const Labels& targetTokens, const Labels& memoryTokens, int layer, StageList& stages,
                             std::vector<Message>& warnings);

/// The encoder stack: layers 0..N−1 on X (n x d), then the final norm if given; appends the stage
/// encoder_output (layer and block none; with "mean" and "variance" after a final norm) and
/// returns it (n x d): the decoder's memory.
Eigen::MatrixXf encoderStack(const Eigen::MatrixXf& x, const std::vector<EncoderLayerWeights>& layers,
                             const std::optional<LayerNormWeights>& finalNorm, const ModelSpec& spec,
                             const BoolMatrix& blocked, const Labels& tokens, StageList& stages,
                             std::vector<Message>& warnings);

/// The decoder stack on Y (m x d) and Mem (n x d), then the final norm if given; appends
/// decoder_output and returns it (m x d).
Eigen::MatrixXf decoderStack(const Eigen::MatrixXf& y, const Eigen::MatrixXf& memory, const std::vector<DecoderLayerWeights>& layers,
                             const std::optional<LayerNormWeights>& finalNorm, const ModelSpec& spec,
                             const BoolMatrix& selfBlocked, const BoolMatrix& crossBlocked, const Labels& targetTokens,
                             const Labels& memoryTokens, StageList& stages, std::vector<Message>& warnings);

/// The inputs of nn.Transformer.forward for one sequence (batch_first, no batch dimension).
struct TransformerInputs {
    Eigen::MatrixXf src;                        ///< (n x d) encoder input; the memory itself when there is no encoder layer
    Eigen::MatrixXf tgt;                        ///< (m x d) decoder input; empty when there is no decoder layer
    std::vector<std::string> srcTokens;         ///< row labels of src (n); "0", "1", ... when empty
    std::vector<std::string> tgtTokens;         ///< row labels of tgt (m); "0", "1", ... when empty
    std::optional<BoolMatrix> srcMask;          ///< (n x n) src_mask, true = masked
    std::optional<BoolMatrix> tgtMask;          ///< (m x m) tgt_mask (causalMask(m) for a decoder)
    std::optional<BoolMatrix> memoryMask;       ///< (m x n) memory_mask
    std::optional<BoolVector> srcKeyPadding;    ///< (n) src_key_padding_mask, true = padding
    std::optional<BoolVector> tgtKeyPadding;    ///< (m) tgt_key_padding_mask
    std::optional<BoolVector> memoryKeyPadding; ///< (n) memory_key_padding_mask
};

/// Every stage of an encoder/decoder computation.
struct TransformerTrace {
    StageList stages;
    std::vector<Message> warnings;
    Eigen::MatrixXf encoderOutput; ///< (n x d) the memory; src itself when there is no encoder layer
    Eigen::MatrixXf decoderOutput; ///< (m x d); empty when there is no decoder layer

    /// The stage with exactly this id, head, layer and block, or nullptr.
    const Stage* find(std::string_view id, std::optional<int> head, std::optional<int> layer, Block block) const
    {
        return findStage(stages, id, head, layer, block);
    }
};

/// The encoder stack on src (when spec.encoderLayers > 0), then the decoder stack on tgt
/// (when spec.decoderLayers > 0) with the encoder output as memory. The weights must hold
/// spec.encoderLayers and spec.decoderLayers layers, and the final norms of the stacks run
/// exactly when spec.finalNorms. Throws std::invalid_argument for a bad request (invalid
/// options, shapes, masks, or more than ConfigLimits::maxAttentionCells cells in all layers).
TransformerTrace computeTransformer(const TransformerInputs& inputs, const TransformerWeights& weights,
                                    const ModelSpec& spec);

// --- Loading PyTorch state dicts (safetensors) ---
// The shapes come from the ModelSpec: d = dModel, d_ff = feedForwardWidth(), the layer counts and final norms.
// Only tensors whose names start with `prefix` are read (others belong to other modules and
// are ignored); under the prefix every tensor must be one the options expect. Weights are
// required; biases may be absent (PyTorch's bias=False) and are then 0. Throws FormatError
// naming the missing, mis-shaped, non-finite or unknown tensor and the shape it must have.

/// nn.TransformerEncoderLayer: self_attn.{in_proj_weight, in_proj_bias, out_proj.weight,
/// out_proj.bias}, linear1.{weight, bias}, linear2.{weight, bias}, norm1.*, norm2.*.
EncoderLayerWeights encoderLayerWeightsFromTensors(const TensorFile& file, const ModelSpec& spec,
                                                   const std::string& prefix = {});
/// nn.TransformerDecoderLayer: as the encoder layer, plus multihead_attn.* and norm3.*.
DecoderLayerWeights decoderLayerWeightsFromTensors(const TensorFile& file, const ModelSpec& spec,
                                                   const std::string& prefix = {});
/// nn.Transformer (or its encoder and decoder stacks): encoder.layers.{i}.*, decoder.layers.{i}.*,
/// and encoder.norm.*, decoder.norm.* exactly when spec.finalNorms.
TransformerWeights transformerWeightsFromTensors(const TensorFile& file, const ModelSpec& spec,
                                                 const std::string& prefix = {});
/// Reads a safetensors file (see transformerWeightsFromTensors). Throws FormatError.
TransformerWeights loadTransformerWeights(const std::string& path, const ModelSpec& spec,
                                          const std::string& prefix = {});

} // namespace attnlab
