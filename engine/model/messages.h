#pragma once
/// The refusals of model/ (model files, PyTorch state dicts, running a model), one line each: a
/// code and the English text, %1 … %9 for the arguments (core/message.h, "Message tables").
/// Quoted arguments are user input escaped by printable() (text/printable.h); %1 of the
/// metadata lines is the key.

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kModelMessages[] = {
    // an Attention Lab model file's metadata (model/model_file.h)
    {"not_attnlab_model", QT_TRANSLATE_NOOP("attnlab::Messages", "not an Attention Lab model: the metadata has no 'format' (expected %1; docs/model-format.md)")},
    {"metadata_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is missing (docs/model-format.md)")},
    {"metadata_seed_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is missing (an open vocabulary needs it) (docs/model-format.md)")},
    {"metadata_not_integer", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is '%2', not a whole number (docs/model-format.md)")},
    {"metadata_range", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is %2 but must be between %3 and %4 (docs/model-format.md)")},
    {"metadata_not_bool", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is '%2' but must be true or false (docs/model-format.md)")},
    {"metadata_choice", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is '%2' but must be %3 or %4 (docs/model-format.md)")},
    {"metadata_not_value", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is '%2' but must be %3 (docs/model-format.md)")},
    {"metadata_not_positive", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is '%2' but must be a positive number (docs/model-format.md)")},
    {"metadata_not_json_array", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' is not a JSON array of strings (docs/model-format.md)")},
    {"metadata_empty_array", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' must be a non-empty JSON array of strings (docs/model-format.md)")},
    {"metadata_not_strings", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' must hold only strings (docs/model-format.md)")},
    {"metadata_twice", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' holds '%2' twice (docs/model-format.md)")},
    {"metadata_must_contain", QT_TRANSLATE_NOOP("attnlab::Messages", "metadata '%1' must contain %2 (docs/model-format.md)")},
    {"metadata_invalid_model", QT_TRANSLATE_NOOP("attnlab::Messages", "the metadata describes an invalid model")},
    {"write_learned_positions", QT_TRANSLATE_NOOP("attnlab::Messages", "a model with learned positions cannot be written: the model format has no position table")},
    {"write_positions", QT_TRANSLATE_NOOP("attnlab::Messages", "a model with %1 positions cannot be written: the model format stores sinusoidal positions or none")},
    {"shipped_model_unreadable", QT_TRANSLATE_NOOP("attnlab::Messages", "the shipped model cannot be read")},
    // PyTorch state dicts (model/state_dict.h, model/open.h)
    {"no_format_no_heads", QT_TRANSLATE_NOOP("attnlab::Messages", "not an Attention Lab model (its metadata has no 'format'): to read it as a PyTorch state dict of nn.Transformer's modules, give its number of heads (--heads H; and --norm, --activation, --layer-norm-eps when they are not PyTorch's defaults)")},
    {"not_state_dict", QT_TRANSLATE_NOOP("attnlab::Messages", "not an Attention Lab model, nor a PyTorch Transformer state dict: expected the names of an nn.TransformerEncoderLayer or DecoderLayer (self_attn.in_proj_weight, …), an nn.TransformerEncoder or Decoder (layers.0.…) or an nn.Transformer (encoder.layers.0.…)")},
    {"state_dict_layer_number", QT_TRANSLATE_NOOP("attnlab::Messages", "unknown tensor '%1': layers are numbered 0 … %2")},
    {"state_dict_no_d_model", QT_TRANSLATE_NOOP("attnlab::Messages", "missing tensor '%1' (its shape gives d_model)")},
    {"state_dict_d_model_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' has shape %2 but must be [d, d] with d_model from 1 to %3")},
    {"state_dict_no_d_ff", QT_TRANSLATE_NOOP("attnlab::Messages", "missing tensor '%1' (its shape gives d_ff)")},
    {"state_dict_d_ff_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' has shape %2 but must be [d_ff, d_model] with d_ff from 1 to %3")},
    {"state_dict_no_heads", QT_TRANSLATE_NOOP("attnlab::Messages", "a PyTorch state dict does not say how many heads its attention has: give them (--heads)")},
    {"weights_options", QT_TRANSLATE_NOOP("attnlab::Messages", "cannot read the weights with these options")},
    // running a model (model/model.h, model/run.h)
    {"not_in_source_vocabulary", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not in the model's source vocabulary")},
    {"not_in_target_vocabulary", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not in the model's target vocabulary")},
    {"model_width", QT_TRANSLATE_NOOP("attnlab::Messages", "d_model (%1) and heads (%2) must be the model's: d_model %3, heads %4")},
    {"no_model_chosen", QT_TRANSLATE_NOOP("attnlab::Messages", "no model: choose one in the settings")},
};

/// The line of kModelMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& modelMessage(std::string_view code)
{
    return messageIn(kModelMessages, code);
}

} // namespace attnlab
