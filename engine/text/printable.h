#pragma once
/// Quoting user input in messages. A path, an option's value or a token can hold control
/// characters (`\e]0;…\a` retitles a terminal) or bytes that are not UTF-8; a message shows them
/// as escapes instead of passing them to the terminal or the interface.

#include <string>
#include <string_view>

namespace attnlab {

/// `text` with every control character (C0, DEL, C1), every invisible character that reorders
/// or breaks lines (the bidirectional controls, U+2028, U+2029, U+FEFF) and every byte that is
/// not UTF-8 written as an escape: \n, \r, \t, \x1b for a byte, \u202e for a character. All else
/// is kept, so printable(printable(s)) == printable(s).
std::string printable(std::string_view text);

/// 'text', escaped by printable(): how a message quotes user input (a path, a value, a name).
std::string inQuotes(std::string_view text);

/// The character of `text` at byte `pos`, named for a message: "character 'x'" for visible ASCII,
/// "character '１' (U+FF11)" for another visible one, "character U+202E" for an invisible one,
/// "byte 0x00" for an ASCII control character or a byte that is not UTF-8.
std::string describeCharacter(std::string_view text, std::size_t pos);

} // namespace attnlab
