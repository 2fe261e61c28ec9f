#include "core/config.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace attnlab {

namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<PositionalEncoding, 3> kPositionalNames{{
    {PositionalEncoding::Sinusoidal, "sinusoidal"},
    {PositionalEncoding::Learned, "learned"},
    {PositionalEncoding::None, "none"},
}};

constexpr NameTable<MaskKind, 5> kMaskNames{{
    {MaskKind::None, "none"},
    {MaskKind::Causal, "causal"},
    {MaskKind::Padding, "padding"},
    {MaskKind::CausalPadding, "causal+padding"},
    {MaskKind::Custom, "custom"},
}};

constexpr NameTable<WeightsPreset, 2> kPresetNames{{
    {WeightsPreset::Seeded, "seeded"},
    {WeightsPreset::Identity, "identity"},
}};

constexpr NameTable<NormPlacement, 2> kNormNames{{
    {NormPlacement::Post, "post"},
    {NormPlacement::Pre, "pre"},
}};

constexpr NameTable<Activation, 2> kActivationNames{{
    {Activation::Relu, "relu"},
    {Activation::Gelu, "gelu"},
}};

constexpr NameTable<ModelKind, 4> kModelNames{{
    {ModelKind::None, "none"},
    {ModelKind::Seeded, "seeded"},
    {ModelKind::Reversal, "reversal"},
    {ModelKind::File, "file"},
}};

template <typename Enum, std::size_t N>
std::string_view nameOf(const NameTable<Enum, N>& table, Enum value)
{
    for (const auto& [e, name] : table) {
        if (e == value)
            return name;
    }
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const NameTable<Enum, N>& table, std::string_view name)
{
    for (const auto& [e, n] : table) {
        if (n == name)
            return e;
    }
    return std::nullopt;
}

std::string str(long long v)
{
    return std::to_string(v);
}

/// "0", "-1", "1e-05", "nan": a float as people write it.
std::string shortNumber(float v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
}

} // namespace

std::string_view toString(PositionalEncoding v) { return nameOf(kPositionalNames, v); }
std::string_view toString(MaskKind v) { return nameOf(kMaskNames, v); }
std::string_view toString(WeightsPreset v) { return nameOf(kPresetNames, v); }

std::string_view toString(NormPlacement v) { return nameOf(kNormNames, v); }
std::string_view toString(Activation v) { return nameOf(kActivationNames, v); }
std::string_view toString(ModelKind v) { return nameOf(kModelNames, v); }

std::optional<NormPlacement> parseNormPlacement(std::string_view s) { return valueOf(kNormNames, s); }
std::optional<Activation> parseActivation(std::string_view s) { return valueOf(kActivationNames, s); }
std::optional<ModelKind> parseModelKind(std::string_view s) { return valueOf(kModelNames, s); }
std::optional<PositionalEncoding> parsePositionalEncoding(std::string_view s) { return valueOf(kPositionalNames, s); }
std::optional<MaskKind> parseMaskKind(std::string_view s) { return valueOf(kMaskNames, s); }
std::optional<WeightsPreset> parseWeightsPreset(std::string_view s) { return valueOf(kPresetNames, s); }

std::vector<std::string> Config::problems() const
{
    std::vector<std::string> out;
    if (dModel < 1 || dModel > ConfigLimits::maxDModel)
        out.push_back("d_model (" + str(dModel) + ") must be between 1 and " + str(ConfigLimits::maxDModel));
    if (heads < 1 || heads > ConfigLimits::maxHeads)
        out.push_back("heads (" + str(heads) + ") must be between 1 and " + str(ConfigLimits::maxHeads));
    else if (dModel >= 1 && dModel % heads != 0)
        out.push_back("d_model (" + str(dModel) + ") must be a multiple of heads (" + str(heads) + ")");
    if (maxTokens < 1 || maxTokens > ConfigLimits::maxTokens)
        out.push_back("max_tokens (" + str(maxTokens) + ") must be between 1 and " + str(ConfigLimits::maxTokens));
    if (padTo < 0)
        out.push_back("pad_to (" + str(padTo) + ") must be 0 (no padding) or a positive length");
    else if (padTo > maxTokens && maxTokens >= 1)
        out.push_back("pad_to (" + str(padTo) + ") must not exceed max_tokens (" + str(maxTokens) + ")");
    if (layers < 1 || layers > ConfigLimits::maxLayers)
        out.push_back("layers (" + str(layers) + ") must be between 1 and " + str(ConfigLimits::maxLayers));
    if (!(layerNormEps > 0) || !std::isfinite(layerNormEps))
        out.push_back("layer_norm_eps (" + shortNumber(layerNormEps) + ") must be a positive number");
    if (dFF < 0 || dFF > ConfigLimits::maxDFF)
        out.push_back("d_ff (" + str(dFF) + ") must be 0 (4·d_model) or between 1 and " + str(ConfigLimits::maxDFF));
    return out;
}

void Config::validate() const
{
    const auto p = problems();
    if (!p.empty())
        throw std::invalid_argument(p.front());
}

} // namespace attnlab
