#pragma once
/// A Hugging Face model folder's config.json, for the families Attention Lab opens
/// (families/families.cpp): GPT-2, BERT, and the gated decoders Llama, Mistral, Qwen2, Qwen3. Only the keys that fix the computation are read;
/// each missing or bad one is a one-line FormatError naming it (docs/pretrained-models.md).

#include "core/model_spec.h"
#include "position/rope_scaling.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class PretrainedFamily {
    Gpt2, ///< decoder-only, Pre-LN, learned positions, byte-level BPE
    Bert, ///< encoder-only, Post-LN, word + position + token-type embeddings, WordPiece
    Llama,   ///< gated decoder (families/gated.h): RMSNorm, SwiGLU, grouped-query attention, RoPE
    Mistral, ///< Llama's layers; opened without a sliding window
    Qwen2,   ///< Llama's layers with biases on q, k and v
    Qwen3,   ///< Llama's layers with RMSNorms on each query and key head
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
    std::optional<int> eosTokenId; ///< eos_token_id, when given (the first of a list)

    // The gated decoders' (families/gated.h); GPT-2 and BERT leave them as they are.
    int kvHeads = 0;            ///< num_key_value_heads (default: heads)
    int headDim = 0;            ///< head_dim (default: d_model / heads)
    double ropeTheta = 10000.0; ///< rope_theta
    RopeScaling ropeScaling;    ///< rope_scaling: none, linear or llama3
    bool qkvBias = false;       ///< biases on q, k and v (attention_bias; Qwen2's always)
    bool outputBias = false;    ///< a bias on the attention's output projection (attention_bias)
    bool mlpBias = false;       ///< mlp_bias
    bool qkNorm = false;        ///< Qwen3's q_norm and k_norm
    bool tiedEmbeddings = false; ///< tie_word_embeddings: the head is the embedding table
    std::optional<int> bosTokenId;
    std::vector<int> eosTokenIds; ///< every id eos_token_id names
};

/// Parses config.json's text; `name` is how messages call the file. Throws FormatError.
HfConfig parseHfConfig(std::string_view json, const std::string& name = "config.json");

/// The ModelSpec of such a model: its architecture, sizes, norm placement, activation and ε,
/// learned positions, no embedding scale, its tokenizer.
ModelSpec pretrainedSpec(const HfConfig& config);

} // namespace attnlab
