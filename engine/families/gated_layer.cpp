// A gated decoder's layer and pass (families/gated.h), from the typed blocks of nn/blocks.h:
// RMSNorm, grouped-query attention with half-split RoPE (and Qwen3's q/k norms), SwiGLU.

#include "families/gated.h"

#include "core/stage_builder.h"
#include "nn/blocks.h"
#include "nn/mask.h"
#include "pretrained/forward.h"

namespace attnlab::detail {

namespace {

constexpr Block kBlock = Block::DecoderSelf;

/// An RMSNorm stage: N = X / √(mean(X²) + ε) · γ, with the mean square of each row.
Eigen::MatrixXf rmsStage(const Eigen::MatrixXf& x, const LayerNormWeights& w, float eps, const StageKey& key, const char* title,
                         const std::string& formula, const StageKey& input, const std::string& module, const char* name,
                         const Labels& tokens, StageList& stages)
{
    NormResult r = normalize(x, w, NormKind::RmsNorm, eps);
    Stage& s = addStage(stages, key, title, formula, {input}, module);
    putMatrix(s, name, r.output, tokens, numberedLabels(static_cast<int>(x.cols())));
    putNormStatistics(s, r, tokens);
    return std::move(r.output);
}

/// A residual sum stage.
Eigen::MatrixXf sumStage(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, const StageKey& key, const char* title, const char* formula,
                         std::vector<StageKey> inputs, const char* name, const Labels& tokens, StageList& stages)
{
    Eigen::MatrixXf r = a + b;
    putMatrix(addStage(stages, key, title, formula, std::move(inputs)), name, r, tokens, numberedLabels(static_cast<int>(r.cols())));
    return r;
}

Projection projection(const LinearLayer& l)
{
    return [&l](const Eigen::MatrixXf& x) { return l.apply(x); };
}

} // namespace

Eigen::MatrixXf gatedLayer(const PretrainedWeights& w, int i, const Eigen::MatrixXf& x, const Labels& tokens, StageList& stages,
                           std::vector<Message>& warnings, const ModelSpec& spec)
{
    const HfConfig& c = w.config;
    const PretrainedLayer& l = w.layers.at(static_cast<std::size_t>(i));
    const std::string prefix = "model.layers." + std::to_string(i) + ".";
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, i, kBlock}; };
    const StageKey in = i == 0 ? StageKey{"input", std::nullopt, std::nullopt, kBlock} : StageKey{"layer_output", std::nullopt, i - 1, kBlock};
    const float eps = c.layerNormEps;

    // attn_norm: N_1 (n x d) = RMSNorm(X)·γ_1, the input of self-attention.
    const Eigen::MatrixXf n1 = rmsStage(x, l.norm1, eps, key("attn_norm"), "RMS norm before attention", "N_1 = X / √(mean(X²) + ε) · γ_1",
                                        in, prefix + "input_layernorm", "N_1", tokens, stages);
    // q, k, v … output: grouped-query attention, RoPE in the half-split layout, causal.
    AttentionBlockWeights aw{projection(l.attention.q), projection(l.attention.k), projection(l.attention.v), projection(l.attention.output),
                             {l.qNorm, {}}, {l.kNorm, {}}};
    AttentionShape shape;
    shape.heads = c.heads;
    shape.kvHeads = c.kvHeads;
    shape.headDim = c.headDim;
    if (c.qkNorm)
        shape.qkNorm = NormKind::RmsNorm;
    shape.normEps = eps;
    shape.rope = RopeLayout::HalfSplit;
    shape.ropeInverseFrequencies = gatedInverseFrequencies(c);
    const AttentionBlockContext context{tokens, tokens, numberedLabels(c.dModel), i, kBlock, key("attn_norm"), key("attn_norm"),
                                        prefix + "self_attn", spec.attention, {}, spec.seed, PositionalEncoding::Sinusoidal,
                                        spec.positionOptions};
    const Eigen::MatrixXf o = groupedAttention(n1, aw, shape, spec.scaleScores, causalMask(x.rows()), context, stages, warnings);
    // attn_residual: R_1 = X + O.
    const Eigen::MatrixXf r1 = sumStage(x, o, key("attn_residual"), "Residual: input + attention", "R_1 = X + O", {in, key("output")}, "R_1",
                                        tokens, stages);
    // ffn_norm: N_2 = RMSNorm(R_1)·γ_2.
    const Eigen::MatrixXf n2 = rmsStage(r1, l.norm2, eps, key("ffn_norm"), "RMS norm before feed-forward",
                                        "N_2 = R_1 / √(mean(R_1²) + ε) · γ_2", key("attn_residual"), prefix + "post_attention_layernorm",
                                        "N_2", tokens, stages);
    // ffn_gate, ffn_up, ffn_hidden = SiLU(G) ⊙ U, ffn_output (SwiGLU).
    const BlockPlace place{i, kBlock, tokens, prefix};
    const Eigen::MatrixXf f = feedForwardBlock(n2, FfnKind{FfnKind::Gated, siluActivation()}, projection(l.gate), projection(l.up),
                                               projection(l.down), key("ffn_norm"), "N_2", {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"},
                                               place, stages);
    // ffn_residual: R_2 = R_1 + F, the layer's output.
    Eigen::MatrixXf r2 = sumStage(r1, f, key("ffn_residual"), "Residual: + feed-forward", "R_2 = R_1 + F",
                                  {key("attn_residual"), key("ffn_output")}, "R_2", tokens, stages);
    putMatrix(addStage(stages, key("layer_output"), "Layer output", "Y = R_2", {key("ffn_residual")}), "Y", r2, tokens,
              numberedLabels(c.dModel));
    return r2;
}

void gatedPass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary, StageList& stages,
               std::vector<Message>& warnings)
{
    const HfConfig& c = w.config;
    const Labels& tokens = in.tokens;
    const Labels dims = numberedLabels(c.dModel);
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, std::nullopt, kBlock}; };
    reserveMore(stages, 6 + w.layers.size() * (16 + 12 * static_cast<std::size_t>(c.heads)));

    // embedding (n x d): rows of embed_tokens; input X = E (no positions are added: RoPE turns q and k).
    Eigen::MatrixXf x = gatherRows(w.tokens, in.ids);
    putMatrix(addStage(stages, key("embedding"), "Token embeddings", "E = W_emb[tokens]", {}, "model.embed_tokens"), "E", x, tokens, dims);
    putMatrix(addStage(stages, key("input"), "Layer input", "X = E", {key("embedding")}), "X", x, tokens, dims);

    const int layers = static_cast<int>(w.layers.size());
    for (int i = 0; i < layers; ++i)
        x = gatedLayer(w, i, x, tokens, stages, warnings, spec);
    addRollout(layers, c.heads, kBlock, tokens, stages);

    // decoder_output: Out = RMSNorm(Y_L)·γ (model.norm);  logits = Out · W_headᵀ.
    const Eigen::MatrixXf out = rmsStage(x, w.finalNorm, c.layerNormEps, StageKey{"decoder_output"}, "Decoder output",
                                         "Out = RMSNorm(output of the last layer)", StageKey{"layer_output", std::nullopt, layers - 1, kBlock},
                                         "model.norm", "Out", tokens, stages);
    addHeadStages(w, out, tokens, vocabulary, stages);
}

} // namespace attnlab::detail
