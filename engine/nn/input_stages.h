#pragma once
/// The first three stages of every model, before any attention (docs/engine.md, sections 3–4):
///
///   embedding            E (n x d), and its scaled copy E·s    s = √d_model (embed_scale) or 1
///   positional_encoding  P (n x d)
///   input                X = E·s + P (n x d)

#include "core/stage_key.h"
#include "core/trace.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>

namespace attnlab {

/// What differs between a single attention block, a model's source and its target.
struct InputSide {
    Block block = Block::None;      ///< the stages' block: EncoderSelf = source, DecoderSelf = target
    const char* embeddingTitle = "Token embeddings";
    const char* inputTitle = "Input X";
    /// The embedding's formula without √d_model scaling ("E = Embed(tokens)  (no √d_model scaling)").
    const char* unscaledFormula = "E = Embed(tokens)";
    std::string module;             ///< the embedding table's module ("src_embed"); empty for seeded rows
    bool embedScale = true;
    PositionalEncoding positional = PositionalEncoding::Sinusoidal;
    std::uint64_t seed = 42;        ///< of learned positions
};

/// Appends embedding, positional_encoding and input for the rows of `e` (n x d), labelled
/// `tokens`, and returns X.
Eigen::MatrixXf inputStages(Eigen::MatrixXf e, const InputSide& side, const Labels& tokens, StageList& stages);

} // namespace attnlab
