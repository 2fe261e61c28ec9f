#include "io/config_json.h"

#include "core/options.h"

#include "text/printable.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace attnlab {

namespace {

[[noreturn]] void wrongType(const char* key)
{
    throw std::invalid_argument(std::string("config: '") + key + "' has the wrong type");
}

[[noreturn]] void outOfRange(const char* key, const nlohmann::json& value)
{
    throw std::invalid_argument(std::string("config: '") + key + "' is " + value.dump() + ", out of range");
}

/// Reads `key` into `out` when it is there. Numbers are checked before they are converted:
/// nlohmann's get<int>() would cut 2.5 to 2, wrap 4294967297 to 1 and leave 1e300 undefined.
template <typename T>
void read(const nlohmann::json& o, const char* key, T& out)
{
    const auto it = o.find(key);
    if (it == o.end())
        return;
    if constexpr (std::is_same_v<T, bool>) {
        if (!it->is_boolean())
            wrongType(key);
        out = it->template get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
        if (!it->is_number_integer())
            wrongType(key);
        if (it->is_number_unsigned()) {
            const auto v = it->template get<std::uint64_t>();
            if (!std::in_range<T>(v))
                outOfRange(key, *it);
            out = static_cast<T>(v);
        } else {
            const auto v = it->template get<std::int64_t>();
            if (!std::in_range<T>(v))
                outOfRange(key, *it);
            out = static_cast<T>(v);
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!it->is_number())
            wrongType(key);
        const double v = it->template get<double>();
        if (!(std::abs(v) <= static_cast<double>(std::numeric_limits<T>::max())))
            outOfRange(key, *it);
        out = static_cast<T>(v);
    } else {
        if (!it->is_string())
            wrongType(key);
        out = it->template get<T>();
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

/// Reads a list of positions (the windowed kinds' global positions).
void readPositions(const nlohmann::json& j, const char* key, std::vector<int>& out)
{
    const auto it = j.find(key);
    if (it == j.end())
        return;
    if (!it->is_array() || it->size() > static_cast<std::size_t>(ConfigLimits::maxTokens))
        wrongType(key);
    out.clear();
    for (const auto& p : *it) {
        if (!p.is_number_integer() || !std::in_range<int>(p.get<std::int64_t>()))
            wrongType(key);
        out.push_back(p.get<int>());
    }
}

/// The settings of the attention kind in use (kinds = true) or of the position scheme in use,
/// under their file names ("window", "proj_dim", "max_distance"; core/options.h).
void writeOptions(const ModelSpec& c, bool kinds, nlohmann::ordered_json& j)
{
    for (const OptionInfo& option : options()) {
        if (isKindOption(option) != kinds || !readsOption(c, option))
            continue;
        visitOption(option, c, [&](const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, int>)
                j[std::string(option.key)] = writtenValue(c, option, v);
            else
                j[std::string(option.key)] = v;
        });
    }
}

/// Reads every kind's options (kinds = true), or every scheme's, whichever kind or scheme is in use.
void readOptions(const nlohmann::json& j, bool kinds, ModelSpec& c)
{
    for (const OptionInfo& option : options()) {
        if (isKindOption(option) != kinds)
            continue;
        const std::string key(option.key);
        visitOption(option, c, [&](auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::vector<int>>) {
                readPositions(j, key.c_str(), v);
            } else {
                read(j, key.c_str(), v);
                // −1 is how the settings say "as many rows as a segment" (the key left out); a
                // file writes the number (xlMemory), never −1.
                if constexpr (std::is_same_v<T, int>) {
                    if (!option.negativeMeans.empty() && j.contains(key) && v < 0)
                        throw std::invalid_argument("config: '" + key + "' is " + std::to_string(v) + ", out of range: 0 to "
                                                    + std::to_string(ConfigLimits::maxTokens) + " rows (left out: as many as a segment)");
                }
            }
        });
    }
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
    writeOptions(c, false, j);
    j["embed_scale"] = c.embedScale;
    j["scale"] = c.scaleScores;
    j["mask"] = toString(c.mask);
    j["pad_to"] = c.padTo > 0 ? nlohmann::ordered_json(c.padTo) : nlohmann::ordered_json(nullptr);
    j["max_tokens"] = c.maxTokens;
    j["weights_preset"] = toString(c.weightsPreset);
    if (c.attention != AttentionKind::Full) {
        j["attention"] = toString(c.attention);
        writeOptions(c, true, j);
    }
    // Written only for a model, so a single attention block's trace stays as it always was.
    if (c.model != ModelKind::None) {
        j["model"] = toString(c.model);
        j["architecture"] = toString(c.architecture);
        // A decoder-only model's layers are its decoder's: "layers" counts them.
        j["layers"] = c.architecture == Architecture::DecoderOnly ? c.decoderLayers : c.encoderLayers;
        if (c.decoderLayers != c.encoderLayers && c.architecture == Architecture::EncoderDecoder)
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
    readOptions(o, false, c);
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
    readOptions(o, true, c);
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
