// The stage texts of the attention block, the layers around it, a model's output and the
// pretrained families' own stages, as data (issue 30 §4), with the stage functions of stages.h that
// read them. The attention kinds' and position schemes' tables are in kindstages.cpp and
// positionstages.cpp.

#include "session/stages.h"

#include "session/kindstages.h"
#include "session/positionstages.h"
#include "session/stagecatalogue.h"

#include "core/trace.h"
#include "model/model.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

/// Translation context for the stage texts (lupdate sees Stages::tr("...")).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};

QString dims(long long r, long long c)
{
    return QStringLiteral("%1 \u00D7 %2").arg(r).arg(c); // "5 × 8"
}

const QString kArrow = QStringLiteral("  \u2192  ");

QString tokensShape(const BlockDims& b)
{
    return Stages::tr("n = %1 tokens").arg(b.n);
}

QString rowsShape(const BlockDims& b)
{
    return QStringLiteral("n \u00D7 d_model = ") + dims(b.n, b.d);
}

QString projectionShape(const BlockDims& b)
{
    return QStringLiteral("X: ") + dims(b.n, b.d) + QStringLiteral(",  W: ") + dims(b.d, b.dk) + kArrow + dims(b.n, b.dk);
}

QString scoresShape(const BlockDims& b)
{
    return QStringLiteral("Q_h: ") + dims(b.n, b.dk) + QStringLiteral(",  K_h\u1D40: ") + dims(b.dk, b.n) + kArrow + dims(b.n, b.n);
}

QString squareShape(const BlockDims& b)
{
    return dims(b.n, b.n) + Stages::tr(",  rows = queries, columns = keys");
}

QString headOutputShape(const BlockDims& b)
{
    return QStringLiteral("A_h: ") + dims(b.n, b.n) + QStringLiteral(",  V_h: ") + dims(b.n, b.dk) + kArrow + dims(b.n, b.dk);
}

QString concatShape(const BlockDims& b)
{
    return Stages::tr("%1 heads \u00D7 ").arg(b.h) + dims(b.n, b.dk) + kArrow + dims(b.n, b.h * b.dk);
}

QString outputShape(const BlockDims& b)
{
    return QStringLiteral("C: ") + dims(b.n, b.d) + QStringLiteral(",  W_O: ") + dims(b.d, b.d) + kArrow + dims(b.n, b.d);
}

