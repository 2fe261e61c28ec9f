#pragma once
/// What the two subword tokenizers share (docs/tokenizers.md): the encoding they return and the
/// vocabulary (id ↔ token string) they look tokens up in.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attnlab {

/// One text as a subword tokenizer splits it.
struct SubwordEncoding {
    std::vector<int> ids;            ///< vocabulary ids
    std::vector<std::string> tokens; ///< the vocabulary strings: "Ġworld", "##ing", "[CLS]"
    std::vector<int> segmentIds;     ///< WordPiece: 0 or 1 per token (token_type_ids); empty for BPE
};

/// A tokenizer's vocabulary: token strings numbered 0 … size − 1. When a string appears twice,
/// id() gives its last id (as a Python dict built in order does); token() gives each id's own.
class Vocabulary {
public:
    Vocabulary() = default;
    explicit Vocabulary(std::vector<std::string> tokens);

    int size() const { return static_cast<int>(m_tokens.size()); }
    std::optional<int> id(std::string_view token) const;
    /// Throws std::out_of_range for an id outside 0 … size − 1.
    const std::string& token(int id) const;

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> m_tokens;
    std::unordered_map<std::string, int, Hash, std::equal_to<>> m_ids;
};

namespace subword {

/// The longest vocabulary token read (in bytes). Hugging Face's WordPiece never makes a token of
/// a word over 100 characters (max_input_chars_per_word) and GPT-2's longest token is 128 bytes:
/// a longer line is not a token but a damaged file, whose one line would otherwise cost
/// gigabytes (a vocabulary's trie holds a node for every byte).
inline constexpr std::size_t kMaxTokenBytes = 1024;

/// The start of `text` for a message: at most 60 bytes (cut at a character), then "…".
std::string shortText(std::string_view text);
/// shortText(text) in quotes, its control characters escaped (inQuotes).
std::string shortQuote(std::string_view text);

/// The bytes of a tokenizer file. Throws FormatError (io/safetensors.h) naming the file and why
/// it cannot be read (missing, a folder, unreadable, over 256 MB).
std::string readFile(const std::string& path);

/// What a token stands for, for people to read in the studio: its bytes as text, a space shown
/// as "␣", a newline as "↵", a tab as "⇥"; bytes that are not whole UTF-8 (half of a Chinese
/// character) and other ASCII control characters as "<0xE4>".
std::string readableBytes(std::string_view bytes);

/// The tokens of `encoding.ids` looked up in `vocabulary`.
void fillTokens(SubwordEncoding& encoding, const Vocabulary& vocabulary);

} // namespace subword

} // namespace attnlab
