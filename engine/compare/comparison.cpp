#include "compare/comparison.h"

#include "compare/messages.h"
#include "core/name_table.h"
#include "text/printable.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>
#include <vector>

namespace attnlab {

namespace {

constexpr detail::NameTable<CompareKind, 5> kKindNames{{
    {CompareKind::Sentence, "sentence"},
    {CompareKind::Positional, "pe"},
    {CompareKind::Scaling, "scale"},
    {CompareKind::Mask, "mask"},
    {CompareKind::Seed, "seed"},
}};

std::string_view trimmed(std::string_view s)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (!s.empty() && blank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && blank(s.back()))
        s.remove_suffix(1);
    return s;
}

/// The length of a leading "word=" key (lower-case ASCII letters and '_'), or 0 when `s` does not
/// begin with one.
std::size_t keyLength(std::string_view s)
{
    std::size_t i = 0;
    while (i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
        ++i;
    return i > 0 && i < s.size() && s[i] == '=' ? i : 0;
}

/// Punctuation, as opposed to a word: ASCII punctuation, general punctuation (U+2010–U+205E),
/// CJK symbols and punctuation (U+3000–U+303F) and the full-width forms of ASCII punctuation.
bool isPunctuation(char32_t c)
{
    const bool ascii = (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
    const bool wide = (c >= 0xFF01 && c <= 0xFF0F) || (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40)
        || (c >= 0xFF5B && c <= 0xFF65);
    return ascii || wide || (c >= 0x2010 && c <= 0x205E) || (c >= 0x3000 && c <= 0x303F);
}

/// A token that is a word: not a special token, and not only punctuation.
bool isWord(const std::string& token)
{
    const auto& special = specialTokens();
    if (std::find(special.begin(), special.end(), token) != special.end())
        return false;
    bool invalid = false;
    for (std::size_t pos = 0; pos < token.size();) {
        if (!isPunctuation(utf8::decode(token, pos, invalid)))
            return true;
    }
    return false;
}

bool parseOnOff(std::string_view v)
{
    if (v == "on" || v == "true")
        return true;
    if (v == "off" || v == "false")
        return false;
    throw Error(say(compareMessage("compare_scale"), printable(v)));
}

std::uint64_t parseSeed(std::string_view v)
{
    std::uint64_t seed = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size())
        throw Error(say(compareMessage("compare_seed"), printable(v)));
    return seed;
}

} // namespace

std::string_view toString(CompareKind kind) { return detail::nameOf(kKindNames, kind); }
std::optional<CompareKind> parseCompareKind(std::string_view name) { return detail::valueOf(kKindNames, name); }

Config comparedConfig(const Config& a, const Comparison& b)
{
    Config c = a;
    switch (b.kind) {
    case CompareKind::Sentence:
        break;
    case CompareKind::Positional:
        c.positional = b.positional;
        break;
    case CompareKind::Scaling:
        c.scaleScores = b.scaleScores;
        break;
    case CompareKind::Mask:
        c.mask = b.mask;
        break;
    case CompareKind::Seed:
        c.seed = b.seed;
        break;
    }
    return c;
}

std::string comparedText(const std::string& a, const Comparison& b)
{
    return b.kind == CompareKind::Sentence ? b.sentence : a;
}

Comparison toggled(CompareKind kind, const Config& a, const std::string& text)
{
    Comparison c;
    c.kind = kind;
    c.sentence = swapFirstAndLastWords(text);
    c.positional = a.positional == PositionalEncoding::None ? PositionalEncoding::Sinusoidal : PositionalEncoding::None;
    c.scaleScores = !a.scaleScores;
    c.mask = a.mask == MaskKind::None ? MaskKind::Causal : MaskKind::None;
    c.seed = a.seed == std::numeric_limits<std::uint64_t>::max() ? 0 : a.seed + 1;
    return c;
}

std::string swapFirstAndLastWords(std::string_view text)
{
    // Where each token stands: tokens are pieces of the text in order, white space between them,
    // so each is found from the end of the one before. (Invalid UTF-8 was replaced by U+FFFD in
    // the tokens: then a token is not found and the text stays as it is.)
    const std::vector<std::string> tokens = tokenize(text, ConfigLimits::maxTokens).tokens;
    std::vector<std::size_t> offsets;
    std::size_t cursor = 0;
    for (const auto& t : tokens) {
        const std::size_t at = text.find(t, cursor);
        if (at == std::string_view::npos)
            return std::string(text);
        offsets.push_back(at);
        cursor = at + t.size();
    }
    std::optional<std::size_t> first;
    std::optional<std::size_t> last;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (isWord(tokens[i])) {
            first = first.value_or(i);
            last = i;
        }
    }
    if (!first || *first == *last)
        return std::string(text);
    const std::string& a = tokens[*first];
    const std::string& b = tokens[*last];
    const std::size_t aEnd = offsets[*first] + a.size();
    std::string out(text.substr(0, offsets[*first]));
    out += b;
    out += text.substr(aEnd, offsets[*last] - aEnd);
    out += a;
    out += text.substr(offsets[*last] + b.size());
    return out;
}

std::string toString(const Comparison& c)
{
    switch (c.kind) {
    case CompareKind::Sentence:
        return keyLength(c.sentence) > 0 ? "sentence=" + c.sentence : c.sentence;
    case CompareKind::Positional:
        return "pe=" + std::string(toString(c.positional));
    case CompareKind::Scaling:
        return std::string("scale=") + (c.scaleScores ? "on" : "off");
    case CompareKind::Mask:
        return "mask=" + std::string(toString(c.mask));
    case CompareKind::Seed:
        return "seed=" + std::to_string(c.seed);
    }
    return c.sentence;
}

Comparison parseComparison(std::string_view text)
{
    text = trimmed(text);
    Comparison c;
    const std::size_t key = keyLength(text);
    const std::string_view value = key > 0 ? trimmed(text.substr(key + 1)) : text;
    const std::optional<CompareKind> kind = key > 0 ? parseCompareKind(text.substr(0, key)) : CompareKind::Sentence;
    if (!kind)
        throw Error(say(compareMessage("compare_unknown"), printable(text.substr(0, key))));
    c.kind = *kind;
    switch (c.kind) {
    case CompareKind::Sentence:
        if (tokenize(value, ConfigLimits::maxTokens).tokens.empty())
            throw Error(messages::compareNoTokens());
        c.sentence = std::string(value);
        break;
    case CompareKind::Positional:
        if (const auto pe = parsePositionalEncoding(value))
            c.positional = *pe;
        else
            throw Error(say(compareMessage("compare_pe"), printable(value)));
        break;
    case CompareKind::Scaling:
        c.scaleScores = parseOnOff(value);
        break;
    case CompareKind::Mask:
        if (const auto m = parseMaskKind(value); m && *m != MaskKind::Custom)
            c.mask = *m;
        else
            throw Error(say(compareMessage("compare_mask"), printable(value)));
        break;
    case CompareKind::Seed:
        c.seed = parseSeed(value);
        break;
    }
    return c;
}

std::optional<Message> comparisonProblem(const Config& a, const Comparison& b)
{
    if (b.kind == CompareKind::Mask && a.model != ModelKind::None)
        return messages::compareMaskWithModel();
    if (b.kind == CompareKind::Sentence && tokenize(b.sentence, ConfigLimits::maxTokens).tokens.empty())
        return messages::compareNoTokens();
    return std::nullopt;
}

} // namespace attnlab
