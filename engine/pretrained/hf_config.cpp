#include "pretrained/hf_config.h"

#include "io/safetensors.h"
#include "text/printable.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnlab {

namespace {

using Json = nlohmann::json;

class ConfigReader {
public:
    ConfigReader(const Json& json, std::string name)
        : m_json(json)
        , m_name(std::move(name))
    {
    }

    [[noreturn]] void fail(const std::string& key, const std::string& why) const
    {
        throw FormatError(m_name + ": " + key + " " + why);
    }

    const Json& require(const std::string& key) const
    {
        const auto it = m_json.find(key);
        if (it == m_json.end())
            throw FormatError(m_name + ": " + key + " is missing");
        return *it;
    }

    int integer(const std::string& key, int lo, int hi) const { return integerValue(key, require(key), lo, hi); }

    int integerValue(const std::string& key, const Json& v, int lo, int hi) const
    {
        if (!v.is_number_integer())
            fail(key, "must be a whole number, not " + shortJson(v));
        const auto x = v.get<long long>();
        if (x < lo || x > hi)
            fail(key, "is " + std::to_string(x) + " but Attention Lab opens " + std::to_string(lo) + " to " + std::to_string(hi));
        return static_cast<int>(x);
    }

    float positive(const std::string& key) const
    {
        const Json& v = require(key);
        if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()) || v.get<double>() > 1)
            fail(key, "must be a small positive number, not " + shortJson(v));
        return static_cast<float>(v.get<double>());
    }

    std::string string(const std::string& key) const
    {
        const Json& v = require(key);
        if (!v.is_string())
            fail(key, "must be a string, not " + shortJson(v));
        return v.get<std::string>();
    }

    /// A key that, when present, must hold `expected` (a feature Attention Lab does not compute).
    void expect(const std::string& key, const Json& expected, const std::string& why) const
    {
        const auto it = m_json.find(key);
        if (it != m_json.end() && !it->is_null() && *it != expected)
            fail(key, "is " + shortJson(*it) + ": " + why);
    }

    const Json* find(const std::string& key) const
    {
        const auto it = m_json.find(key);
        return it == m_json.end() || it->is_null() ? nullptr : &*it;
    }

    static std::string shortJson(const Json& v)
    {
        std::string s = v.dump();
        return s.size() > 40 ? s.substr(0, 40) + "…" : s;
    }

private:
    const Json& m_json;
    std::string m_name;
};

Activation parseHfActivation(const ConfigReader& r, const std::string& key)
{
    const std::string a = r.string(key);
    if (a == "gelu_new" || a == "gelu_pytorch_tanh" || a == "gelu_fast")
        return Activation::GeluTanh;
    if (a == "gelu")
        return Activation::Gelu;
    if (a == "relu")
        return Activation::Relu;
    r.fail(key, "is " + inQuotes(a) + " but Attention Lab computes gelu_new, gelu and relu");
}

void readGpt2(const ConfigReader& r, HfConfig& c)
{
    using L = PretrainedLimits;
    c.dModel = r.integer("n_embd", 1, L::maxDModel);
    c.heads = r.integer("n_head", 1, L::maxHeads);
    c.layers = r.integer("n_layer", 1, L::maxLayers);
    c.positions = r.integer("n_positions", 1, L::maxPositions);
    c.vocabulary = r.integer("vocab_size", 1, L::maxVocabulary);
    c.layerNormEps = r.positive("layer_norm_epsilon");
    c.activation = parseHfActivation(r, "activation_function");
    c.dFF = 4 * c.dModel;
    if (const Json* inner = r.find("n_inner"))
        c.dFF = r.integerValue("n_inner", *inner, 1, ConfigLimits::maxDFF);
    if (const Json* eos = r.find("eos_token_id"))
        c.eosTokenId = r.integerValue("eos_token_id", *eos, 0, c.vocabulary - 1);
    r.expect("scale_attn_weights", true, "Attention Lab always divides the scores by √d_k");
    r.expect("scale_attn_by_inverse_layer_idx", false, "Attention Lab does not scale the scores by layer");
    r.expect("reorder_and_upcast_attn", false, "Attention Lab computes the scores in float32 as they are");
}

void readBert(const ConfigReader& r, HfConfig& c)
{
    using L = PretrainedLimits;
    c.dModel = r.integer("hidden_size", 1, L::maxDModel);
    c.heads = r.integer("num_attention_heads", 1, L::maxHeads);
    c.layers = r.integer("num_hidden_layers", 1, L::maxLayers);
    c.dFF = r.integer("intermediate_size", 1, ConfigLimits::maxDFF);
    c.positions = r.integer("max_position_embeddings", 1, L::maxPositions);
    c.typeVocabulary = r.integer("type_vocab_size", 1, 16);
    c.vocabulary = r.integer("vocab_size", 1, L::maxVocabulary);
    c.layerNormEps = r.positive("layer_norm_eps");
    c.activation = parseHfActivation(r, "hidden_act");
    r.expect("position_embedding_type", "absolute", "Attention Lab computes absolute position embeddings");
    r.expect("is_decoder", false, "Attention Lab opens BERT as an encoder");
}

} // namespace

std::string_view toString(PretrainedFamily family)
{
    return family == PretrainedFamily::Gpt2 ? "gpt2" : "bert";
}

HfConfig parseHfConfig(std::string_view text, const std::string& name)
{
    Json json;
    try {
        json = Json::parse(text);
    } catch (const Json::exception& e) {
        throw FormatError(name + " is not valid JSON: " + e.what());
    }
    if (!json.is_object())
        throw FormatError(name + " is not a JSON object");
    const ConfigReader r(json, name);
    const std::string type = r.string("model_type");
    HfConfig c;
    if (type == "gpt2") {
        c.family = PretrainedFamily::Gpt2;
        readGpt2(r, c);
    } else if (type == "bert") {
        c.family = PretrainedFamily::Bert;
        readBert(r, c);
    } else {
        r.fail("model_type", "is " + inQuotes(type.substr(0, 40)) + " but Attention Lab opens gpt2 and bert");
    }
    if (c.dModel % c.heads != 0) {
        const bool gpt2 = c.family == PretrainedFamily::Gpt2;
        throw FormatError(name + ": " + (gpt2 ? "n_embd (" : "hidden_size (") + std::to_string(c.dModel) + ") must be a multiple of "
                          + (gpt2 ? "n_head (" : "num_attention_heads (") + std::to_string(c.heads) + ")");
    }
    return c;
}

ModelSpec pretrainedSpec(const HfConfig& c)
{
    ModelSpec s;
    const bool gpt2 = c.family == PretrainedFamily::Gpt2;
    s.architecture = gpt2 ? Architecture::DecoderOnly : Architecture::EncoderStack;
    s.positional = PositionalEncoding::Learned;
    s.embedScale = false;
    s.dModel = c.dModel;
    s.heads = c.heads;
    s.encoderLayers = gpt2 ? 0 : c.layers;
    s.decoderLayers = gpt2 ? c.layers : 0;
    s.dFF = c.dFF;
    s.norm = gpt2 ? NormPlacement::Pre : NormPlacement::Post;
    s.activation = c.activation;
    s.layerNormEps = c.layerNormEps;
    s.finalNorms = gpt2; // GPT-2's ln_f; BERT's layers end in their own LayerNorm
    s.tokenizer = gpt2 ? ModelTokenizer::Bpe : ModelTokenizer::WordPiece;
    s.maxTargetLength = std::min(c.positions, kMaxTargetLength);
    return s;
}

} // namespace attnlab
