#pragma once
/// The refusals of lesson/ (a lesson file's text, its numbers and switches, highlights and
/// `requires:`), one line each: a code and the English text, %1 … %9 for the arguments
/// (core/message.h, "Message tables"). Quoted arguments are the teacher's text, cut when long
/// (lessontext::cut).

#include "core/message.h"

namespace attnlab {

inline constexpr MessageTemplate kLessonMessages[] = {
    // where in a lesson (LessonError): the file and line, or the file; the reason follows
    {"lesson_file_line", QT_TRANSLATE_NOOP("attnlab::Messages", "%1:%2")},
    {"lesson_file", QT_TRANSLATE_NOOP("attnlab::Messages", "%1")},
    // a key of the lesson ("settings", "compare", "highlight"); the reason follows
    {"lesson_key", QT_TRANSLATE_NOOP("attnlab::Messages", "%1")},
    // the file's text (lesson/lesson_text.h)
    {"lesson_not_text", QT_TRANSLATE_NOOP("attnlab::Messages", "this is not a text file (it contains a NUL byte)")},
    {"lesson_not_utf8", QT_TRANSLATE_NOOP("attnlab::Messages", "the file is not UTF-8 text (byte 0x%1 in this line); save it as UTF-8")},
    // numbers and switches; %1 is the key ("order", "d_model", "seed")
    {"lesson_not_whole_number", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: '%2' is not a whole number")},
    {"lesson_too_large", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: '%2' is too large")},
    {"lesson_seed_negative", QT_TRANSLATE_NOOP("attnlab::Messages", "seed: '%1' must be a whole number, 0 or more")},
    {"lesson_seed_too_large", QT_TRANSLATE_NOOP("attnlab::Messages", "seed: '%1' is too large (at most 18446744073709551615)")},
    {"lesson_not_switch", QT_TRANSLATE_NOOP("attnlab::Messages", "%1: '%2' is not a switch (expected on, off, true or false)")},
    // highlight: "cells 1,2; rows 3"
    {"highlight_not_row_number", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not a row number (positions are whole numbers counted from 1)")},
    {"highlight_not_column_number", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not a column number (positions are whole numbers counted from 1)")},
    {"highlight_row_zero", QT_TRANSLATE_NOOP("attnlab::Messages", "row %1 does not exist: positions count from 1")},
    {"highlight_column_zero", QT_TRANSLATE_NOOP("attnlab::Messages", "column %1 does not exist: positions count from 1")},
    {"highlight_row_beyond", QT_TRANSLATE_NOOP("attnlab::Messages", "row %1 is beyond the largest matrix (%2 tokens)")},
    {"highlight_column_beyond", QT_TRANSLATE_NOOP("attnlab::Messages", "column %1 is beyond the largest matrix (%2 columns)")},
    {"highlight_no_pair", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' needs at least one row,column pair (write e.g. 'cells 1,2 1,3; row 4; column 1')")},
    {"highlight_not_cell", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not a cell: write row,column like 1,2")},
    {"highlight_no_row", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' needs at least one row number (write e.g. 'cells 1,2 1,3; row 4; column 1')")},
    {"highlight_no_column", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' needs at least one column number (write e.g. 'cells 1,2 1,3; row 4; column 1')")},
    {"highlight_item_not_row", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not a row number (separate numbers with spaces; pairs belong to 'cells')")},
    {"highlight_item_not_column", QT_TRANSLATE_NOOP("attnlab::Messages", "'%1' is not a column number (separate numbers with spaces; pairs belong to 'cells')")},
    {"highlight_unknown_group", QT_TRANSLATE_NOOP("attnlab::Messages", "unknown group '%1' (expected cells, rows or columns)")},
    {"highlight_unknown_group_near", QT_TRANSLATE_NOOP("attnlab::Messages", "unknown group '%1': did you mean '%2'? (expected cells, rows or columns)")},
    {"highlight_nothing", QT_TRANSLATE_NOOP("attnlab::Messages", "nothing to highlight (write e.g. 'cells 1,2 1,3; row 4; column 1')")},
    // requires: a pretrained model (lesson/requirement.h); %1 of requires_after_name are the 'type=…' choices
    {"requires_no_name", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: name the model folder, e.g. 'requires: gpt2' (known: %1)")},
    {"requires_folder_name", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: '%1' is not a folder name (letters, digits, '-', '_' and '.', not starting with '.')")},
    {"requires_after_name", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: after the folder name only %1 may follow, not '%2'")},
    {"requires_unknown_type", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: unknown type '%1' (expected one of %2)")},
    {"requires_unknown_type_near", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: unknown type '%1': did you mean '%2'? (expected one of %3)")},
    {"requires_family_mismatch", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: %1 is a %2 model, not type=%3")},
    {"requires_unknown_model", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: '%1' is not a model Attention Lab knows (known: %2); for a folder of your own give its family: 'requires: %3, %4")},
    {"requires_unknown_model_near", QT_TRANSLATE_NOOP("attnlab::Messages", "requires: '%1' is not a model Attention Lab knows: did you mean '%2'? (known: %3); for a folder of your own give its family: 'requires: %4, %5")},
};

/// The line of kLessonMessages with `code` (a code not in it does not compile).
consteval const MessageTemplate& lessonMessage(std::string_view code)
{
    return messageIn(kLessonMessages, code);
}

} // namespace attnlab
