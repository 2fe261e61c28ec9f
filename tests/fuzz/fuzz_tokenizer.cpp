// tokenize (text/tokenizer.h) on arbitrary bytes, with a small max_tokens and pad_to taken
// from the first two bytes. Checks what docs/engine.md section 1 promises: the cut and the
// padding, tokens that are never empty and hold no white space, and — for UTF-8 text that
// is not cut — tokens that put together give back the text without its white space.

#include "fuzz.h"

#include "text/tokenizer.h"
#include "text/utf8.h"

#include <algorithm>
#include <limits>

using namespace attnlab;

namespace {

/// White space as docs/engine.md lists it.
bool isWhiteSpace(char32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xA0 || c == 0x3000
        || (c >= 0x2000 && c <= 0x200B);
}

/// The text without white space; false when it is not valid UTF-8.
bool withoutWhiteSpace(std::string_view text, std::string& out)
{
    bool invalid = false;
    for (std::size_t pos = 0; pos < text.size();) {
        const char32_t c = utf8::decode(text, pos, invalid);
        if (!isWhiteSpace(c))
            utf8::append(out, c);
    }
    return !invalid;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const int maxTokens = data[0] % 33; // 0 … 32
    const int padTo = maxTokens > 0 ? data[1] % (maxTokens + 1) : 0;
    const std::string_view text = fuzz::text(data + 2, size - 2);

    const Tokenization t = tokenize(text, maxTokens, padTo);
    FUZZ_CHECK(static_cast<int>(t.tokens.size()) <= std::max(maxTokens, padTo));
    for (const auto& token : t.tokens) {
        std::string squeezed;
        FUZZ_CHECK(!token.empty() && withoutWhiteSpace(token, squeezed) && squeezed == token);
    }

    // Uncut, the tokens are the text without its white space (and without a leading BOM).
    const Tokenization whole = tokenize(text, std::numeric_limits<int>::max(), 0);
    std::string expected;
    if (withoutWhiteSpace(utf8::withoutByteOrderMark(text), expected)) {
        std::string joined;
        for (const auto& token : whole.tokens)
            joined += token;
        FUZZ_CHECK(joined == expected);
        FUZZ_CHECK(whole.warnings.empty());
    }
    // The first tokens are kept when the text is cut; <pad> fills up to pad_to.
    const std::size_t kept = std::min(whole.tokens.size(), static_cast<std::size_t>(maxTokens));
    FUZZ_CHECK(std::equal(t.tokens.begin(), t.tokens.begin() + static_cast<std::ptrdiff_t>(kept), whole.tokens.begin()));
    for (std::size_t i = kept; i < t.tokens.size(); ++i)
        FUZZ_CHECK(t.tokens[i] == kPadToken);
    return 0;
}
