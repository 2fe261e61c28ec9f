#pragma once
// The engine's messages (engine/core/message.h) in the interface's language: written from their
// code and arguments, so the Chinese interface shows Chinese warnings.

#include "core/message.h"

#include <QString>

#include <exception>

namespace attnlab {

struct PretrainedModel;

/// The message in the current language; its English text when the code is not known here.
QString messageText(const Message& message);
/// What went wrong, in the current language: the message an exception carries (an engine Error,
/// a FileError), else the exception's own (English) text.
QString errorText(const std::exception& e);
/// The model families Attention Lab opens, by name, in the order of the family table and the
/// interface's language: "GPT-2, BERT, Llama, Mistral, Qwen2, Qwen3" (what a menu, a hint or a
/// refusal lists, so that none of them falls behind the table).
QString modelFamilyNames();
/// The same, only the families that write on after a text (the decoders): "GPT-2, Llama, …".
QString decoderFamilyNames();
/// The name of `model`'s family ("GPT-2", "Llama", "Qwen3"), or "the model" (translated) without one.
QString familyTitle(const PretrainedModel* model);
/// `text` followed by the sentence `next`: after a space in English, right after the full stop
/// in Chinese (which puts no space between sentences). Either may be empty.
QString appendSentence(const QString& text, const QString& next);

} // namespace attnlab
