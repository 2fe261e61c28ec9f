#pragma once
/// Splits a sentence into tokens (docs/engine.md, section 1): words and punctuation for
/// Latin text, one token per character for CJK, special tokens kept whole.

#include "core/message.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct Tokenization {
    std::vector<std::string> tokens;
    std::vector<Message> warnings;
};

/// The special tokens, always single tokens wherever they stand.
const std::vector<std::string>& specialTokens();
inline constexpr std::string_view kPadToken = "<pad>";

/// Tokenizes UTF-8 `text`. Keeps at most `maxTokens` tokens (warning when more), then pads
/// with <pad> up to `padTo` (0 = no padding). Invalid UTF-8 bytes become U+FFFD (warning); a
/// byte-order mark at the start is dropped.
Tokenization tokenize(std::string_view text, int maxTokens = 512, int padTo = 0);

} // namespace attnlab
