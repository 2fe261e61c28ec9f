#pragma once
/// A whole encoder–decoder model for training (docs/training.md): its parameters in one flat
/// buffer, a packed batch of examples, and the forward and backward pass of the mean token
/// cross-entropy over the batch, layer by layer (train/layers.h).
///
///   X_src = E_src[source]·s + PE;  Mem = EncoderStack(X_src)       (then encoder.norm)
///   X_tgt = E_tgt[<sos> + target]·s + PE;  D = DecoderStack(X_tgt, Mem)   (then decoder.norm)
///   logits = D·W_genᵀ + b_gen;  L = Σ_tokens CE(logits, target + <eos>) / N

#include "model/model.h"
#include "train/layers.h"

#include <Eigen/Core>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::train {

/// Where each tensor of a model lies in a flat buffer of all its parameters: modelParameters'
/// order (model/parameters.h), each tensor column-major.
struct Layout {
    struct Entry {
        std::string name;
        Eigen::Index offset = 0;
        Eigen::Index rows = 0;
        Eigen::Index cols = 0;
        bool vector = false;
    };
    std::vector<Entry> entries;
    Eigen::Index size = 0;

    /// The entry called `name`, or nullptr (an absent bias).
    const Entry* find(const std::string& name) const;
};

/// The layout of `model`'s parameters. Throws std::invalid_argument for a model that cannot be
/// trained: an open vocabulary (a seeded model has no embedding tables), no output head, no
/// decoder, or positions other than sinusoidal or none.
Layout layoutOf(const Seq2SeqModel& model);
/// The model's parameters in its layout, converted to T.
template <typename T>
Vec<T> flatten(const Seq2SeqModel& model);
/// Writes `values` (in layoutOf(model)) into the model's tensors, rounded to float.
template <typename T>
void unflatten(const Vec<T>& values, Seq2SeqModel& model);

/// One training pair as token ids: the source, the decoder input (<sos> + target) and the
/// labels (target + <eos>).
struct Example {
    std::vector<int> source;
    std::vector<int> input;
    std::vector<int> labels;
};

/// Examples packed row after row, no padding (train/layers.h).
struct Batch {
    std::vector<int> source, sourcePositions; ///< all sources, one after another
    std::vector<int> input, inputPositions;   ///< all decoder inputs
    std::vector<int> labels;                  ///< one per decoder input row
    Segments encoderSelf;                     ///< source rows attend to their source
    Segments decoderSelf;                     ///< decoder rows to their decoder input (causal)
    Segments cross;                           ///< decoder rows to their source
};

/// Packs examples [first, last). Throws std::invalid_argument for an empty source or input, or
/// labels that do not match the input.
Batch pack(const std::vector<Example>& examples, std::size_t first, std::size_t last);

/// The model's parameters bound to a flat buffer of values and one of gradients (same layout).
template <typename T>
struct Network {
    struct EncoderLayer {
        AttentionParams<T> selfAttn;
        Linear<T> linear1, linear2;
        Norm<T> norm1, norm2;
    };
    struct DecoderLayer {
        AttentionParams<T> selfAttn, crossAttn;
        Linear<T> linear1, linear2;
        Norm<T> norm1, norm2, norm3;
    };
    ModelSpec spec;
    std::vector<EncoderLayer> encoder;
    std::vector<DecoderLayer> decoder;
    std::optional<Norm<T>> encoderNorm, decoderNorm;
    Linear<T> srcEmbed, tgtEmbed; ///< the tables as (V x d) "weights", no bias
    Linear<T> generator;          ///< (V_t x d), its bias possibly absent
    T embedScale = T(1);          ///< s: √d_model as float32, or 1
    Mat<T> positions;             ///< PE rows for positions 0 … (the longest sequence it was bound for)
};

/// Binds `values` and `grads` (both layout.size long) for a model with this spec, with positions
/// for sequences of up to maxLength tokens.
template <typename T>
Network<T> bindNetwork(const Layout& layout, const ModelSpec& spec, const T* values, T* grads, int maxLength);

/// The forward pass of a batch: returns Σ over its label tokens of the loss (train/layers.h's
/// crossEntropy) and, when `gradients`, adds d(Σ/N)/dθ into the network's gradient buffer
/// (N = labelTokens, the label tokens of the whole batch this one is a part of).
template <typename T>
double lossAndGradient(const Network<T>& net, const Batch& batch, double smoothing, double labelTokens, bool gradients);

/// Greedy decoding (docs/model-format.md) of every source (ids) from `sos`: at each step the most
/// probable next token of each unfinished sequence (the first on a tie), until `eos` or maxSteps
/// tokens. Returns the generated ids, `eos` excluded. All sequences step together, the encoder
/// runs once. `afterStep`, when given, is called with each step's number (1, 2, …).
template <typename T>
std::vector<std::vector<int>> greedyDecode(const Network<T>& net, const std::vector<std::vector<int>>& sources, int sos, int eos,
                                           int maxSteps, const std::function<void(int)>& afterStep = {});

} // namespace attnlab::train
