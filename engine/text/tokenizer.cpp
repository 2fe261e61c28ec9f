#include "text/tokenizer.h"

#include "text/utf8.h"

#include <cstdint>

namespace attnlab {

namespace {

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
    // A byte-order mark (an editor's, or pasted with the text) is not part of the first word.
    text = utf8::withoutByteOrderMark(text);
    // Decode once; keep each code point's byte offset so special tokens can be matched.
    std::vector<char32_t> cps;
    std::vector<std::size_t> offsets;
    bool invalid = false;
    for (std::size_t pos = 0; pos < text.size();) {
        offsets.push_back(pos);
        cps.push_back(utf8::decode(text, pos, invalid));
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
            utf8::append(single, c);
            result.tokens.push_back(std::move(single));
        } else {
            utf8::append(word, c);
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