/// The attention block's stages, in the order of the math (steps()).
constexpr StageTexts kAttention[] = {
    {.id = "tokens",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Tokens"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "sentence \u2192 tokens t\u2081 \u2026 t\u2099"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The sentence is cut into tokens: words and punctuation, one token per Chinese character."),
     .view = ViewKind::Tokens, .shape = tokensShape},
    {.id = "embedding",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Embedding"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "E = Embed(tokens)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each token looks up its own vector in an embedding table: the same word always gets the same vector."),
     .embedScaled = QT_TRANSLATE_NOOP("attnlab::Stages", "E = Embed(tokens),  scaled by √d_model"), .shape = rowsShape, .kindsKeepShape = true},
    {.id = "positional_encoding",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Positional encoding"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Attention itself ignores order, so each position gets a pattern of sines and cosines of different frequencies."),
     .view = ViewKind::Positional, .shape = rowsShape, .kindsKeepShape = true},
    {.id = "input",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Input X = E + P"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "X = E + P"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The input of attention is the embedding plus the position: what the word is and where it stands."),
     .embedScaled = QT_TRANSLATE_NOOP("attnlab::Stages", "X = E\u00B7√d_model + P"), .shape = rowsShape, .kindsKeepShape = true},
    {.id = "q",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Queries Q"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Q_h = X\u00B7W_Q,h\u1D40 + b_Q,h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A query says what a token is looking for."), .shape = projectionShape, .kindsKeepShape = true},
    {.id = "k",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Keys K"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "K_h = X\u00B7W_K,h\u1D40 + b_K,h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A key says what a token offers, to be matched against the queries."), .shape = projectionShape, .kindsKeepShape = true},
    {.id = "v",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Values V"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "V_h = X\u00B7W_V,h\u1D40 + b_V,h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A value is what a token hands over when it is attended to."), .shape = projectionShape, .kindsKeepShape = true},
    {.id = "scores",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Scores Q\u00B7K\u1D40"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S_h = Q_h\u00B7K_h\u1D40"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Every query is compared with every key by a dot product: large means a good match."), .shape = scoresShape, .axes = StageAxes::QueriesKeys},
    {.id = "scaled",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Scaled \u00F7 √d_k"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S\u2032_h = Q_h\u00B7K_h\u1D40 / √d_k"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Dot products grow with d_k; dividing by √d_k keeps their spread near 1 so the softmax does not saturate."),
     .unscaled = QT_TRANSLATE_NOOP("attnlab::Stages", "S\u2032_h = Q_h\u00B7K_h\u1D40   (scaling switched off)"), .shape = scoresShape, .axes = StageAxes::QueriesKeys},
    {.id = "mask",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Mask M"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "M_ij = \u2212\u221E if key j is hidden from query i, else 0"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The mask hides keys a query may not see: future tokens (causal) or <pad> tokens (padding). \u2212\u221E becomes exactly 0 after the softmax."), .shape = squareShape, .axes = StageAxes::QueriesKeys},
    {.id = "masked_scores",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Masked scores"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S\u2033_h = Q_h\u00B7K_h\u1D40 / √d_k + M"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Adding the mask turns hidden scores into \u2212\u221E."), .shape = scoresShape, .axes = StageAxes::QueriesKeys},
    {.id = "weights",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Softmax \u2192 weights A"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(Q_h\u00B7K_h\u1D40 / √d_k + M)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Softmax turns each row of scores into probabilities: every row sums to 1."),
     .unscaled = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(Q_h\u00B7K_h\u1D40 + M)"), .shape = squareShape, .axes = StageAxes::QueriesKeys},
    {.id = "head_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Head output A\u00B7V"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Z_h = A_h\u00B7V_h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each token's output is the weighted sum of the values, with the attention weights as weights."), .shape = headOutputShape},
    {.id = "concat",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Concatenate heads"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "C = [Z_1 | Z_2 | \u2026 | Z_h]"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The heads' outputs are placed side by side: each head contributes d_k columns."),
     .view = ViewKind::Concat, .shape = concatShape, .kindsKeepShape = true},
    {.id = "output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Output \u00B7W_O"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "O = C\u00B7W_O\u1D40 + b_O"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A last projection W_O mixes the heads back into one d_model-wide vector per token."), .shape = outputShape, .kindsKeepShape = true},
};

/// X without P: no positional encoding, or a scheme inside attention.
constexpr StageTexts kInputWithoutP{.id = "input",
                                    .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "X = E  (P = 0)"),
                                    .embedScaled = QT_TRANSLATE_NOOP("attnlab::Stages", "X = E\u00B7√d_model  (P = 0)")};

/// The positional encoding and the input under the other schemes than the sinusoid (the schemes
/// inside attention have their own tables too, session/positionstages.cpp).
constexpr StageTexts kLearnedPositions[] = {
    {.id = "positional_encoding",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "P[pos] = row pos of a learned position table (d_model wide)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Attention itself ignores order, so each position looks up a vector of its own in a position table "
                                                         "learned with the model, as BERT does (here seeded: random until trained).")},
};

constexpr StageTexts kNoPositions[] = {
    {.id = "positional_encoding",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "P = 0: no positional encoding"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "No positional encoding: attention sees the tokens as a set \u2014 reorder them and every output is only "
                                                         "reordered.")},
    kInputWithoutP,
};

constexpr StageTexts kPositionsInsideAttention[] = {
    {.id = "positional_encoding",
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Nothing is added to the embeddings here: this scheme puts position inside attention, into q and k or "
                                                         "into the scores, where only the distance between two tokens counts.")},
    kInputWithoutP,
};

StageTable positionVariants(PositionalEncoding pe)
{
    if (pe == PositionalEncoding::Learned)
        return kLearnedPositions;
    if (pe == PositionalEncoding::None)
        return kNoPositions;
    return actsInsideAttention(pe) ? StageTable(kPositionsInsideAttention) : StageTable();
}

constexpr StageString kResidual = QT_TRANSLATE_NOOP("attnlab::Stages", "The residual connection adds the sublayer's output to its input: the token keeps what it had and gradients flow straight through.");
constexpr StageString kNormFormula = QT_TRANSLATE_NOOP("attnlab::Stages", "LN(x) = (x \u2212 \u03BC) / \u221A(\u03C3\u00B2 + \u03B5) \u00B7 \u03B3 + \u03B2");
constexpr StageString kNorm = QT_TRANSLATE_NOOP("attnlab::Stages", "LayerNorm rescales each token's vector to mean 0 and variance 1 over its d_model features, then applies \u03B3 and \u03B2.");

