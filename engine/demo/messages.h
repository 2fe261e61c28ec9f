#pragma once
/// The refusals of demo/ (the softmax-scaling demonstration), one line each: a code and the
/// English text, %1 … %9 for the arguments (core/message.h, "Message tables").

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kDemoMessages[] = {
    {"scaling_d_k", QT_TRANSLATE_NOOP("attnlab::Messages", "d_k (%1) must lie between 1 and the example's dimension (%2)")},
};

/// The line of kDemoMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& demoMessage(std::string_view code)
{
    return messageIn(kDemoMessages, code);
}

} // namespace attnlab
