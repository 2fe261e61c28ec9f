#pragma once
/// UTF-8 one code point at a time, shared by the tokenizer and the messages that quote text.

#include <string>
#include <string_view>

namespace attnlab::utf8 {

/// U+FFFD, what an invalid byte decodes to.
inline constexpr char32_t kReplacement = 0xFFFD;
/// The byte-order mark, U+FEFF, as UTF-8.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

/// Decodes one code point at `pos` and advances `pos` past it. Overlong forms, surrogates and
/// truncated sequences are invalid: then one byte is consumed, `invalid` is set and U+FFFD
/// returned. `pos` must be before the end of `s`.
char32_t decode(std::string_view s, std::size_t& pos, bool& invalid);
/// Appends `cp` (at most U+10FFFF) to `out` as UTF-8.
void append(std::string& out, char32_t cp);
/// `text` without a leading byte-order mark.
std::string_view withoutByteOrderMark(std::string_view text);

} // namespace attnlab::utf8
