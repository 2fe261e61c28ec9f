#include "core/config.h"

#include "core/messages.h"
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

/// The attention kinds' rules that depend on the run: which models and masks they work with.
void kindProblems(const Config& c, std::vector<Message>& out)
{
    if (c.attention == AttentionKind::Full)
        return;
    const std::string kind(toString(c.attention));
    const bool stack = c.model == ModelKind::Seeded && c.architecture == Architecture::EncoderStack;
    if (c.model != ModelKind::None && !stack) {
        out.push_back(say(coreMessage("kind_model"), kind));
        return;
    }
    // An encoder stack's layers take the run's mask as one block does (src_mask, src_key_padding_mask).
    const bool causal = c.mask == MaskKind::Causal || c.mask == MaskKind::CausalPadding;
    if (c.attention == AttentionKind::Linformer && causal)
        out.push_back(say(coreMessage("linformer_causal")));
    const bool kernel = c.attention == AttentionKind::Linformer || c.attention == AttentionKind::Performer
                        || c.attention == AttentionKind::Linear;
    if (kernel && c.mask == MaskKind::Custom)
        out.push_back(say(coreMessage("kind_custom_mask"), kind));
}

/// RoPE, ALiBi and relative positions act inside the attention blocks this engine builds: one
/// block, a seeded model.
void positionModelProblems(const Config& c, std::vector<Message>& out)
{
    if (actsInsideAttention(c.positional) && c.model != ModelKind::None && c.model != ModelKind::Seeded)
        out.push_back(say(coreMessage("positions_model"), toString(c.positional)));
    if (c.positional == PositionalEncoding::Xl && c.mask == MaskKind::Custom)
        out.push_back(say(coreMessage("xl_custom_mask")));
}

/// Config::problems() as Messages (core/messages.h); the ModelSpec's have no code yet (their English).
std::vector<Message> problemMessages(const Config& c)
{
    std::vector<Message> out;
    for (std::string& p : c.ModelSpec::problems())
        out.push_back(Message{{}, {}, std::move(p)});
    if (c.maxTokens < 1 || c.maxTokens > ConfigLimits::maxTokens)
        out.push_back(say(coreMessage("max_tokens_range"), c.maxTokens, ConfigLimits::maxTokens));
    if (c.padTo < 0)
        out.push_back(say(coreMessage("pad_to_negative"), c.padTo));
    else if (c.padTo > c.maxTokens && c.maxTokens >= 1)
        out.push_back(say(coreMessage("pad_to_max_tokens"), c.padTo, c.maxTokens));
    if (c.model != ModelKind::None && c.mask == MaskKind::Custom)
        out.push_back(say(coreMessage("custom_mask_transformer")));
    kindProblems(c, out);
    positionModelProblems(c, out);
    return out;
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
    return texts(problemMessages(*this));
}

void Config::validate() const
{
    const auto p = problemMessages(*this);
    if (!p.empty())
        throw Error(p.front());
}

} // namespace attnlab
