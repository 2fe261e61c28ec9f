#pragma once
/// Opening whatever a user points --model (or File ▸ Open model…) at: a Hugging Face model
/// folder (GPT-2, BERT), an Attention Lab model file, or a bare PyTorch state dict with the
/// options its file cannot say (model/state_dict.h).

#include "model/state_dict.h"

#include <optional>
#include <string>

namespace attnlab {

/// What kind of model a Seq2SeqModel came from.
enum class ModelOrigin {
    AttentionLab, ///< an Attention Lab model file, the shipped model or a seeded model
    StateDict,    ///< a bare PyTorch state dict (seeded embeddings, no head)
    Pretrained,   ///< a Hugging Face folder (GPT-2, BERT)
};
ModelOrigin originOf(const Seq2SeqModel& model);

/// True when `path` is a safetensors file without Attention Lab's metadata: opening it needs
/// StateDictOptions. False for a folder, a model file, or a file that cannot be read.
bool isBareStateDict(const std::string& path);

/// Opens `path`: a folder as a Hugging Face model; a file with Attention Lab's metadata as an
/// Attention Lab model; any other safetensors file as a bare state dict when `stateDict` is
/// given (else FormatError saying to give its heads). Throws FormatError naming the file.
Seq2SeqModel openModel(const std::string& path, const std::optional<StateDictOptions>& stateDict = std::nullopt);

} // namespace attnlab
