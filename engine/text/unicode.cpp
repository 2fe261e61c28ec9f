#include "text/unicode.h"

#include "text/messages.h"
#include "text/utf8.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

#include <memory>
#include <optional>
#include <stdexcept>

namespace attnlab::unicode {

namespace {

/// GPT-2's pattern as the regex module reads it. Its \s is the White_Space property; PCRE2's \s
/// (in UCP mode) also matches U+180E, so the property is named instead: `\S` becomes
/// `\P{White_Space}`, `\s` inside the class `\p{White_Space}`.
constexpr std::string_view kGpt2Pattern = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+)"
                                          R"(| ?[^\p{White_Space}\p{L}\p{N}]+)"
                                          R"(|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+)";

/// The compiled pattern, made once and shared (matching only reads it). Anchored: every match
/// starts where the previous one ended, since the alternatives together match any character.
class Gpt2Regex {
public:
    Gpt2Regex()
    {
        int error = 0;
        PCRE2_SIZE offset = 0;
        m_code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(kGpt2Pattern.data()), kGpt2Pattern.size(),
                               PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED, &error, &offset, nullptr);
        if (m_code == nullptr)
            throw std::logic_error("GPT-2's pre-tokenizer pattern does not compile (PCRE2 error " + std::to_string(error) + ")");
        // The JIT makes matching several times faster; without it (a platform PCRE2 has no JIT
        // for) the interpreter gives the same matches.
        pcre2_jit_compile(m_code, PCRE2_JIT_COMPLETE);
    }
    ~Gpt2Regex() { pcre2_code_free(m_code); }
    Gpt2Regex(const Gpt2Regex&) = delete;
    Gpt2Regex& operator=(const Gpt2Regex&) = delete;

    /// The length of the match at `pos` of valid UTF-8 `subject` (at least one character).
    std::size_t matchAt(std::string_view subject, std::size_t pos, pcre2_match_data* data) const
    {
        const auto* s = reinterpret_cast<PCRE2_SPTR>(subject.data());
        int rc = pcre2_match(m_code, s, subject.size(), pos, PCRE2_NO_UTF_CHECK, data, nullptr);
        if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) // the JIT's stack ran out: the interpreter
            rc = pcre2_match(m_code, s, subject.size(), pos, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data, nullptr);
        const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
        if (rc >= 0 && ovector[1] > pos)
            return ovector[1] - pos;
        // Not reached for valid UTF-8 (some alternative matches every character); one character.
        return stepUtf8(subject, pos).length;
    }

private:
    pcre2_code* m_code = nullptr;
};

const Gpt2Regex& gpt2Regex()
{
    static const Gpt2Regex regex;
    return regex;
}

struct MatchDataDeleter {
    void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};

bool isContinuation(unsigned char b, unsigned char low = 0x80, unsigned char high = 0xBF)
{
    return b >= low && b <= high;
}

constexpr std::string_view kReplacementUtf8 = "\xEF\xBF\xBD";

} // namespace

Utf8Step stepUtf8(std::string_view text, std::size_t pos)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
    const unsigned char b0 = byte(0);
    if (b0 < 0x80)
        return {b0, 1, true};
    // The lead byte says the length and the range of the second byte (which rules out overlong
    // forms, surrogates and code points above U+10FFFF); later bytes are 80..BF.
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF)
        length = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF)
        length = 3, low = b0 == 0xE0 ? 0xA0 : 0x80, high = b0 == 0xED ? 0x9F : 0xBF;
    else if (b0 >= 0xF0 && b0 <= 0xF4)
        length = 4, low = b0 == 0xF0 ? 0x90 : 0x80, high = b0 == 0xF4 ? 0x8F : 0xBF;
    if (length == 0)
        return {0, 1, false};
    char32_t cp = b0 & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i) {
        const bool fits = pos + i < text.size() && (i == 1 ? isContinuation(byte(i), low, high) : isContinuation(byte(i)));
        if (!fits)
            return {0, i, false}; // the maximal subpart: the bytes that fit so far
        cp = (cp << 6) | (byte(i) & 0x3F);
    }
    return {cp, length, true};
}

std::u32string decodeUtf8(std::string_view text)
{
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const Utf8Step step = stepUtf8(text, pos);
        out += step.valid ? step.codePoint : U'\uFFFD';
        pos += step.length;
    }
    return out;
}

std::string encodeUtf8(std::u32string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char32_t cp : text)
        utf8::append(out, cp);
    return out;
}

