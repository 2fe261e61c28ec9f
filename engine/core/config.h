#pragma once
/// Every setting of an attention computation, in one struct with documented defaults: the model
/// it describes (a ModelSpec, core/model_spec.h) and how the input is prepared.
/// validate() states the rule a bad value breaks, in words a student understands.

#include "core/model_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// The sentence used when the user gives none: the CLI's --sentence default and the GUI's
/// first sentence ("it" refers back to "animal", the classic example for attention).
inline constexpr const char* kDefaultSentence = "The animal didn't cross the street because it was too tired.";

/// Which keys each query may not see (docs/engine.md, section 7).
enum class MaskKind {
    None,
    Causal,        ///< look-ahead / sequence mask: key j > query i
    Padding,       ///< keys holding <pad>
    CausalPadding, ///< either of the two
    Custom,        ///< a user-given n x n boolean matrix
};

/// Where the projection weights come from when none are imported (docs/engine.md, section 5).
enum class WeightsPreset {
    Seeded,   ///< Xavier-uniform, as PyTorch initialises nn.MultiheadAttention
    Identity, ///< W_Q = W_K = W_V = W_O = I
};

/// What is computed: one attention block, or a whole Transformer
/// (docs/transformer-layers.md, docs/model-format.md).
enum class ModelKind {
    None,     ///< a single multi-head attention block on the sentence (the default)
    Seeded,   ///< a model with seeded weights, described by the Config's ModelSpec
    Reversal, ///< the shipped trained model (docs/shipped-model.md); its file fixes its ModelSpec
    File,     ///< a model read from a file (docs/model-format.md); its file fixes its ModelSpec
};

/// The settings of a run. Its ModelSpec describes the single attention block (d_model, heads,
/// seed, positions, the two scalings) or the seeded model (and its layers, d_ff, norm, activation,
/// ε); a trained or file model brings its own (model/run.h's adoptModel copies it in).
struct Config : ModelSpec {
    MaskKind mask = MaskKind::None;
    /// Pad the sentence with <pad> up to this many tokens; 0 means no padding. 0..maxTokens.
    int padTo = 0;
    /// The sentence is cut after this many tokens (with a warning). 1..1024.
    int maxTokens = 512;
    /// Used when no weights are imported.
    WeightsPreset weightsPreset = WeightsPreset::Seeded;
    /// One attention block (None) or a model. With a model, the sentence is the encoder's source,
    /// padded to pad_to; the mask (none, causal, padding or causal+padding, not custom) is PyTorch's
    /// src_mask and src_key_padding_mask in every encoder layer, and a padding mask hides the
    /// source's <pad> keys in every cross-attention too (memory_key_padding_mask); the decoder's
    /// look-ahead mask is always on, and its target is not padded. The weights settings do not
    /// apply; a pretrained model (GPT-2, BERT) ignores mask and pad_to (docs/transformer-layers.md).
    ModelKind model = ModelKind::None;

    /// Every rule this config breaks, one sentence each: the ModelSpec's, then the input's.
    /// Empty when it is valid.
    std::vector<std::string> problems() const;
    /// Throws std::invalid_argument with the first problem.
    void validate() const;

    bool operator==(const Config&) const = default;
};

// Names used on the command line, in trace JSON and in session files.
std::string_view toString(MaskKind);
std::string_view toString(WeightsPreset);
std::string_view toString(ModelKind); // "none", "seeded", "reversal", "file"
/// Parsers return nothing for an unknown name; the caller names the allowed ones.
std::optional<MaskKind> parseMaskKind(std::string_view);
std::optional<WeightsPreset> parseWeightsPreset(std::string_view);
std::optional<ModelKind> parseModelKind(std::string_view);

} // namespace attnlab
