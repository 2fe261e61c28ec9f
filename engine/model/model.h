#pragma once
/// A whole sequence-to-sequence Transformer (docs/model-format.md): source and target
/// embeddings with positions, the encoder and decoder stacks of transformer.h, and an output
/// head over the target vocabulary; teacher forcing and greedy generation, each decoder pass
/// one Trace.
///
///   X_src (n x d)  = E_src[source] · s + PE          s = √d_model (embed_scale) or 1
///   X_tgt (m x d)  = E_tgt[<sos>, y_1 .. y_{m−1}] · s + PE
///   Mem   (n x d)  = Encoder(X_src)
///   D     (m x d)  = Decoder(X_tgt, Mem)              causal self-attention mask
///   logits (m x V) = D · W_genᵀ + b_gen
///   probabilities (m x V) = softmax of each row of logits

#include "nn/transformer.h"
#include "pretrained/trace_detail.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct PretrainedModel;
struct PretrainedTokens;

struct Seq2SeqModel {
    /// What the model is: its architecture, sizes, norm placement, activation, ε, final norms,
    /// positions, embedding scale, tokenizer and generation limit (scaleScores follows the Config).
    ModelSpec spec;
    TransformerWeights weights;
    /// Index = embedding row. Empty for an open vocabulary (a seeded model): every token string
    /// then gets its seeded embedding row (embedding.h) and there is no output head.
    std::vector<std::string> srcVocab;
    std::vector<std::string> tgtVocab;
    Eigen::MatrixXf srcEmbedding; ///< src_embed.weight (V_s x d)
    Eigen::MatrixXf tgtEmbedding; ///< tgt_embed.weight (V_t x d)
    /// generator.weight (V_t x d) and generator.bias (V_t); empty when there is no head.
    Eigen::MatrixXf generatorWeight;
    Eigen::VectorXf generatorBias;
    /// The optional tensors (biases) its file did not have: held at 0, never trained, never
    /// written back (model/parameters.h). Full names, e.g. "generator.bias".
    std::set<std::string> absent;
    std::string name;
    std::string description;
    /// Where the model came from: "seeded", "file:<path>", "built-in:reversal", "folder:<path>".
    std::string source;
    /// A GPT-2 or BERT opened from a Hugging Face folder (pretrained/model_folder.h): its weights,
    /// tokenizer and vocabulary live there, and the fields above hold only spec and names.
    std::shared_ptr<const PretrainedModel> pretrained;

    bool openVocabulary() const { return srcVocab.empty() && !pretrained; }
    /// True when the model computes logits and probabilities (a trained head, an LM or MLM head).
    bool hasHead() const;
};

/// The model a ModelSpec describes (model=seeded), with final norms: attention projections
/// Xavier-uniform as presetWeights, linear layers uniform in ±1/√fan_in (PyTorch's nn.Linear),
/// LayerNorm γ = 1, β = 0, all drawn from spec.seed; an open vocabulary and no output head. An
/// EncoderStack has encoder layers only. Throws std::invalid_argument for an invalid spec.
Seq2SeqModel seededModel(const ModelSpec& spec);

/// Reads a model from safetensors tensors and metadata (docs/model-format.md). Throws
/// FormatError naming the missing, mis-shaped or unknown tensor or the bad metadata key.
Seq2SeqModel modelFromTensors(const TensorFile& file);
/// Reads a model file (at most 1 GiB) or a Hugging Face model folder (model/open.h's openModel
/// without state-dict options). Throws FormatError.
Seq2SeqModel loadModel(const std::string& path);
/// The model's tensors (F32) and metadata, readable by modelFromTensors (an open vocabulary
/// is written as metadata open_vocabulary = true and its seed, without embedding tensors).
TensorFile modelToTensors(const Seq2SeqModel& model);
/// Writes the model as safetensors, crash-safe. A model whose weights are not all finite is not
/// written (FileError, reason non_finite): an earlier file stays. Throws std::runtime_error.
void saveModel(const Seq2SeqModel& model, const std::string& path);

/// The tokens of `text` as a model with this spec splits them (a source lower-cased if it says
/// so), at most maxTokens (with a warning); no vocabulary applied.
std::vector<std::string> specTokens(const ModelSpec& spec, std::string_view text, bool target, int maxTokens,
                                    std::vector<Message>& warnings);
/// The model's tokens of `text`: tokenized its way (a source lower-cased if it says so), at most
/// maxTokens (with a warning), each one outside the vocabulary replaced by <unk> (with a
/// warning naming it). An open vocabulary keeps every token.
std::vector<std::string> modelTokens(const Seq2SeqModel& model, std::string_view text, bool target, int maxTokens,
                                     std::vector<Message>& warnings);

/// Appends <pad> to a model's source tokens up to padTo (0: none), as PyTorch batches pad a
/// shorter sentence; warns (nothing_padded) when the source is longer. Throws Error (no_pad_token)
/// when a closed source vocabulary has no <pad>.
void padSource(const Seq2SeqModel& model, std::vector<std::string>& source, int padTo, std::vector<Message>& warnings);

