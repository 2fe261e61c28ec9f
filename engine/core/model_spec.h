#pragma once
/// What a model is, in one struct: its architecture, attention kind, position scheme, sizes,
/// norm placement, activation, ε and tokenizer (docs/architecture.md). The settings of a run
/// (core/config.h) are a ModelSpec plus how the input is prepared; a model read from a file
/// (model/model.h) carries the ModelSpec its metadata describes; the layers of nn/transformer.h
/// read their sizes from it. validate() states the rule a bad value breaks, in words a student
/// understands.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// The layers a model stacks. One attention block on its own is not a model: it is a run with
/// Config::model == ModelKind::None.
enum class Architecture {
    EncoderStack,   ///< encoder layers only (BERT's shape): every token sees every token
    EncoderDecoder, ///< the paper's: an encoder, and a decoder reading it through cross-attention
    DecoderOnly,    ///< decoder layers only, causal self-attention and no cross-attention (GPT-2's shape)
};

/// Which attention a block computes (attention/kind.h lists each kind's kernel and stages).
enum class AttentionKind {
    Full,          ///< softmax(Q·Kᵀ/√d_k + M)·V over every key (docs/engine.md, section 6)
    SlidingWindow, ///< Longformer: keys within W·D positions, every D-th, plus global positions
    BigBird,       ///< the window plus R seeded random keys per query, plus global positions
    Strided,       ///< Sparse Transformer: |i − j| < S or (i − j) mod S = 0
    Linformer,     ///< keys and values projected along the sequence to K rows (seeded E, F)
    Performer,     ///< FAVOR+: positive orthogonal random features, φ(Q)·(φ(K)ᵀ·V)
    Linear,        ///< Katharopoulos et al.: φ(x) = elu(x) + 1, φ(Q)·(φ(K)ᵀ·V)
    Lsh,           ///< Reformer: shared Q/K hashed into buckets by a seeded rotation, optional chunks
    Flash,         ///< FlashAttention: full softmax attention, exact, computed tile by tile with an online softmax
};

/// The settings of the attention kinds other than full (docs/attention-kinds.md). Each kind reads
/// its own; validate() checks only those of the kind in use.
struct AttentionOptions {
    int window = 2;          ///< sliding-window, bigbird: W, keys up to W·D positions away
    int dilation = 1;        ///< sliding-window, bigbird: D, only every D-th key
    std::vector<int> global; ///< sliding-window, bigbird: positions that attend, and are attended by, every token
    int random = 2;          ///< bigbird: R random keys per query
    int stride = 4;          ///< strided: S
    int projDim = 8;         ///< linformer: K, the rows keys and values are projected to
    int features = 64;       ///< performer: M random features
    int buckets = 4;         ///< lsh: B hash buckets (even, at least 2)
    int chunk = 0;           ///< lsh: C, the chunk length; 0 = no chunking
    int queryBlock = 4;      ///< flash: B_r, the queries taken together (a tile's rows)
    int keyBlock = 4;        ///< flash: B_c, the keys taken together (a tile's columns)

    bool operator==(const AttentionOptions&) const = default;
};

/// The largest number of random features, projected rows, buckets or block rows a kind may use.
inline constexpr int kMaxAttentionParameter = 4096;

/// How positions are encoded before attention (docs/engine.md, section 4; position/scheme.h).
enum class PositionalEncoding {
    Sinusoidal, ///< sin/cos of "Attention Is All You Need"
    Learned,    ///< a seeded table, as BERT's position embeddings start out
    None,       ///< no position information at all
    Rope,       ///< rotary (Su et al.): q and k of every head rotated pair by pair by pos·θ_i, nothing added to X
    Alibi,      ///< linear biases (Press et al.): −m_h·|i − j| added to each head's scores, nothing added to X
    Relative,   ///< relative positions (Shaw et al.): learned a^K, a^V by clipped distance j − i, nothing added to X
    Xl,         ///< Transformer-XL (Dai et al.): segments with memory, relative scores (a)+(b)+(c)+(d), nothing added to X
};

/// Whether a scheme acts inside attention (rope, alibi, relative, xl) instead of adding P to X.
constexpr bool actsInsideAttention(PositionalEncoding p)
{
    return p == PositionalEncoding::Rope || p == PositionalEncoding::Alibi || p == PositionalEncoding::Relative
           || p == PositionalEncoding::Xl;
}

/// The settings of the position schemes that act inside attention (docs/position-schemes.md).
struct PositionOptions {
    double ropeBase = 10000; ///< rope: B in θ_{pos,i} = pos / B^(2i/d_k); greater than 1
    int maxDistance = 4;     ///< relative: K, distances j − i are clipped to [−K, K]; 1 … maxTokens
    int segment = 4;         ///< xl: L, tokens per segment; 1 … maxTokens
    int memory = -1;         ///< xl: M, rows of memory before each segment; −1 = L; 0 … maxTokens
    /// xl's M as used: L when `memory` is −1.
    int xlMemory() const { return memory < 0 ? segment : memory; }

    bool operator==(const PositionOptions&) const = default;
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
    GeluTanh, ///< GELU's tanh approximation (GPT-2's gelu_new, PyTorch's approximate="tanh")
};

