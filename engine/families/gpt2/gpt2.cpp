// GPT-2 (model_type "gpt2"): decoder-only, Pre-LN, learned positions, byte-level BPE.
//
//   X = W_te[ids] + W_pe[0..n)                      embedding, positional_encoding, input
//   Pre-LN layers h.{i}, causal self-attention       families/layer.cpp
//   Out = LN_f(Y_L);  logits = Out·W_teᵀ             decoder_output, logits, probabilities

#include "families/family.h"

#include "core/stage_builder.h"
#include "families/config_reader.h"
#include "families/tensor_names.h"
#include "pretrained/forward.h"

namespace attnlab {

namespace {

using L = PretrainedLimits;

/// n_inner (null: 4·n_embd) and eos_token_id, both optional.
void readConfig(const ConfigReader& r, HfConfig& c)
{
    c.dFF = 4 * c.dModel;
    if (const auto* inner = r.find("n_inner"))
        c.dFF = r.integerValue("n_inner", *inner, 1, ConfigLimits::maxDFF);
    if (const auto* eos = r.find("eos_token_id"))
        c.eosTokenId = r.integerValue("eos_token_id", *eos, 0, c.vocabulary - 1);
}

void readWeights(const HfConfig& c, TensorNames& r, PretrainedWeights& w)
{
    const ModelFamily& f = modelFamily(PretrainedFamily::Gpt2);
    w.tokens = r.table("wte.weight", c.vocabulary, c.dModel);
    w.positions = r.table("wpe.weight", c.positions, c.dModel);
    for (int i = 0; i < c.layers; ++i) {
        w.layers.push_back(readLayer(r, f.layer, i, c, f.norm));
        // The causal mask and the masked value, kept as buffers by older versions.
        r.ignore("h." + std::to_string(i) + ".attn.bias");
        r.ignore("h." + std::to_string(i) + ".attn.masked_bias");
    }
    w.finalNorm = r.norm("ln_f", c.dModel);
    // The LM head: lm_head.weight when the file has it, else wte (tied).
    w.head = r.has("lm_head.weight") ? r.table("lm_head.weight", c.vocabulary, c.dModel) : w.tokens;
    r.rejectUnknown("a GPT-2 checkpoint holds wte, wpe, h.0 … h." + std::to_string(c.layers - 1)
                    + " (ln_1, attn.c_attn, attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj), ln_f and lm_head");
}

void pass(const PretrainedWeights& w, const ModelSpec& spec, const PretrainedInput& in, const Labels& vocabulary, StageList& stages,
          std::vector<Message>& warnings)
{
    using namespace detail;
    const auto n = static_cast<Eigen::Index>(in.ids.size());
    const Block block = Block::DecoderSelf;
    const Labels& tokens = in.tokens;
    const Labels dims = numberedLabels(spec.dModel);
    const auto key = [&](const char* id) { return StageKey{id, std::nullopt, std::nullopt, block}; };
    reserveMore(stages, 8 + static_cast<std::size_t>(w.layers.size()) * (12 + 8 * static_cast<std::size_t>(spec.heads)));

    // embedding (n x d): rows of wte;  positional_encoding (n x d): rows 0 .. n-1 of wpe;  input X = E + P.
    Eigen::MatrixXf e = gatherRows(w.tokens, in.ids);
    Eigen::MatrixXf p = w.positions.map().topRows(n);
    Eigen::MatrixXf x = e + p;
    putMatrix(addStage(stages, key("embedding"), "Token embeddings", "E = W_te[tokens]", {}, "wte"), "E", std::move(e), tokens, dims);
    putMatrix(addStage(stages, key("positional_encoding"), "Position embeddings", "P = W_pe[0 … n−1]", {}, "wpe"), "P", std::move(p),
              tokens, dims);
    putMatrix(addStage(stages, key("input"), "Layer input", "X = E + P", {key("embedding"), key("positional_encoding")}), "X", x, tokens,
              dims);

    const int layers = static_cast<int>(w.layers.size());
    for (int i = 0; i < layers; ++i)
        x = pretrainedLayer(w, spec, i, x, tokens, stages, warnings);
    addRollout(layers, spec.heads, block, tokens, stages);

    // decoder_output: Out = LN_f(Y_L);  logits = Out · W_teᵀ (the LM head, tied to the token embeddings).
    const StageKey last{"layer_output", std::nullopt, layers - 1, block};
    const Eigen::MatrixXf out = stackOutput("decoder_output", "Decoder output", "Out", x, last, &w.finalNorm, spec.layerNormEps, "ln_f",
                                            tokens, dims, stages);
    addHeadStages(w, out, tokens, vocabulary, stages);
}

} // namespace

extern const ModelFamily kGpt2Family{
    .id = PretrainedFamily::Gpt2,
    .modelType = "gpt2",
    .title = "GPT-2",
    .architecture = Architecture::DecoderOnly,
    .norm = NormPlacement::Pre,
    .finalNorm = true,
    .tokenizer = ModelTokenizer::Bpe,
    .tokenizerFiles = {"vocab.json", "merges.txt"},
    .task = FamilyTask::NextToken,
    .tensorPrefix = "transformer.",
    .config = {.integers = {{"n_embd", &HfConfig::dModel, 1, L::maxDModel},
                            {"n_head", &HfConfig::heads, 1, L::maxHeads},
                            {"n_layer", &HfConfig::layers, 1, L::maxLayers},
                            {"n_positions", &HfConfig::positions, 1, L::maxPositions},
                            {"vocab_size", &HfConfig::vocabulary, 1, L::maxVocabulary}},
               .epsilon = "layer_norm_epsilon",
               .activation = "activation_function",
               .expectations = {{"scale_attn_weights", "true", "Attention Lab always divides the scores by √d_k"},
                                {"scale_attn_by_inverse_layer_idx", "false", "Attention Lab does not scale the scores by layer"},
                                {"reorder_and_upcast_attn", "false", "Attention Lab computes the scores in float32 as they are"}}},
    .layer = {.layerPrefix = "h.",
              .qkv = "attn.c_attn",
              .q = "",
              .k = "",
              .v = "",
              .attentionOutput = "attn.c_proj",
              .attentionModule = "attn",
              .norm1 = "ln_1",
              .norm2 = "ln_2",
              .up = "mlp.c_fc",
              .down = "mlp.c_proj",
              .inOut = true},
    .outerStages = {{"embedding", false, false},
                    {"positional_encoding", false, false},
                    {"input", false, false},
                    {"decoder_output", true, false}},
    .stackOutput = "decoder_output",
    .headInput = "decoder_output",
    .headFormula = "logits = Out·W_teᵀ",
    .headModule = "lm_head",
    .readConfig = readConfig,
    .readWeights = readWeights,
    .pass = pass,
};

} // namespace attnlab
