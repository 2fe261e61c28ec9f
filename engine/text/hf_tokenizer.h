#pragma once
/// Hugging Face's tokenizer.json (docs/tokenizers.md, "tokenizer.json"), the tokenizer file the
/// models of today ship (Qwen, SmolLM2, Llama 3, TinyLlama, Gemma, BERT), run as Hugging Face's
/// `tokenizers` library runs it:
///   1. the added tokens (<|im_start|>, <|endoftext|>, <s>) are found in the raw text first, the
///      longest at the leftmost place, with their single_word, lstrip and rstrip flags; each stays
///      one token (those marked "normalized" are looked for after step 2 instead);
///   2. the normalizer (NFC, NFKC, Lowercase, Prepend, Replace, …) runs on the text between them;
///   3. the pre-tokenizer (Split by a regex, ByteLevel, Metaspace, Digits, …) cuts it into pieces;
///   4. the model turns each piece into ids: BPE (byte-level, or SentencePiece-style with
///      byte_fallback to <0xNN> tokens and fuse_unk), WordPiece or WordLevel;
///   5. the post-processor (TemplateProcessing, …) puts BOS/EOS around them; for the Llama and
///      Gemma tokenizer classes, tokenizer_config.json's add_bos_token / add_eos_token decide,
///      as transformers rebuilds the template from them.
/// A type or option we do not compute (a Unigram model, BPE dropout, a Precompiled normalizer)
/// is refused by name with a FormatError, never skipped. The text-side pieces live in
/// text/hf_steps.h and text/hf_models.h.

#include "text/subword.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

class HfTokenizer {
public:
    /// tokenizer.json and, when not empty, tokenizer_config.json (their texts; the names are
    /// for messages). Throws FormatError naming the file, the place in it and what is wrong or
    /// not supported: "'q/tokenizer.json': pre_tokenizer.type: the pre-tokenizer 'UnicodeScripts'
    /// is not supported (Attention Lab computes Split, ByteLevel, …)".
    static HfTokenizer fromStrings(std::string_view tokenizerJson, std::string_view tokenizerConfigJson = {},
                                   std::string_view name = "tokenizer.json", std::string_view configName = "tokenizer_config.json");
    /// FOLDER/tokenizer.json with FOLDER/tokenizer_config.json when it is there.
    static HfTokenizer fromFolder(const std::string& folder);

    /// The ids of `text` (UTF-8; bytes that are not UTF-8 are read as U+FFFD first) and their
    /// vocabulary strings ("Ġworld", "▁the", "<|im_start|>"), with the post-processor's BOS/EOS
    /// when `addSpecialTokens` (Hugging Face's add_special_tokens). segmentIds stays empty. The
    /// model's pieces are remembered, so typing one more character re-encodes only its piece.
    SubwordEncoding encode(std::string_view text, bool addSpecialTokens = true) const;
    /// The text of these ids as the file's decoder makes it (special tokens kept unless
    /// `skipSpecialTokens`). Throws std::out_of_range for an id outside 0 … size − 1.
    std::string decode(const std::vector<int>& ids, bool skipSpecialTokens = false) const;
    /// One token for people to read in the studio: the text it stands for (byte-level strings
    /// decoded, "▁" and <0xNN> tokens made their space and byte), a space shown as "␣", a newline
    /// as "↵", bytes that are not whole UTF-8 as "<0xE4>" (subword::readableBytes); an added token
    /// as it is written; an id without a token "<id 7>". Throws std::out_of_range outside.
    std::string display(int id) const;

    /// The largest id + 1 (model and added tokens).
    int size() const;
    /// The id of a token string: an added token's, else the model's.
    std::optional<int> id(std::string_view token) const;
    /// The token string of `id` (empty for an id without a token). Throws std::out_of_range outside.
    const std::string& token(int id) const;
    /// True for an added token marked special (<|endoftext|>, <s>).
    bool isSpecial(int id) const;
    /// tokenizer_config.json's bos_token / eos_token, when set and in the vocabulary.
    std::optional<int> bosId() const;
    std::optional<int> eosId() const;

    struct Data; ///< what the file describes, ready to run (hf_tokenizer.cpp)

private:
    HfTokenizer() = default; // made by fromStrings / fromFolder
    std::shared_ptr<const Data> m_data;
};

/// The tokenizer of a Hugging Face model folder when it has a tokenizer.json (read with its
/// tokenizer_config.json); nullptr when it has none. Throws FormatError as fromStrings.
std::shared_ptr<const HfTokenizer> loadFolderTokenizer(const std::string& folder);

} // namespace attnlab
