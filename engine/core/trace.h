#pragma once
/// What the engine returns: every intermediate matrix of an attention computation, named.
/// Plain value types: the UI looks stages up by id and translates their titles itself.

#include "core/config.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct AttentionWeights;
struct Seq2SeqModel;

/// Row or column labels, shared between the many matrices that use the same ones.
using Labels = std::shared_ptr<const std::vector<std::string>>;

struct LabeledMatrix {
    std::string name;          ///< e.g. "Q_h", "A", "M"
    Eigen::MatrixXf values;    ///< rows are tokens (queries); n x n matrices have keys as columns
    Labels rowLabels;          ///< one per row
    Labels colLabels;          ///< one per column: tokens, or "d0".., "h1·d3" for features
};

struct Stage {
    std::string id;             ///< stable id: "embedding", "q", "weights", ... (docs/engine.md, section 6;
                                ///< layer stages in docs/transformer-layers.md)
    std::optional<int> head;    ///< 0-based head for per-head stages
    std::string title;          ///< English title; the UI translates by id
    std::string formula;        ///< what it computes, in Unicode math
    std::vector<LabeledMatrix> matrices; ///< the main matrix first
    /// 0-based encoder or decoder layer of a layer's stage; none for a single attention block
    /// and for encoder_output / decoder_output.
    std::optional<int> layer;
    /// The attention block a stage belongs to: "encoder_self", "decoder_self" or "cross";
    /// empty for none (a single attention block, encoder_output, decoder_output).
    std::string block;

    const LabeledMatrix& main() const { return matrices.front(); }
};

struct Trace {
    std::vector<std::string> tokens;
    Config config;
    std::vector<std::string> warnings;
    std::vector<Stage> stages;
    /// The weights used, shared rather than copied (they can be megabytes).
    std::shared_ptr<const AttentionWeights> weights;
    /// A model's trace (model.h): the decoder's input tokens, <sos> first; empty otherwise.
    std::vector<std::string> targetTokens;
    /// A model's trace: the model (shared); null for a single attention block.
    std::shared_ptr<const Seq2SeqModel> model;

    /// The stage with this id (and head, for per-head stages) outside any layer (layer none,
    /// block none: every stage of a single attention block), or nullptr.
    const Stage* find(std::string_view id, std::optional<int> head = std::nullopt) const;
    /// The stage with exactly this id, head, layer and block ("" = none), or nullptr.
    const Stage* find(std::string_view id, std::optional<int> head, std::optional<int> layer, std::string_view block) const;
};

/// The stage of `stages` with exactly this id, head, layer and block ("" = none), or nullptr.
const Stage* findStage(const std::vector<Stage>& stages, std::string_view id, std::optional<int> head,
                       std::optional<int> layer, std::string_view block);

/// Every stage id in the order stages appear (per-head ids repeat once per head).
const std::vector<std::string>& stageIds();
/// True for the ids computed once per head.
bool isPerHeadStage(std::string_view id);

/// The ids of encoder and decoder layers' own stages (docs/transformer-layers.md), beside the
/// attention ids q .. output that their attention blocks reuse: attn_residual, attn_norm,
/// cross_residual, cross_norm, ffn_hidden, ffn_output, ffn_residual, ffn_norm, layer_output,
/// encoder_output, decoder_output.
const std::vector<std::string>& layerStageIds();
/// The ids of a whole model's output head (docs/model-format.md): logits, probabilities.
const std::vector<std::string>& modelStageIds();
/// True for the LayerNorm stages, whose "mean" and "variance" (n x 1) follow the main matrix:
/// attn_norm, cross_norm, ffn_norm (encoder_output / decoder_output carry them when a final
/// norm is applied).
bool isLayerNormStage(std::string_view id);

} // namespace attnlab
