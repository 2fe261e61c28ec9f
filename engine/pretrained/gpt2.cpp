#include "pretrained/forward.h"

#include "core/stage_builder.h"
#include "nn/attention.h"

namespace attnlab::detail {

/// Layer i's stages: ln_1, causal self-attention (c_attn's Q | K | V, c_proj), ln_2, MLP.
Eigen::MatrixXf gpt2Layer(const Eigen::MatrixXf& x, const Gpt2Layer& w, int i, const ModelSpec& spec, const BoolMatrix& causal,
                          const Labels& tokens, const Labels& dims, StageList& stages, std::vector<Message>& warnings)
{
    const Block block = Block::DecoderSelf;
    const Eigen::Index d = spec.dModel;
    LayerParts parts;
    parts.modulePrefix = "h." + std::to_string(i) + ".";
    parts.block = block;
    parts.modules = {"ln_1", "ln_2", "mlp.c_fc", "mlp.c_proj"};
    parts.norm1 = &w.ln1;
    parts.norm2 = &w.ln2;
    parts.attention = [&](const Eigen::MatrixXf& input, const StageKey& inputKey) {
        // (n x 3d) = N_1 (n x d) · c_attn (d x 3d) + b: Q, K and V side by side.
        const Eigen::MatrixXf qkv = w.attention.apply(input);
        const AttentionBlockContext c{tokens, tokens, dims, i, block, inputKey, inputKey, parts.modulePrefix + "attn", spec.attention, {}, spec.seed,
                                      spec.positional, spec.positionOptions};
        const Eigen::MatrixXf concat = attentionHeads(qkv.leftCols(d), qkv.middleCols(d, d), qkv.rightCols(d), spec.heads,
                                                      spec.scaleScores, causal, c, stages, warnings);
        // output: O (n x d) = C · c_proj + b.
        Eigen::MatrixXf out = w.projection.apply(concat);
        addAttentionOutput(out, c, stages);
        return out;
    };
    parts.hidden = [&](const Eigen::MatrixXf& in) { return activate(spec.activation, w.fc.apply(in)); };
    parts.output = [&](const Eigen::MatrixXf& h) { return w.fcProjection.apply(h); };
    return layerOfParts(x, parts, spec, tokens, i, stages);
}

void gpt2Pass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary,
              StageList& stages, std::vector<Message>& warnings)
{
    const auto n = static_cast<Eigen::Index>(in.ids.size());
    const Block block = Block::DecoderSelf;
    const Labels& tokens = in.tokens;
    const Labels dims = numberedLabels(spec.dModel);
    reserveMore(stages, 8 + static_cast<std::size_t>(w.gpt2.size()) * (12 + 8 * static_cast<std::size_t>(spec.heads)));

    // embedding (n x d): rows of wte;  positional_encoding (n x d): rows 0 .. n-1 of wpe;  input X = E + P.
    Eigen::MatrixXf e = gatherRows(w.tokens, in.ids);
    Eigen::MatrixXf p = w.positions.map().topRows(n);
    Eigen::MatrixXf x = e + p;
    putMatrix(addStage(stages, {"embedding", std::nullopt, std::nullopt, block}, "Token embeddings", "E = W_te[tokens]", {}, "wte"),
              "E", std::move(e), tokens, dims);
    putMatrix(addStage(stages, {"positional_encoding", std::nullopt, std::nullopt, block}, "Position embeddings",
                       "P = W_pe[0 … n−1]", {}, "wpe"),
              "P", std::move(p), tokens, dims);
    putMatrix(addStage(stages, {"input", std::nullopt, std::nullopt, block}, "Layer input", "X = E + P",
                       {{"embedding", std::nullopt, std::nullopt, block}, {"positional_encoding", std::nullopt, std::nullopt, block}}),
              "X", x, tokens, dims);

    for (std::size_t i = 0; i < w.gpt2.size(); ++i)
        x = pretrainedLayer(w, spec, static_cast<int>(i), x, tokens, stages, warnings);
    addRollout(static_cast<int>(w.gpt2.size()), spec.heads, block, tokens, stages);

    // decoder_output: Out = LN_f(Y_L);  logits = Out · W_teᵀ (the LM head, tied to the token embeddings).
    const StageKey last{"layer_output", std::nullopt, static_cast<int>(w.gpt2.size()) - 1, block};
    const Eigen::MatrixXf out = stackOutput("decoder_output", "Decoder output", "Out", x, last, &w.finalNorm, spec.layerNormEps,
                                            "ln_f", tokens, dims, stages);
    addHeadStages(w, out, tokens, vocabulary, stages);
}

} // namespace attnlab::detail
