#pragma once
/// What the engine tells the user about a computation — warnings, and the errors that refuse a
/// request: a code and its arguments, from which the interface writes the message in the user's
/// language, and the English text, which the trace JSON and the command line print. Every
/// message the engine makes is one function here.

#include "core/stage_key.h"

#include <concepts>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// Marks a table's English text for Qt's lupdate (which reads engine/*/messages.h) without the
// engine depending on Qt: the interface translates it in the context "attnlab::Messages".
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace attnlab {

struct Message {
    std::string code;              ///< stable: "tokens_cut", "all_keys_masked", ...
    std::vector<std::string> args; ///< the values the message names, in the order listed below
    std::string text;              ///< the English text
    /// Why, when the message wraps another ("cannot read config.json" because …): at most one,
    /// already part of `text` ("…: <reason's text>").
    std::vector<Message> reasons = {};

    bool operator==(const Message&) const = default;
};

// --- Message tables ---
// Most of the engine's refusals are one line of a table in their folder, engine/<folder>/messages.h
// (`k<Folder>Messages`), listed in core/message_catalogue.cpp: a code, and the English text with
// %1 … %9 where the arguments go, which the interface translates (ui/session/messages.cpp). A throw
// site names its line by code, checked when it compiles: `throw Error(say(ioMessage("x"), a, b))`.

/// One line of a message table.
struct MessageTemplate {
    std::string_view code; ///< stable, unique across the tables: "header_too_large"
    const char* text;      ///< English, %1 … %9 for the arguments: "the header of '%1' is %2 bytes"
};

/// The line of `table` with `code`; a code that is not in the table does not compile.
template <std::size_t N>
consteval const MessageTemplate& messageIn(const MessageTemplate (&table)[N], std::string_view code)
{
    for (const MessageTemplate& t : table) {
        if (t.code == code)
            return t;
    }
    throw "no message with this code in the table"; // not a constant expression: a compile error
}

/// Every line of every table, in the order of core/message_catalogue.cpp.
const std::vector<const MessageTemplate*>& messageTemplates();
/// The line with `code`, or null.
const MessageTemplate* findMessageTemplate(std::string_view code);
/// `text` with %1 … %9 replaced by `args` in one pass (an argument's own "%2" stays as it is);
/// %% is a percent sign.
std::string fillTemplate(std::string_view text, const std::vector<std::string>& args);

namespace detail {
inline std::string messageArg(std::string s) { return s; }
inline std::string messageArg(std::string_view s) { return std::string(s); }
inline std::string messageArg(const char* s) { return s; }
std::string messageArg(double v); ///< shortest text that reads back the same ("0.1", "3.5e+12")
template <std::integral T>
std::string messageArg(T v)
{
    return std::to_string(v);
}
Message makeMessage(const MessageTemplate& t, std::vector<std::string> args, std::vector<Message> reasons);
} // namespace detail

/// The Message `e` carries (an Error, a FormatError, a FileError), else one without a code
/// holding e.what() (shown as it is).
Message messageOf(const std::exception& e);

/// The message of table line `t` with its arguments (strings, whole numbers, doubles).
template <class... Args>
Message say(const MessageTemplate& t, const Args&... args)
{
    return detail::makeMessage(t, {detail::messageArg(args)...}, {});
}
/// The same, wrapping `reason` (what went wrong underneath): its text follows after ": ".
template <class... Args>
Message sayAbout(const MessageTemplate& t, Message reason, const Args&... args)
{
    return detail::makeMessage(t, {detail::messageArg(args)...}, {std::move(reason)});
}

/// The Message an exception carries, whatever the standard exception it is.
class CarriesMessage {
public:
    const Message& message() const { return m_message; }

protected:
    explicit CarriesMessage(Message message)
        : m_message(std::move(message))
    {
    }
    ~CarriesMessage() = default;

private:
    Message m_message;
};

/// A standard exception `Base` with a Message: what() is the English text, so callers that only
/// print errors need not know it; the interface writes the message in its language.
template <class Base>
class MessageError : public Base, public CarriesMessage {
public:
    explicit MessageError(Message message)
        : Base(message.text)
        , CarriesMessage(std::move(message))
    {
    }
};

/// A request the engine refuses: a std::invalid_argument with its Message.
using Error = MessageError<std::invalid_argument>;

namespace messages {

// --- Warnings ---

/// invalid_utf8: the text had bytes that are not UTF-8 (replaced by U+FFFD). No arguments.
Message invalidUtf8();
/// tokens_cut {count, max}: the sentence had `count` tokens; only the first `max` are used.
Message tokensCut(long long count, long long max);
/// nothing_padded {count, padTo}: the sentence is longer than pad_to, so nothing was padded.
Message nothingPadded(long long count, long long padTo);
/// side_cut {side, count, max}: a model's source or target ("source", "target") was cut.
Message sideCut(const std::string& side, long long count, long long max);
/// not_in_vocabulary {token, side}: a token is not in the model's source or target vocabulary
/// and is read as <unk>.
Message notInVocabulary(const std::string& token, const std::string& side);
/// all_keys_masked {block, layer, query, token}: every key of query `query` (0-based) is hidden,
/// so its attention weights are all 0; `block` is the block's name ("" for a single attention
/// block) and `layer` its 0-based layer ("" outside layers).
Message allKeysMasked(Block block, std::optional<int> layer, long long query, const std::string& token);
/// large_run {megabytes, seconds}: the run needs about this much memory and time (estimated
/// up front, core/cost.h); said before it starts.
Message largeRun(double megabytes, double seconds);

// --- Errors (thrown as Error) ---

/// no_tokens {side}: the sentence ("sentence") or a model's source ("source") has no tokens.
Message noTokens(const std::string& side);
/// too_many_cells {n, heads, max}: n² · heads attention cells of one block exceed the limit.
Message tooManyCells(long long n, long long heads, long long max);
/// too_many_layer_cells {cells, max}: the layers' attention matrices together exceed the limit.
Message tooManyLayerCells(long long cells, long long max);
/// weights_width {dModel, weightsDModel}: the attention weights are for another d_model.
Message weightsWidth(long long dModel, long long weightsDModel);
/// no_mask_matrix: the custom mask was chosen without a mask matrix. No arguments.
Message noMaskMatrix();
/// mask_size {rows, cols, n}: the custom mask does not fit the sentence's n tokens.
Message maskSize(long long rows, long long cols, long long n);
/// performer_precision {block, layer, largest, spacing}: performer's feature exponents reach
/// `largest`, where a double is only good to `spacing`: its weights and outputs are approximate.
/// `block` and `layer` as in all_keys_masked.
Message performerPrecision(Block block, std::optional<int> layer, double largest);
/// overflow {block, layer, stage}: the values of stage `stage` (its title, e.g. "Queries Q")
/// went beyond the float range (±3.4·10³⁸) and would be inf or NaN; `block` and `layer` as in
/// all_keys_masked.
Message overflow(Block block, std::optional<int> layer, const std::string& stage);
/// too_large {what, megabytes, limit}: the "weights" to make or the "trace" would need
/// `megabytes` MB, more than `limit` MB (core/cost.h); refused before anything is built.
Message tooLarge(const std::string& what, double megabytes, double limit);
/// work_too_large {what, size, limit, reduce}: a piece of work other than a trace ("training",
/// "measuring full attention at n = 32768", "the PDF") would hold about `size` ("9.3 GB"), more than
/// `limit`; `reduce` says what to make smaller, in the words of whoever asked (core/cost.h).
Message workTooLarge(const std::string& what, const std::string& size, const std::string& limit, const std::string& reduce);
/// large_work {size, duration, detail}: a piece of work other than a trace needs about this much
/// memory ("1.2 GB") and time ("8 s", "3 h", "129 days"); `detail` (may be empty) says how the
/// time was estimated. Said before it starts.
Message largeWork(const std::string& size, const std::string& duration, const std::string& detail);
/// no_model_file: a file model was chosen but none is open. No arguments.
Message noModelFile();
/// no_output_head: generation was asked of a model without a trained output head. No arguments.
Message noOutputHead();
/// no_pad_token: pad_to was given to a model whose source vocabulary has no <pad>. No arguments.
Message noPadToken();
/// target_without_decoder: a target was given to an encoder stack. No arguments.
Message targetWithoutDecoder();
/// pretrained_target: a target (teacher forcing) was given to GPT-2 or BERT. No arguments.
Message pretrainedTarget();
/// segment_b_not_bert: a second segment was given to a model that is not BERT. No arguments.
Message segmentBNotBert();
/// global_out_of_range: a global position (sliding-window or bigbird attention) is not a position
/// of the sentence. Arguments: the position, the number of tokens.
Message globalOutOfRange(long long position, long long n);
/// compare_mask_model: a comparison of masks was asked of a Transformer (masks are compared on one block only).
/// No arguments.
Message compareMaskWithModel();
/// compare_no_tokens: the sentence to compare with (B) has no tokens. No arguments.
Message compareNoTokens();

// --- Session files (thrown as Error by io/session_json.h) ---

/// session_not_json {detail}: the file is not JSON; `detail` is where and why, in English
/// ("parse error at line 1, column 7: syntax error while parsing value - invalid literal").
Message sessionNotJson(const std::string& detail);
/// session_json_limits {depth, values}: the JSON nests deeper than `depth` levels or holds more
/// than `values` values (no session file is like that; reading it could take gigabytes).
Message sessionJsonLimits(long long depth, long long values);
/// session_format: the JSON is not an Attention Lab session file. No arguments.
Message sessionFormat();
/// session_version {version}: the file's version (as JSON text) is not one this program reads.
Message sessionVersion(const std::string& version);
/// session_missing {key}: a required key is missing ("sentence", "weights", "lesson.path").
Message sessionMissing(const std::string& key);
/// session_type {key, expected}: a key's value has the wrong type; `expected` is "string",
/// "string_or_null", "integer", "integer_or_null", "object", "base64" or "mask_rows".
Message sessionType(const std::string& key, const std::string& expected);
/// session_mask_not_square: the custom mask's rows are not as long as there are rows. No arguments.
Message sessionMaskNotSquare();
/// session_mask_size {rows, max}: the custom mask has more rows than the longest sentence has tokens.
Message sessionMaskSize(long long rows, long long max);
/// session_lesson_place: the lesson's path is empty or its step negative. No arguments.
Message sessionLessonPlace();

// --- Training (thrown as train::Diverged, train/trainer.h) ---

/// training_diverged {step, what, value}: at step `step` the "loss", the "gradient" (its norm)
/// or the "weights" after the update stopped being finite; `value` is "nan", "inf" or "-inf"
/// (empty for "weights"). The update of that step was not kept.
Message trainingDiverged(int step, const std::string& what, const std::string& value);

// --- Files (thrown as FileError, io/fileio.h) ---

/// cannot_write {path, reason, subject, system}: a file could not be written; an earlier file at
/// `path` is unchanged. `reason` says why, `subject` names the path it is about:
/// "no_folder" (the folder `subject` does not exist), "not_a_folder" (`subject` is a file, not a
/// folder), "read_only" (the folder `subject` is on a read-only file system), "no_permission"
/// (no permission to write in the folder `subject`), "disk_full", "is_folder" (`path` itself is
/// a folder), "in_the_way" (the folder `subject` is where the temporary file must go),
/// "kernel_folder" (the folder `subject` is the kernel's, /proc or /sys: no file can be made in
/// it), "not_writable" (no permission to write to the file `subject` itself, a device),
/// "no_reader" (no program reads the FIFO `subject`), "socket" (`subject` is a socket),
/// "non_finite" (the tensor `subject` holds NaN or infinity: nothing was written), or "other";
/// `system` is the system's own words (strerror), empty for "is_folder" and "non_finite".
Message cannotWrite(const std::string& path, const std::string& reason, const std::string& subject, const std::string& system);

} // namespace messages

/// The English texts of `messages`, in order.
std::vector<std::string> texts(const std::vector<Message>& messages);

} // namespace attnlab