/// An encoder or decoder layer's stages around its attention (docs/transformer-layers.md), and a
/// model's stages after its stacks.
constexpr StageTexts kLayers[] = {
    {.id = "attn_residual",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Add (attention)"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "R = X + MultiHead(X)"),
     .explanation = kResidual},
    {.id = "attn_norm", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Norm (attention)"), .formula = kNormFormula, .explanation = kNorm, .view = ViewKind::LayerNorm},
    {.id = "cross_residual",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Add (cross-attention)"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "R = Y + MultiHead(Q = Y, K = V = Mem)"),
     .explanation = kResidual},
    {.id = "cross_norm", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Norm (cross-attention)"), .formula = kNormFormula, .explanation = kNorm, .view = ViewKind::LayerNorm},
    {.id = "ffn_hidden",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "FFN hidden"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "H = act(X\u00B7W\u2081\u1D40 + b\u2081)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The feed-forward network widens every token to d_ff features and applies the non-linearity, each token on its own."),
     .view = ViewKind::FeedForward},
    {.id = "ffn_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "FFN output"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "F = H\u00B7W\u2082\u1D40 + b\u2082"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The second linear layer brings the d_ff features back to d_model.")},
    {.id = "ffn_residual",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Add (FFN)"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "R = X + FFN(X)"),
     .explanation = kResidual},
    {.id = "ffn_norm", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Norm (FFN)"), .formula = kNormFormula, .explanation = kNorm, .view = ViewKind::LayerNorm},
    {.id = "layer_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Layer output"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "the layer's output"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "What this layer hands to the next one.")},
    {.id = "encoder_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Encoder output"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Mem = LN(encoder's last layer)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The encoder's output, the memory: every decoder layer's cross-attention reads its keys and values from it.")},
    {.id = "decoder_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Decoder output"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "D = LN(decoder's last layer)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The decoder's output: one vector per target position, ready to be turned into a word.")},
    {.id = "logits",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Logits"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "logits = D\u00B7W\u1D40 + b"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A linear layer scores every word of the vocabulary for the next position."), .axes = StageAxes::Vocabulary},
    {.id = "probabilities",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Probabilities"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "P = softmax(logits)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Softmax turns each row of logits into next-token probabilities; greedy decoding takes the largest."), .axes = StageAxes::Vocabulary},
};

/// The stages only pretrained models' traces hold (pretrained/forward.h): BERT's embeddings and
/// masked-LM head, attention rollout.
constexpr StageTexts kPretrained[] = {
    {.id = "segment_embedding",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Segment embedding"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "T = W_type[segment]: segment A rows 0, segment B rows 1"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "BERT reads one or two sentences: every token also looks up the vector of its segment (A or B).")},
    {.id = "embedding_sum",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Sum of embeddings"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S = E + T + P"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "BERT adds the token, segment and position embeddings; a LayerNorm then makes the layers' input X.")},
    {.id = "mlm_transform",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Masked-LM transform"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "T = LN(GELU(Mem\u00B7W_t\u1D40 + b_t))"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The masked-LM head transforms each output vector once more before scoring the vocabulary: at a [MASK] it guesses the hidden word.")},
    {.id = "rollout",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Attention rollout"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "R = \u00C3_L \u00B7\u00B7\u00B7 \u00C3_1,  \u00C3 = \u00BD\u00B7mean of the heads + \u00BD\u00B7I"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Attention rollout multiplies the layers' head-averaged weights, each mixed half and half with the identity for the residual path: row i estimates how much each input token flows into token i's last layer. An estimate, not an explanation.")},
};

constexpr StageString kQkNorm = QT_TRANSLATE_NOOP("attnlab::Stages", "Qwen3 normalises each head's queries and keys on their own (an RMSNorm over d_k) before RoPE turns "
                                                                     "them, which keeps the scores from growing large.");

/// The stages only a modern decoder's layer has (families/gated.h): the gated FFN's two halves,
/// q/k norms, Gemma 3's norms on the sublayers' outputs.
constexpr StageTexts kGated[] = {
    {.id = "ffn_gate",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "FFN gate"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A gated feed-forward network (SwiGLU) has two linear layers side by side: this one, through SiLU, "
                                                         "decides how much of each feature of the other passes."),
     .view = ViewKind::FeedForward},
    {.id = "ffn_up",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "FFN up"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The second of the two side-by-side layers: the values the gate lets through, feature by feature."),
     .view = ViewKind::FeedForward},
    {.id = "q_norm", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Query norm"), .explanation = kQkNorm},
    {.id = "k_norm", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Key norm"), .explanation = kQkNorm},
    {.id = "attn_post_norm",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Norm (attention output)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Gemma 3 normalises the attention's output (an RMSNorm) before adding it to the layer's input, so "
                                                         "that no sublayer's output outgrows the residual stream."),
     .view = ViewKind::LayerNorm},
    {.id = "ffn_post_norm",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Norm (FFN output)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Gemma 3 normalises the feed-forward network's output (an RMSNorm) before adding it to the residual stream."),
     .view = ViewKind::LayerNorm},
};

