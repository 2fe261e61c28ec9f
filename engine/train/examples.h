#pragma once
/// Training pairs as a model reads them (docs/training.md): the source tokenized and looked up
/// in the source vocabulary; the decoder input <sos> + target and the labels target + <eos> in
/// the target vocabulary (teacher forcing, docs/model-format.md).

#include "core/message.h"
#include "model/model.h"
#include "train/network.h"

#include <string_view>
#include <vector>

namespace attnlab::train {

/// The pair (source, target) as `model` reads it: tokens outside a vocabulary become <unk>
/// (with a warning naming them). Throws std::invalid_argument for an empty source, or a model
/// without vocabularies.
Example exampleOf(const Seq2SeqModel& model, std::string_view source, std::string_view target, std::vector<Message>& warnings);

/// The number of label tokens of examples [first, last): the loss's N.
std::size_t labelTokens(const std::vector<Example>& examples, std::size_t first, std::size_t last);
/// The longest source or decoder input of `examples`.
int longestSequence(const std::vector<Example>& examples);

} // namespace attnlab::train
