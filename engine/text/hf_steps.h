#pragma once
/// The steps of a tokenizer.json around its model (text/hf_tokenizer.h): normalizers,
/// pre-tokenizers and decoders, each as Hugging Face's `tokenizers` (Rust) computes it, one
/// entry per type in a table of its kind. A type we do not compute is refused by name.

#include "text/hf_json.h"

#include <functional>
#include <string>
#include <vector>

namespace attnlab::hf {

/// A stretch of text on its way to the model: a part between added tokens, then a pre-token.
struct Piece {
    std::string text;
    int addedId = -1;     ///< ≥ 0: an added token's id (steps leave such a piece alone)
    bool atStart = false; ///< begins where the input begins (Metaspace's prepend_scheme "first")
};

/// Changes one piece's text (NFC, Lowercase, Prepend, Replace, …); null for "no normalizer".
using Normalizer = std::function<void(std::string& text)>;
/// Cuts the pieces (added tokens are left whole) into smaller ones; null for none.
using PreTokenizer = std::function<void(std::vector<Piece>& pieces)>;
/// Turns the tokens' strings into text, piece by piece (decode_chain); null for none.
using Decoder = std::function<void(std::vector<std::string>& tokens)>;

/// How a tokenizer.json's tokens spell their text, read from its steps: GPT-2's byte alphabet
/// (a ByteLevel step), SentencePiece's "▁" for a space with <0xNN> byte tokens, or plainly.
enum class TokenSpelling {
    Plain,
    ByteLevel,
    Metaspace,
};

struct Steps {
    Normalizer normalizer;
    PreTokenizer preTokenizer;
    Decoder decoder;
    TokenSpelling spelling = TokenSpelling::Plain;
    /// ByteLevel's add_prefix_space where the pre-tokenizer has a ByteLevel step (else empty).
    std::optional<bool> byteLevelPrefixSpace;
};

/// Reads tokenizer.json's "normalizer", "pre_tokenizer" and "decoder" (each may be null) into
/// `steps`. Throws FormatError naming the step and what is wrong or not supported.
void readNormalizer(const nlohmann::json& j, const JsonPlace& at, Steps& steps);
void readPreTokenizer(const nlohmann::json& j, const JsonPlace& at, Steps& steps);
void readDecoder(const nlohmann::json& j, const JsonPlace& at, Steps& steps);

/// GPT-2's bytes_to_unicode: the character that stands for each byte.
const std::array<char32_t, 256>& byteCharacters();
/// The byte a character of that alphabet stands for, or -1.
int byteOfCharacter(char32_t c);

} // namespace attnlab::hf
