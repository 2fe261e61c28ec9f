#include "text/hf_steps.h"

#include "text/hf_text.h"
#include "text/subword.h"
#include "text/unicode.h"
#include "text/utf8.h"

#include <array>
#include <memory>

namespace attnlab::hf {

namespace {

using nlohmann::json;
using unicode::Regex;

// ---------------------------------------------------------------------------------------------
// Patterns

/// Character classes as `tokenizers` tests them (Rust's char methods), one character per match.
constexpr std::string_view kWhiteSpace = R"(\p{White_Space})";                            // char::is_whitespace
constexpr std::string_view kNumeric = R"(\p{N})";                                         // char::is_numeric
constexpr std::string_view kPunctuation = R"([\p{P}\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E])"; // is_ascii_punctuation || P*
/// Rust regex's \w (Alphabetic, M, Nd, Pc, Join_Control) and the Whitespace pre-tokenizer's \w+|[^\w\s]+.
constexpr std::string_view kWord = R"(\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control})";

} // namespace

/// `text` as a PCRE2 pattern that matches it literally (regex::escape in `tokenizers`).
std::string escaped(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        const bool plain = b >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!plain)
            out += '\\';
        out += c;
    }
    return out;
}

/// A tokenizer.json regex for PCRE2: as written, except \s and \S, which name White_Space (what
/// Oniguruma's \s matches; PCRE2's own \s also takes U+180E).
static std::string onigurumaPattern(std::string_view pattern)
{
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[++i];
            if (next == 's')
                out += R"(\p{White_Space})";
            else if (next == 'S')
                out += R"(\P{White_Space})";
            else
                out += '\\', out += next;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

static Regex compile(const std::string& pattern, const JsonPlace& at)
{
    try {
        return Regex(pattern);
    } catch (const std::invalid_argument& e) {
        fail(at, "the pattern " + subword::shortQuote(pattern) + " does not compile: " + e.what());
    }
}

/// A Split or Replace pattern: {"String": "…"} (literal) or {"Regex": "…"}.
Regex readPattern(const json& j, const JsonPlace& at)
{
    object(j, at);
    if (const json* s = optionalMember(j, "String"))
        return compile(escaped(asString(*s, at / "String")), at / "String");
    if (const json* r = optionalMember(j, "Regex"))
        return compile(onigurumaPattern(asString(*r, at / "Regex")), at / "Regex");
    fail(at, "expected {\"String\": …} or {\"Regex\": …}, found " + subword::shortText(j.dump()));
}

namespace {

// ---------------------------------------------------------------------------------------------
// Splitting (NormalizedString::split)

enum class Behavior {
    Removed,
    Isolated,
    MergedWithPrevious,
    MergedWithNext,
    Contiguous,
};

Behavior readBehavior(const json& j, const JsonPlace& at)
{
    const std::string name = asString(j, at);
    static constexpr std::pair<std::string_view, Behavior> kNames[] = {
        {"Removed", Behavior::Removed},
        {"Isolated", Behavior::Isolated},
        {"MergedWithPrevious", Behavior::MergedWithPrevious},
        {"MergedWithNext", Behavior::MergedWithNext},
        {"Contiguous", Behavior::Contiguous},
    };
    for (const auto& [n, b] : kNames)
        if (n == name)
            return b;
    fail(at, "the split behavior " + subword::shortQuote(name)
                 + " is not one of Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous");
}

struct Span {
    std::size_t begin;
    std::size_t end;
    bool match;
};

/// The parts of `text` the split keeps, as `tokenizers` cuts them: the matches and the stretches
/// between them (matches and gaps swapped with `invert`), joined or dropped by `behavior`.
std::vector<Span> splitSpans(std::string_view text, const Regex& regex, Behavior behavior, bool invert)
{
    std::vector<Span> spans;
    std::size_t previous = 0;
    for (const Regex::Match& m : regex.findAll(text)) {
        if (previous != m.begin)
            spans.push_back({previous, m.begin, invert});
        spans.push_back({m.begin, m.end, !invert});
        previous = m.end;
    }
    if (previous != text.size())
        spans.push_back({previous, text.size(), invert});

    std::vector<Span> out;
    switch (behavior) {
    case Behavior::Isolated:
        return spans;
    case Behavior::Removed:
        for (const Span& s : spans)
            if (!s.match)
                out.push_back(s);
        return out;
    case Behavior::MergedWithPrevious: {
        // A match joins the part before it (unless that was a match too).
        bool previousMatch = false;
        for (const Span& s : spans) {
            if (s.match && !previousMatch && !out.empty())
                out.back().end = s.end;
            else
                out.push_back(s);
            previousMatch = s.match;
        }
        return out;
    }
    case Behavior::MergedWithNext: {
        // A match joins the part after it (unless that is a match too): the same from the end.
        bool previousMatch = false;
        for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
            if (it->match && !previousMatch && !out.empty())
                out.back().begin = it->begin;
            else
                out.push_back(*it);
            previousMatch = it->match;
        }
        return {out.rbegin(), out.rend()};
    }
    case Behavior::Contiguous: {
        // Runs of matches (and runs of the rest) become one part.
        bool previousMatch = false;
        for (const Span& s : spans) {
            if (s.match == previousMatch && !out.empty())
                out.back().end = s.end;
            else
                out.push_back(s);
            previousMatch = s.match;
        }
        return out;
    }
    }
    return spans;
}

/// Each piece that is not an added token is cut by `cut`; empty parts are dropped.
template <class Cut>
void splitPieces(std::vector<Piece>& pieces, Cut cut)
{
    std::vector<Piece> out;
    out.reserve(pieces.size());
    for (Piece& piece : pieces) {
        if (piece.addedId >= 0) {
            out.push_back(std::move(piece));
            continue;
        }
        for (Piece& part : cut(piece))
            if (!part.text.empty())
                out.push_back(std::move(part));
    }
    pieces = std::move(out);
}

PreTokenizer splitter(Regex regex, Behavior behavior, bool invert)
{
    return [regex = std::move(regex), behavior, invert](std::vector<Piece>& pieces) {
        splitPieces(pieces, [&](const Piece& piece) {
            std::vector<Piece> parts;
            for (const Span& s : splitSpans(piece.text, regex, behavior, invert))
                parts.push_back({piece.text.substr(s.begin, s.end - s.begin), -1, piece.atStart && s.begin == 0});
            return parts;
        });
    };
}

// ---------------------------------------------------------------------------------------------
// Normalizers

} // namespace

