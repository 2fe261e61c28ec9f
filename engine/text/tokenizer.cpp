#include "text/tokenizer.h"

#include <cstdint>

namespace attnlab {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

/// Decodes one UTF-8 code point at `pos`, advancing it. Overlong forms, surrogates and
/// truncated sequences count as invalid: one byte is consumed and U+FFFD returned.
char32_t decodeOne(std::string_view s, std::size_t& pos, bool& invalid)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char b0 = byte(pos);
    if (b0 < 0x80) {
        ++pos;
        return b0;
    }
    int len = 0;
    char32_t cp = 0;
    char32_t min = 0;
    if ((b0 & 0xE0) == 0xC0) {
        len = 2, cp = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3, cp = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4, cp = b0 & 0x07, min = 0x10000;
    }
    bool ok = len > 0 && pos + len <= s.size();
    for (int i = 1; ok && i < len; ++i) {
        const unsigned char b = byte(pos + i);
        ok = (b & 0xC0) == 0x80;
        cp = (cp << 6) | (b & 0x3F);
    }
    ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (!ok) {
        invalid = true;
        ++pos;
        return kReplacement;
    }
    pos += len;
    return cp;
}

void appendUtf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

bool isSpace(char32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xA0
        || c == 0x3000 || (c >= 0x2000 && c <= 0x200B);
}

bool isCjk(char32_t c)
{
    return (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF)
        || (c >= 0x20000 && c <= 0x2FA1F) || (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3001 && c <= 0x303F)
        || (c >= 0xFF01 && c <= 0xFF60);
}

bool isPunctuation(char32_t c)
{
    const bool ascii = (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60)
        || (c >= 0x7B && c <= 0x7E);
    return ascii || (c >= 0x2010 && c <= 0x205E);
}

bool isWordChar(char32_t c)
{
    return !isSpace(c) && !isCjk(c) && !isPunctuation(c);
}

} // namespace

const std::vector<std::string>& specialTokens()
{
    static const std::vector<std::string> kSpecial{"<sos>", "<eos>", "<pad>", "<unk>", "[CLS]", "[SEP]", "[MASK]"};
    return kSpecial;
}

Tokenization tokenize(std::string_view text, int maxTokens, int padTo)
{
    // Decode once; keep each code point's byte offset so special tokens can be matched.
    std::vector<char32_t> cps;
    std::vector<std::size_t> offsets;
    bool invalid = false;
    for (std::size_t pos = 0; pos < text.size();) {
        offsets.push_back(pos);
        cps.push_back(decodeOne(text, pos, invalid));
    }
    offsets.push_back(text.size());

    Tokenization result;
    std::string word;
    const auto flush = [&] {
        if (!word.empty())
            result.tokens.push_back(std::move(word));
        word.clear();
    };
    for (std::size_t i = 0; i < cps.size();) {
        const char32_t c = cps[i];
        if (c == '<' || c == '[') {
            const std::string_view rest = text.substr(offsets[i]);
            bool matched = false;
            for (const auto& special : specialTokens()) {
                if (rest.starts_with(special)) {
                    flush();
                    result.tokens.push_back(special);
                    i += special.size(); // special tokens are ASCII: one code point per byte
                    matched = true;
                    break;
                }
            }
            if (matched)
                continue;
        }
        if (isSpace(c)) {
            flush();
        } else if (isCjk(c) || (isPunctuation(c) && !(c == '\'' && !word.empty() && i + 1 < cps.size() && isWordChar(cps[i + 1])))) {
            // CJK characters and punctuation stand alone; an apostrophe between two word
            // characters (don't) stays inside its word.
            flush();
            std::string single;
            appendUtf8(single, c);
            result.tokens.push_back(std::move(single));
        } else {
            appendUtf8(word, c);
        }
        ++i;
    }
    flush();

    if (invalid)
        result.warnings.push_back(messages::invalidUtf8());
    const auto count = static_cast<long long>(result.tokens.size());
    if (maxTokens >= 0 && count > maxTokens) {
        result.warnings.push_back(messages::tokensCut(count, maxTokens));
        result.tokens.resize(static_cast<std::size_t>(maxTokens));
    }
    if (padTo > 0) {
        if (static_cast<long long>(result.tokens.size()) > padTo)
            result.warnings.push_back(messages::nothingPadded(static_cast<long long>(result.tokens.size()), padTo));
        while (static_cast<int>(result.tokens.size()) < padTo)
            result.tokens.emplace_back(kPadToken);
    }
    return result;
}

} // namespace attnlab