/// Teacher forcing's decoder input: <sos> followed by the model's target tokens of `target`.
std::vector<std::string> teacherForcingInput(const Seq2SeqModel& model, std::string_view target, int maxTokens,
                                             std::vector<Message>& warnings);

/// One pass of the model: the source's stages (embedding, positional_encoding, input; block
/// "encoder_self"), the encoder's, the target's (block "decoder_self"), the decoder's (causal
/// self-attention), then logits and probabilities when the model has a head. trace.tokens is
/// the source, trace.targetTokens the decoder input (which should start with <sos>).
/// config gives d_model and heads (they must match the model), scale and the mask: PyTorch's
/// src_mask and src_key_padding_mask in the encoder, memory_key_padding_mask in every
/// cross-attention (nn/mask.h); the decoder's self-attention is causal. An encoder stack alone
/// (no decoder layers) takes no decoder input and stops after encoder_output.
/// Throws std::invalid_argument for a bad request (empty source or target, a token outside
/// a closed vocabulary, too many attention cells).
Trace computeModelTrace(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source,
                        const std::vector<std::string>& decoderInput, const Config& config);

/// One pass of a pretrained model (model.pretrained) on its tokens: every stage of
/// pretrained/forward.h; trace.tokens are the vocabulary strings, with their ids and segments.
/// config's d_model and heads must be the model's; `options` say how much of it the trace keeps
/// (pretrained/trace_detail.h: compact when large). Throws std::invalid_argument as computeModelTrace.
Trace computePretrainedTrace(std::shared_ptr<const Seq2SeqModel> model, const PretrainedTokens& tokens, const Config& config,
                             const TraceKeep& options = {});

struct GenerationState;

/// Greedy decoding from <sos> (docs/model-format.md). Only the last step's trace is kept: a
/// step's trace is as large as a teacher-forcing pass, and a model that never writes <eos>
/// takes up to 1024 steps, so keeping every step would grow as the cube of the length. step(k)
/// runs step k's pass again (one decoder pass; the encoder's stages are shared, not recomputed).
class Generation {
public:
    /// The generated tokens, the final <eos> included when it was reached.
    std::vector<std::string> tokens;
    /// chosen[k]: the probability step k gave tokens[k] (the largest of its last row).
    std::vector<float> chosen;
    /// True when generation ended with <eos>; false when it hit the length limit.
    bool finished = false;

    /// The number of steps (one per generated token).
    std::size_t size() const { return tokens.size(); }
    bool empty() const { return tokens.empty(); }
    /// Step k's trace: the pass on <sos> + tokens[0..k); the last row of its probabilities chose
    /// tokens[k]. Throws std::out_of_range for k >= size().
    std::shared_ptr<const Trace> step(std::size_t k) const;
    /// The last step's trace (null when there are no steps).
    const std::shared_ptr<const Trace>& last() const { return m_last; }

private:
    friend class GreedyDecoder;
    std::shared_ptr<const GenerationState> m_state;
    std::shared_ptr<const Trace> m_last;
};

/// Greedy decoding one step at a time: generate() in the caller's hands. The studio runs the
/// steps off its GUI thread, shows the generation so far and stops between two steps.
class GreedyDecoder {
public:
    /// Runs the encoder on `source` (once, for every step). Throws as generate().
    GreedyDecoder(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source, const Config& config,
                  int maxSteps = 0);
    /// One decoder pass on <sos> + the tokens so far: appends the next token (nothing once finished()).
    void step();
    /// True after <eos> or the length limit.
    bool finished() const { return m_generation.finished || static_cast<int>(m_generation.size()) >= m_limit; }
    /// The most steps: maxSteps, or the model's max_target_length when maxSteps <= 0.
    int limit() const { return m_limit; }
    /// The generation so far (a copy shares its traces: it is cheap, and it stays valid while
    /// the steps go on).
    const Generation& generation() const { return m_generation; }

private:
    Generation m_generation;
    std::vector<std::string> m_input; ///< <sos> and the tokens so far: the next step's decoder input
    int m_limit = 0;
};

/// Generates up to maxSteps tokens (the model's maxTargetLength when maxSteps <= 0). The
/// encoder runs once; every step is one decoder pass, and only the last is kept. progress, when
/// given, is called after each step with (steps done, most steps). Throws std::invalid_argument
/// as computeModelTrace, or when the model has no head or vocabulary.
Generation generate(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source, const Config& config,
                    int maxSteps = 0, const std::function<void(int, int)>& progress = {});

/// The weights of the attention module a stage names (Stage::module, e.g.
/// "decoder.layers.1.multihead_attn"), or nullptr when the model has no such module.
const AttentionWeights* attentionModule(const Seq2SeqModel& model, std::string_view module);
/// γ and β of the LayerNorm module a stage names ("encoder.layers.0.norm1", "encoder.norm"), or
/// nullptr when the model has no such module.
const LayerNormWeights* layerNormModule(const Seq2SeqModel& model, std::string_view module);

/// The index of the largest value (the first on a tie, as torch.argmax).
Eigen::Index argmaxFirst(const Eigen::Ref<const Eigen::RowVectorXf>& row);

} // namespace attnlab
