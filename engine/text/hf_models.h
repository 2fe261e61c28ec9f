#pragma once
/// The "model" of a tokenizer.json (text/hf_tokenizer.h): what turns one pre-tokenized piece into
/// ids, as Hugging Face's `tokenizers` (Rust) computes it. One class per type, listed in
/// readModel's table: BPE, WordPiece, WordLevel.

#include "text/hf_json.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attnlab::hf {

/// A model's vocabulary: token ↔ id. The ids need not be dense (a hole has no token).
class ModelVocab {
public:
    /// Reads an object token → id; ids from 0 to 2^24 − 1, each at most once.
    static ModelVocab fromJson(const nlohmann::json& vocab, const JsonPlace& at);

    std::optional<int> id(std::string_view token) const;
    /// The token of `id`, or nullptr for an id that has none.
    const std::string* token(int id) const;
    /// The number of tokens (Rust's vocab.len(): where the added tokens' ids start).
    int count() const { return static_cast<int>(m_ids.size()); }
    /// The largest id + 1.
    int end() const { return static_cast<int>(m_tokens.size()); }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, int, Hash, std::equal_to<>> m_ids;
    std::vector<std::string> m_tokens;
    std::vector<bool> m_present;
};

class Model {
public:
    virtual ~Model() = default;
    /// Appends the ids of one piece (non-empty, valid UTF-8).
    virtual void tokenize(std::string_view piece, std::vector<int>& ids) const = 0;
    /// "BPE", "WordPiece", "WordLevel".
    virtual std::string_view type() const = 0;
    const ModelVocab& vocab() const { return m_vocab; }

protected:
    ModelVocab m_vocab;
};

/// The model of tokenizer.json's "model" object. Throws FormatError naming what is wrong, or the
/// type or option we do not compute (Unigram, BPE dropout).
std::unique_ptr<Model> readModel(const nlohmann::json& model, const JsonPlace& at);

} // namespace attnlab::hf
