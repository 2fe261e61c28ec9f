#pragma once
/// The added tokens of a tokenizer.json (text/hf_tokenizer.h): <|im_start|>, <s>, found in the
/// text before anything else touches it, as `tokenizers`' AddedVocabulary finds them.

#include "text/hf_steps.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::hf {

/// An entry of tokenizer.json's added_tokens.
struct AddedToken {
    std::string content;
    std::string pattern; ///< what is looked for: content, normalized when `normalized`
    int id = 0;
    bool singleWord = false;
    bool lstrip = false;
    bool rstrip = false;
    bool normalized = false;
    bool special = false;
};

/// Added tokens found leftmost-longest, as an Aho–Corasick automaton with that match kind would:
/// at each place the longest token that starts there.
class AddedTokenFinder {
public:
    void add(const AddedToken* token)
    {
        if (token->pattern.empty())
            return;
        auto& list = m_byFirstByte[static_cast<unsigned char>(token->pattern[0])];
        list.push_back(token);
        std::stable_sort(list.begin(), list.end(), [](const AddedToken* a, const AddedToken* b) { return a->pattern.size() > b->pattern.size(); });
        m_any = true;
    }

    bool empty() const { return !m_any; }

    /// The longest token at `pos` of `text`, or nullptr.
    const AddedToken* at(std::string_view text, std::size_t pos) const
    {
        for (const AddedToken* t : m_byFirstByte[static_cast<unsigned char>(text[pos])])
            if (text.substr(pos).starts_with(t->pattern))
                return t;
        return nullptr;
    }

private:
    std::array<std::vector<const AddedToken*>, 256> m_byFirstByte;
    bool m_any = false;
};

/// AddedVocabulary::find_matches: `piece` cut at the added tokens `finder` knows, with their
/// single_word, lstrip and rstrip rules. The pieces' atStart follows the text's start.
void splitAtAddedTokens(const Piece& piece, const AddedTokenFinder& finder, std::vector<Piece>& out);

} // namespace attnlab::hf
