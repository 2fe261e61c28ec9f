#include "session/stages.h"

#include "session/kindstages.h"
#include "session/positionstages.h"

#include "families/family.h"
#include "model/model.h"
#include "pretrained/model_folder.h"

#include "core/trace.h"

#include <QCoreApplication>

#include <algorithm>

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

} // namespace

const Stage* stageForHead(const Trace& trace, std::string_view id, std::optional<int> head)
{
    if (head && isKvHeadStage(id)) {
        if (const Stage* q = trace.find("q", head); q && q->kvHead)
            return trace.find(id, q->kvHead);
    }
    return trace.find(id, head);
}

const std::vector<Step>& steps()
{
    static const std::vector<Step> kSteps{
        {QStringLiteral("tokens"), false},
        {QStringLiteral("embedding"), false},
        {QStringLiteral("positional_encoding"), false},
        {QStringLiteral("input"), false},
        {QStringLiteral("q"), true},
        {QStringLiteral("k"), true},
        {QStringLiteral("v"), true},
        {QStringLiteral("scores"), true},
        {QStringLiteral("scaled"), true},
        {QStringLiteral("mask"), false},
        {QStringLiteral("masked_scores"), true},
        {QStringLiteral("weights"), true},
        {QStringLiteral("head_output"), true},
        {QStringLiteral("concat"), false},
        {QStringLiteral("output"), false},
    };
    return kSteps;
}

