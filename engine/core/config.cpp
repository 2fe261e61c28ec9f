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

/// The attention kinds' rules that depend on the run: which models and masks they work with.
void kindProblems(const Config& c, std::vector<std::string>& out)
{
    if (c.attention == AttentionKind::Full)
        return;
    const std::string kind(toString(c.attention));
    const bool stack = c.model == ModelKind::Seeded && c.architecture == Architecture::EncoderStack;
    if (c.model != ModelKind::None && !stack) {
        out.push_back(kind + " attention is for one attention block and for seeded encoder stacks; this model uses full attention");
        return;
    }
    // An encoder stack's layers take the run's mask as one block does (src_mask, src_key_padding_mask).
    const bool causal = c.mask == MaskKind::Causal || c.mask == MaskKind::CausalPadding;
    if (c.attention == AttentionKind::Linformer && causal)
        out.push_back("linformer attention cannot use a causal mask: each projected key mixes every position, later ones "
                      "included; use no mask or the padding mask");
    const bool kernel = c.attention == AttentionKind::Linformer || c.attention == AttentionKind::Performer
                        || c.attention == AttentionKind::Linear;
    if (kernel && c.mask == MaskKind::Custom)
        out.push_back(kind + " attention takes no mask, a causal or a padding mask, not a custom one");
}

/// RoPE, ALiBi and relative positions act inside the attention blocks this engine builds: one
/// block, a seeded model.
void positionModelProblems(const Config& c, std::vector<std::string>& out)
{
    if (actsInsideAttention(c.positional) && c.model != ModelKind::None && c.model != ModelKind::Seeded)
        out.push_back(std::string(toString(c.positional))
                      + " positions are for one attention block and for seeded models; a trained model keeps the positions it "
                        "was trained with");
    if (c.positional == PositionalEncoding::Xl && c.mask == MaskKind::Custom)
        out.push_back("xl positions are causal by themselves (each segment sees its memory and the tokens up to itself); "
                      "they take no mask, a causal or a padding mask, not a custom one");
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
    if (model != ModelKind::None && mask == MaskKind::Custom)
        out.push_back("a custom mask is for one attention block; a Transformer takes no mask, a causal or a padding mask");
    kindProblems(*this, out);
    positionModelProblems(*this, out);
    return out;
}

void Config::validate() const
{
    const auto p = problems();
    if (!p.empty())
        throw std::invalid_argument(p.front());
}

} // namespace attnlab
