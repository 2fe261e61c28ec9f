#pragma once
/// The trained model Attention Lab ships (docs/shipped-model.md), built into the engine, so
/// every program that links the engine (the studio, the command line, the tests) has it.

#include "model/model.h"

#include <memory>
#include <string_view>

namespace attnlab {

/// The bytes of resources/models/reversal.safetensors as they were at build time.
std::string_view shippedModelBytes();

/// The shipped reversal model (source "built-in:reversal"), parsed on first use and shared by
/// every caller. Throws FormatError with the reason when it cannot be read (a broken build).
std::shared_ptr<const Seq2SeqModel> shippedModel();

} // namespace attnlab