int stepIndex(const QString& id)
{
    const auto& s = steps();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

std::vector<Step> modelSteps(const Trace& trace)
{
    std::vector<Step> out;
    // A compact trace's dropped stages are steps too: they are made again when shown.
    for (const StageKey& st : trace.stages.keys()) {
        const QString id = QString::fromStdString(st.id);
        const Block block = st.block;
        // The tokens of each side come first, as in the attention steps.
        if (id == u"embedding" && !st.layer)
            out.push_back({QStringLiteral("tokens"), false, std::nullopt, block});
        // A per-head stage stands once per head, head after head: one step for all of them.
        // Some kinds make two stages per head in turn (linformer's k_projected, v_projected):
        // a step already listed in this layer and block is not listed again.
        const Step step{id, st.head.has_value(), st.layer, block};
        bool listed = false;
        for (auto it = out.rbegin(); it != out.rend() && it->layer == step.layer && it->block == step.block && !listed; ++it)
            listed = *it == step;
        if (listed)
            continue;
        // Transformer-XL: the memory first appears with segment 1, after segment 0's stages; its
        // step comes before the queries it is attended with.
        const auto queries = std::find_if(out.begin(), out.end(), [&](const Step& s) {
            return s.id == u"q" && s.layer == step.layer && s.block == step.block;
        });
        if (id == u"memory" && queries != out.end())
            out.insert(queries, step);
        else
            out.push_back(step);
    }
    return out;
}

QString blockName(Block block)
{
    switch (block) {
    case Block::EncoderSelf:
        return Stages::tr("Encoder self-attention");
    case Block::DecoderSelf:
        return Stages::tr("Decoder self-attention (masked)");
    case Block::Cross:
        return Stages::tr("Cross-attention");
    case Block::None:
        break;
    }
    return {};
}

namespace {

/// Where a step is: its side before the layers, else its layer and the sublayer it belongs to.
/// A stage carries the block of its layer (a decoder layer's FFN is tagged decoder_self): the
/// sublayer comes from its id.
QString place(std::optional<int> layer, Block block, const QString& id, bool oneText)
{
    if (layer && (block == Block::EncoderSelf || block == Block::DecoderSelf)) {
        const bool encoder = block == Block::EncoderSelf;
        if (id.startsWith(QStringLiteral("ffn_")))
            return encoder ? Stages::tr("encoder layer %1 \u00B7 feed-forward").arg(*layer + 1)
                           : Stages::tr("decoder layer %1 \u00B7 feed-forward").arg(*layer + 1);
        if (id == u"layer_output")
            return encoder ? Stages::tr("encoder layer %1").arg(*layer + 1) : Stages::tr("decoder layer %1").arg(*layer + 1);
        if (id.startsWith(QStringLiteral("cross_")))
            block = Block::Cross;
    }
    if (!layer) {
        if (oneText)
            return {}; // GPT-2, BERT, an encoder stack: one text, neither source nor target
        if (block == Block::EncoderSelf)
            return Stages::tr("source");
        if (block == Block::DecoderSelf)
            return Stages::tr("target");
        return {};
    }
    switch (block) {
    case Block::EncoderSelf:
        return Stages::tr("encoder layer %1 \u00B7 self-attention").arg(*layer + 1);
    case Block::DecoderSelf:
        return Stages::tr("decoder layer %1 \u00B7 masked self-attention").arg(*layer + 1);
    case Block::Cross:
        return Stages::tr("decoder layer %1 \u00B7 cross-attention").arg(*layer + 1);
    case Block::None:
        break;
    }
    return {};
}

} // namespace

QString stepPlace(const Step& step, bool oneText)
{
    return place(step.layer, step.block, step.id, oneText);
}

QString stagePlace(const Stage& stage)
{
    return place(stage.layer, stage.block, QString::fromStdString(stage.id), false);
}

namespace {

QString layerStepFormula(const QString& id)
{
    if (id == u"attn_residual")
        return Stages::tr("R = X + MultiHead(X)");
    if (id == u"cross_residual")
        return Stages::tr("R = Y + MultiHead(Q = Y, K = V = Mem)");
    if (id == u"attn_norm" || id == u"cross_norm" || id == u"ffn_norm")
        return Stages::tr("LN(x) = (x \u2212 \u03BC) / \u221A(\u03C3\u00B2 + \u03B5) \u00B7 \u03B3 + \u03B2");
    if (id == u"ffn_hidden")
        return Stages::tr("H = act(X\u00B7W\u2081\u1D40 + b\u2081)");
    if (id == u"ffn_output")
        return Stages::tr("F = H\u00B7W\u2082\u1D40 + b\u2082");
    if (id == u"ffn_residual")
        return Stages::tr("R = X + FFN(X)");
    if (id == u"layer_output")
        return Stages::tr("the layer's output");
    if (id == u"encoder_output")
        return Stages::tr("Mem = LN(encoder's last layer)");
    if (id == u"decoder_output")
        return Stages::tr("D = LN(decoder's last layer)");
    if (id == u"logits")
        return Stages::tr("logits = D\u00B7W\u1D40 + b");
    if (id == u"segment_embedding")
        return Stages::tr("T = W_type[segment]: segment A rows 0, segment B rows 1");
    if (id == u"embedding_sum")
        return Stages::tr("S = E + T + P");
    if (id == u"mlm_transform")
        return Stages::tr("T = LN(GELU(Mem\u00B7W_t\u1D40 + b_t))");
    if (id == u"rollout")
        return Stages::tr("R = \u00C3_L \u00B7\u00B7\u00B7 \u00C3_1,  \u00C3 = \u00BD\u00B7mean of the heads + \u00BD\u00B7I");
    if (id == u"probabilities")
        return Stages::tr("P = softmax(logits)");
    return {};
}

} // namespace

/// The names of the stages only a modern decoder's layer has (families/gated.h).
static QString gatedStepName(const QString& id)
{
    if (id == u"ffn_gate")
        return Stages::tr("FFN gate");
    if (id == u"ffn_up")
        return Stages::tr("FFN up");
    if (id == u"q_norm")
        return Stages::tr("Query norm");
    if (id == u"k_norm")
        return Stages::tr("Key norm");
    if (id == u"attn_post_norm")
        return Stages::tr("Norm (attention output)");
    if (id == u"ffn_post_norm")
        return Stages::tr("Norm (FFN output)");
    return {};
}

QString stepName(const QString& id)
{
    if (const QString name = gatedStepName(id); !name.isEmpty())
        return name;
    if (const QString name = positionStepName(id); !name.isEmpty())
        return name; // a position scheme's own stage (position/inside.h)
    if (id == u"attn_residual")
        return Stages::tr("Add (attention)");
    if (id == u"attn_norm")
        return Stages::tr("Norm (attention)");
    if (id == u"cross_residual")
        return Stages::tr("Add (cross-attention)");
    if (id == u"cross_norm")
        return Stages::tr("Norm (cross-attention)");
    if (id == u"ffn_hidden")
        return Stages::tr("FFN hidden");
    if (id == u"ffn_output")
        return Stages::tr("FFN output");
    if (id == u"ffn_residual")
        return Stages::tr("Add (FFN)");
    if (id == u"ffn_norm")
        return Stages::tr("Norm (FFN)");
    if (id == u"layer_output")
        return Stages::tr("Layer output");
    if (id == u"encoder_output")
        return Stages::tr("Encoder output");
    if (id == u"decoder_output")
        return Stages::tr("Decoder output");
    if (id == u"logits")
        return Stages::tr("Logits");
    if (id == u"probabilities")
        return Stages::tr("Probabilities");
    if (id == u"tokens")
        return Stages::tr("Tokens");
    if (id == u"embedding")
        return Stages::tr("Embedding");
    if (id == u"segment_embedding")
        return Stages::tr("Segment embedding");
    if (id == u"embedding_sum")
        return Stages::tr("Sum of embeddings");
    if (id == u"mlm_transform")
        return Stages::tr("Masked-LM transform");
    if (id == u"rollout")
        return Stages::tr("Attention rollout");
    if (id == u"positional_encoding")
        return Stages::tr("Positional encoding");
    if (id == u"input")
        return Stages::tr("Input X = E + P");
    if (id == u"q")
        return Stages::tr("Queries Q");
    if (id == u"k")
        return Stages::tr("Keys K");
    if (id == u"v")
        return Stages::tr("Values V");
    if (id == u"scores")
        return Stages::tr("Scores Q\u00B7K\u1D40");
    if (id == u"scaled")
        return Stages::tr("Scaled \u00F7 √d_k");
    if (id == u"mask")
        return Stages::tr("Mask M");
    if (id == u"masked_scores")
        return Stages::tr("Masked scores");
    if (id == u"weights")
        return Stages::tr("Softmax \u2192 weights A");
    if (id == u"head_output")
        return Stages::tr("Head output A\u00B7V");
    if (id == u"concat")
        return Stages::tr("Concatenate heads");
    if (id == u"output")
        return Stages::tr("Output \u00B7W_O");
    if (const QString kind = kindStepName(id); !kind.isEmpty())
        return kind; // an attention kind's own stage (session/kindstages.h)
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
    if (const QString f = layerStepFormula(id); !f.isEmpty())
        return f;
    if (id == u"tokens")
        return Stages::tr("sentence \u2192 tokens t\u2081 \u2026 t\u2099");
    if (id == u"embedding")
        return embedScaled ? Stages::tr("E = Embed(tokens),  scaled by √d_model") : Stages::tr("E = Embed(tokens)");
    if (id == u"positional_encoding") {
        if (pe == PositionalEncoding::Learned)
            return Stages::tr("P[pos] = row pos of a learned position table (d_model wide)");
        if (pe == PositionalEncoding::None)
            return Stages::tr("P = 0: no positional encoding");
        return Stages::tr("PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))");
    }
    if (id == u"input" && (pe == PositionalEncoding::None || actsInsideAttention(pe)))
        return embedScaled ? Stages::tr("X = E\u00B7√d_model  (P = 0)") : Stages::tr("X = E  (P = 0)");
    if (id == u"input")
        return embedScaled ? Stages::tr("X = E\u00B7√d_model + P") : Stages::tr("X = E + P");
    if (id == u"q")
        return Stages::tr("Q_h = X\u00B7W_Q,h\u1D40 + b_Q,h");
    if (id == u"k")
        return Stages::tr("K_h = X\u00B7W_K,h\u1D40 + b_K,h");
    if (id == u"v")
        return Stages::tr("V_h = X\u00B7W_V,h\u1D40 + b_V,h");
    if (id == u"scores")
        return Stages::tr("S_h = Q_h\u00B7K_h\u1D40");
    if (id == u"scaled")
        return scaled ? Stages::tr("S\u2032_h = Q_h\u00B7K_h\u1D40 / √d_k") : Stages::tr("S\u2032_h = Q_h\u00B7K_h\u1D40   (scaling switched off)");
    if (id == u"mask")
        return Stages::tr("M_ij = \u2212\u221E if key j is hidden from query i, else 0");
    if (id == u"masked_scores")
        return Stages::tr("S\u2033_h = Q_h\u00B7K_h\u1D40 / √d_k + M");
    if (id == u"weights")
        return scaled ? Stages::tr("A_h = softmax(Q_h\u00B7K_h\u1D40 / √d_k + M)") : Stages::tr("A_h = softmax(Q_h\u00B7K_h\u1D40 + M)");
    if (id == u"head_output")
        return Stages::tr("Z_h = A_h\u00B7V_h");
    if (id == u"concat")
        return Stages::tr("C = [Z_1 | Z_2 | \u2026 | Z_h]");
    if (id == u"output")
        return Stages::tr("O = C\u00B7W_O\u1D40 + b_O");
    return {};
}

QString stepShapes(const QString& id, const Trace& t)
{
    // The stages an attention kind adds or reshapes (q, k, v, concat and output keep theirs), and
    // those RoPE and ALiBi add.
    const bool positionStage = id == u"rope_angles" || id == u"q_rotated" || id == u"k_rotated" || id == u"position_bias"
                               || id == u"relative_keys" || id == u"relative_values" || id == u"position_scores"
                               || t.config.positional == PositionalEncoding::Xl;
    const bool kindStage = positionStage
                           || (t.config.attention != AttentionKind::Full && id != u"q" && id != u"k" && id != u"v" && id != u"concat"
                               && id != u"output" && id != u"input" && id != u"embedding" && id != u"positional_encoding");
    if (!t.stages.empty() && (t.model || kindStage)) {
        // A Transformer's stages and an attention kind's: the main matrix's shape says it best
        // (cross-attention is m × n, linformer's scores n × K).
        for (const Stage& st : t.stages) {
            if (QString::fromStdString(st.id) == id) {
                const auto& m = st.main().values;
                if (id == u"weights" || id == u"scores" || id == u"scaled" || id == u"masked_scores" || id == u"mask" || id == u"reference_weights"
                    || id == u"position_bias" || id == u"position_scores" || id == u"content_scores" || id == u"content_bias")
                    return dims(m.rows(), m.cols()) + Stages::tr(",  rows = queries, columns = keys");
                if (id == u"relative_keys" || id == u"relative_values")
                    return dims(m.rows(), m.cols()) + Stages::tr(",  rows = distances j \u2212 i, columns = d_k");
                if ((id == u"probabilities" || id == u"logits") && t.model && t.model->spec.architecture != Architecture::EncoderDecoder)
                    return dims(m.rows(), m.cols()) + Stages::tr(",  rows = positions, columns = vocabulary");
                if (id == u"probabilities" || id == u"logits")
                    return dims(m.rows(), m.cols()) + Stages::tr(",  rows = target positions, columns = vocabulary");
                return dims(m.rows(), m.cols());
            }
        }
    }
    if (id == u"memory") // Transformer-XL's first segment has none
        return Stages::tr("the first segment has no memory: M_\u03C4 = min(M, \u03C4\u00B7L) rows");
    const long long n = static_cast<long long>(t.tokens.size());
    const long long d = t.config.dModel;
    const long long dk = t.config.dK();
    const long long h = t.config.heads;
    const QString arrow = QStringLiteral("  \u2192  ");
    if (id == u"tokens")
        return Stages::tr("n = %1 tokens").arg(n);
    if (id == u"embedding" || id == u"positional_encoding" || id == u"input")
        return QStringLiteral("n \u00D7 d_model = ") + dims(n, d);
    if (id == u"q" || id == u"k" || id == u"v")
        return QStringLiteral("X: ") + dims(n, d) + QStringLiteral(",  W: ") + dims(d, dk) + arrow + dims(n, dk);
    if (id == u"scores" || id == u"scaled" || id == u"masked_scores")
        return QStringLiteral("Q_h: ") + dims(n, dk) + QStringLiteral(",  K_h\u1D40: ") + dims(dk, n) + arrow + dims(n, n);
    if (id == u"mask" || id == u"weights")
        return dims(n, n) + Stages::tr(",  rows = queries, columns = keys");
    if (id == u"head_output")
        return QStringLiteral("A_h: ") + dims(n, n) + QStringLiteral(",  V_h: ") + dims(n, dk) + arrow + dims(n, dk);
    if (id == u"concat")
        return Stages::tr("%1 heads \u00D7 ").arg(h) + dims(n, dk) + arrow + dims(n, h * dk);
    if (id == u"output")
        return QStringLiteral("C: ") + dims(n, d) + QStringLiteral(",  W_O: ") + dims(d, d) + arrow + dims(n, d);
    return {};
}

bool isMaskedLanguageModel(const Trace& trace)
{
    return trace.model && trace.model->pretrained && trace.model->spec.architecture == Architecture::EncoderStack;
}

const HfConfig* gatedDecoderConfig(const Seq2SeqModel* model)
{
    if (!model || !model->pretrained)
        return nullptr;
    const HfConfig& c = model->pretrained->config();
    return modelFamily(c.family).layerKind == FamilyLayer::Gated ? &c : nullptr;
}

const HfConfig* gatedDecoderConfig(const Trace& trace)
{
    return gatedDecoderConfig(trace.model.get());
}

/// The stages only a modern decoder's layer has (families/gated.h): the gated FFN's two halves,
/// q/k norms, Gemma 3's norms on the sublayers' outputs.
static QString gatedStepExplanation(const QString& id)
{
    if (id == u"ffn_gate")
        return Stages::tr("A gated feed-forward network (SwiGLU) has two linear layers side by side: this one, through SiLU, "
                          "decides how much of each feature of the other passes.");
    if (id == u"ffn_up")
        return Stages::tr("The second of the two side-by-side layers: the values the gate lets through, feature by feature.");
    if (id == u"q_norm" || id == u"k_norm")
        return Stages::tr("Qwen3 normalises each head's queries and keys on their own (an RMSNorm over d_k) before RoPE turns "
                          "them, which keeps the scores from growing large.");
    if (id == u"attn_post_norm")
        return Stages::tr("Gemma 3 normalises the attention's output (an RMSNorm) before adding it to the layer's input, so "
                          "that no sublayer's output outgrows the residual stream.");
    if (id == u"ffn_post_norm")
        return Stages::tr("Gemma 3 normalises the feed-forward network's output (an RMSNorm) before adding it to the residual stream.");
    return {};
}

QString stepExplanation(const QString& id, PositionalEncoding pe)
{
    if (const QString e = positionStepExplanation(id, pe); !e.isEmpty())
        return e; // a position scheme's own stage
    if (id == u"attn_residual" || id == u"cross_residual" || id == u"ffn_residual")
        return Stages::tr("The residual connection adds the sublayer's output to its input: the token keeps what it had and gradients flow straight through.");
    if (id == u"attn_norm" || id == u"cross_norm" || id == u"ffn_norm")
        return Stages::tr("LayerNorm rescales each token's vector to mean 0 and variance 1 over its d_model features, then applies \u03B3 and \u03B2.");
    if (id == u"ffn_hidden")
        return Stages::tr("The feed-forward network widens every token to d_ff features and applies the non-linearity, each token on its own.");
    if (id == u"ffn_output")
        return Stages::tr("The second linear layer brings the d_ff features back to d_model.");
    if (const QString e = gatedStepExplanation(id); !e.isEmpty())
        return e;
    if (id == u"layer_output")
        return Stages::tr("What this layer hands to the next one.");
    if (id == u"encoder_output")
        return Stages::tr("The encoder's output, the memory: every decoder layer's cross-attention reads its keys and values from it.");
    if (id == u"decoder_output")
        return Stages::tr("The decoder's output: one vector per target position, ready to be turned into a word.");
    if (id == u"logits")
        return Stages::tr("A linear layer scores every word of the vocabulary for the next position.");
    if (id == u"segment_embedding")
        return Stages::tr("BERT reads one or two sentences: every token also looks up the vector of its segment (A or B).");
    if (id == u"embedding_sum")
        return Stages::tr("BERT adds the token, segment and position embeddings; a LayerNorm then makes the layers' input X.");
    if (id == u"rollout")
        return Stages::tr("Attention rollout multiplies the layers' head-averaged weights, each mixed half and half with the identity for the residual path: row i estimates how much each input token flows into token i's last layer. An estimate, not an explanation.");
    if (id == u"mlm_transform")
        return Stages::tr("The masked-LM head transforms each output vector once more before scoring the vocabulary: at a [MASK] it guesses the hidden word.");
    if (id == u"probabilities")
        return Stages::tr("Softmax turns each row of logits into next-token probabilities; greedy decoding takes the largest.");
    if (id == u"tokens")
        return Stages::tr("The sentence is cut into tokens: words and punctuation, one token per Chinese character.");
    if (id == u"embedding")
        return Stages::tr("Each token looks up its own vector in an embedding table: the same word always gets the same vector.");
    if (id == u"positional_encoding" && pe == PositionalEncoding::Learned)
        return Stages::tr("Attention itself ignores order, so each position looks up a vector of its own in a position table "
                          "learned with the model, as BERT does (here seeded: random until trained).");
    if (id == u"positional_encoding" && pe == PositionalEncoding::None)
        return Stages::tr("No positional encoding: attention sees the tokens as a set \u2014 reorder them and every output is only "
                          "reordered.");
    if (id == u"positional_encoding" && actsInsideAttention(pe))
        return Stages::tr("Nothing is added to the embeddings here: this scheme puts position inside attention, into q and k or "
                          "into the scores, where only the distance between two tokens counts.");
    if (id == u"positional_encoding")
        return Stages::tr("Attention itself ignores order, so each position gets a pattern of sines and cosines of different frequencies.");
    if (id == u"input")
        return Stages::tr("The input of attention is the embedding plus the position: what the word is and where it stands.");
    if (id == u"q")
        return Stages::tr("A query says what a token is looking for.");
    if (id == u"k")
        return Stages::tr("A key says what a token offers, to be matched against the queries.");
    if (id == u"v")
        return Stages::tr("A value is what a token hands over when it is attended to.");
    if (id == u"scores")
        return Stages::tr("Every query is compared with every key by a dot product: large means a good match.");
    if (id == u"scaled")
        return Stages::tr("Dot products grow with d_k; dividing by √d_k keeps their spread near 1 so the softmax does not saturate.");
    if (id == u"mask")
        return Stages::tr("The mask hides keys a query may not see: future tokens (causal) or <pad> tokens (padding). \u2212\u221E becomes exactly 0 after the softmax.");
    if (id == u"masked_scores")
        return Stages::tr("Adding the mask turns hidden scores into \u2212\u221E.");
    if (id == u"weights")
        return Stages::tr("Softmax turns each row of scores into probabilities: every row sums to 1.");
    if (id == u"head_output")
        return Stages::tr("Each token's output is the weighted sum of the values, with the attention weights as weights.");
    if (id == u"concat")
        return Stages::tr("The heads' outputs are placed side by side: each head contributes d_k columns.");
    if (id == u"output")
        return Stages::tr("A last projection W_O mixes the heads back into one d_model-wide vector per token.");
    return {};
}

} // namespace attnlab
