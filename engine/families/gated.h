#pragma once
/// What the gated decoders share (Llama and Mistral, Qwen2, Qwen3, Gemma 3; issue 31): config.json's
/// keys, Hugging Face's tensor names, the layer and the pass, built from the typed blocks of
/// nn/blocks.h. Each family's folder holds its descriptor and what is its own (Qwen2's q/k/v
/// biases, Qwen3's q/k norms, Gemma 3's scaled embeddings, (1 + w) norms around both sublayers,
/// GeGLU and sliding layers; the sliding windows of the others refused by name).
///
///   X = W_emb[ids]                                         embedding, input
///   per layer model.layers.{i}, causal, Pre-norm:
///     N_1 = RMSNorm(X)·γ_1                                 attn_norm (+ mean_square)
///     Q_h, K_g, V_g = N_1·W_*ᵀ (+ b_*)                     q (per query head), k, v (per KV head)
///     Q̂_h, K̂_g = RMSNorm over d_k (Qwen3)                  q_norm, k_norm
///     RoPE, half-split (rotate_half)                        q_rotated, k_rotated
///     A_h = softmax(Q̂_h·K̂_gᵀ/√d_k + M), g = h / (H / H_kv)  scores … weights, head_output
///     O = [Z_0 | …]·W_Oᵀ (+ b_O);  R_1 = X + O             concat, output, attn_residual
///     N_2 = RMSNorm(R_1)·γ_2                               ffn_norm
///     F = (SiLU(N_2·W_gateᵀ) ⊙ N_2·W_upᵀ)·W_downᵀ          ffn_gate, ffn_up, ffn_hidden, ffn_output
///     Y = R_1 + F                                           ffn_residual, layer_output
///   Gemma 3: X = E·√d; γ = 1 + w; O and F normalised before their adds (attn_post_norm,
///   ffn_post_norm); A_h = softmax(Q̂_h·K̂_gᵀ/√query_pre_attn_scalar + M), M with a sliding
///   window on sliding_attention layers; GELU_tanh instead of SiLU
///   Out = RMSNorm(Y_L)·γ;  logits = Out·W_headᵀ             decoder_output, logits, probabilities
///   (W_head = lm_head.weight, or W_emb when tie_word_embeddings)

#include "families/family.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace attnlab {

/// The tokenizer the gated decoders' folders are read with: the one place that chooses it (a
/// byte-level BPE from vocab.json and merges.txt until tokenizer.json is read).
ModelTokenizer gatedTokenizer();
std::vector<std::string> gatedTokenizerFiles();

/// The descriptor of a gated decoder: Llama's keys and names, `readConfig` for the family's own
/// keys (it calls readGatedConfig first), `expectations` for the keys it refuses, `ownStages` for
/// the layer stages it computes beyond every gated decoder's ffn_gate and ffn_up.
ModelFamily gatedFamily(PretrainedFamily id, std::string_view modelType, std::string_view title,
                        void (*readConfig)(const ConfigReader&, HfConfig&), std::vector<ConfigExpectation> expectations,
                        std::vector<std::string_view> ownStages = {});

/// The stage ids only the gated decoders' traces hold: q_norm, k_norm (Qwen3), ffn_gate, ffn_up
/// (q_rotated and k_rotated are RoPE's, position/inside.h).
const std::vector<std::string>& gatedStageIds();

/// The keys every gated decoder reads beyond the table's: num_key_value_heads, head_dim,
/// hidden_act (silu), rope_theta and rope_scaling (or rope_parameters), attention_bias,
/// mlp_bias, tie_word_embeddings, bos_token_id, eos_token_id; and the settings that would change
/// the numbers and are not computed, refused by name.
void readGatedConfig(const ConfigReader& r, HfConfig& c);

/// What a family reads itself instead of readGatedConfig's defaults (Gemma 3).
struct GatedConfigOptions {
    bool activation = true;     ///< read hidden_act (silu); false: the family reads its own
    bool rope = true;           ///< read rope_theta / rope_scaling / rope_parameters; false: the family's own
    bool tiedByDefault = false; ///< tie_word_embeddings when the key is missing
    int defaultHeadDim = 0;     ///< head_dim when the key is missing; 0: hidden / heads
};
void readGatedConfig(const ConfigReader& r, HfConfig& c, const GatedConfigOptions& options);

namespace detail {
/// Layer i of a gated decoder on x (n x d), every stage (families/gated.cpp).
Eigen::MatrixXf gatedLayer(const PretrainedWeights& w, int i, const Eigen::MatrixXf& x, const Labels& tokens, StageList& stages,
                           std::vector<Message>& warnings, const ModelSpec& spec);
/// Every stage of one pass of a gated decoder (the family's `pass`).
void gatedPass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary,
               StageList& stages, std::vector<Message>& warnings);
/// RoPE's inverse frequencies of the config (rope_theta, rope_scaling, head_dim).
std::vector<double> gatedInverseFrequencies(const HfConfig& c);
/// Layer i's: a sliding layer's (rope_local_base_freq, no scaling) or the config's.
std::vector<double> gatedInverseFrequencies(const HfConfig& c, int layer);
/// rope_scaling or one rope_parameters object (`where` names it): none, linear or llama3; any
/// other type is refused by name.
RopeScaling readRopeScaling(const ConfigReader& r, const std::string& where, const nlohmann::json& s);
/// A positive finite number under `key` of the object `o` (named `where` in messages).
double readPositive(const ConfigReader& r, const std::string& where, const nlohmann::json& o, const char* key);
} // namespace detail

} // namespace attnlab
