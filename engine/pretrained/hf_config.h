#pragma once
/// A Hugging Face model folder's config.json, for the families Attention Lab opens
/// (families/families.cpp): GPT-2, BERT, and the gated decoders Llama, Mistral, Qwen2, Qwen3, Gemma 3. Only the keys that fix the computation are read;
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
    Gemma3,  ///< Qwen3's layers with (1 + w) norms around both sublayers, GeGLU, sliding and full layers
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

    // Gemma 3's (families/gemma3/); the other families leave them as they are.
    /// X = E·s: √hidden_size rounded to the embeddings' stored dtype, as Hugging Face's
    /// Gemma3TextScaledWordEmbedding computes it (set when the weights are read); 1: no scale.
    float embeddingScale = 1.0f;
    bool scaleEmbeddings = false; ///< the embeddings are scaled by √hidden_size (embeddingScale)
    bool normPlusOne = false;     ///< every RMSNorm multiplies by (1 + w): the weights are stored as w
    bool sandwichNorms = false;   ///< RMSNorms on the attention's and the FFN's outputs, before their residual adds
    bool gegluTanh = false;       ///< the gate's activation is the tanh GELU (GeGLU), not SiLU
    double queryPreAttnScalar = 0.0; ///< > 0: scores · query_pre_attn_scalar^−½ instead of head_dim^−½
    /// Per layer: W > 0, a sliding window (query i sees keys i − W < j ≤ i); 0, full causal
    /// attention. Empty: every layer full.
    std::vector<int> slidingWindows;
    double ropeLocalTheta = 10000.0; ///< the sliding layers' RoPE base (rope_local_base_freq), no scaling

    /// Layer i's sliding window, 0 when it attends to every earlier key.
    int slidingWindow(int layer) const
    {
        return layer >= 0 && static_cast<std::size_t>(layer) < slidingWindows.size() ? slidingWindows[static_cast<std::size_t>(layer)] : 0;
    }
};

/// Parses config.json's text; `name` is how messages call the file. Throws FormatError.
HfConfig parseHfConfig(std::string_view json, const std::string& name = "config.json");

/// The ModelSpec of such a model: its architecture, sizes, norm placement, activation and ε,
/// learned positions, no embedding scale, its tokenizer.
ModelSpec pretrainedSpec(const HfConfig& config);

} // namespace attnlab
