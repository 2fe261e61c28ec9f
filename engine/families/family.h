#pragma once
/// A model family (docs/architecture.md, "Model families"): what a Hugging Face model_type is, in
/// one folder engine/families/<name>/ — the config.json keys it reads (one declarative table),
/// its tensor names, its embeddings and output head around the shared layer (families/layer.h)
/// — and one line in the table of families.cpp. Nothing outside engine/families/ asks which
/// family a model is: it asks the descriptor (its block, its task, its stages, its files).

#include "core/model_spec.h"
#include "core/stage_key.h"
#include "core/trace.h"
#include "pretrained/hf_config.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct PretrainedWeights;
struct PretrainedInput;
class ConfigReader;
class TensorNames;

/// What a family's output head predicts.
enum class FamilyTask {
    NextToken, ///< a language-model head: the next token of each position (GPT-2; generate)
    FillMask,  ///< a masked-LM head: the token behind each [MASK] (BERT; fill-mask)
};

/// The blocks a family's layers are made of (families/layer.cpp chooses by it).
enum class FamilyLayer {
    Classic, ///< LayerNorm, a plain FFN, multi-head attention (GPT-2, BERT): nn/transformer.h's layerOfParts
    Gated,   ///< RMSNorm, SwiGLU, grouped-query attention with half-split RoPE (Llama, Qwen): families/gated.h
};

/// One config.json key holding a whole number of HfConfig.
struct ConfigInteger {
    const char* key;
    int HfConfig::*member;
    int lo;
    int hi;
};

/// A config.json key that, when present, must hold `expected` (a feature we do not compute).
struct ConfigExpectation {
    const char* key;
    const char* expectedJson; ///< the JSON text of the value we compute
    const char* why;
};

/// The config.json keys a family reads, in the order they are checked.
struct ConfigKeys {
    std::vector<ConfigInteger> integers; ///< required whole numbers, each in [lo, hi]
    const char* epsilon;                 ///< the norms' ε
    const char* activation;              ///< the FFN's activation; null: the family's readConfig reads it
    std::vector<ConfigExpectation> expectations;
};

/// The names of one layer's tensors and modules under the layer's prefix (llama.cpp's tensor
/// name table): empty where the family has no such tensor.
struct LayerTensorNames {
    const char* layerPrefix; ///< "h." + i + "."
    const char* qkv;         ///< fused Q | K | V (GPT-2's attn.c_attn), or empty
    const char* q;
    const char* k;
    const char* v;
    const char* attentionOutput;
    const char* attentionModule; ///< the module the attention stages name ("attn", "attention.self")
    const char* norm1;           ///< around (Post-LN) or before (Pre-LN) the attention
    const char* norm2;           ///< around or before the feed-forward network
    const char* up;              ///< the FFN's first linear layer
    const char* down;            ///< the FFN's second linear layer
    bool inOut;                  ///< weights stored [in, out] (Conv1D), not nn.Linear's [out, in]
};

/// A stage outside the layers (embeddings, stack output, head), for the trace's size and for the
/// lessons' checks.
struct OuterStage {
    const char* id;
    bool normStatistics; ///< + the mean and variance (n x 1 each)
    bool head;           ///< computed only when the folder has an output head
};

struct ModelFamily {
    PretrainedFamily id;
    std::string_view modelType; ///< config.json's model_type: "gpt2"
    std::string_view title;     ///< "GPT-2"
    Architecture architecture;  ///< DecoderOnly or EncoderStack
    NormPlacement norm;
    bool finalNorm;             ///< a norm after the last layer (GPT-2's ln_f)
    ModelTokenizer tokenizer;
    std::vector<std::string> tokenizerFiles; ///< besides config.json and model.safetensors
    /// Reads Hugging Face's tokenizer.json (with tokenizer_config.json) when the folder has one,
    /// tokenizerFiles only when it has not (text/hf_tokenizer.h).
    bool tokenizerJson = false;
    /// Read when the folder has them (BERT's tokenizer_config.json says do_lower_case).
    std::vector<std::string> optionalFiles = {};
    FamilyTask task;
    std::string_view tensorPrefix; ///< what a full model's names start with ("transformer.")
    ConfigKeys config;
    LayerTensorNames layer;
    /// The stages outside the layers, in the order of the pass.
    std::vector<OuterStage> outerStages;
    const char* stackOutput; ///< "decoder_output", "encoder_output"
    const char* headInput;   ///< the stage the output head reads
    const char* headFormula; ///< the logits' formula: "logits = Out·W_teᵀ"
    const char* headModule;  ///< the head's module: "lm_head"
    /// Reads what the integers, ε and activation do not say (optional keys, defaults).
    void (*readConfig)(const ConfigReader& reader, HfConfig& config);
    /// Reads every tensor in the order of the pass (families/tensor_names.h).
    void (*readWeights)(const HfConfig& config, TensorNames& names, PretrainedWeights& weights);
    /// Every stage of one pass: embeddings, the layers (familyLayer), the stack output and head.
    void (*pass)(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary,
                 StageList& stages, std::vector<Message>& warnings);
    FamilyLayer layerKind = FamilyLayer::Classic;
    /// The layer stages it computes beyond GPT-2's and BERT's (families/gated.h: ffn_gate and
    /// ffn_up; q_norm and k_norm in Qwen3 and Gemma 3; Gemma 3's attn_post_norm, ffn_post_norm).
    std::vector<std::string_view> ownLayerStages;

    /// The block its layers are in: decoder_self for a decoder, encoder_self for an encoder.
    Block block() const { return architecture == Architecture::DecoderOnly ? Block::DecoderSelf : Block::EncoderSelf; }
    bool causal() const { return architecture == Architecture::DecoderOnly; }
    bool hasOuterStage(std::string_view id) const;
    bool hasOwnLayerStage(std::string_view id) const;
};

/// Every family Attention Lab opens, in the order of the table.
const std::vector<const ModelFamily*>& modelFamilies();
/// The descriptor of `id`.
const ModelFamily& modelFamily(PretrainedFamily id);
/// The family of a config.json's model_type, or nullptr.
const ModelFamily* familyOfModelType(std::string_view modelType);
/// The family of a pretrained model's spec: a ModelSpec names no family, so this is the first of
/// the table with the spec's architecture (exact while each architecture has one family).
const ModelFamily& familyOfSpec(const ModelSpec& spec);
/// The model_type names we open ("gpt2", "bert"), in the table's order: what a download or a
/// message lists.
std::vector<std::string> supportedModelTypes();

} // namespace attnlab
