#pragma once
/// A Hugging Face model folder's config.json, for the two families Attention Lab opens: GPT-2
/// (model_type "gpt2") and BERT ("bert"). Only the keys that fix the computation are read;
/// each missing or bad one is a one-line FormatError naming it (docs/pretrained-models.md).

#include "core/model_spec.h"

#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

enum class PretrainedFamily {
    Gpt2, ///< decoder-only, Pre-LN, learned positions, byte-level BPE
    Bert, ///< encoder-only, Post-LN, word + position + token-type embeddings, WordPiece
};

/// "gpt2", "bert".
std::string_view toString(PretrainedFamily family);

/// Limits of the folders Attention Lab opens (GPT-2 medium and BERT-large fit).
struct PretrainedLimits {
    static constexpr int maxLayers = 24;
    static constexpr int maxDModel = 1024;
    static constexpr int maxHeads = 16;
    static constexpr int maxPositions = 4096;
    static constexpr int maxVocabulary = 1'000'000;
};

struct HfConfig {
    PretrainedFamily family = PretrainedFamily::Gpt2;
    int dModel = 0;    ///< n_embd / hidden_size
    int heads = 0;     ///< n_head / num_attention_heads
    int layers = 0;    ///< n_layer / num_hidden_layers
    int dFF = 0;       ///< n_inner (null: 4·n_embd) / intermediate_size
    int positions = 0; ///< n_positions / max_position_embeddings
    int vocabulary = 0; ///< vocab_size
    int typeVocabulary = 0; ///< BERT's type_vocab_size (token types, i.e. segments)
    float layerNormEps = 1e-5f; ///< layer_norm_epsilon / layer_norm_eps
    Activation activation = Activation::GeluTanh; ///< activation_function / hidden_act
    std::optional<int> eosTokenId; ///< GPT-2's eos_token_id, when given
};

/// Parses config.json's text; `name` is how messages call the file. Throws FormatError.
HfConfig parseHfConfig(std::string_view json, const std::string& name = "config.json");

/// The ModelSpec of such a model: its architecture, sizes, norm placement, activation and ε,
/// learned positions, no embedding scale, its tokenizer.
ModelSpec pretrainedSpec(const HfConfig& config);

} // namespace attnlab
