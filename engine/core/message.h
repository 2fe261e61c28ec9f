#pragma once
/// What the engine tells the user about a computation (warnings): a code and its arguments, from
/// which the interface writes the message in the user's language, and the English text, which the
/// trace JSON and the command line print. Every message the engine makes is one function here.

#include "core/stage_key.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

struct Message {
    std::string code;              ///< stable: "tokens_cut", "all_keys_masked", ...
    std::vector<std::string> args; ///< the values the message names, in the order listed below
    std::string text;              ///< the English text

    bool operator==(const Message&) const = default;
};

namespace messages {

/// invalid_utf8: the text had bytes that are not UTF-8 (replaced by U+FFFD). No arguments.
Message invalidUtf8();
/// tokens_cut {count, max}: the sentence had `count` tokens; only the first `max` are used.
Message tokensCut(long long count, long long max);
/// nothing_padded {count, padTo}: the sentence is longer than pad_to, so nothing was padded.
Message nothingPadded(long long count, long long padTo);
/// side_cut {side, count, max}: a model's source or target ("source", "target") was cut.
Message sideCut(const std::string& side, long long count, long long max);
/// not_in_vocabulary {token, side}: a token is not in the model's source or target vocabulary
/// and is read as <unk>.
Message notInVocabulary(const std::string& token, const std::string& side);
/// all_keys_masked {block, layer, query, token}: every key of query `query` (0-based) is hidden,
/// so its attention weights are all 0; `block` is the block's name ("" for a single attention
/// block) and `layer` its 0-based layer ("" outside layers).
Message allKeysMasked(Block block, std::optional<int> layer, long long query, const std::string& token);

} // namespace messages

/// The English texts of `messages`, in order.
std::vector<std::string> texts(const std::vector<Message>& messages);

} // namespace attnlab
