#include "attention_options.h"

#include "options.h"

#include "core/options.h"
#include "text/printable.h"

#include <algorithm>
#include <sstream>
#include <type_traits>

namespace attnlab::cli {

namespace {

std::vector<int> parsePositions(const std::string& option, const std::string& value)
{
    std::vector<int> out;
    std::stringstream in(value);
    std::string item;
    while (std::getline(in, item, ','))
        out.push_back(parseIntOption(option, item));
    if (out.empty())
        throw UsageError(option + " expects positions separated by commas, like 0,5");
    return out;
}

/// Copies the option's value from `from` to `to`.
void copyOption(const OptionInfo& option, const ModelSpec& from, ModelSpec& to)
{
    visitOption(option, from, [&](const auto& value) {
        visitOption(option, to, [&](auto& target) {
            if constexpr (std::is_same_v<std::decay_t<decltype(target)>, std::decay_t<decltype(value)>>)
                target = value;
        });
    });
}

} // namespace

bool readAttentionOption(const std::string& a, const std::function<const std::string&()>& value, AttentionGiven& g)
{
    if (a == "--attention") {
        const std::string& v = value();
        g.kind = parseAttentionKind(v);
        if (!g.kind)
            throw UsageError("--attention must be full|sliding-window|bigbird|strided|linformer|performer|linear|lsh|flash, got "
                             + inQuotes(v));
        return true;
    }
    const OptionInfo* option = optionByFlag(a);
    if (!option)
        return false;
    visitOption(*option, g.values, [&](auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int>>) {
            v = parsePositions(a, value());
        } else if constexpr (std::is_same_v<T, double>) {
            v = parseNumberOption(a, value());
        } else {
            v = parseIntOption(a, value());
            // −1 is how the settings say "as many rows as a segment": the command line leaves --memory out for that.
            if (!option->negativeMeans.empty() && v < 0)
                throw UsageError(a + " (" + std::to_string(v) + ") must be between 0 and " + std::to_string(ConfigLimits::maxTokens)
                                 + " rows; leave " + a + " out for M = L (as many rows as a segment)");
        }
    });
    g.given.push_back(a);
    return true;
}

void applyAttentionOptions(const AttentionGiven& g, ModelSpec& spec)
{
    const AttentionKind kind = g.kind.value_or(AttentionKind::Full);
    for (const auto& flag : g.given) {
        const OptionInfo& option = *optionByFlag(flag);
        if (!isKindOption(option) || std::find(option.kinds.begin(), option.kinds.end(), kind) != option.kinds.end())
            continue;
        std::string names;
        for (const AttentionKind k : option.kinds)
            names += (names.empty() ? "" : " and ") + std::string(toString(k));
        throw UsageError(flag + " applies to --attention " + names + ", not " + std::string(toString(kind)));
    }
    spec.attention = kind;
    spec.attentionOptions = g.values.attentionOptions;
    // Each scheme's settings, refused with another scheme.
    for (const OptionInfo& option : options()) {
        if (isKindOption(option) || std::find(g.given.begin(), g.given.end(), option.flag) == g.given.end())
            continue;
        if (spec.positional != *option.scheme)
            throw UsageError(std::string(option.flag) + " applies to --pe " + std::string(toString(*option.scheme)) + ", not "
                             + std::string(toString(spec.positional)) + " positions");
        copyOption(option, g.values, spec);
    }
}

} // namespace attnlab::cli
