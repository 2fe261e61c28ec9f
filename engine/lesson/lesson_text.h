#pragma once
// Internal to the lesson parser (lesson.cpp, settings.cpp, highlight.cpp): reading lines,
// numbers and keys of a lesson file, and wording its messages.

#include "lesson/lesson.h"
#include "lesson/messages.h"
#include "text/lines.h" // splitLines

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab::lessontext {

inline constexpr std::string_view kBom = "\xEF\xBB\xBF";
inline constexpr std::string_view kFullWidthColon = "\xEF\xBC\x9A"; // U+FF1A '：'
/// Longest piece of the teacher's text quoted in a message (a line may be megabytes long).
inline constexpr std::size_t kQuoteBytes = 60;

enum class NumberKind {
    Ok,
    NotANumber,
    TooLarge,
};

struct KeyValue {
    std::string_view key;
    std::string_view value;
};

struct Fence {
    char mark = 0;
    std::size_t length = 0;
    std::string_view rest; ///< the info string (or what follows a closing fence)
};

bool isSpace(char c);

std::string_view trim(std::string_view s);

bool isBlank(std::string_view s);

/// The teacher's text cut at a UTF-8 character boundary when it is long ("…" ends it): how a
/// message quotes it ('%1' in a table's text).
std::string cut(std::string_view s);
/// cut(s) in quotes.
std::string quote(std::string_view s);

std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

std::string lower(std::string_view s);

std::size_t editDistance(std::string_view a, std::string_view b);

/// The one known name a typo away from `s` ("weights" for "wieghts"), if any.
std::optional<std::string> nearestName(std::string_view s, const std::vector<std::string>& known);
/// ": did you mean 'weights'?" when nearestName finds one, else "".
std::string didYouMean(std::string_view s, const std::vector<std::string>& known);

std::string unknown(std::string_view what, std::string_view value, const std::vector<std::string>& known);

std::string plural(long long n, std::string_view one, std::string_view many);

/// Offset of the first byte in `s` that is not valid UTF-8 (overlong forms, surrogates and
/// code points above U+10FFFF included), or npos.
std::size_t invalidUtf8At(std::string_view s);

/// The first line (counted from 1) that is not UTF-8 text, a NUL byte or a byte that is not
/// UTF-8, and the reason; nothing when every line is text.
std::optional<std::pair<int, Message>> textProblem(const std::vector<std::string_view>& lines);

/// A whole number written as digits with an optional leading '-'.
NumberKind parseInteger(std::string_view s, long long& out);

/// An int setting or header value; throws std::invalid_argument naming `key`.
int parseInt(std::string_view key, std::string_view value);

std::uint64_t parseSeed(std::string_view value);

bool parseSwitch(std::string_view key, std::string_view value);

/// A number as the teacher wrote it, cut when it is absurdly long.
std::string shortNumber(std::string_view s);

bool isKeyChar(char c);

/// Splits "key: value" at the first ':' or '：'. Nothing when there is no separator or the key
/// is not a single word.
std::optional<KeyValue> splitKeyValue(std::string_view line);

/// "## Title": two '#' at the start of the line, then a space, a tab or nothing.
bool isStepHeading(std::string_view line);

bool isTitleHeading(std::string_view line);

/// The title of a "## Title" line, without an optional closing run of '#' ("## Title ##").
std::string_view headingTitle(std::string_view line);

std::optional<Fence> fenceOf(std::string_view line);

/// A stage of an attention kind or a position scheme (kv, buckets, q_rotated, position_bias):
/// not in lessonStageIds(), shown only when its kind or scheme is in force.
bool isSchemeStage(const std::string& stage);
/// Why `stage` cannot be shown under `c` — an attention kind's own stage (kv, buckets, …) or a
/// position scheme's (q_rotated, position_bias) when another is in force — or "" when it can.
std::string stageNeedsSetting(const std::string& stage, const Config& c);

/// True when a line break between `before` and `after` is no space: both sides are Chinese or
/// Japanese characters or full-width punctuation, which Markdown would otherwise join with a
/// space ("看到\n的" reads "看到的", not "看到 的").
bool joinsWithoutSpace(std::string_view before, std::string_view after);

/// applySettings (lesson.h) that also lists the setting names the text gave, in its order
/// ("weights_preset" as "weights").
Config applySettings(const Config& base, std::string_view text, std::vector<std::string>& named);

/// Parses a highlight directive ("cells 1,2; rows 3"). Throws std::invalid_argument with a reason.
Highlight parseHighlight(std::string_view text);

} // namespace attnlab::lessontext
