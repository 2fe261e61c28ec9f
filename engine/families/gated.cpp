// The gated decoders' config.json keys, tensor names and descriptor (families/gated.h); their
// layer and pass are in gated_layer.cpp.

#include "families/gated.h"

#include "core/stage_ids.h"
#include "families/config_reader.h"
#include "families/tensor_names.h"
#include "io/safetensors.h"
#include "position/rope_scaling.h"
#include "pretrained/forward.h"
#include "text/printable.h"

#include <cmath>

namespace attnlab {

namespace {

using Json = ConfigReader::Json;

/// The sizes Attention Lab opens for a gated decoder (Llama 3.2 1B, Qwen3 0.6B, SmolLM2 fit).
struct GatedLimits {
    static constexpr int maxHeadDim = 512;
    static constexpr int maxPositions = 1 << 24; ///< only a bound on the input: RoPE has no table
};

bool flag(const ConfigReader& r, const char* key, bool fallback)
{
    const Json* v = r.find(key);
    if (!v)
        return fallback;
    if (!v->is_boolean())
        r.fail(key, "must be true or false, not " + ConfigReader::shortJson(*v));
    return v->get<bool>();
}

/// A positive finite number under `key` of the object `o` (named `where` in messages).
double positiveNumber(const ConfigReader& r, const std::string& where, const Json& o, const char* key)
{
    const auto it = o.find(key);
    if (it == o.end() || it->is_null())
        r.fail(where, "has no " + std::string(key));
    if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>()))
        r.fail(where, std::string(key) + " must be a positive number, not " + ConfigReader::shortJson(*it));
    return it->get<double>();
}

/// rope_scaling (or rope_parameters): none, linear or llama3; any other type is refused by name.
RopeScaling ropeScaling(const ConfigReader& r, const std::string& where, const Json& s)
{
    if (!s.is_object())
        r.fail(where, "must be an object or null, not " + ConfigReader::shortJson(s));
    const auto type = s.contains("rope_type") ? s.at("rope_type") : s.contains("type") ? s.at("type") : Json("default");
    if (!type.is_string())
        r.fail(where, "rope_type must be a string, not " + ConfigReader::shortJson(type));
    const std::string t = type.get<std::string>();
    RopeScaling out;
    if (t == "default")
        return out;
    if (t == "linear") {
        out.kind = RopeScaling::Linear;
        out.factor = positiveNumber(r, where, s, "factor");
        return out;
    }
    if (t == "llama3") {
        out.kind = RopeScaling::Llama3;
        out.factor = positiveNumber(r, where, s, "factor");
        out.lowFreqFactor = positiveNumber(r, where, s, "low_freq_factor");
        out.highFreqFactor = positiveNumber(r, where, s, "high_freq_factor");
        out.originalPositions = static_cast<int>(positiveNumber(r, where, s, "original_max_position_embeddings"));
        if (!(out.highFreqFactor > out.lowFreqFactor))
            r.fail(where, "high_freq_factor must be greater than low_freq_factor");
        return out;
    }
    r.fail(where, "has rope_type " + inQuotes(t.substr(0, 40)) + " but Attention Lab computes RoPE without scaling, with linear "
                  "and with llama3 scaling only");
}

/// rope_theta and rope_scaling, or the newer rope_parameters object holding both.
void readRope(const ConfigReader& r, HfConfig& c)
{
    if (const Json* p = r.find("rope_parameters")) {
        if (!p->is_object() || p->contains("full_attention") || p->contains("sliding_attention"))
            r.fail("rope_parameters", "must be one object of RoPE settings (per layer type is Gemma 3's, not opened here)");
        c.ropeTheta = p->contains("rope_theta") ? positiveNumber(r, "rope_parameters", *p, "rope_theta") : 10000.0;
        c.ropeScaling = ropeScaling(r, "rope_parameters", *p);
        return;
    }
    if (const Json* t = r.find("rope_theta"))
        c.ropeTheta = positiveNumber(r, "rope_theta", Json{{"rope_theta", *t}}, "rope_theta");
    if (const Json* s = r.find("rope_scaling"))
        c.ropeScaling = ropeScaling(r, "rope_scaling", *s);
}

