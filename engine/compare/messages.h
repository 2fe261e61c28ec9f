#pragma once
/// The refusals of compare/ (a comparison as the command line and a lesson write it:
/// "pe=learned", "seed=7", a sentence), one line each: a code and the English text, %1 … %9 for
/// the arguments (core/message.h, "Message tables"). Quoted arguments are user input escaped by
/// printable() (text/printable.h).

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kCompareMessages[] = {
    {"compare_unknown", QT_TRANSLATE_NOOP("attnlab::Messages", "unknown comparison '%1' (expected a sentence, or sentence=, pe=, scale=, mask= or seed=)")},
    {"compare_pe", QT_TRANSLATE_NOOP("attnlab::Messages", "pe: '%1' is not one of sinusoidal, learned, none")},
    {"compare_scale", QT_TRANSLATE_NOOP("attnlab::Messages", "scale: '%1' is not on or off")},
    {"compare_mask", QT_TRANSLATE_NOOP("attnlab::Messages", "mask: '%1' is not one of none, causal, padding, causal+padding")},
    {"compare_seed", QT_TRANSLATE_NOOP("attnlab::Messages", "seed: '%1' is not a whole number from 0 to 18446744073709551615")},
};

/// The line of kCompareMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& compareMessage(std::string_view code)
{
    return messageIn(kCompareMessages, code);
}

} // namespace attnlab
