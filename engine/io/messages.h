#pragma once
/// The refusals of io/ (safetensors files, tensors read from them), one line each: a code and
/// the English text, %1 … %9 for the arguments (core/message.h, "Message tables"). Quoted
/// arguments are user input escaped by printable() (text/printable.h).

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kIoMessages[] = {
    // safetensors files (io/safetensors.h)
    {"safetensors_too_short", QT_TRANSLATE_NOOP("attnlab::Messages", "not a safetensors file: it has %1 bytes, fewer than the 8-byte header length")},
    {"safetensors_header_length", QT_TRANSLATE_NOOP("attnlab::Messages", "not a safetensors file: header length %1 is outside 1..%2")},
    {"safetensors_truncated_header", QT_TRANSLATE_NOOP("attnlab::Messages", "truncated safetensors file: the header needs %1 bytes but only %2 follow")},
    {"safetensors_header_values", QT_TRANSLATE_NOOP("attnlab::Messages", "the safetensors header holds more than %1 JSON values (no tensor file needs that many)")},
    {"safetensors_tensor_twice", QT_TRANSLATE_NOOP("attnlab::Messages", "the header names tensor '%1' twice")},
    {"safetensors_key_twice", QT_TRANSLATE_NOOP("attnlab::Messages", "the header has the key '%1' twice")},
    {"safetensors_header_json", QT_TRANSLATE_NOOP("attnlab::Messages", "safetensors header is not valid JSON: %1")},
    {"safetensors_header_object", QT_TRANSLATE_NOOP("attnlab::Messages", "safetensors header is not a JSON object")},
    {"safetensors_metadata_object", QT_TRANSLATE_NOOP("attnlab::Messages", "safetensors __metadata__ is not an object")},
    {"safetensors_metadata_value", QT_TRANSLATE_NOOP("attnlab::Messages", "safetensors __metadata__ value '%1' is not a string")},
    {"safetensors_overlap", QT_TRANSLATE_NOOP("attnlab::Messages", "tensors '%1' [%2, %3) and '%4' [%5, %6) overlap in the data section")},
    {"tensor_entry", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1'")},
    {"entry_not_object", QT_TRANSLATE_NOOP("attnlab::Messages", "its header entry is not an object")},
    {"entry_no_dtype", QT_TRANSLATE_NOOP("attnlab::Messages", "no dtype")},
    {"entry_unknown_dtype", QT_TRANSLATE_NOOP("attnlab::Messages", "dtype %1 is not a safetensors dtype")},
    {"entry_no_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "no shape")},
    {"entry_shape_entries", QT_TRANSLATE_NOOP("attnlab::Messages", "shape entries must be non-negative integers")},
    {"entry_shape_too_large", QT_TRANSLATE_NOOP("attnlab::Messages", "shape is too large")},
    {"entry_offsets", QT_TRANSLATE_NOOP("attnlab::Messages", "data_offsets must be two non-negative integers")},
    {"entry_offsets_outside", QT_TRANSLATE_NOOP("attnlab::Messages", "data_offsets [%1, %2] lie outside the %3 data bytes (truncated file?)")},
    {"entry_size", QT_TRANSLATE_NOOP("attnlab::Messages", "holds %1 bytes but its shape and dtype need %2")},
    {"dtype_not_float", QT_TRANSLATE_NOOP("attnlab::Messages", "dtype %1 is not a floating-point type")},
    {"dtype_unsupported", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1': dtype %2 is not supported (use F32, F64, F16 or BF16)")},
    {"in_file", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1'")},
    // a safetensors file mapped into memory (io/mapped_safetensors.h)
    {"mapped_directory", QT_TRANSLATE_NOOP("attnlab::Messages", "it is a directory, not a regular file")},
    {"mapped_fifo", QT_TRANSLATE_NOOP("attnlab::Messages", "it is a pipe (FIFO), not a regular file")},
    {"mapped_character_device", QT_TRANSLATE_NOOP("attnlab::Messages", "it is a device (character special file), not a regular file")},
    {"mapped_block_device", QT_TRANSLATE_NOOP("attnlab::Messages", "it is a device (block special file), not a regular file")},
    {"mapped_socket", QT_TRANSLATE_NOOP("attnlab::Messages", "it is a socket, not a regular file")},
    {"mapped_not_regular", QT_TRANSLATE_NOOP("attnlab::Messages", "it is not a regular file")},
    {"mapped_cannot_map", QT_TRANSLATE_NOOP("attnlab::Messages", "cannot map the file: %1")},
    {"mapped_no_tensor", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1': no tensor '%2'")},
    // the tensors a reader takes by name (io/tensor_reader.h, families/tensor_names.h); %2 is a shape, "[768, 2304]"
    {"tensor_missing", QT_TRANSLATE_NOOP("attnlab::Messages", "missing tensor '%1' %2")},
    {"tensor_shape", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' has shape %2 but must be %3")},
    {"tensor_not_finite", QT_TRANSLATE_NOOP("attnlab::Messages", "tensor '%1' holds non-finite values (inf or NaN)")},
    {"tensor_unknown", QT_TRANSLATE_NOOP("attnlab::Messages", "unknown tensor '%1' %2")},
};

/// The line of kIoMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& ioMessage(std::string_view code)
{
    return messageIn(kIoMessages, code);
}

} // namespace attnlab
