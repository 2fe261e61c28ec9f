#pragma once
/// The refusals of families/ (a checkpoint's config.json keys and tensor names), one line each:
/// a code and the English text, %1 … %9 for the arguments (core/message.h, "Message tables").
/// Quoted arguments are user input escaped by printable() (text/printable.h); %1 of the config
/// lines is the file's name as the caller wrote it ("'/m/config.json'").

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kFamiliesMessages[] = {
    // config.json's keys (families/config_reader.h)
    {"config_key_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 is missing")},
    {"config_key_not_integer", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 must be a whole number, not %3")},
    {"config_key_range", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 is %3 but Attention Lab opens %4 to %5")},
    {"config_key_not_small_positive", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 must be a small positive number, not %3")},
    {"config_key_not_string", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 must be a string, not %3")},
    {"config_key_activation", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 is '%3' but Attention Lab computes gelu_new, gelu and relu")},
    // a checkpoint's tensors by name (families/tensor_names.h)
    {"tensor_twice", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' appears twice, as '%2' and '%3'")},
    {"tensor_twice_in", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' appears twice, as '%2' and '%3' (in '%4')")},
    {"tensor_dtype_read", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' is %2; Attention Lab reads F32, F16 and BF16")},
};

/// The line of kFamiliesMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& familiesMessage(std::string_view code)
{
    return messageIn(kFamiliesMessages, code);
}

} // namespace attnlab
