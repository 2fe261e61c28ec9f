#pragma once
/// The refusals of text/ (tokenizers and the files they read), one line each: a code and the
/// English text, %1 … %9 for the arguments (core/message.h, "Message tables"). Quoted arguments
/// are user input escaped by printable() (text/printable.h).

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kTextMessages[] = {
    {"token_id_outside", QT_TRANSLATE_NOOP("attnlab::Messages", "token id %1 is outside the vocabulary (0 … %2)")},
};

/// The line of kTextMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& textMessage(std::string_view code)
{
    return messageIn(kTextMessages, code);
}

} // namespace attnlab
