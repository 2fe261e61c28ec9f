// Gemma 3's text model (model_type "gemma3_text": gemma-3-270m, gemma-3-1b): the gated decoder of
// families/gated.h with what Hugging Face's modeling_gemma3.py changes:
//   X = E·√d, √d cast to the embeddings' dtype (Gemma3TextScaledWordEmbedding)
//   every RMSNorm multiplies by (1 + w), in float32 (Gemma3RMSNorm)
//   four norms per layer: R_1 = X + RMSNorm(Attn(RMSNorm(X)))  (input_layernorm, post_attention_layernorm)
//                         Y = R_1 + RMSNorm(FFN(RMSNorm(R_1))) (pre_feedforward_layernorm, post_feedforward_layernorm)
//   q_norm and k_norm as Qwen3's; scores · query_pre_attn_scalar^−½
//   GeGLU: down(gelu_pytorch_tanh(gate(x)) ⊙ up(x))
//   layer_types: sliding_attention (keys i − sliding_window < j ≤ i; RoPE base rope_local_base_freq,
//   no scaling) or full_attention (rope_theta, rope_scaling); without layer_types every
//   sliding_window_pattern-th layer is full (configuration_gemma3.py)
// Logit soft-capping (attn_logit_softcapping, final_logit_softcapping) is refused by name.

#include "families/gated.h"

#include "families/config_reader.h"
#include "text/printable.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnlab {

namespace {

using Json = ConfigReader::Json;

/// Hugging Face's Gemma3TextConfig defaults for the keys a config may leave out.
struct GemmaDefaults {
    static constexpr double ropeTheta = 1'000'000.0;
    static constexpr double ropeLocalTheta = 10'000.0;
    static constexpr double queryPreAttnScalar = 256.0;
    static constexpr int slidingWindow = 4096;
    static constexpr int slidingWindowPattern = 6;
    static constexpr int headDim = 256;
};

/// layer_types, or the types sliding_window_pattern gives (layer i is full when (i + 1) is a
/// multiple of it): true for a sliding layer.
std::vector<bool> slidingLayers(const ConfigReader& r, int layers)
{
    std::vector<bool> sliding;
    if (const Json* types = r.find("layer_types")) {
        if (!types->is_array())
            r.fail("layer_types", "must be a list of 'sliding_attention' and 'full_attention', not " + ConfigReader::shortJson(*types));
        if (types->size() != static_cast<std::size_t>(layers))
            r.fail("layer_types", "has " + std::to_string(types->size()) + " entries but num_hidden_layers is " + std::to_string(layers));
        for (const Json& t : *types) {
            const std::string s = t.is_string() ? t.get<std::string>() : ConfigReader::shortJson(t);
            if (s != "sliding_attention" && s != "full_attention")
                r.fail("layer_types", "holds " + inQuotes(s.substr(0, 40)) + " but Attention Lab computes 'sliding_attention' and 'full_attention' layers");
            sliding.push_back(s == "sliding_attention");
        }
        return sliding;
    }
    int pattern = GemmaDefaults::slidingWindowPattern;
    if (const Json* p = r.find("sliding_window_pattern"))
        pattern = r.integerValue("sliding_window_pattern", *p, 1, 1 << 20);
    for (int i = 0; i < layers; ++i)
        sliding.push_back((i + 1) % pattern != 0);
    return sliding;
}

/// rope_theta, rope_local_base_freq and rope_scaling (the global layers'), or the newer
/// rope_parameters holding one object per layer type.
void readRope(const ConfigReader& r, HfConfig& c)
{
    c.ropeTheta = GemmaDefaults::ropeTheta;
    c.ropeLocalTheta = GemmaDefaults::ropeLocalTheta;
    if (const Json* p = r.find("rope_parameters")) {
        if (!p->is_object() || !p->contains("full_attention") || !p->contains("sliding_attention"))
            r.fail("rope_parameters", "must hold one object per layer type, full_attention and sliding_attention");
        const Json& full = p->at("full_attention");
        const Json& local = p->at("sliding_attention");
        c.ropeScaling = detail::readRopeScaling(r, "rope_parameters.full_attention", full);
        if (full.contains("rope_theta"))
            c.ropeTheta = detail::readPositive(r, "rope_parameters.full_attention", full, "rope_theta");
        if (detail::readRopeScaling(r, "rope_parameters.sliding_attention", local).kind != RopeScaling::None)
            r.fail("rope_parameters.sliding_attention", "is scaled but Gemma 3's sliding layers turn by the plain RoPE");
        if (local.contains("rope_theta"))
            c.ropeLocalTheta = detail::readPositive(r, "rope_parameters.sliding_attention", local, "rope_theta");
        return;
    }
    if (const Json* t = r.find("rope_theta"))
        c.ropeTheta = detail::readPositive(r, "rope_theta", Json{{"rope_theta", *t}}, "rope_theta");
    if (const Json* t = r.find("rope_local_base_freq"))
        c.ropeLocalTheta = detail::readPositive(r, "rope_local_base_freq", Json{{"rope_local_base_freq", *t}}, "rope_local_base_freq");
    if (const Json* s = r.find("rope_scaling"))
        c.ropeScaling = detail::readRopeScaling(r, "rope_scaling", *s);
}

void readConfig(const ConfigReader& r, HfConfig& c)
{
    readGatedConfig(r, c, GatedConfigOptions{.activation = false, .rope = false, .tiedByDefault = true, .defaultHeadDim = GemmaDefaults::headDim});
    c.qkNorm = true;
    c.scaleEmbeddings = true;
    c.normPlusOne = true;
    c.sandwichNorms = true;
    // hidden_activation (Gemma 3 does not read hidden_act): the tanh GELU of GeGLU.
    const std::string act = r.find("hidden_activation") ? r.string("hidden_activation") : "gelu_pytorch_tanh";
    if (act != "gelu_pytorch_tanh")
        r.fail("hidden_activation", "is " + inQuotes(act.substr(0, 40)) + " but Attention Lab computes gelu_pytorch_tanh for Gemma 3");
    c.gegluTanh = true;
    c.queryPreAttnScalar = GemmaDefaults::queryPreAttnScalar;
    if (const Json* q = r.find("query_pre_attn_scalar"))
        c.queryPreAttnScalar = detail::readPositive(r, "query_pre_attn_scalar", Json{{"query_pre_attn_scalar", *q}}, "query_pre_attn_scalar");
    const std::vector<bool> sliding = slidingLayers(r, c.layers);
    int window = GemmaDefaults::slidingWindow;
    if (r.find("sliding_window"))
        window = r.integer("sliding_window", 1, 1 << 24);
    c.slidingWindows.clear();
    for (const bool s : sliding)
        c.slidingWindows.push_back(s ? window : 0);
    readRope(r, c);
}

} // namespace

// use_bidirectional_attention (EmbeddingGemma) would let every token see the later ones.
extern const ModelFamily kGemma3Family = gatedFamily(
    PretrainedFamily::Gemma3, "gemma3_text", "Gemma 3", readConfig,
    {{"use_bidirectional_attention", "false", "Attention Lab computes Gemma 3's causal attention only"}},
    {"q_norm", "k_norm", "attn_post_norm", "ffn_post_norm"});

} // namespace attnlab
