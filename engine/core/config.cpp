#include "core/config.h"

#include "core/name_table.h"

#include <stdexcept>

namespace attnlab {

namespace {

using detail::NameTable;

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

constexpr NameTable<ModelKind, 4> kModelNames{{
    {ModelKind::None, "none"},
    {ModelKind::Seeded, "seeded"},
    {ModelKind::Reversal, "reversal"},
    {ModelKind::File, "file"},
}};

std::string str(long long v)
{
    return std::to_string(v);
}

} // namespace

std::string_view toString(MaskKind v) { return detail::nameOf(kMaskNames, v); }
std::string_view toString(WeightsPreset v) { return detail::nameOf(kPresetNames, v); }
std::string_view toString(ModelKind v) { return detail::nameOf(kModelNames, v); }

std::optional<MaskKind> parseMaskKind(std::string_view s) { return detail::valueOf(kMaskNames, s); }
std::optional<WeightsPreset> parseWeightsPreset(std::string_view s) { return detail::valueOf(kPresetNames, s); }
std::optional<ModelKind> parseModelKind(std::string_view s) { return detail::valueOf(kModelNames, s); }

std::vector<std::string> Config::problems() const
{
    std::vector<std::string> out = ModelSpec::problems();
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
