#include "attention_options.h"

#include "options.h"

#include "text/printable.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace attnlab::cli {

namespace {

/// The kinds each option is read by.
const std::map<std::string, std::vector<AttentionKind>>& optionKinds()
{
    using K = AttentionKind;
    static const std::map<std::string, std::vector<AttentionKind>> kKinds{
        {"--window", {K::SlidingWindow, K::BigBird}}, {"--dilation", {K::SlidingWindow, K::BigBird}},
        {"--global", {K::SlidingWindow, K::BigBird}}, {"--random", {K::BigBird}},
        {"--stride", {K::Strided}},                   {"--proj-dim", {K::Linformer}},
        {"--features", {K::Performer}},               {"--buckets", {K::Lsh}},
        {"--chunk", {K::Lsh}},                        {"--query-block", {K::Flash}},
        {"--key-block", {K::Flash}},
    };
    return kKinds;
}

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
    if (a == "--rope-base") {
        g.ropeBase = parseNumberOption(a, value()); // a double, as the setting
        return true;
    }
    if (a == "--max-distance" || a == "--segment" || a == "--memory") {
        std::optional<int>& target = a == "--max-distance" ? g.maxDistance : a == "--segment" ? g.segment : g.memory;
        target = parseIntOption(a, value());
        // −1 is how the settings say "as many rows as a segment": the command line leaves --memory out for that.
        if (a == "--memory" && *target < 0)
            throw UsageError("--memory (" + std::to_string(*target) + ") must be between 0 and "
                             + std::to_string(ConfigLimits::maxTokens) + " rows; leave --memory out for M = L (as many rows as a segment)");
        return true;
    }
    if (optionKinds().count(a) == 0)
        return false;
    AttentionOptions& o = g.options;
    if (a == "--global")
        o.global = parsePositions(a, value());
    else {
        const int v = parseIntOption(a, value());
        int* targets[] = {&o.window, &o.dilation, &o.random, &o.stride, &o.projDim, &o.features, &o.buckets, &o.chunk, &o.queryBlock, &o.keyBlock};
        const char* names[] = {"--window", "--dilation", "--random", "--stride", "--proj-dim", "--features", "--buckets", "--chunk", "--query-block", "--key-block"};
        for (std::size_t i = 0; i < std::size(names); ++i) {
            if (a == names[i])
                *targets[i] = v;
        }
    }
    g.given.push_back(a);
    return true;
}

void applyAttentionOptions(const AttentionGiven& g, ModelSpec& spec)
{
    const AttentionKind kind = g.kind.value_or(AttentionKind::Full);
    for (const auto& option : g.given) {
        const auto& kinds = optionKinds().at(option);
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
            continue;
        std::string names;
        for (const AttentionKind k : kinds)
            names += (names.empty() ? "" : " and ") + std::string(toString(k));
        throw UsageError(option + " applies to --attention " + names + ", not " + std::string(toString(kind)));
    }
    spec.attention = kind;
    spec.attentionOptions = g.options;
    if (g.ropeBase && spec.positional != PositionalEncoding::Rope)
        throw UsageError("--rope-base applies to --pe rope, not " + std::string(toString(spec.positional)) + " positions");
    if (g.ropeBase)
        spec.positionOptions.ropeBase = *g.ropeBase;
    // Each scheme's settings, refused with another scheme.
    const std::pair<const std::optional<int>*, PositionalEncoding> owners[] = {
        {&g.maxDistance, PositionalEncoding::Relative}, {&g.segment, PositionalEncoding::Xl}, {&g.memory, PositionalEncoding::Xl}};
    const char* names[] = {"--max-distance", "--segment", "--memory"};
    for (std::size_t i = 0; i < std::size(owners); ++i) {
        if (*owners[i].first && spec.positional != owners[i].second)
            throw UsageError(std::string(names[i]) + " applies to --pe " + std::string(toString(owners[i].second)) + ", not "
                             + std::string(toString(spec.positional)) + " positions");
    }
    PositionOptions& p = spec.positionOptions;
    p.maxDistance = g.maxDistance.value_or(p.maxDistance);
    p.segment = g.segment.value_or(p.segment);
    p.memory = g.memory.value_or(p.memory);
}

} // namespace attnlab::cli
