#include "pretrained/forward.h"

#include "core/stage_builder.h"
#include "nn/attention.h"

namespace attnlab::detail {

/// Layer i's stages: self-attention (query, key, value, attention.output.dense), Add & Norm,
/// intermediate.dense with GELU, output.dense, Add & Norm (Post-LN).
Eigen::MatrixXf bertLayer(const Eigen::MatrixXf& x, const BertLayer& w, int i, const ModelSpec& spec, const BoolMatrix& blocked,
                          const Labels& tokens, const Labels& dims, StageList& stages, std::vector<Message>& warnings)
{
    const Block block = Block::EncoderSelf;
    LayerParts parts;
    parts.modulePrefix = "encoder.layer." + std::to_string(i) + ".";
    parts.block = block;
    parts.modules = {"attention.output.LayerNorm", "output.LayerNorm", "intermediate.dense", "output.dense"};
    parts.norm1 = &w.attentionNorm;
    parts.norm2 = &w.outputNorm;
    parts.attention = [&](const Eigen::MatrixXf& input, const StageKey& inputKey) {
        // Q, K, V (n x d) = X · W_*ᵀ + b_*, three nn.Linear layers.
        const Eigen::MatrixXf q = w.query.apply(input);
        const Eigen::MatrixXf k = w.key.apply(input);
        const Eigen::MatrixXf v = w.value.apply(input);
        const AttentionBlockContext c{tokens, tokens, dims, i, block, inputKey, inputKey, parts.modulePrefix + "attention.self",
                                      spec.attention, {}, spec.seed, spec.positional, spec.positionOptions};
        const Eigen::MatrixXf concat = attentionHeads(q, k, v, spec.heads, spec.scaleScores, blocked, c, stages, warnings);
        // output: O (n x d) = C · W_Oᵀ + b_O (attention.output.dense).
        Eigen::MatrixXf out = w.attentionOutput.apply(concat);
        addAttentionOutput(out, c, stages);
        return out;
    };
    parts.hidden = [&](const Eigen::MatrixXf& in) { return activate(spec.activation, w.intermediate.apply(in)); };
    parts.output = [&](const Eigen::MatrixXf& h) { return w.output.apply(h); };
    return layerOfParts(x, parts, spec, tokens, i, stages);
}

void bertPass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary,
              StageList& stages, std::vector<Message>& warnings)
{
    const auto n = static_cast<Eigen::Index>(in.ids.size());
    const Block block = Block::EncoderSelf;
    const Labels& tokens = in.tokens;
    const Labels dims = numberedLabels(spec.dModel);
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, std::nullopt, block}; };
    reserveMore(stages, 10 + static_cast<std::size_t>(w.bert.size()) * (12 + 8 * static_cast<std::size_t>(spec.heads)));

    // embedding, positional_encoding, segment_embedding (n x d each): rows of the three tables.
    const std::vector<int> segments = in.segments.empty() ? std::vector<int>(in.ids.size(), 0) : in.segments;
    Eigen::MatrixXf e = gatherRows(w.tokens, in.ids);
    Eigen::MatrixXf p = w.positions.map().topRows(n);
    Eigen::MatrixXf s = gatherRows(w.tokenTypes, segments);
    // embedding_sum: S = E + P + T, in that order (as BERT adds them);  input: X = LN(S).
    Eigen::MatrixXf sum = e + s;
    sum += p;
    LayerNormResult x = layerNorm(sum, w.embeddingNorm, spec.layerNormEps);
    putMatrix(addStage(stages, key("embedding"), "Token embeddings", "E = W_word[tokens]", {}, "embeddings.word_embeddings"), "E",
              std::move(e), tokens, dims);
    putMatrix(addStage(stages, key("positional_encoding"), "Position embeddings", "P = W_pos[0 … n−1]", {},
                       "embeddings.position_embeddings"),
              "P", std::move(p), tokens, dims);
    putMatrix(addStage(stages, key("segment_embedding"), "Segment embeddings", "T = W_type[segments]", {},
                       "embeddings.token_type_embeddings"),
              "T", std::move(s), tokens, dims);
    putMatrix(addStage(stages, key("embedding_sum"), "Sum of the embeddings", "S = E + P + T",
                       {key("embedding"), key("positional_encoding"), key("segment_embedding")}),
              "S", sum, tokens, dims);
    Stage& input = addStage(stages, key("input"), "Layer input", "X = LN(S)", {key("embedding_sum")}, "embeddings.LayerNorm");
    putMatrix(input, "X", x.output, tokens, dims);
    putNormStatistics(input, x.mean, x.variance, tokens);

    Eigen::MatrixXf h = std::move(x.output);
    for (std::size_t i = 0; i < w.bert.size(); ++i)
        h = pretrainedLayer(w, spec, static_cast<int>(i), h, tokens, stages, warnings);
    addRollout(static_cast<int>(w.bert.size()), spec.heads, block, tokens, stages);

    // encoder_output: the last layer's output (BERT has no final norm).
    const StageKey last{"layer_output", std::nullopt, static_cast<int>(w.bert.size()) - 1, block};
    const Eigen::MatrixXf out = stackOutput("encoder_output", "Encoder output", "Mem", h, last, nullptr, spec.layerNormEps, {},
                                            tokens, dims, stages);
    if (!w.mlm)
        return;
    // mlm_transform: T (n x d) = LN(act(Mem·W_tᵀ + b_t));  logits = T·W_wordᵀ + b (the decoder, tied).
    const MlmHead& head = *w.mlm;
    const LayerNormResult t = layerNorm(activate(spec.activation, head.transform.apply(out)), head.norm, spec.layerNormEps);
    Stage& transform = addStage(stages, {"mlm_transform"}, "Masked-LM transform",
                                std::string("T = LN(") + activationName(spec.activation) + "(Mem·W_tᵀ + b_t))", {{"encoder_output"}},
                                "cls.predictions.transform");
    putMatrix(transform, "T", t.output, tokens, dims);
    putNormStatistics(transform, t.mean, t.variance, tokens);
    addHeadStages(w, t.output, tokens, vocabulary, stages);
}

} // namespace attnlab::detail
