#include "config.h"

#include <array>
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

} // namespace

std::string_view toString(PositionalEncoding v) { return nameOf(kPositionalNames, v); }
std::string_view toString(MaskKind v) { return nameOf(kMaskNames, v); }
std::string_view toString(WeightsPreset v) { return nameOf(kPresetNames, v); }

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
    return out;
}

void Config::validate() const
{
    const auto p = problems();
    if (!p.empty())
        throw std::invalid_argument(p.front());
}

} // namespace attnlab
