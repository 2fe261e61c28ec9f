#pragma once
/// Bare PyTorch state dicts as people save them from their own code (docs/model-format.md,
/// "PyTorch state dicts"): safetensors of an nn.TransformerEncoderLayer, nn.TransformerEncoder,
/// nn.TransformerDecoderLayer, nn.TransformerDecoder or nn.Transformer, PyTorch's names, no
/// Attention Lab metadata. The shapes give d_model, d_ff and the layer counts; what they cannot
/// say comes from the options; embeddings are seeded (an open vocabulary, no output head).

#include "model/model.h"

#include <cstdint>
#include <string>

namespace attnlab {

/// What a state dict cannot say about its model.
struct StateDictOptions {
    int heads = 0; ///< nhead: required (d_model must be a multiple of it)
    NormPlacement norm = NormPlacement::Post;
    Activation activation = Activation::Relu;
    float layerNormEps = 1e-5f;
    /// The seeded embeddings and positions (the file has none).
    std::uint64_t seed = 42;
    PositionalEncoding positional = PositionalEncoding::Sinusoidal;
    bool embedScale = true;
};

/// True when the file carries Attention Lab's model metadata (format attention-lab-model).
bool isAttentionLabModel(const TensorFile& file);

/// The model a bare state dict holds. Throws FormatError naming the missing, mis-shaped or
/// unknown tensor, or what is wrong with the options (no heads, heads not dividing d_model).
Seq2SeqModel modelFromStateDict(const TensorFile& file, const StateDictOptions& options);

} // namespace attnlab
