#pragma once
// The steps of the stage navigator, in the order of the math, with their user-facing names,
// formulas and operand shapes. User-facing text lives here, looked up by stage id; the engine
// only knows ids.

#include "core/model_spec.h"
#include "core/stage_key.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>
#include <vector>

namespace attnlab {

struct HfConfig;
struct Seq2SeqModel;
struct Stage;
struct Trace;

struct Step {
    QString id;        ///< "tokens" or an engine stage id
    bool perHead;      ///< the stage exists once per head
    /// A Transformer's step: the 0-based layer (none before and after the layers) and the
    /// block (for tokens/embedding/positional_encoding/input the side: EncoderSelf = source,
    /// DecoderSelf = target; None for the outputs).
    std::optional<int> layer = std::nullopt;
    Block block = Block::None;

    bool operator==(const Step&) const = default;
};

/// tokens → embedding → positional encoding → X → Q, K, V → Q·Kᵀ → ÷√d_k → mask →
/// masked scores → softmax → ·V → concat → ·W_O.
const std::vector<Step>& steps();
/// The index of `id` in steps(), or -1.
int stepIndex(const QString& id);

/// The stage `id` of query head `head` (none: a stage of the whole block) in the trace's scope, as
/// the views show it: a grouped-query block keeps k and v (and their norms and rotations) per
/// key/value head, so query head h's are those of the KV head its queries read (Stage::kvHead);
/// everywhere else the stage of head h. Null when the trace has none.
const Stage* stageForHead(const Trace& trace, std::string_view id, std::optional<int> head);

/// A Transformer's steps, in the order of its trace: source tokens → embedding → positional
/// encoding → X, every encoder layer (attention → add & norm → FFN → add & norm), the encoder
/// output, the target's, every decoder layer (masked self-attention → add & norm →
/// cross-attention → add & norm → FFN → add & norm), the decoder output, logits, probabilities.
std::vector<Step> modelSteps(const Trace& trace);

/// Where a step or stage stands in a Transformer, translated: "encoder layer 1 · self-attention",
/// "decoder layer 2 · cross-attention", "source", "target"; empty outside a Transformer, and
/// before and after the layers of a model that reads one text (`oneText`: GPT-2, BERT, an encoder stack).
QString stepPlace(const Step& step, bool oneText = false);
QString stagePlace(const Stage& stage);
/// The name of a block: "Encoder self-attention", "Decoder self-attention (masked)", "Cross-attention".
QString blockName(Block block);

/// Which kind of widget draws a step: the studio and the lesson decks decide alike.
enum class ViewKind {
    Tokens,           ///< the tokens table
    Matrix,           ///< the stage's matrix as a heatmap
    Positional,       ///< PE heatmap, waves and PE·PEᵀ
    Concat,           ///< [Z_1 | … | Z_h] then ×W_O
    Heads,            ///< every head of the stage side by side
    KernelRegression, ///< Nadaraya–Watson (lesson view)
    SoftmaxScaling,   ///< softmax with and without ÷√d_k (lesson view)
    LayerNorm,        ///< per-token mean and variance before a LayerNorm, the rows after it
    FeedForward,      ///< the FFN's hidden activations (n × d_ff) and how many are zero
    Model,            ///< every layer × head of one attention block (views/modelview.h)
    HeadLines,        ///< the chosen token's lines to the keys in one layer, all heads (views/headview.h)
    Predictions,      ///< a pretrained model's fill-mask or next-token bars and GPT-2's generation stepper
    Approximation,    ///< an attention kind's weights beside full attention's, and the error (views/approximationview.h)
    Cost,             ///< the attention kinds' measured time and memory against n (views/costview.h)
    PositionScheme,   ///< where RoPE, ALiBi, relative positions or Transformer-XL put position (views/positionschemeview.h)
    Length,           ///< one (q, k) pair moved along 64 and 512 tokens under each scheme (views/lengthview.h)
    Training,         ///< a small model trained in the studio, its curves and attention forming (views/trainingview.h)
};
/// `view` is "stage", "heads", "kernel-regression" or "softmax-scaling" (docs/lesson-format.md), or
/// the studio's "model", "head-view", "predictions", "approximation", "cost", "positions",
/// "length" and "training" views. With the
/// `trace` shown, a view may claim a step by what the trace holds (an attention kind's weights).
/// Decided by the view registry (ui/views/registry.cpp).
ViewKind viewKindFor(const QString& stageId, const QString& view, const Trace* trace = nullptr);

/// Short name for the navigator ("Q·Kᵀ"), translated.
QString stepName(const QString& id);
/// The formula banner's text for a stage ("A = softmax(QKᵀ/√d_k + M)"), translated.
QString stepFormula(const QString& id, bool scaled, bool embedScaled, PositionalEncoding pe = PositionalEncoding::Sinusoidal);
/// The operands' shapes for the banner ("Q_h: 5 × 8,  K_hᵀ: 8 × 5  →  5 × 5").
QString stepShapes(const QString& id, const Trace& trace);
/// The formula of a stage under a run's settings: the attention kind's own (session/kindstages.h)
/// where it computes the stage differently, else stepFormula's.
QString stepFormula(const QString& id, const ModelSpec& spec);
/// One or two sentences saying what the stage does and why, translated.
QString stepExplanation(const QString& id, PositionalEncoding pe = PositionalEncoding::Sinusoidal);
/// True for a masked language model's trace (BERT's): its probabilities fill in each position
/// (a [MASK] above all); they are no next-token predictions and nothing decodes them greedily.
bool isMaskedLanguageModel(const Trace& trace);
/// The config of `model` when it is a modern decoder (Llama, Mistral, Qwen2, Qwen3, Gemma 3:
/// families/gated.h), or null for any other model or none.
const HfConfig* gatedDecoderConfig(const Seq2SeqModel* model);
/// The same for the model of `trace`.
const HfConfig* gatedDecoderConfig(const Trace& trace);

} // namespace attnlab
