#pragma once
/// Text files line by line: lessons, BERT's vocab.txt, GPT-2's merges.txt.

#include <string_view>
#include <vector>

namespace attnlab {

/// Splits into lines at LF, CRLF or a lone CR (Python's universal newlines). A final line break
/// does not start a new line.
std::vector<std::string_view> splitLines(std::string_view text);

} // namespace attnlab