/// eos_token_id: one id or a list of them (Llama 3's instruction models stop at several).
void readEos(const ConfigReader& r, HfConfig& c)
{
    const Json* eos = r.find("eos_token_id");
    if (!eos)
        return;
    const Json list = eos->is_array() ? *eos : Json::array({*eos});
    for (const Json& id : list)
        c.eosTokenIds.push_back(r.integerValue("eos_token_id", id, 0, c.vocabulary - 1));
    if (!c.eosTokenIds.empty())
        c.eosTokenId = c.eosTokenIds.front();
}

/// An RMSNorm's γ: w as stored, or 1 + w for a family whose norms multiply by (1 + w) (Gemma's
/// `output * (1.0 + self.weight.float())`, in float32 as Hugging Face computes it).
Eigen::VectorXf normGamma(TensorNames& r, const std::string& name, std::int64_t d, const HfConfig& c)
{
    Eigen::VectorXf w = r.vector(name, d);
    if (c.normPlusOne)
        w.array() += 1.0f;
    return w;
}

/// x rounded to `bits` significant bits, ties to even: a float32 as BF16 (8) or F16 (11) holds it
/// (x a normal number of either).
float roundToBits(float x, int bits)
{
    int e = 0;
    const double m = std::frexp(static_cast<double>(x), &e); // x = m·2^e, 0.5 ≤ |m| < 1
    return static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(m, bits)), e - bits));
}

/// Gemma's embedding scale: torch.tensor(hidden_size**0.5) (float32) cast to the embeddings' dtype.
float embeddingScale(int d, const std::string& dtype)
{
    const auto s = static_cast<float>(std::sqrt(static_cast<double>(d)));
    if (dtype == "BF16")
        return roundToBits(s, 8);
    if (dtype == "F16")
        return roundToBits(s, 11);
    return s;
}

/// Layer i's tensors, in the order Hugging Face registers them.
PretrainedLayer readGatedLayer(TensorNames& r, int i, const HfConfig& c)
{
    const std::int64_t d = c.dModel, q = static_cast<std::int64_t>(c.heads) * c.headDim, kv = static_cast<std::int64_t>(c.kvHeads) * c.headDim;
    const std::string p = "layers." + std::to_string(i) + ".";
    PretrainedLayer l;
    l.attention.q = r.linear(p + "self_attn.q_proj", d, q, false, c.qkvBias);
    l.attention.k = r.linear(p + "self_attn.k_proj", d, kv, false, c.qkvBias);
    l.attention.v = r.linear(p + "self_attn.v_proj", d, kv, false, c.qkvBias);
    l.attention.output = r.linear(p + "self_attn.o_proj", q, d, false, c.outputBias);
    if (c.qkNorm) {
        l.qNorm = normGamma(r, p + "self_attn.q_norm.weight", c.headDim, c);
        l.kNorm = normGamma(r, p + "self_attn.k_norm.weight", c.headDim, c);
    }
    l.gate = r.linear(p + "mlp.gate_proj", d, c.dFF, false, c.mlpBias);
    l.up = r.linear(p + "mlp.up_proj", d, c.dFF, false, c.mlpBias);
    l.down = r.linear(p + "mlp.down_proj", c.dFF, d, false, c.mlpBias);
    l.norm1.gamma = normGamma(r, p + "input_layernorm.weight", d, c);
    if (c.sandwichNorms) {
        // Gemma 3: post_attention_layernorm is on the attention's output; pre_feedforward_layernorm
        // is the FFN's input norm.
        l.attentionOutputNorm.gamma = normGamma(r, p + "post_attention_layernorm.weight", d, c);
        l.norm2.gamma = normGamma(r, p + "pre_feedforward_layernorm.weight", d, c);
        l.ffnOutputNorm.gamma = normGamma(r, p + "post_feedforward_layernorm.weight", d, c);
    } else {
        l.norm2.gamma = normGamma(r, p + "post_attention_layernorm.weight", d, c);
    }
    // transformers < 4.31 saved RoPE's inverse frequencies as a buffer: computed here instead.
    r.ignore(p + "self_attn.rotary_emb.inv_freq");
    return l;
}

