#pragma once
/// The refusals of pretrained/ (Hugging Face model folders, their passes and generation), one
/// line each: a code and the English text, %1 … %9 for the arguments (core/message.h, "Message
/// tables"). Quoted arguments are user input escaped by printable() (text/printable.h); a %1
/// without quotes around it is a name the caller wrote, quotes and all ("'/m/config.json'").

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kPretrainedMessages[] = {
    // a model folder (pretrained/model_folder.h)
    {"folder_not_folder", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not a folder")},
    {"folder_no_config", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has no config.json (a Hugging Face model folder has config.json, model.safetensors and the tokenizer's files)")},
    {"folder_pytorch_only", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has pytorch_model.bin but no model.safetensors: Attention Lab reads safetensors only; convert it with scripts/convert_to_safetensors.py FOLDER (needs PyTorch) or download the model's model.safetensors")},
    {"folder_no_safetensors", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has no model.safetensors")},
    {"folder_json_invalid", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not valid JSON: %2")},
    {"folder_lower_case", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1': do_lower_case must be true or false")},
    {"folder_no_weight_map", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has no weight_map naming the shards")},
    {"folder_shard_name", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1': weight_map puts '%2' in '%3', not a file name in the folder")},
    {"folder_shard_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is missing (model.safetensors.index.json names it)")},
    {"folder_shard_lacks_tensor", QT_TRANSLATE_NOOP("attnlab::Messages", "model.safetensors.index.json puts tensor '%1' in '%2', which does not hold it")},
    {"folder_no_tokenizer_json", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has no tokenizer.json (%2's tokenizer needs tokenizer.json, or vocab.json and merges.txt)")},
    {"folder_no_bpe_file", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has no %2 (%3's tokenizer needs vocab.json and merges.txt)")},
    {"folder_no_vocab_txt", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has no vocab.txt (%2's tokenizer needs it)")},
    {"folder_tokenizer_size", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' has %2 tokens but config.json's vocab_size is %3")},
    {"pretrained_width", QT_TRANSLATE_NOOP("attnlab::Messages", "d_model and heads must be the model's: d_model %1, heads %2")},
    // config.json (pretrained/hf_config.h); %1 is the file's name as the caller wrote it
    {"config_invalid_json", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 is not valid JSON: %2")},
    {"config_not_object", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 is not a JSON object")},
    {"config_model_type", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: model_type is '%2' but Attention Lab opens %3")},
    {"config_heads_divide", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2 (%3) must be a multiple of %4 (%5)")},
    // a pass and generation (pretrained/forward.h, pretrained/generate.h)
    {"pretrained_positions", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 tokens are more than the model's %2 positions")},
    {"pretrained_segment_id", QT_TRANSLATE_NOOP("attnlab::Messages", "segment id %1 is outside the model's %2 token types")},
    {"pretrained_no_position", QT_TRANSLATE_NOOP("attnlab::Messages", "the model has no position after %1 tokens")},
    {"prompt_positions", QT_TRANSLATE_NOOP("attnlab::Messages", "the prompt's %1 tokens are more than the model's %2 positions")},
    {"prompt_token_id", QT_TRANSLATE_NOOP("attnlab::Messages", "token id %1 is outside the vocabulary")},
    {"max_new_tokens_range", QT_TRANSLATE_NOOP("attnlab::Messages", "max_new_tokens (%1) must be between 1 and %2")},
    {"temperature_positive", QT_TRANSLATE_NOOP("attnlab::Messages", "the temperature must be a positive number")},
    {"top_k_negative", QT_TRANSLATE_NOOP("attnlab::Messages", "top-k must be 0 (every token) or more")},
    {"top_p_range", QT_TRANSLATE_NOOP("attnlab::Messages", "top-p must be above 0 and at most 1")},
};

/// The line of kPretrainedMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& pretrainedMessage(std::string_view code)
{
    return messageIn(kPretrainedMessages, code);
}

} // namespace attnlab