/// The code points of valid UTF-8 `text`.
std::u32string decoded(std::string_view text)
{
    return unicode::decodeUtf8(text);
}

namespace {

bool isAscii(std::string_view text)
{
    for (const char c : text)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

void lowercase(std::string& text)
{
    if (isAscii(text)) {
        for (char& c : text)
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        return;
    }
    // char::to_lowercase, one character at a time (İ becomes i + U+0307; no final sigma).
    std::u32string lower;
    for (const char32_t c : decoded(text))
        unicode::appendLower(lower, c);
    text = unicode::encodeUtf8(lower);
}

} // namespace

/// Replaces every match of `regex` in `text` by `content`.
std::string replaced(std::string_view text, const Regex& regex, std::string_view content)
{
    std::string out;
    std::size_t previous = 0;
    for (const Regex::Match& m : regex.findAll(text)) {
        out.append(text.substr(previous, m.begin - previous));
        out.append(content);
        previous = m.end;
    }
    out.append(text.substr(previous));
    return out;
}

/// Every occurrence of `from` (not empty) in `text` replaced by `to`, left to right (str::replace).
std::string replacedLiterally(std::string_view text, std::string_view from, std::string_view to)
{
    std::string out;
    std::size_t previous = 0;
    for (std::size_t at = text.find(from); at != std::string_view::npos; at = text.find(from, previous)) {
        out.append(text.substr(previous, at - previous));
        out.append(to);
        previous = at + from.size();
    }
    out.append(text.substr(previous));
    return out;
}

namespace {

/// BERT's _is_chinese_char, as normalizers/bert.rs lists the blocks.
bool isChineseChar(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
        || (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF)
        || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

Normalizer bertNormalizer(const json& j, const JsonPlace& at)
{
    const bool cleanText = boolMember(j, "clean_text", true, at);
    const bool chinese = boolMember(j, "handle_chinese_chars", true, at);
    const bool lower = boolMember(j, "lowercase", true, at);
    const bool stripAccents = boolMember(j, "strip_accents", lower, at); // null: as lowercase
    return [=](std::string& text) {
        std::u32string chars = decoded(text);
        std::u32string out;
        if (cleanText) {
            // U+0000, U+FFFD and control characters (C* but tab, newline, return) dropped;
            // white space (tab, newline, return, White_Space) made a space.
            for (const char32_t c : chars) {
                const bool white = c == '\t' || c == '\n' || c == '\r' || unicode::isWhiteSpace(c);
                if (c == 0 || c == 0xFFFD || (!white && unicode::isOther(c)))
                    continue;
                out += white ? U' ' : c;
            }
            chars.swap(out);
            out.clear();
        }
        if (chinese) {
            for (const char32_t c : chars) {
                if (isChineseChar(c))
                    out += U' ', out += c, out += U' ';
                else
                    out += c;
            }
            chars.swap(out);
            out.clear();
        }
        if (stripAccents) {
            for (const char32_t c : unicode::nfd(chars))
                if (!unicode::isNonspacingMark(c))
                    out += c;
            chars.swap(out);
            out.clear();
        }
        if (lower) {
            for (const char32_t c : chars)
                unicode::appendLower(out, c);
            chars.swap(out);
        }
        text = unicode::encodeUtf8(chars);
    };
}

Normalizer readNormalizerStep(const json& j, const JsonPlace& at);

Normalizer normalForm(unicode::NormalForm form)
{
    return [form](std::string& text) { text = unicode::normalize(text, form); };
}

Normalizer sequenceOfNormalizers(const json& j, const JsonPlace& at)
{
    const json& list = member(j, "normalizers", at);
    if (!list.is_array())
        fail(at / "normalizers", std::string("expected a list, found ") + list.type_name());
    std::vector<Normalizer> steps;
    for (std::size_t i = 0; i < list.size(); ++i)
        steps.push_back(readNormalizerStep(list[i], (at / "normalizers")[i]));
    return [steps = std::move(steps)](std::string& text) {
        for (const Normalizer& step : steps)
            step(text);
    };
}

struct NormalizerType {
    std::string_view name;
    Normalizer (*make)(const json& j, const JsonPlace& at);
};

constexpr NormalizerType kNormalizers[] = {
    {"NFC", [](const json&, const JsonPlace&) { return normalForm(unicode::NormalForm::Nfc); }},
    {"NFD", [](const json&, const JsonPlace&) { return normalForm(unicode::NormalForm::Nfd); }},
    {"NFKC", [](const json&, const JsonPlace&) { return normalForm(unicode::NormalForm::Nfkc); }},
    {"NFKD", [](const json&, const JsonPlace&) { return normalForm(unicode::NormalForm::Nfkd); }},
    {"Lowercase", [](const json&, const JsonPlace&) { return Normalizer(lowercase); }},
    {"Prepend",
     [](const json& j, const JsonPlace& at) {
         return Normalizer([prefix = stringMember(j, "prepend", at)](std::string& text) {
             if (!text.empty())
                 text.insert(0, prefix);
         });
     }},
    {"Replace",
     [](const json& j, const JsonPlace& at) {
         return Normalizer([regex = readPattern(member(j, "pattern", at), at / "pattern"),
                            content = stringMember(j, "content", at)](std::string& text) { text = replaced(text, regex, content); });
     }},
    {"Strip",
     [](const json& j, const JsonPlace& at) {
         const bool left = boolMember(j, "strip_left", false, at), right = boolMember(j, "strip_right", false, at);
         return Normalizer([left, right](std::string& text) {
             std::u32string chars = decoded(text);
             std::size_t begin = 0, end = chars.size();
             while (left && begin < end && unicode::isWhiteSpace(chars[begin]))
                 ++begin;
             while (right && end > begin && unicode::isWhiteSpace(chars[end - 1]))
                 --end;
             text = unicode::encodeUtf8(std::u32string_view(chars).substr(begin, end - begin));
         });
     }},
    {"StripAccents",
     [](const json&, const JsonPlace&) {
         return Normalizer([](std::string& text) {
             std::u32string out;
             for (const char32_t c : decoded(text))
                 if (!unicode::isMark(c))
                     out += c;
             text = unicode::encodeUtf8(out);
         });
     }},
    {"BertNormalizer", &bertNormalizer},
    {"Sequence", &sequenceOfNormalizers},
};

Normalizer readNormalizerStep(const json& j, const JsonPlace& at)
{
    const std::string type = typeOf(j, at);
    for (const NormalizerType& t : kNormalizers)
        if (t.name == type)
            return t.make(j, at);
    fail(at / "type", "the normalizer " + subword::shortQuote(type) + " is not supported (Attention Lab computes "
                          + namesOf(kNormalizers) + ")");
}

// ---------------------------------------------------------------------------------------------
// Pre-tokenizers

/// Each byte of `text` as its character of GPT-2's byte alphabet.
std::string byteLevelSpelling(std::string_view text)
{
    std::string out;
    out.reserve(text.size() * 2);
    for (const char b : text)
        utf8::append(out, byteCharacters()[static_cast<unsigned char>(b)]);
    return out;
}

PreTokenizer byteLevel(const json& j, const JsonPlace& at, Steps& steps)
{
    const bool prefixSpace = boolMember(j, "add_prefix_space", true, at);
    const bool useRegex = boolMember(j, "use_regex", true, at);
    steps.spelling = TokenSpelling::ByteLevel;
    steps.byteLevelPrefixSpace = prefixSpace;
    return [prefixSpace, useRegex](std::vector<Piece>& pieces) {
        splitPieces(pieces, [&](const Piece& piece) {
            std::string text = piece.text;
            if (prefixSpace && !text.starts_with(' '))
                text.insert(0, " ");
            std::vector<Piece> parts;
            // GPT-2's own pattern (unicode::gpt2Pieces) matches every character: its pieces tile
            // the text, as the Isolated split of byte_level.rs leaves it.
            if (useRegex) {
                bool first = true;
                for (const std::string_view p : unicode::gpt2Pieces(text))
                    parts.push_back({byteLevelSpelling(p), -1, piece.atStart && first}), first = false;
            } else {
                parts.push_back({byteLevelSpelling(text), -1, piece.atStart});
            }
            return parts;
        });
    };
}

PreTokenizer metaspace(const json& j, const JsonPlace& at, Steps& steps)
{
    const std::string replacement = stringMember(j, "replacement", at);
    if (unicode::decodeUtf8(replacement).size() != 1)
        fail(at / "replacement", "expected one character, found " + subword::shortQuote(replacement));
    // prepend_scheme (always, first, never); files older than it say add_prefix_space.
    std::string scheme = optionalString(j, "prepend_scheme", at).value_or("always");
    if (const json* add = optionalMember(j, "add_prefix_space"); add && add->is_boolean() && !add->get<bool>())
        scheme = "never";
    if (scheme != "always" && scheme != "first" && scheme != "never")
        fail(at / "prepend_scheme", "expected \"always\", \"first\" or \"never\", found " + subword::shortQuote(scheme));
    const bool split = boolMember(j, "split", true, at);
    steps.spelling = TokenSpelling::Metaspace;
    const Regex space(" ");
    const Regex mark(escaped(replacement));
    return [=](std::vector<Piece>& pieces) {
        splitPieces(pieces, [&](const Piece& piece) {
            std::string text = replaced(piece.text, space, replacement);
            const bool prepend = scheme == "always" || (scheme == "first" && piece.atStart);
            if (prepend && !text.starts_with(replacement))
                text.insert(0, replacement);
            std::vector<Piece> parts;
            if (!split)
                return std::vector<Piece>{{std::move(text), -1, piece.atStart}};
            for (const Span& s : splitSpans(text, mark, Behavior::MergedWithNext, false))
                parts.push_back({text.substr(s.begin, s.end - s.begin), -1, piece.atStart && s.begin == 0});
            return parts;
        });
    };
}

PreTokenizer readPreTokenizerStep(const json& j, const JsonPlace& at, Steps& steps);

struct PreTokenizerType {
    std::string_view name;
    PreTokenizer (*make)(const json& j, const JsonPlace& at, Steps& steps);
};

constexpr PreTokenizerType kPreTokenizers[] = {
    {"Split",
     [](const json& j, const JsonPlace& at, Steps&) {
         return splitter(readPattern(member(j, "pattern", at), at / "pattern"), readBehavior(member(j, "behavior", at), at / "behavior"),
                         boolMember(j, "invert", false, at));
     }},
    {"ByteLevel", &byteLevel},
    {"Metaspace", &metaspace},
    {"Digits",
     [](const json& j, const JsonPlace& at, Steps&) {
         const bool individual = boolMember(j, "individual_digits", false, at);
         return splitter(Regex(std::string(kNumeric)), individual ? Behavior::Isolated : Behavior::Contiguous, false);
     }},
    {"Whitespace",
     [](const json&, const JsonPlace&, Steps&) {
         // \w+|[^\w\s]+ kept, the rest (white space) removed.
         const std::string word(kWord);
         return splitter(Regex("[" + word + "]+|[^" + word + R"(\p{White_Space}]+)"), Behavior::Removed, true);
     }},
    {"WhitespaceSplit",
     [](const json&, const JsonPlace&, Steps&) { return splitter(Regex(std::string(kWhiteSpace)), Behavior::Removed, false); }},
    {"Punctuation",
     [](const json& j, const JsonPlace& at, Steps&) {
         const json* behavior = optionalMember(j, "behavior");
         return splitter(Regex(std::string(kPunctuation)), behavior ? readBehavior(*behavior, at / "behavior") : Behavior::Isolated,
                         false);
     }},
    {"BertPreTokenizer",
     [](const json&, const JsonPlace&, Steps&) {
         PreTokenizer white = splitter(Regex(std::string(kWhiteSpace)), Behavior::Removed, false);
         PreTokenizer punctuation = splitter(Regex(std::string(kPunctuation)), Behavior::Isolated, false);
         return PreTokenizer([white, punctuation](std::vector<Piece>& pieces) {
             white(pieces);
             punctuation(pieces);
         });
     }},
    {"Sequence",
     [](const json& j, const JsonPlace& at, Steps& steps) {
         const json& list = member(j, "pretokenizers", at);
         if (!list.is_array())
             fail(at / "pretokenizers", std::string("expected a list, found ") + list.type_name());
         std::vector<PreTokenizer> parts;
         for (std::size_t i = 0; i < list.size(); ++i)
             parts.push_back(readPreTokenizerStep(list[i], (at / "pretokenizers")[i], steps));
         return PreTokenizer([parts = std::move(parts)](std::vector<Piece>& pieces) {
             for (const PreTokenizer& p : parts)
                 p(pieces);
         });
     }},
};

PreTokenizer readPreTokenizerStep(const json& j, const JsonPlace& at, Steps& steps)
{
    const std::string type = typeOf(j, at);
    for (const PreTokenizerType& t : kPreTokenizers)
        if (t.name == type)
            return t.make(j, at, steps);
    fail(at / "type", "the pre-tokenizer " + subword::shortQuote(type) + " is not supported (Attention Lab computes "
                          + namesOf(kPreTokenizers) + ")");
}

} // namespace

const std::array<char32_t, 256>& byteCharacters()
{
    static const std::array<char32_t, 256> table = [] {
        // encoder.py's bytes_to_unicode: printable bytes stand for themselves, the other 68 get
        // U+0100, U+0101, … in byte order (a space is "Ġ").
        std::array<char32_t, 256> t{};
        char32_t next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            t[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
        }
        return t;
    }();
    return table;
}

int byteOfCharacter(char32_t c)
{
    static const std::array<int, 324> inverse = [] {
        std::array<int, 324> t{};
        t.fill(-1);
        for (int b = 0; b < 256; ++b)
            t[byteCharacters()[static_cast<std::size_t>(b)]] = b;
        return t;
    }();
    return c < inverse.size() ? inverse[c] : -1;
}

void readNormalizer(const json& j, const JsonPlace& at, Steps& steps)
{
    steps.normalizer = j.is_null() ? Normalizer() : readNormalizerStep(j, at);
}

void readPreTokenizer(const json& j, const JsonPlace& at, Steps& steps)
{
    steps.preTokenizer = j.is_null() ? PreTokenizer() : readPreTokenizerStep(j, at, steps);
}

} // namespace attnlab::hf
