#pragma once
/// The refusals of text/ (tokenizers and the files they read), one line each: a code and the
/// English text, %1 … %9 for the arguments (core/message.h, "Message tables"). Quoted arguments
/// are user input escaped by printable() (text/printable.h).

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kTextMessages[] = {
    {"token_id_outside", QT_TRANSLATE_NOOP("attnlab::Messages", "token id %1 is outside the vocabulary (0 … %2)")},
    // where in a file (a line, a value of tokenizer.json): the reason follows after ": "
    {"file_line", QT_TRANSLATE_NOOP("attnlab::Messages", "line %1")},
    {"json_file", QT_TRANSLATE_NOOP("attnlab::Messages", "%1")},
    {"json_place", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: %2")},
    // tokenizer.json (text/hf_json.h, text/hf_tokenizer.h); %1 of hf_not_json is the file's name as the caller wrote it
    {"hf_not_json", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: not JSON: %2")},
    {"json_expected_object", QT_TRANSLATE_NOOP("attnlab::Messages", "expected a JSON object, found %1")},
    {"json_key_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is missing")},
    {"json_expected_string", QT_TRANSLATE_NOOP("attnlab::Messages", "expected a string, found %1")},
    {"json_expected_bool", QT_TRANSLATE_NOOP("attnlab::Messages", "expected true or false, found %1")},
    {"json_expected_integer", QT_TRANSLATE_NOOP("attnlab::Messages", "expected a whole number from %1 to %2, found %3")},
    {"json_expected_list", QT_TRANSLATE_NOOP("attnlab::Messages", "expected a list, found %1")},
    {"template_single_a", QT_TRANSLATE_NOOP("attnlab::Messages", "a single sequence's template can hold $A only, found $%1")},
    {"template_special_unlisted", QT_TRANSLATE_NOOP("attnlab::Messages", "the template's special token '%1' is not listed")},
    {"template_token_id", QT_TRANSLATE_NOOP("attnlab::Messages", "expected a token id, found %1")},
    {"template_item", QT_TRANSLATE_NOOP("attnlab::Messages", "expected {\"Sequence\": …} or {\"SpecialToken\": …}")},
    {"template_pair", QT_TRANSLATE_NOOP("attnlab::Messages", "expected [token, id], found %1")},
    {"post_processor_unsupported", QT_TRANSLATE_NOOP("attnlab::Messages", "the post-processor '%1' is not supported (Attention Lab computes %2)")},
    {"added_token_long", QT_TRANSLATE_NOOP("attnlab::Messages", "the token is %1 bytes long, more than a token can be")},
    {"tokenizer_version", QT_TRANSLATE_NOOP("attnlab::Messages", "this is tokenizer.json version %1; Attention Lab reads version 1.0")},
    {"padding_fixed", QT_TRANSLATE_NOOP("attnlab::Messages", "padding every text to a fixed length is not supported")},
    {"special_not_in_vocabulary", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not in the vocabulary of %2")},
    {"add_bos_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "true, but there is no bos_token")},
    {"add_eos_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "true, but there is no eos_token")},
    {"special_id_outside", QT_TRANSLATE_NOOP("attnlab::Messages", "the special token id %1 is outside the vocabulary (0 … %2)")},
    // vocab.json and merges.txt (text/bpe.h): the file's name goes before, as in_file
    {"vocab_not_json", QT_TRANSLATE_NOOP("attnlab::Messages", "not JSON: %1")},
    {"vocab_not_object", QT_TRANSLATE_NOOP("attnlab::Messages", "expected a JSON object of token -> id, found %1")},
    {"vocab_token_long", QT_TRANSLATE_NOOP("attnlab::Messages", "the token '%1' is %2 bytes long, more than a token can be (%3 bytes)")},
    {"vocab_id_not_integer", QT_TRANSLATE_NOOP("attnlab::Messages", "the id of token '%1' is not an integer: %2")},
    {"vocab_id_outside", QT_TRANSLATE_NOOP("attnlab::Messages", "the id of token '%1', %2, is outside 0 … %3 (the ids must number the %4 tokens)")},
    {"vocab_same_id", QT_TRANSLATE_NOOP("attnlab::Messages", "tokens '%1' and '%2' have the same id %3")},
    {"merges_line_long", QT_TRANSLATE_NOOP("attnlab::Messages", "the line is %1 bytes long, more than two tokens can be (%2 bytes each): '%3'")},
    {"merges_two_tokens", QT_TRANSLATE_NOOP("attnlab::Messages", "expected two tokens separated by a space, found %1: '%2'")},
    {"merges_not_in_vocabulary", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not in the vocabulary ('%2')")},
    {"merges_result_not_in_vocabulary", QT_TRANSLATE_NOOP("attnlab::Messages", "the merge of '%1' and '%2', '%3', is not in the vocabulary ('%4')")},
    {"byte_no_token", QT_TRANSLATE_NOOP("attnlab::Messages", "the byte %1 has no token ('%2'); byte-level BPE needs one for each of the 256 bytes")},
    // vocab.txt (text/wordpiece.h)
    {"wordpiece_line_long", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1': line %2 is %3 bytes long, more than a token can be (%4 bytes; BERT reads words of up to %5 characters): '%6'")},
    {"wordpiece_line_utf8", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1': line %2 is not UTF-8: '%3'")},
    {"wordpiece_no_special", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1': the vocabulary has no %2 token (BERT needs [UNK], [CLS] and [SEP])")},
    // Unicode (text/unicode.h)
    {"pattern_error", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 at offset %2")},
    {"icu_no_normalization", QT_TRANSLATE_NOOP("attnlab::Messages", "ICU has no normalization data: %1")},
    {"icu_normalization_failed", QT_TRANSLATE_NOOP("attnlab::Messages", "normalization failed: %1")},
    {"icu_no_nfd", QT_TRANSLATE_NOOP("attnlab::Messages", "ICU has no NFD data: %1")},
    {"icu_nfd_failed", QT_TRANSLATE_NOOP("attnlab::Messages", "NFD failed: %1")},
};

/// The line of kTextMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& textMessage(std::string_view code)
{
    return messageIn(kTextMessages, code);
}

} // namespace attnlab
