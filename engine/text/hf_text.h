#pragma once
/// Text helpers the tokenizer.json steps share (hf_steps.cpp, hf_decoders.cpp), as `tokenizers`
/// (Rust) computes them.

#include "text/hf_json.h"
#include "text/unicode.h"

#include <string>
#include <string_view>

namespace attnlab::hf {

/// `text` as a PCRE2 pattern that matches it literally (regex::escape in `tokenizers`).
std::string escaped(std::string_view text);
/// A Split or Replace pattern: {"String": "…"} (literal) or {"Regex": "…"}. Throws FormatError.
unicode::Regex readPattern(const nlohmann::json& j, const JsonPlace& at);
/// The code points of valid UTF-8 `text`.
std::u32string decoded(std::string_view text);
/// Replaces every match of `regex` in `text` by `content`.
std::string replaced(std::string_view text, const unicode::Regex& regex, std::string_view content);
/// Every occurrence of `from` (not empty) in `text` replaced by `to`, left to right (str::replace).
std::string replacedLiterally(std::string_view text, std::string_view from, std::string_view to);

/// "A, B, C": the names of a table of step types, for a refusal.
template <class Table>
std::string namesOf(const Table& table)
{
    std::string names;
    for (const auto& t : table)
        names += (names.empty() ? "" : ", ") + std::string(t.name);
    return names;
}

} // namespace attnlab::hf