bool isValidUtf8(std::string_view bytes)
{
    for (std::size_t pos = 0; pos < bytes.size();) {
        const Utf8Step step = stepUtf8(bytes, pos);
        if (!step.valid)
            return false;
        pos += step.length;
    }
    return true;
}

std::string replaceInvalidUtf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t pos = 0; pos < bytes.size();) {
        const Utf8Step step = stepUtf8(bytes, pos);
        if (step.valid)
            out.append(bytes.substr(pos, step.length));
        else
            out.append(kReplacementUtf8);
        pos += step.length;
    }
    return out;
}

std::vector<std::string_view> gpt2Pieces(std::string_view text)
{
    // The regex runs on valid UTF-8. Each invalid subpart stands in as U+FFFD (a symbol: neither
    // letter, number nor space), and `origin` maps the stand-in's bytes back to the text's.
    std::string sanitized;
    std::vector<std::size_t> origin;
    std::string_view subject = text;
    if (!isValidUtf8(text)) {
        for (std::size_t pos = 0; pos < text.size();) {
            const Utf8Step step = stepUtf8(text, pos);
            const std::string_view bytes = step.valid ? text.substr(pos, step.length) : kReplacementUtf8;
            sanitized.append(bytes);
            origin.insert(origin.end(), bytes.size(), pos);
            pos += step.length;
        }
        origin.push_back(text.size());
        subject = sanitized;
    }

    const Gpt2Regex& regex = gpt2Regex();
    const std::unique_ptr<pcre2_match_data, MatchDataDeleter> data(pcre2_match_data_create(1, nullptr));
    if (!data)
        throw std::bad_alloc();
    std::vector<std::string_view> pieces;
    for (std::size_t pos = 0; pos < subject.size();) {
        const std::size_t end = pos + regex.matchAt(subject, pos, data.get());
        const std::size_t from = origin.empty() ? pos : origin[pos];
        const std::size_t to = origin.empty() ? end : origin[end];
        pieces.push_back(text.substr(from, to - from));
        pos = end;
    }
    return pieces;
}

struct Regex::Compiled {
    pcre2_code* code = nullptr;
    ~Compiled() { pcre2_code_free(code); }
};

Regex::Regex(std::string_view pattern)
{
    int error = 0;
    PCRE2_SIZE offset = 0;
    auto compiled = std::make_shared<Compiled>();
    compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), PCRE2_UTF | PCRE2_UCP, &error,
                                   &offset, nullptr);
    if (compiled->code == nullptr) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(error, message, sizeof message);
        throw Error(say(textMessage("pattern_error"), reinterpret_cast<const char*>(message), offset));
    }
    // The JIT makes matching several times faster; without it the interpreter matches the same.
    pcre2_jit_compile(compiled->code, PCRE2_JIT_COMPLETE);
    m_compiled = std::move(compiled);
}

std::vector<Regex::Match> Regex::findAll(std::string_view text) const
{
    const std::unique_ptr<pcre2_match_data, MatchDataDeleter> data(pcre2_match_data_create_from_pattern(m_compiled->code, nullptr));
    if (!data)
        throw std::bad_alloc();
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::vector<Match> matches;
    std::size_t pos = 0;
    std::optional<std::size_t> lastEnd;
    while (pos <= text.size()) {
        int rc = pcre2_match(m_compiled->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK, data.get(), nullptr);
        if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) // the JIT's stack ran out: the interpreter
            rc = pcre2_match(m_compiled->code, subject, text.size(), pos, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, data.get(), nullptr);
        if (rc < 0)
            break;
        const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
        const std::size_t begin = ovector[0], end = ovector[1];
        if (begin == end) {
            // An empty match: kept unless right after the previous match; the search moves on.
            if (!lastEnd || *lastEnd != end)
                matches.push_back({begin, end});
            lastEnd = end;
            if (end >= text.size())
                break;
            pos = end + stepUtf8(text, end).length;
            continue;
        }
        matches.push_back({begin, end});
        lastEnd = end;
        pos = end;
    }
    return matches;
}

