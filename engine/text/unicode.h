#pragma once
/// The Unicode the subword tokenizers need (docs/tokenizers.md), in one place: GPT-2's
/// pre-tokenizer regex (PCRE2 in UTF + UCP mode), general categories, NFD and lower-casing
/// (ICU), and UTF-8 decoding that replaces invalid bytes as Python does. PCRE2 and ICU stay
/// behind this header: no other file includes them.
///
/// The definitions follow the Python the reference tokenizers are written in: the `regex`
/// module for GPT-2 (OpenAI's encoder.py), `unicodedata` and `str` for BERT (Hugging Face's
/// tokenization_bert.py). Characters assigned in Unicode 15.0 (2022) may be classed differently
/// (PCRE2 10.42 knows Unicode 14, ICU 72 Unicode 15).

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::unicode {

/// GPT-2's pre-tokenizer: the pieces `text` is cut into by the published pattern
///     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
/// (findall in order), with \s the regex module's (Unicode White_Space; PCRE2's own \s also
/// takes U+180E). The pieces tile `text`: put together they are `text`. Bytes that are not UTF-8
/// are taken, as Python's surrogateescape does, for characters that are neither letters,
/// numbers nor spaces (each maximal invalid sequence one such character).
std::vector<std::string_view> gpt2Pieces(std::string_view text);

/// A pattern compiled by PCRE2 in UTF + UCP mode (\p{L}, \p{N}, (?i:…), look-ahead: the regexes
/// of Hugging Face's tokenizer.json). Copies share the compiled code; matching only reads it, so
/// one Regex serves several threads.
class Regex {
public:
    /// Compiles `pattern` as it is. Throws std::invalid_argument with PCRE2's reason and the
    /// offset where it stopped ("missing closing parenthesis at offset 12").
    explicit Regex(std::string_view pattern);

    struct Match {
        std::size_t begin = 0;
        std::size_t end = 0;
    };
    /// Every match in `text` (valid UTF-8), left to right, not overlapping, as Oniguruma's and
    /// Rust's find_iter give them: an empty match counts unless it sits where the previous match
    /// ended, and after an empty match the search goes on one character later.
    std::vector<Match> findAll(std::string_view text) const;

private:
    struct Compiled;
    std::shared_ptr<const Compiled> m_compiled;
};

/// The four Unicode normalization forms.
enum class NormalForm {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
};
/// `text` (valid UTF-8) in normalization form `form` (ICU; ASCII is returned as it is).
std::string normalize(std::string_view text, NormalForm form);

/// One step of UTF-8 decoding at byte `pos` (before the end): a valid sequence gives its code
/// point and length (1–4); an invalid one gives valid = false and the length of its maximal
/// subpart (1–3 bytes: a lead byte and the continuation bytes that fit it), which Python's
/// decode(errors="replace") turns into one U+FFFD.
struct Utf8Step {
    char32_t codePoint = 0;
    std::size_t length = 1;
    bool valid = false;
};
Utf8Step stepUtf8(std::string_view text, std::size_t pos);

/// The code points of `text`; each maximal invalid subpart becomes U+FFFD, as
/// bytes.decode("utf-8", "replace") does.
std::u32string decodeUtf8(std::string_view text);
/// `text` as UTF-8 (code points above U+10FFFF or surrogates are not expected).
std::string encodeUtf8(std::u32string_view text);
/// `bytes` with each maximal invalid subpart replaced by U+FFFD (valid UTF-8 is returned as it is).
std::string replaceInvalidUtf8(std::string_view bytes);
/// True when `bytes` is entirely valid UTF-8.
bool isValidUtf8(std::string_view bytes);

/// General category Mn (a nonspacing mark: the accents NFD splits off).
bool isNonspacingMark(char32_t c);
/// General category P* (Pc, Pd, Ps, Pe, Pi, Pf, Po).
bool isPunctuation(char32_t c);
/// General category C* (Cc, Cf, Cs, Co, Cn): controls, formats, surrogates, private use and
/// unassigned code points.
bool isOther(char32_t c);
/// General category Zs (a space separator).
bool isSpaceSeparator(char32_t c);
/// The White_Space property (Rust's char::is_whitespace, Oniguruma's \s).
bool isWhiteSpace(char32_t c);
/// A word character as Unicode's regular expressions (UTS #18) and Rust's regex \w define it:
/// Alphabetic, M*, Nd, Pc or Join_Control.
bool isWordCharacter(char32_t c);
/// General category M* (Mn, Mc, Me): a combining mark.
bool isMark(char32_t c);
/// Python's str.isspace(): what str.split() splits on (bidirectional class WS, B or S, or Zs).
bool isPythonSpace(char32_t c);

/// The canonical decomposition (NFD) of `text`.
std::u32string nfd(std::u32string_view text);
/// Appends Python's chr(c).lower(): the full lower-case mapping of one code point on its own
/// (U+0130 İ becomes "i\u0307"; Σ becomes σ, with no word around it to make it final).
void appendLower(std::u32string& out, char32_t c);

} // namespace attnlab::unicode