void readGatedWeights(const HfConfig& c, TensorNames& r, PretrainedWeights& w)
{
    w.tokens = r.table("embed_tokens.weight", c.vocabulary, c.dModel);
    if (c.scaleEmbeddings)
        w.config.embeddingScale = embeddingScale(c.dModel, r.dtype("embed_tokens.weight"));
    for (int i = 0; i < c.layers; ++i)
        w.layers.push_back(readGatedLayer(r, i, c));
    w.finalNorm.gamma = normGamma(r, "norm.weight", c.dModel, c);
    if (c.tiedEmbeddings) {
        r.ignore("lm_head.weight"); // tied: the embeddings are the head, whatever a file kept
        w.head = w.tokens;
    } else {
        w.head = r.table("lm_head.weight", c.vocabulary, c.dModel);
    }
    const std::string title(modelFamily(c.family).title);
    const std::string norms = c.sandwichNorms ? "input_layernorm, post_attention_layernorm, pre_feedforward_layernorm, post_feedforward_layernorm"
                                              : "input_layernorm, post_attention_layernorm";
    r.rejectUnknown("a " + title + " checkpoint holds model.embed_tokens, model.layers.0 … " + std::to_string(c.layers - 1) + " (self_attn.q_proj, k_proj, v_proj, o_proj, "
                    + (c.qkNorm ? "q_norm, k_norm, " : "") + "mlp.gate_proj, up_proj, down_proj, " + norms + "), model.norm and lm_head");
}

} // namespace

const std::vector<std::string>& gatedStageIds()
{
    static const std::vector<std::string> kIds = stageIdsOf(StageGroup::Gated);
    return kIds;
}

ModelTokenizer gatedTokenizer()
{
    return ModelTokenizer::Bpe;
}

std::vector<std::string> gatedTokenizerFiles()
{
    return {"vocab.json", "merges.txt"};
}

void readGatedConfig(const ConfigReader& r, HfConfig& c)
{
    readGatedConfig(r, c, GatedConfigOptions{});
}

void readGatedConfig(const ConfigReader& r, HfConfig& c, const GatedConfigOptions& options)
{
    c.kvHeads = c.heads;
    if (const Json* kv = r.find("num_key_value_heads"))
        c.kvHeads = r.integerValue("num_key_value_heads", *kv, 1, c.heads);
    if (c.heads % c.kvHeads != 0)
        r.fail("num_key_value_heads", "(" + std::to_string(c.kvHeads) + ") must divide num_attention_heads (" + std::to_string(c.heads) + ")");
    if (const Json* hd = r.find("head_dim")) {
        c.headDim = r.integerValue("head_dim", *hd, 2, GatedLimits::maxHeadDim);
    } else if (options.defaultHeadDim > 0) {
        c.headDim = options.defaultHeadDim;
    } else {
        if (c.dModel % c.heads != 0)
            r.fail("hidden_size", "(" + std::to_string(c.dModel) + ") must be a multiple of num_attention_heads ("
                                      + std::to_string(c.heads) + ") when head_dim is not given");
        c.headDim = c.dModel / c.heads;
    }
    if (c.headDim % 2 != 0)
        r.fail("head_dim", "(" + std::to_string(c.headDim) + ") must be even: RoPE turns pairs of features");
    if (options.activation) {
        const std::string act = r.find("hidden_act") ? r.string("hidden_act") : "silu";
        if (act != "silu" && act != "swish")
            r.fail("hidden_act", "is " + inQuotes(act.substr(0, 40)) + " but Attention Lab computes silu for "
                                     + std::string(modelFamily(c.family).title));
    }
    if (options.rope)
        readRope(r, c);
    c.qkvBias = c.outputBias = flag(r, "attention_bias", false);
    c.mlpBias = flag(r, "mlp_bias", false);
    c.tiedEmbeddings = flag(r, "tie_word_embeddings", options.tiedByDefault);
    if (const Json* bos = r.find("bos_token_id"); bos && !bos->is_array())
        c.bosTokenId = r.integerValue("bos_token_id", *bos, 0, c.vocabulary - 1);
    readEos(r, c);
    // What would change the numbers and is not computed: refused by name, never ignored.
    for (const char* key : {"final_logit_softcapping", "attn_logit_softcapping"}) {
        if (r.find(key))
            r.fail(key, "is set: Attention Lab does not compute logit soft-capping");
    }
    if (const Json* p = r.find("partial_rotary_factor"); p && !(p->is_number() && p->get<double>() == 1.0))
        r.fail("partial_rotary_factor", "is " + ConfigReader::shortJson(*p) + ": Attention Lab turns every feature of a head by RoPE");
}

