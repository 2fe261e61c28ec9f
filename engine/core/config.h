#pragma once
/// Every setting of an attention computation, in one struct with documented defaults.
/// validate() states the rule a bad value breaks, in words a student understands.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// The sentence used when the user gives none: the CLI's --sentence default and the GUI's
/// first sentence ("it" refers back to "animal", the classic example for attention).
inline constexpr const char* kDefaultSentence = "The animal didn't cross the street because it was too tired.";

/// How positions are encoded before attention (docs/engine.md, section 4).
enum class PositionalEncoding {
    Sinusoidal, ///< sin/cos of "Attention Is All You Need"
    Learned,    ///< a seeded table, as BERT's position embeddings start out
    None,       ///< no position information at all
};

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

/// Where each LayerNorm stands in an encoder or decoder layer (PyTorch's norm_first).
enum class NormPlacement {
    Post, ///< norm_first=False (the paper, PyTorch's default): LN after each residual addition
    Pre,  ///< norm_first=True: LN before each sublayer; the residual stream is never normalised
};

/// The feed-forward network's non-linearity.
enum class Activation {
    Relu, ///< max(0, x)
    Gelu, ///< x·Φ(x) = x/2·(1 + erf(x/√2)), the exact form (PyTorch's F.gelu default)
};

/// What is computed: one attention block, or a whole encoder–decoder Transformer
/// (docs/transformer-layers.md, docs/model-format.md).
enum class ModelKind {
    None,     ///< a single multi-head attention block on the sentence (the default)
    Seeded,   ///< an encoder–decoder with seeded weights, sized by layers, d_ff, norm, activation
    Reversal, ///< the shipped trained model (docs/shipped-model.md); its file fixes every size
    File,     ///< a model read from a file (docs/model-format.md); its file fixes every size
};

struct Config {
    /// Width of every token vector (d_model). 1..2048.
    int dModel = 32;
    /// Number of attention heads h; d_model must be a multiple of it. 1..64.
    int heads = 4;
    /// Seed of the embedding table, the learned positions and the seeded weights.
    std::uint64_t seed = 42;
    PositionalEncoding positional = PositionalEncoding::Sinusoidal;
    /// Multiply embeddings by sqrt(d_model) before adding positions, as in the paper.
    bool embedScale = true;
    /// Divide scores by sqrt(d_k). Switch off to see why the division exists.
    bool scaleScores = true;
    MaskKind mask = MaskKind::None;
    /// Pad the sentence with <pad> up to this many tokens; 0 means no padding. 0..maxTokens.
    int padTo = 0;
    /// The sentence is cut after this many tokens (with a warning). 1..1024.
    int maxTokens = 512;
    /// Used when no weights are imported.
    WeightsPreset weightsPreset = WeightsPreset::Seeded;

    /// d_k = d_v = d_model / heads (valid only after validate() passed).
    int dK() const { return heads > 0 ? dModel / heads : 0; }

    /// Every rule this config breaks, one sentence each; empty when it is valid.
    std::vector<std::string> problems() const;
    /// Throws std::invalid_argument with the first problem.
    void validate() const;

    /// One attention block (None) or an encoder–decoder model. With a model, the sentence is
    /// the encoder's source and the mask, pad_to and weights settings do not apply (the
    /// decoder's look-ahead mask is always on).
    ModelKind model = ModelKind::None;
    /// Seeded model: encoder layers and decoder layers (as many of each). 1..12.
    int layers = 2;
    /// Seeded model: hidden width of the feed-forward networks; 0 means 4·d_model (the paper).
    int dFF = 0;
    /// Seeded model: Post-LN (the paper) or Pre-LN.
    NormPlacement norm = NormPlacement::Post;
    /// Seeded model: ReLU (the paper) or GELU in the feed-forward networks.
    Activation activation = Activation::Relu;
    /// Seeded model: ε added to the variance in every LayerNorm (PyTorch's layer_norm_eps). Positive.
    float layerNormEps = 1e-5f;

    /// d_ff in use: dFF, or 4·d_model when it is 0.
    int feedForwardWidth() const { return dFF > 0 ? dFF : 4 * dModel; }

    bool operator==(const Config&) const = default;
};

/// Limits shared by validation and the UI's spin boxes.
struct ConfigLimits {
    static constexpr int maxDModel = 2048;
    static constexpr int maxHeads = 64;
    static constexpr int maxTokens = 1024;
    /// n^2 * heads: above this a trace would need more memory than a laptop has to spare.
    static constexpr std::int64_t maxAttentionCells = 16LL * 1024 * 1024;
    static constexpr int maxLayers = 12;
    static constexpr int maxDFF = 8192; ///< = 4·maxDModel, so d_ff = 0 (4·d_model) is always within it
};

// Names used on the command line, in trace JSON and in session files.
std::string_view toString(PositionalEncoding);
std::string_view toString(MaskKind);
std::string_view toString(WeightsPreset);
std::string_view toString(NormPlacement); // "post", "pre"
std::string_view toString(Activation);    // "relu", "gelu"
std::string_view toString(ModelKind);     // "none", "seeded", "reversal", "file"
/// Parsers return nothing for an unknown name; the caller names the allowed ones.
std::optional<PositionalEncoding> parsePositionalEncoding(std::string_view);
std::optional<MaskKind> parseMaskKind(std::string_view);
std::optional<WeightsPreset> parseWeightsPreset(std::string_view);
std::optional<NormPlacement> parseNormPlacement(std::string_view);
std::optional<Activation> parseActivation(std::string_view);
std::optional<ModelKind> parseModelKind(std::string_view);

} // namespace attnlab
