#pragma once
/// BERT's tokenizer (docs/tokenizers.md) as Hugging Face's tokenization_bert.py defines it:
///   1. the special tokens typed in the text ([CLS] [SEP] [MASK] [PAD] [UNK], case as written)
///      are cut out and stay whole; with do_lower_case the rest is lower-cased (Python's
///      str.lower, one character at a time, as PreTrainedTokenizer.tokenize does);
///   2. the basic tokenizer: U+0000, U+FFFD and other characters of category C* dropped (tab,
///      newline and carriage return are white space), white space made a space, a space put
///      around every CJK ideograph, the text split at white space; with do_lower_case each word
///      is put in NFD and its nonspacing marks (Mn) dropped (accents stripped); each punctuation
///      character (ASCII 33–47, 58–64, 91–96, 123–126, or category P*) made a word of its own;
///   3. WordPiece: each word becomes the longest vocabulary token it starts with, then the
///      longest "##" token the rest starts with, and so on; a word with a part that matches
///      nothing, or longer than 100 characters, is one [UNK].
/// Invalid UTF-8 in the text becomes U+FFFD, which step 2 drops. Errors in the vocabulary file
/// are FormatErrors (io/safetensors.h).

#include "text/subword.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

class WordPieceTokenizer { // BERT's basic tokenizer + greedy longest-match-first WordPiece
public:
    /// vocab.txt (one token per line, id = line number; a trailing empty line ignored). Needs
    /// [UNK], [CLS] and [SEP] (FormatError naming the missing one). doLowerCase also strips accents
    /// (tokenize_chinese_chars true, as bert-base-uncased's tokenizer_config.json).
    /// Lines end at "\n", "\r\n" or "\r" (Python's universal newlines); each must be UTF-8 and at
    /// most subword::kMaxTokenBytes long (FormatError naming the line).
    static WordPieceTokenizer fromString(std::string_view vocabTxt, bool doLowerCase, std::string_view name = "vocab.txt");
    static WordPieceTokenizer fromFile(const std::string& path, bool doLowerCase);

    /// [CLS] A [SEP], or [CLS] A [SEP] B [SEP] when b is given; segmentIds 0 for [CLS], A and the
    /// first [SEP], 1 for B and the last [SEP]. The special tokens [CLS] [SEP] [MASK] [PAD] [UNK]
    /// typed in the text stay whole even with punctuation or letters touching them
    /// ("the [MASK]." -> the, [MASK], .), and are not lower-cased. One missing from the
    /// vocabulary is [UNK], as Hugging Face's convert_tokens_to_ids makes it.
    SubwordEncoding encode(std::string_view a, std::optional<std::string_view> b = std::nullopt) const;
    /// Hugging Face's convert_tokens_to_string: tokens joined with spaces, "##" pieces glued on.
    /// Throws std::out_of_range for an id outside the vocabulary.
    std::string decode(const std::vector<int>& ids) const;

    int size() const;
    bool doLowerCase() const;
    std::optional<int> id(std::string_view token) const;
    const std::string& token(int id) const; ///< std::out_of_range outside

    /// The special tokens of BertTokenizer (all_special_tokens).
    static constexpr std::array<std::string_view, 5> kSpecialTokens{"[UNK]", "[SEP]", "[PAD]", "[CLS]", "[MASK]"};
    /// WordpieceTokenizer's max_input_chars_per_word: a longer word is [UNK].
    static constexpr std::size_t kMaxInputCharsPerWord = 100;

private:
    WordPieceTokenizer() = default; // made by fromString / fromFile
    struct Data;
    void encodeText(std::string_view text, std::vector<int>& ids) const;
    std::vector<std::u32string> basicTokenize(const std::u32string& text) const;
    void wordPiece(const std::u32string& word, std::vector<int>& ids) const;

    std::shared_ptr<const Data> m_data;
};

} // namespace attnlab
