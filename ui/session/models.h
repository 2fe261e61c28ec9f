#pragma once
// The models Attention Lab ships inside the program (docs/shipped-model.md), read once.

#include "model/model.h"

#include <QString>

#include <memory>

namespace attnlab {

/// The path of the shipped reversal model inside the program's resources.
inline constexpr const char* kShippedModelResource = ":/models/reversal.safetensors";

/// The shipped trained model (source "built-in:reversal"), read on first use and shared; null
/// with the reason in `error` when it cannot be read (a broken build).
std::shared_ptr<const Seq2SeqModel> shippedModel(QString* error = nullptr);

/// Reads a model file (docs/model-format.md); null with the reason in `error` on failure.
std::shared_ptr<const Seq2SeqModel> readModelFile(const QString& path, QString* error);

} // namespace attnlab