std::string normalize(std::string_view text, NormalForm form)
{
    // ASCII is in every normalization form.
    bool ascii = true;
    for (const char c : text)
        ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    if (ascii)
        return std::string(text);

    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* normalizer = nullptr;
    switch (form) {
    case NormalForm::Nfc: normalizer = icu::Normalizer2::getNFCInstance(status); break;
    case NormalForm::Nfd: normalizer = icu::Normalizer2::getNFDInstance(status); break;
    case NormalForm::Nfkc: normalizer = icu::Normalizer2::getNFKCInstance(status); break;
    case NormalForm::Nfkd: normalizer = icu::Normalizer2::getNFKDInstance(status); break;
    }
    if (U_FAILURE(status))
        throw MessageError<std::runtime_error>(say(textMessage("icu_no_normalization"), u_errorName(status)));
    const icu::UnicodeString source =
        icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
    if (normalizer->quickCheck(source, status) == UNORM_YES && U_SUCCESS(status))
        return std::string(text);
    status = U_ZERO_ERROR;
    const icu::UnicodeString normalized = normalizer->normalize(source, status);
    if (U_FAILURE(status))
        throw MessageError<std::runtime_error>(say(textMessage("icu_normalization_failed"), u_errorName(status)));
    std::string out;
    normalized.toUTF8String(out);
    return out;
}

bool isWhiteSpace(char32_t c)
{
    return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE) != 0;
}

bool isWordCharacter(char32_t c)
{
    const auto cp = static_cast<UChar32>(c);
    const auto mask = U_GET_GC_MASK(cp);
    return u_hasBinaryProperty(cp, UCHAR_ALPHABETIC) || (mask & (U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK)) != 0
        || u_hasBinaryProperty(cp, UCHAR_JOIN_CONTROL);
}

bool isMark(char32_t c)
{
    return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_M_MASK) != 0;
}

bool isNonspacingMark(char32_t c)
{
    return u_charType(static_cast<UChar32>(c)) == U_NON_SPACING_MARK;
}

bool isPunctuation(char32_t c)
{
    return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_P_MASK) != 0;
}

bool isOther(char32_t c)
{
    return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_C_MASK) != 0;
}

bool isSpaceSeparator(char32_t c)
{
    return u_charType(static_cast<UChar32>(c)) == U_SPACE_SEPARATOR;
}

bool isPythonSpace(char32_t c)
{
    // Python 3.11 (Unicode 14): tab to carriage return, the four information separators, space,
    // NEL, and the Zs, Zl, Zp characters.
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

std::u32string nfd(std::u32string_view text)
{
    // Nothing below U+00C0 has a canonical decomposition: plain ASCII text skips ICU.
    bool plain = true;
    for (const char32_t c : text)
        plain = plain && c < 0xC0;
    if (plain)
        return std::u32string(text);

    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* normalizer = icu::Normalizer2::getNFDInstance(status);
    if (U_FAILURE(status))
        throw MessageError<std::runtime_error>(say(textMessage("icu_no_nfd"), u_errorName(status)));
    const icu::UnicodeString source =
        icu::UnicodeString::fromUTF32(reinterpret_cast<const UChar32*>(text.data()), static_cast<int32_t>(text.size()));
    const icu::UnicodeString normalized = normalizer->normalize(source, status);
    if (U_FAILURE(status))
        throw MessageError<std::runtime_error>(say(textMessage("icu_nfd_failed"), u_errorName(status)));
    std::u32string out(static_cast<std::size_t>(normalized.countChar32()), U'\0');
    normalized.toUTF32(reinterpret_cast<UChar32*>(out.data()), static_cast<int32_t>(out.size()), status);
    return out;
}

void appendLower(std::u32string& out, char32_t c)
{
    if (c < 0x80) {
        out += (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
        return;
    }
    const auto cp = static_cast<UChar32>(c);
    if (!u_hasBinaryProperty(cp, UCHAR_CHANGES_WHEN_LOWERCASED)) {
        out += c;
        return;
    }
    // The full mapping (it can be longer: İ → i + U+0307) of the character alone, in the root locale.
    UChar source[2];
    int32_t sourceLength = 0;
    U16_APPEND_UNSAFE(source, sourceLength, cp);
    UChar lower[8];
    UErrorCode status = U_ZERO_ERROR;
    const int32_t length = u_strToLower(lower, 8, source, sourceLength, "", &status);
    if (U_FAILURE(status)) {
        out += static_cast<char32_t>(u_tolower(cp));
        return;
    }
    for (int32_t i = 0; i < length;) {
        UChar32 l = 0;
        U16_NEXT(lower, i, length, l);
        out += static_cast<char32_t>(l);
    }
}

} // namespace attnlab::unicode