ModelFamily gatedFamily(PretrainedFamily id, std::string_view modelType, std::string_view title,
                        void (*readConfig)(const ConfigReader&, HfConfig&), std::vector<ConfigExpectation> expectations,
                        std::vector<std::string_view> ownStages)
{
    using L = ConfigLimits;
    ownStages.insert(ownStages.begin(), {"ffn_gate", "ffn_up"});
    return ModelFamily{
        .id = id,
        .modelType = modelType,
        .title = title,
        .architecture = Architecture::DecoderOnly,
        .norm = NormPlacement::Pre,
        .finalNorm = true,
        .tokenizer = gatedTokenizer(),
        .tokenizerFiles = gatedTokenizerFiles(),
        .tokenizerJson = true,
        .optionalFiles = {"tokenizer_config.json"},
        .task = FamilyTask::NextToken,
        .tensorPrefix = "model.",
        .config = {.integers = {{"hidden_size", &HfConfig::dModel, 1, L::maxDModel},
                                {"intermediate_size", &HfConfig::dFF, 1, L::maxDFF},
                                {"num_hidden_layers", &HfConfig::layers, 1, L::maxPretrainedLayers},
                                {"num_attention_heads", &HfConfig::heads, 1, L::maxHeads},
                                {"max_position_embeddings", &HfConfig::positions, 1, GatedLimits::maxPositions},
                                {"vocab_size", &HfConfig::vocabulary, 1, PretrainedLimits::maxVocabulary}},
                   .epsilon = "rms_norm_eps",
                   .activation = nullptr, // hidden_act: silu, read by readGatedConfig
                   .expectations = std::move(expectations)},
        .layer = {.layerPrefix = "layers.",
                  .qkv = "",
                  .q = "self_attn.q_proj",
                  .k = "self_attn.k_proj",
                  .v = "self_attn.v_proj",
                  .attentionOutput = "self_attn.o_proj",
                  .attentionModule = "self_attn",
                  .norm1 = "input_layernorm",
                  .norm2 = "post_attention_layernorm",
                  .up = "mlp.up_proj",
                  .down = "mlp.down_proj",
                  .inOut = false},
        .outerStages = {{"embedding", false, false}, {"input", false, false}, {"decoder_output", true, false}},
        .stackOutput = "decoder_output",
        .headInput = "decoder_output",
        .headFormula = "logits = Out·W_headᵀ",
        .headModule = "lm_head",
        .readConfig = readConfig,
        .readWeights = readGatedWeights,
        .pass = detail::gatedPass,
        .layerKind = FamilyLayer::Gated,
        .ownLayerStages = std::move(ownStages),
    };
}

namespace detail {

std::vector<double> gatedInverseFrequencies(const HfConfig& c)
{
    return ropeInverseFrequencies(c.headDim, c.ropeTheta, c.ropeScaling);
}

std::vector<double> gatedInverseFrequencies(const HfConfig& c, int layer)
{
    // Gemma 3's sliding layers turn by rope_local_base_freq, never scaled (rotary_emb_local).
    if (c.slidingWindow(layer) > 0)
        return ropeInverseFrequencies(c.headDim, c.ropeLocalTheta, RopeScaling{});
    return gatedInverseFrequencies(c);
}

RopeScaling readRopeScaling(const ConfigReader& r, const std::string& where, const nlohmann::json& s)
{
    return ropeScaling(r, where, s);
}

double readPositive(const ConfigReader& r, const std::string& where, const nlohmann::json& o, const char* key)
{
    return positiveNumber(r, where, o, key);
}

} // namespace detail

} // namespace attnlab
