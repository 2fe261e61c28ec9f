#pragma once
/// GPT-2's byte-level byte-pair encoding (docs/tokenizers.md), as OpenAI's encoder.py defines
/// it, with Hugging Face's handling of "<|endoftext|>":
///   1. "<|endoftext|>" (when in the vocabulary) is cut out of the text and stays one token;
///   2. the rest is cut into pieces by GPT-2's regex (unicode::gpt2Pieces);
///   3. each byte of a piece becomes a printable character (bytes_to_unicode: a space is "Ġ",
///      a newline "Ċ") and so a one-character token;
///   4. adjacent tokens are merged, the pair of lowest rank in merges.txt first, every occurrence
///      of it left to right, until no pair has a rank.
/// No BOS token is added. Errors in the files are FormatErrors (io/safetensors.h).

#include "text/subword.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

class BpeTokenizer { // GPT-2's byte-level BPE
public:
    /// vocab.json (an object token -> id) and merges.txt (an optional "#version" first line, then
    /// one "a b" pair per line, rank = order). Throws FormatError naming the file (by the given
    /// name) and the line or entry that is wrong (not JSON, a non-integer id, duplicate ids, a
    /// merge line without exactly two parts, a merge whose parts or result are not in the vocab, a
    /// token longer than subword::kMaxTokenBytes…).
    /// The ids must be 0 … n − 1, and every byte's character must be a token (so any text can be
    /// encoded). A pair listed twice takes its last rank, as encoder.py's dict does.
    static BpeTokenizer fromStrings(std::string_view vocabJson, std::string_view merges,
                                    std::string_view vocabName = "vocab.json", std::string_view mergesName = "merges.txt");
    /// Reads the two files (a missing/unreadable file: FormatError naming it).
    static BpeTokenizer fromFiles(const std::string& vocabPath, const std::string& mergesPath);

    /// The ids and vocabulary strings of `text` (UTF-8; invalid bytes encoded as the bytes they are,
    /// byte-level BPE can represent any byte). No BOS. "<|endoftext|>" (when in the vocabulary) is
    /// split out before the regex and stays one token, as Hugging Face does. The merges of each
    /// piece are remembered (shared by copies of the tokenizer, safe across threads), so typing
    /// one more character re-encodes only the piece it changed.
    SubwordEncoding encode(std::string_view text) const;
    /// The UTF-8 text of these ids (bytes joined; an incomplete sequence becomes U+FFFD). Throws
    /// std::out_of_range for an id outside the vocabulary.
    std::string decode(const std::vector<int>& ids) const;
    /// One token for people to read in the studio: its decoded bytes with a space shown as "␣",
    /// a newline as "↵", a tab as "⇥"; bytes that are not whole UTF-8, and other ASCII control
    /// characters, shown as "<0xE4>". Throws std::out_of_range outside the vocabulary.
    std::string display(int id) const;

    int size() const;
    std::optional<int> id(std::string_view token) const;
    const std::string& token(int id) const; ///< std::out_of_range outside

    /// "<|endoftext|>", GPT-2's one special token.
    static constexpr std::string_view kEndOfText = "<|endoftext|>";

private:
    BpeTokenizer() = default; // made by fromStrings / fromFiles
    struct Data;
    class Cache;
    std::vector<int> bpe(std::string_view piece) const;

    std::shared_ptr<const Data> m_data;
    std::shared_ptr<Cache> m_cache;
};

} // namespace attnlab
