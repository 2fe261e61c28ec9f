#include "io/config_json.h"

#include "text/printable.h"

#include <stdexcept>

namespace attnlab {

namespace {

template <typename T>
void read(const nlohmann::json& o, const char* key, T& out)
{
    const auto it = o.find(key);
    if (it == o.end())
        return;
    try {
        out = it->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(std::string("config: '") + key + "' has the wrong type");
    }
}

template <typename Enum, typename Parse>
void readEnum(const nlohmann::json& o, const char* key, Enum& out, Parse parse)
{
    std::string name;
    if (!o.contains(key))
        return;
    read(o, key, name);
    const auto v = parse(name);
    if (!v)
        throw std::invalid_argument(std::string("config: '") + key + "' has the unknown value " + inQuotes(name));
    out = *v;
}

} // namespace

nlohmann::ordered_json configToJson(const Config& c)
{
    nlohmann::ordered_json j;
    j["d_model"] = c.dModel;
    j["heads"] = c.heads;
    j["d_k"] = c.dK();
    j["seed"] = c.seed;
    j["pe"] = toString(c.positional);
    j["embed_scale"] = c.embedScale;
    j["scale"] = c.scaleScores;
    j["mask"] = toString(c.mask);
    j["pad_to"] = c.padTo > 0 ? nlohmann::ordered_json(c.padTo) : nlohmann::ordered_json(nullptr);
    j["max_tokens"] = c.maxTokens;
    j["weights_preset"] = toString(c.weightsPreset);
    if (c.attention != AttentionKind::Full)
        j["attention"] = toString(c.attention);
    // Written only for a model, so a single attention block's trace stays as it always was.
    if (c.model != ModelKind::None) {
        j["model"] = toString(c.model);
        j["architecture"] = toString(c.architecture);
        j["layers"] = c.encoderLayers;
        if (c.decoderLayers != c.encoderLayers && c.architecture != Architecture::EncoderStack)
            j["decoder_layers"] = c.decoderLayers;
        j["d_ff"] = c.feedForwardWidth();
        j["norm"] = toString(c.norm);
        j["activation"] = toString(c.activation);
        j["layer_norm_eps"] = c.layerNormEps;
    }
    return j;
}

Config configFromJson(const nlohmann::json& o)
{
    if (!o.is_object())
        throw std::invalid_argument("config: not a JSON object");
    Config c;
    read(o, "d_model", c.dModel);
    read(o, "heads", c.heads);
    read(o, "seed", c.seed);
    readEnum(o, "pe", c.positional, parsePositionalEncoding);
    read(o, "embed_scale", c.embedScale);
    read(o, "scale", c.scaleScores);
    readEnum(o, "mask", c.mask, parseMaskKind);
    if (o.contains("pad_to") && o.at("pad_to").is_null())
        c.padTo = 0;
    else
        read(o, "pad_to", c.padTo);
    read(o, "max_tokens", c.maxTokens);
    readEnum(o, "weights_preset", c.weightsPreset, parseWeightsPreset);
    readEnum(o, "model", c.model, parseModelKind);
    readEnum(o, "attention", c.attention, parseAttentionKind);
    readEnum(o, "architecture", c.architecture, parseArchitecture);
    int layers = c.encoderLayers;
    read(o, "layers", layers);
    c.setLayers(layers);
    read(o, "decoder_layers", c.decoderLayers);
    read(o, "d_ff", c.dFF);
    readEnum(o, "norm", c.norm, parseNormPlacement);
    readEnum(o, "activation", c.activation, parseActivation);
    read(o, "layer_norm_eps", c.layerNormEps);
    return c;
}

} // namespace attnlab