/// How a model splits text into its vocabulary's tokens.
enum class ModelTokenizer {
    Words, ///< Attention Lab's tokenizer (text/tokenizer.h): words, punctuation, one token per CJK character
    Chars, ///< every character except white space is a token
    Bpe,       ///< GPT-2's byte-level BPE (text/bpe.h), from a model folder's vocab.json and merges.txt
    WordPiece, ///< BERT's WordPiece (text/wordpiece.h), from a model folder's vocab.txt
};

/// Limits shared by validation and the UI's spin boxes.
struct ConfigLimits {
    static constexpr int maxDModel = 2048;
    static constexpr int maxHeads = 64;
    static constexpr int maxTokens = 1024;
    /// n^2 * heads: above this a trace would need more memory than a laptop has to spare.
    static constexpr std::int64_t maxAttentionCells = 16LL * 1024 * 1024;
    static constexpr int maxLayers = 12;
    /// A pretrained model's: GPT-2 medium and BERT-large have 24, SmolLM2-135M 30, Qwen3-0.6B 28.
    static constexpr int maxPretrainedLayers = 48;
    static constexpr int maxDFF = 8192; ///< = 4·maxDModel, so d_ff = 0 (4·d_model) is always within it
};

/// The longest target a model may generate (its max_target_length is at most this).
inline constexpr int kMaxTargetLength = 1024;

struct ModelSpec {
    Architecture architecture = Architecture::EncoderDecoder;
    AttentionKind attention = AttentionKind::Full;
    /// The settings of `attention` (unused by full attention).
    AttentionOptions attentionOptions;
    PositionalEncoding positional = PositionalEncoding::Sinusoidal;
    /// The settings of `positional` (rope's base, relative's K, xl's L and M).
    PositionOptions positionOptions;
    /// Multiply embeddings by sqrt(d_model) before adding positions, as in the paper.
    bool embedScale = true;
    /// Divide scores by sqrt(d_k) in every attention block. Switch off to see why the division exists.
    bool scaleScores = true;
    /// Width of every token vector (d_model). 1..2048.
    int dModel = 32;
    /// Number of attention heads h; d_model must be a multiple of it. 1..64.
    int heads = 4;
    /// Layers of the encoder stack and of the decoder stack, 0..12 each, at least one in all; as
    /// many of each (the paper's N) is written "layers", 1..12. An encoder stack has no decoder
    /// layer; with no encoder layer, a decoder's memory is given directly (nn/transformer.h).
    int encoderLayers = 2;
    int decoderLayers = 2;
    /// Hidden width of the feed-forward networks (dim_feedforward); 0 means 4·d_model (the paper).
    int dFF = 0;
    NormPlacement norm = NormPlacement::Post;
    Activation activation = Activation::Relu;
    /// ε added to the variance in every LayerNorm (PyTorch's layer_norm_eps). Positive.
    float layerNormEps = 1e-5f;
    /// A LayerNorm after each stack (nn.Transformer's encoder.norm and decoder.norm).
    bool finalNorms = true;
    ModelTokenizer tokenizer = ModelTokenizer::Words;
    /// Lower-case the source before looking its tokens up.
    bool lowercase = false;
    /// Generation stops after this many tokens without <eos>. 1..kMaxTargetLength.
    int maxTargetLength = 32;
    /// Seed of the embedding table, the learned positions and the seeded weights.
    std::uint64_t seed = 42;

    /// d_k = d_v = d_model / heads (valid only after validate() passed).
    int dK() const { return heads > 0 ? dModel / heads : 0; }
    /// d_ff in use: dFF, or 4·d_model when it is 0 (at most INT_MAX for a d_model that
    /// validate() would refuse: it is asked before validation too, e.g. by the cost estimate).
    int feedForwardWidth() const
    {
        return dFF > 0 ? dFF : static_cast<int>(std::min<long long>(4LL * dModel, std::numeric_limits<int>::max()));
    }
    /// The same number of encoder and decoder layers (an encoder stack: encoder layers only).
    void setLayers(int n);

    /// Every rule this description breaks, one sentence each; empty when it is valid.
    std::vector<std::string> problems() const;
    /// Throws std::invalid_argument with the first problem.
    void validate() const;

    bool operator==(const ModelSpec&) const = default;
};

// Names used on the command line, in trace JSON, in model files and in session files.
std::string_view toString(Architecture);       // "encoder", "encoder-decoder", "decoder"
std::string_view toString(AttentionKind);      // "full", "sliding-window", "bigbird", "strided", "linformer", "performer", "linear", "lsh", "flash"
std::string_view toString(PositionalEncoding); // "sinusoidal", "learned", "none", "rope", "alibi", "relative", "xl"
std::string_view toString(NormPlacement);      // "post", "pre"
std::string_view toString(Activation);         // "relu", "gelu", "gelu-tanh"
std::string_view toString(ModelTokenizer);     // "words", "chars", "gpt2-bpe", "wordpiece"
/// Parsers return nothing for an unknown name; the caller names the allowed ones.
std::optional<Architecture> parseArchitecture(std::string_view);
std::optional<AttentionKind> parseAttentionKind(std::string_view);
std::optional<PositionalEncoding> parsePositionalEncoding(std::string_view);
std::optional<NormPlacement> parseNormPlacement(std::string_view);
std::optional<Activation> parseActivation(std::string_view);
std::optional<ModelTokenizer> parseModelTokenizer(std::string_view);

namespace detail {
/// "0", "-1", "1e-05", "1e-300", "nan": a number as people write it (in messages).
std::string shortNumber(double v);
} // namespace detail

} // namespace attnlab
