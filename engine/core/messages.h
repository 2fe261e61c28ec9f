#pragma once
/// The refusals of core/ (the settings of a run, core/config.h), one line each: a code and the
/// English text, %1 … %9 for the arguments (core/message.h, "Message tables").

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kCoreMessages[] = {
    // a run's settings (Config::problems)
    {"max_tokens_range", QT_TRANSLATE_NOOP("attnlab::Messages", "max_tokens (%1) must be between 1 and %2")},
    {"pad_to_negative", QT_TRANSLATE_NOOP("attnlab::Messages", "pad_to (%1) must be 0 (no padding) or a positive length")},
    {"pad_to_max_tokens", QT_TRANSLATE_NOOP("attnlab::Messages", "pad_to (%1) must not exceed max_tokens (%2)")},
    // %1 is an attention kind ("linformer") or a position scheme ("rope")
    {"kind_model", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 attention is for one attention block and for seeded encoder stacks; this model uses full attention")},
    {"linformer_causal", QT_TRANSLATE_NOOP("attnlab::Messages", "linformer attention cannot use a causal mask: each projected key mixes every position, later ones included; use no mask or the padding mask")},
    {"kind_custom_mask", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 attention takes no mask, a causal or a padding mask, not a custom one")},
    {"positions_model", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 positions are for one attention block and for seeded models; a trained model keeps the positions it was trained with")},
    {"xl_custom_mask", QT_TRANSLATE_NOOP("attnlab::Messages", "xl positions are causal by themselves (each segment sees its memory and the tokens up to itself); they take no mask, a causal or a padding mask, not a custom one")},
    {"custom_mask_transformer", QT_TRANSLATE_NOOP("attnlab::Messages", "a custom mask is for one attention block; a Transformer takes no mask, a causal or a padding mask")},
};

/// The line of kCoreMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& coreMessage(std::string_view code)
{
    return messageIn(kCoreMessages, code);
}

} // namespace attnlab
