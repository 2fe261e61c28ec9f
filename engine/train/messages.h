#pragma once
/// The refusals of train/ (training options, task files, models that cannot be trained), one
/// line each: a code and the English text, %1 … %9 for the arguments (core/message.h, "Message
/// tables"). Quoted arguments are user input escaped by printable() (text/printable.h).

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kTrainMessages[] = {
    // what can be trained (train/network.h, train/examples.h, train/tasks.h)
    {"train_own_vocabularies", QT_TRANSLATE_NOOP("attnlab::Messages", "only an encoder–decoder model with its own vocabularies can be trained")},
    {"train_no_decoder_or_head", QT_TRANSLATE_NOOP("attnlab::Messages", "the model has no decoder or no output head to train")},
    {"train_positions", QT_TRANSLATE_NOOP("attnlab::Messages", "a model is trained with sinusoidal positions or none")},
    {"train_only_own_vocabularies", QT_TRANSLATE_NOOP("attnlab::Messages", "only a model with its own vocabularies can be trained")},
    {"train_source_no_tokens", QT_TRANSLATE_NOOP("attnlab::Messages", "the source has no tokens")},
    {"train_not_in_vocabulary", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not in the model's vocabulary")},
    {"train_decoder_layer", QT_TRANSLATE_NOOP("attnlab::Messages", "a trained model needs at least one decoder layer")},
    // the options of a training run (train/trainer.h, train/optimizer.h)
    {"train_steps_min", QT_TRANSLATE_NOOP("attnlab::Messages", "--steps (%1) must be at least 1")},
    {"train_steps_max", QT_TRANSLATE_NOOP("attnlab::Messages", "--steps (%1) must be at most %2")},
    {"train_batch", QT_TRANSLATE_NOOP("attnlab::Messages", "--batch (%1) must be 1 to 4096 pairs")},
    {"train_label_smoothing", QT_TRANSLATE_NOOP("attnlab::Messages", "--label-smoothing (%1) must be at least 0 and less than 1")},
    {"train_clip_norm", QT_TRANSLATE_NOOP("attnlab::Messages", "--clip-norm (%1) must be a positive number")},
    {"train_threads", QT_TRANSLATE_NOOP("attnlab::Messages", "--threads (%1) must be 1 to 64")},
    {"train_batch_all_file", QT_TRANSLATE_NOOP("attnlab::Messages", "--batch-all trains on every line of a file: give --task FILE.tsv")},
    {"train_learning_rate", QT_TRANSLATE_NOOP("attnlab::Messages", "the learning rate (%1) must be a positive number")},
    {"train_warmup", QT_TRANSLATE_NOOP("attnlab::Messages", "the warm-up (%1) must be 0 or more steps")},
    {"train_longest_string", QT_TRANSLATE_NOOP("attnlab::Messages", "the longest string (%1) must be 1 to 64 characters")},
    // a task file, source<TAB>target per line (train/tasks.h): "%1:%2" is the file and the line, the reason follows
    {"task_file_line", QT_TRANSLATE_NOOP("attnlab::Messages", "%1:%2")},
    {"task_binary", QT_TRANSLATE_NOOP("attnlab::Messages", "binary data (a NUL byte): a training file is UTF-8 text, one source<TAB>target pair per line")},
    {"task_not_utf8", QT_TRANSLATE_NOOP("attnlab::Messages", "not UTF-8 text: a training file is UTF-8 text, one source<TAB>target pair per line")},
    {"task_no_tab", QT_TRANSLATE_NOOP("attnlab::Messages", "no TAB: expected source<TAB>target")},
    {"task_tabs", QT_TRANSLATE_NOOP("attnlab::Messages", "%1 TABs: expected source<TAB>target")},
    {"task_source_empty", QT_TRANSLATE_NOOP("attnlab::Messages", "the source has no tokens: expected source<TAB>target")},
    {"task_target_empty", QT_TRANSLATE_NOOP("attnlab::Messages", "the target has no tokens: expected source<TAB>target")},
    {"task_source_long", QT_TRANSLATE_NOOP("attnlab::Messages", "the source has more than %1 tokens: a training pair is at most %1 source and %2 target tokens (split the line)")},
    {"task_target_long", QT_TRANSLATE_NOOP("attnlab::Messages", "the target has more than %2 tokens: a training pair is at most %1 source and %2 target tokens (split the line)")},
    {"task_file_empty", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: the file is empty: expected one source<TAB>target pair per line")},
    {"task_held_out_one", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: every line is held out (1 line): add lines, or train on every line with --batch-all")},
    {"task_held_out", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: every line is held out (%2 lines): add lines, or train on every line with --batch-all")},
};

/// The line of kTrainMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& trainMessage(std::string_view code)
{
    return messageIn(kTrainMessages, code);
}

} // namespace attnlab