/// What the rows and columns of a matrix of `t` are, said after its shape.
QString axesText(StageAxes axes, const Trace& t)
{
    switch (axes) {
    case StageAxes::QueriesKeys:
        return Stages::tr(",  rows = queries, columns = keys");
    case StageAxes::DistancesDk:
        return Stages::tr(",  rows = distances j \u2212 i, columns = d_k");
    case StageAxes::Vocabulary:
        return t.model && t.model->spec.architecture != Architecture::EncoderDecoder ? Stages::tr(",  rows = positions, columns = vocabulary")
                                                                                      : Stages::tr(",  rows = target positions, columns = vocabulary");
    case StageAxes::None:
        break;
    }
    return {};
}

/// The first stage of `t` with this id, or null.
const Stage* firstStage(const Trace& t, const QString& id)
{
    const std::string wanted = id.toStdString();
    for (const Stage& st : t.stages) {
        if (st.id == wanted)
            return &st;
    }
    return nullptr;
}

} // namespace

std::vector<StageTable> stageTables()
{
    return {kAttention, kLayers, kPretrained, kGated};
}

ViewKind catalogueView(QStringView id)
{
    for (StageTable table : stageTables()) {
        if (const StageTexts* e = catalogueEntry(table, id))
            return e->view;
    }
    return ViewKind::Matrix;
}

QString stepShapes(const QString& id, const Trace& t)
{
    std::vector<StageTable> tables = stageTables();
    for (const auto& more : {positionStageTables(), kindStageTables()})
        tables.insert(tables.end(), more.begin(), more.end());
    // The stages an attention kind adds or reshapes (q, k, v, concat and output keep theirs), and
    // those RoPE and ALiBi add.
    const bool positionStage = isSchemeStage(id) || t.config.positional == PositionalEncoding::Xl;
    const bool kindStage = positionStage || (t.config.attention != AttentionKind::Full && !catalogueEntryWith(tables, id, &StageTexts::kindsKeepShape));
    // A Transformer's stages and an attention kind's: the main matrix's shape says it best
    // (cross-attention is m × n, linformer's scores n × K).
    if (const Stage* st = t.model || kindStage ? firstStage(t, id) : nullptr) {
        const auto& m = st->main().values;
        const StageTexts* axes = catalogueEntryWith(tables, id, &StageTexts::axes);
        return dims(m.rows(), m.cols()) + (axes ? axesText(axes->axes, t) : QString());
    }
    const StageTexts* e = catalogueEntryWith(tables, id, &StageTexts::shape);
    const BlockDims b{static_cast<long long>(t.tokens.size()), t.config.dModel, t.config.dK(), t.config.heads};
    return e ? e->shape(b) : QString();
}

QString stepName(const QString& id)
{
    if (const QString name = catalogueTitle(stageTables(), id); !name.isEmpty())
        return name;
    if (const QString name = positionStepName(id); !name.isEmpty())
        return name; // a position scheme's own stage (position/inside.h)
    if (const QString name = kindStepName(id); !name.isEmpty())
        return name; // an attention kind's own stage (session/kindstages.h)
    return id;
}

QString stepFormula(const QString& id, const ModelSpec& spec)
{
    // An attention kind's own formula first (Performer's implied weights under RoPE are still
    // Performer's, not full softmax's, issue 28 §3), then a position scheme's own stage or one it
    // computes differently (session/positionstages.h).
    const QString formula = kindStepFormula(id, spec.attention, spec.scaleScores);
    if (!formula.isEmpty() && spec.attention != AttentionKind::Full)
        return formula;
    if (const QString f = positionStepFormula(id, spec); !f.isEmpty())
        return f;
    return formula.isEmpty() ? stepFormula(id, spec.scaleScores, spec.embedScale, spec.positional) : formula;
}

QString stepFormula(const QString& id, bool scaled, bool embedScaled, PositionalEncoding pe)
{
    const FormulaSettings settings{.scaled = scaled, .embedScaled = embedScaled};
    return catalogueFormula({positionVariants(pe), kAttention, kLayers, kPretrained}, id, settings);
}

QString stepExplanation(const QString& id, PositionalEncoding pe)
{
    if (const QString e = positionStepExplanation(id, pe); !e.isEmpty())
        return e; // a position scheme's own stage
    return catalogueExplanation({positionVariants(pe), kAttention, kLayers, kPretrained, kGated}, id);
}

} // namespace attnlab
