#pragma once
/// Base64 (RFC 4648, section 4: the standard alphabet, '=' padding), as session files embed
/// their weights.

#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

/// `bytes` as base64 with padding.
std::string toBase64(std::string_view bytes);

/// The bytes of base64 `text`. Padding may be left out; white space (as a text editor may
/// wrap long lines) is skipped. Nothing for any other character, for '=' before the end, or
/// for a length no base64 text has (one character left over).
std::optional<std::string> fromBase64(std::string_view text);

} // namespace attnlab
