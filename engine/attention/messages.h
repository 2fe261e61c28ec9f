#pragma once
/// The refusals of an attention block and of the attention kinds (nn/attention.cpp,
/// attention/), one line each: a code and the English text, %1 … %9 for the arguments
/// (core/message.h, "Message tables").

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kAttentionMessages[] = {
    {"block_heads", QT_TRANSLATE_NOOP("attnlab::Messages", "heads (%1) must be at least 1")},
    {"block_width", QT_TRANSLATE_NOOP("attnlab::Messages", "d_model (%1) must be a multiple of heads (%2)")},
    {"block_empty", QT_TRANSLATE_NOOP("attnlab::Messages", "attention needs at least one query and one key")},
    {"block_mask_size", QT_TRANSLATE_NOOP("attnlab::Messages", "the mask is %1 x %2 but must be %3 x %4 (queries x keys)")},
    {"block_cells", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 queries times %2 keys times heads (%3) exceeds %4 attention cells: use fewer tokens or heads")},
    {"block_input_width", QT_TRANSLATE_NOOP("attnlab::Messages", "the attention inputs have %1 and %2 columns but the weights' d_model is %3")},
    {"block_kv_heads", QT_TRANSLATE_NOOP("attnlab::Messages", "K and V (%1 wide) must hold a number of key/value heads of d_k = %2 that divides heads (%3)")},
    {"block_kv_divide", QT_TRANSLATE_NOOP("attnlab::Messages", "the key/value heads (%1) must divide the query heads (%2)")},
    {"block_score_scale", QT_TRANSLATE_NOOP("attnlab::Messages", "a score scale other than 1/√d_k (%1) is computed with full attention only")},
    {"features_range", QT_TRANSLATE_NOOP("attnlab::Messages", "features (%1) must be between 1 and %2")},
};

/// The line of kAttentionMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& attentionMessage(std::string_view code)
{
    return messageIn(kAttentionMessages, code);
}

} // namespace attnlab
