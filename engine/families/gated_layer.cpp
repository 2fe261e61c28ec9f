// A gated decoder's layer and pass (families/gated.h), from the typed blocks of nn/blocks.h:
// RMSNorm, grouped-query attention with half-split RoPE (and Qwen3's q/k norms), SwiGLU.

#include "families/gated.h"

#include "core/stage_builder.h"
#include "nn/blocks.h"
#include "nn/mask.h"
#include "pretrained/forward.h"

#include <cmath>
#include <sstream>

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

/// "· γ_1", or "· (1 + w_1)" for the norms that store w (Gemma).
std::string gammaText(const HfConfig& c, const char* index)
{
    return c.normPlusOne ? std::string("· (1 + w_") + index + ")" : std::string("· γ_") + index;
}

/// A number in a formula: "256", "0.5".
std::string numberText(double v)
{
    std::ostringstream out;
    out << v;
    return out.str();
}

/// Causal, and under a sliding window W also hiding every key more than W − 1 positions back:
/// query i sees keys i − W < j ≤ i (transformers' sliding_window_overlay, kv_idx > q_idx − W,
/// and causal_mask_function, kv_idx ≤ q_idx).
BoolMatrix layerMask(Eigen::Index n, int window)
{
    BoolMatrix blocked = causalMask(n);
    if (window > 0) {
        for (Eigen::Index i = 0; i < n; ++i) {
            for (Eigen::Index j = 0; j <= i - window; ++j)
                blocked(i, j) = true;
        }
    }
    return blocked;
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
    const int window = c.slidingWindow(i);

    // attn_norm: N_1 (n x d) = RMSNorm(X)·γ_1, the input of self-attention.
    const Eigen::MatrixXf n1 = rmsStage(x, l.norm1, eps, key("attn_norm"), "RMS norm before attention",
                                        "N_1 = X / √(mean(X²) + ε) " + gammaText(c, "1"), in, prefix + "input_layernorm", "N_1", tokens, stages);
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
    shape.ropeInverseFrequencies = gatedInverseFrequencies(c, i);
    AttentionBlockContext context{tokens, tokens, numberedLabels(c.dModel), i, kBlock, key("attn_norm"), key("attn_norm"),
                                  prefix + "self_attn", spec.attention, {}, spec.seed, PositionalEncoding::Sinusoidal,
                                  spec.positionOptions};
    if (c.queryPreAttnScalar > 0.0 && c.queryPreAttnScalar != static_cast<double>(c.headDim)) {
        // Gemma: S'_h = S_h · query_pre_attn_scalar^−½ (its scaling, not head_dim's; the same
        // when they are equal, as in gemma-3-270m, which then runs with every attention kind).
        context.scoreScale = static_cast<float>(1.0 / std::sqrt(c.queryPreAttnScalar));
        context.scaleFormula = "S'_h = S_h / √" + numberText(c.queryPreAttnScalar) + "  (query_pre_attn_scalar)";
    }
    if (window > 0)
        context.maskFormula = "M_ij = 0 if 0 ≤ i − j < " + std::to_string(window) + ", else −∞  (a sliding window of " + std::to_string(window) + " keys)";
    const Eigen::MatrixXf o = groupedAttention(n1, aw, shape, spec.scaleScores, layerMask(x.rows(), window), context, stages, warnings);
    // attn_post_norm (Gemma): P_1 = RMSNorm(O)·(1 + w), the attention's output normalised before the residual add.
    const bool sandwich = c.sandwichNorms;
    const Eigen::MatrixXf attended = sandwich ? rmsStage(o, l.attentionOutputNorm, eps, key("attn_post_norm"), "RMS norm of the attention output",
                                                         "P_1 = O / √(mean(O²) + ε) " + gammaText(c, "p1"), key("output"),
                                                         prefix + "post_attention_layernorm", "P_1", tokens, stages)
                                              : o;
    // attn_residual: R_1 = X + O (Gemma: X + P_1).
    const Eigen::MatrixXf r1 = sumStage(x, attended, key("attn_residual"), "Residual: input + attention", sandwich ? "R_1 = X + P_1" : "R_1 = X + O",
                                        {in, key(sandwich ? "attn_post_norm" : "output")}, "R_1", tokens, stages);
    // ffn_norm: N_2 = RMSNorm(R_1)·γ_2.
    const Eigen::MatrixXf n2 = rmsStage(r1, l.norm2, eps, key("ffn_norm"), "RMS norm before feed-forward",
                                        "N_2 = R_1 / √(mean(R_1²) + ε) " + gammaText(c, "2"), key("attn_residual"),
                                        prefix + (sandwich ? "pre_feedforward_layernorm" : "post_attention_layernorm"), "N_2", tokens, stages);
    // ffn_gate, ffn_up, ffn_hidden = SiLU(G) ⊙ U (SwiGLU) or GELU_tanh(G) ⊙ U (GeGLU), ffn_output.
    const BlockPlace place{i, kBlock, tokens, prefix};
    const FfnActivation act = c.gegluTanh ? ffnActivation(Activation::GeluTanh) : siluActivation();
    const Eigen::MatrixXf f = feedForwardBlock(n2, FfnKind{FfnKind::Gated, act}, projection(l.gate), projection(l.up), projection(l.down),
                                               key("ffn_norm"), "N_2", {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"}, place, stages);
    // ffn_post_norm (Gemma): P_2 = RMSNorm(F)·(1 + w), before the residual add.
    const Eigen::MatrixXf fed = sandwich ? rmsStage(f, l.ffnOutputNorm, eps, key("ffn_post_norm"), "RMS norm of the feed-forward output",
                                                    "P_2 = F / √(mean(F²) + ε) " + gammaText(c, "p2"), key("ffn_output"),
                                                    prefix + "post_feedforward_layernorm", "P_2", tokens, stages)
                                         : f;
    // ffn_residual: R_2 = R_1 + F (Gemma: R_1 + P_2), the layer's output.
    Eigen::MatrixXf r2 = sumStage(r1, fed, key("ffn_residual"), "Residual: + feed-forward", sandwich ? "R_2 = R_1 + P_2" : "R_2 = R_1 + F",
                                  {key("attn_residual"), key(sandwich ? "ffn_post_norm" : "ffn_output")}, "R_2", tokens, stages);
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
    reserveMore(stages, 6 + w.layers.size() * (18 + 12 * static_cast<std::size_t>(c.heads)));

    // embedding (n x d): rows of embed_tokens; input X = E (no positions are added: RoPE turns q and k),
    // Gemma's E·√d (√d in the embeddings' dtype, as Hugging Face rounds it).
    Eigen::MatrixXf x = gatherRows(w.tokens, in.ids);
    putMatrix(addStage(stages, key("embedding"), "Token embeddings", "E = W_emb[tokens]", {}, "model.embed_tokens"), "E", x, tokens, dims);
    std::string inputFormula = "X = E";
    if (c.scaleEmbeddings) {
        x *= c.embeddingScale;
        inputFormula = "X = E·√d  (√" + std::to_string(c.dModel) + " ≈ " + numberText(c.embeddingScale) + ")";
    }
    putMatrix(addStage(stages, key("input"), "Layer input", inputFormula, {key("embedding")}), "X", x, tokens, dims);

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
