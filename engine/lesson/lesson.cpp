#include "lesson/lesson.h"

#include "io/fileio.h"
#include "core/trace.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <set>
#include <system_error>

namespace attnlab {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kFullWidthColon = "\xEF\xBC\x9A"; // U+FF1A '：'
/// Longest piece of the teacher's text quoted in a message (a line may be megabytes long).
constexpr std::size_t kQuoteBytes = 60;

// Largest positions a highlight may name: rows are tokens; columns are keys or features.
constexpr int kMaxHighlightRow = ConfigLimits::maxTokens;
constexpr int kMaxHighlightColumn = std::max(ConfigLimits::maxTokens, ConfigLimits::maxDModel);

const std::vector<std::string> kHeaderKeys{"title", "language", "summary", "settings", "sentence", "order"};
const std::vector<std::string> kDirectives{"sentence", "target", "generate", "settings", "stage",
                                           "layer",    "block",  "head",     "view",     "highlight"};
const std::vector<std::string> kSettingKeys{"d_model", "heads", "seed",       "pe",     "embed_scale", "scale", "mask",
                                            "pad_to",  "weights", "max_tokens", "model", "layers",      "d_ff",  "norm",
                                            "activation"};
const std::vector<std::string> kBlocks{"encoder_self", "decoder_self", "cross"};
const std::vector<std::string> kLanguages{"en", "zh"};

// --- text helpers ---

bool isSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool isBlank(std::string_view s) { return trim(s).empty(); }

/// The teacher's text in quotes, cut at a UTF-8 character boundary when it is long.
std::string quote(std::string_view s)
{
    if (s.size() <= kQuoteBytes)
        return "'" + std::string(s) + "'";
    std::size_t n = kQuoteBytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
        --n; // do not cut a character in half
    return "'" + std::string(s.substr(0, n)) + "\xE2\x80\xA6'"; // …
}

std::string join(const std::vector<std::string>& items, std::string_view separator = ", ")
{
    std::string out;
    for (const auto& item : items) {
        if (!out.empty())
            out += separator;
        out += item;
    }
    return out;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/// ": did you mean 'weights'?" when one known name is a typo away from `s`, else "".
std::string didYouMean(std::string_view s, const std::vector<std::string>& known)
{
    if (s.empty() || s.size() > 40)
        return {};
    const std::string l = lower(s);
    const std::string* best = nullptr;
    std::size_t bestDistance = 3; // at most two edits
    for (const auto& name : known) {
        const std::size_t d = editDistance(l, name);
        // Short names need a closer match: 'x' is not a typo of 'q'.
        if (d < bestDistance && 2 * d < name.size()) {
            best = &name;
            bestDistance = d;
        }
    }
    return best ? ": did you mean '" + *best + "'?" : std::string();
}

std::string unknown(std::string_view what, std::string_view value, const std::vector<std::string>& known)
{
    return "unknown " + std::string(what) + " " + quote(value) + didYouMean(value, known) + " (expected one of "
           + join(known) + ")";
}

std::string plural(long long n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

/// Offset of the first byte in `s` that is not valid UTF-8 (overlong forms, surrogates and
/// code points above U+10FFFF included), or npos.
std::size_t invalidUtf8At(std::string_view s)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xC0) == 0x80; };
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = byte(i);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned char low = 0x80; // allowed range of the second byte
        unsigned char high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            if (c == 0xE0)
                low = 0xA0; // overlong
            if (c == 0xED)
                high = 0x9F; // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            if (c == 0xF0)
                low = 0x90; // overlong
            if (c == 0xF4)
                high = 0x8F; // above U+10FFFF
        } else {
            return i;
        }
        if (i + 1 >= s.size() || byte(i + 1) < low || byte(i + 1) > high)
            return i;
        for (std::size_t k = 2; k < length; ++k) {
            if (!continuation(i + k))
                return i;
        }
        i += length;
    }
    return std::string_view::npos;
}

// --- numbers ---

enum class NumberKind {
    Ok,
    NotANumber,
    TooLarge,
};

/// A whole number written as digits with an optional leading '-'.
NumberKind parseInteger(std::string_view s, long long& out)
{
    const std::string_view digits = !s.empty() && s.front() == '-' ? s.substr(1) : s;
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return NumberKind::NotANumber;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc::result_out_of_range)
        return NumberKind::TooLarge;
    return ec == std::errc{} && end == s.data() + s.size() ? NumberKind::Ok : NumberKind::NotANumber;
}

/// An int setting or header value; throws std::invalid_argument naming `key`.
int parseInt(std::string_view key, std::string_view value)
{
    long long v = 0;
    const NumberKind kind = parseInteger(value, v);
    if (kind == NumberKind::NotANumber)
        throw std::invalid_argument(std::string(key) + ": " + quote(value) + " is not a whole number");
    if (kind == NumberKind::TooLarge || v > INT_MAX || v < INT_MIN)
        throw std::invalid_argument(std::string(key) + ": " + quote(value) + " is too large");
    return static_cast<int>(v);
}

std::uint64_t parseSeed(std::string_view value)
{
    if (!value.empty() && value.front() == '-')
        throw std::invalid_argument("seed: " + quote(value) + " must be a whole number, 0 or more");
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec == std::errc::result_out_of_range)
        throw std::invalid_argument("seed: " + quote(value) + " is too large (at most 18446744073709551615)");
    if (ec != std::errc{} || end != value.data() + value.size())
        throw std::invalid_argument("seed: " + quote(value) + " is not a whole number");
    return v;
}

bool parseSwitch(std::string_view key, std::string_view value)
{
    if (value == "on" || value == "true")
        return true;
    if (value == "off" || value == "false")
        return false;
    throw std::invalid_argument(std::string(key) + ": " + quote(value) + " is not a switch (expected on, off, true or false)");
}

/// A number as the teacher wrote it, cut when it is absurdly long.
std::string shortNumber(std::string_view s)
{
    return s.size() <= 20 ? std::string(s) : std::string(s.substr(0, 20)) + "\xE2\x80\xA6"; // …
}

// --- lines ---

struct KeyValue {
    std::string_view key;
    std::string_view value;
};

bool isKeyChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/// Splits "key: value" at the first ':' or '：'. Nothing when there is no separator or the key
/// is not a single word.
std::optional<KeyValue> splitKeyValue(std::string_view line)
{
    const std::size_t colon = line.find(':');
    const std::size_t wide = line.find(kFullWidthColon);
    const std::size_t at = std::min(colon, wide);
    if (at == std::string_view::npos)
        return std::nullopt;
    const std::size_t separator = at == colon ? 1 : kFullWidthColon.size();
    const std::string_view key = trim(line.substr(0, at));
    if (key.empty() || !std::all_of(key.begin(), key.end(), isKeyChar))
        return std::nullopt;
    return KeyValue{key, trim(line.substr(at + separator))};
}

/// "## Title": two '#' at the start of the line, then a space, a tab or nothing.
bool isStepHeading(std::string_view line)
{
    return line.size() >= 2 && line[0] == '#' && line[1] == '#' && (line.size() == 2 || isSpace(line[2]));
}

bool isTitleHeading(std::string_view line)
{
    return !line.empty() && line[0] == '#' && (line.size() == 1 || isSpace(line[1]));
}

/// The title of a "## Title" line, without an optional closing run of '#' ("## Title ##").
std::string_view headingTitle(std::string_view line)
{
    std::string_view title = trim(line.substr(2));
    const std::size_t lastText = title.find_last_not_of('#');
    if (lastText == std::string_view::npos)
        return {};
    if (lastText + 1 < title.size() && isSpace(title[lastText]))
        title = trim(title.substr(0, lastText + 1));
    return title;
}

/// A code fence (``` or ~~~, three or more) after at most three spaces.
struct Fence {
    char mark = 0;
    std::size_t length = 0;
    std::string_view rest; ///< the info string (or what follows a closing fence)
};

std::optional<Fence> fenceOf(std::string_view line)
{
    std::size_t i = 0;
    while (i < 3 && i < line.size() && line[i] == ' ')
        ++i;
    if (i >= line.size() || (line[i] != '`' && line[i] != '~'))
        return std::nullopt;
    const char mark = line[i];
    std::size_t j = i;
    while (j < line.size() && line[j] == mark)
        ++j;
    if (j - i < 3)
        return std::nullopt;
    const std::string_view rest = line.substr(j);
    if (mark == '`' && rest.find('`') != std::string_view::npos)
        return std::nullopt; // inline code, not a fence
    return Fence{mark, j - i, rest};
}

/// Splits into lines at LF, CRLF or a lone CR. A final line break does not start a new line.
std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n' && text[i] != '\r')
            continue;
        lines.push_back(text.substr(start, i - start));
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
        start = i + 1;
    }
    if (start < text.size())
        lines.push_back(text.substr(start));
    return lines;
}

// --- highlight ---

enum class Axis {
    Row,
    Column,
};

int position(std::string_view s, Axis axis)
{
    const char* what = axis == Axis::Row ? "row" : "column";
    long long v = 0;
    const NumberKind kind = parseInteger(s, v);
    if (kind == NumberKind::NotANumber)
        throw std::invalid_argument(quote(s) + " is not a " + what + " number (positions are whole numbers counted from 1)");
    if (kind == NumberKind::Ok && v < 1)
        throw std::invalid_argument(std::string(what) + " " + shortNumber(s) + " does not exist: positions count from 1");
    const int limit = axis == Axis::Row ? kMaxHighlightRow : kMaxHighlightColumn;
    if (kind == NumberKind::TooLarge || v > limit) {
        throw std::invalid_argument(std::string(what) + " " + shortNumber(s) + " is beyond the largest matrix ("
                                    + plural(limit, "", axis == Axis::Row ? "tokens" : "columns") + ")");
    }
    return static_cast<int>(v - 1);
}

std::vector<std::string_view> words(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && isSpace(s[i]))
            ++i;
        const std::size_t start = i;
        while (i < s.size() && !isSpace(s[i]))
            ++i;
        if (i > start)
            out.push_back(s.substr(start, i - start));
    }
    return out;
}

/// "cells 1,2 3,4; rows 2; columns 1" (1-based) -> a 0-based Highlight. Throws std::invalid_argument.
Highlight parseHighlight(std::string_view text)
{
    static const std::vector<std::string> kGroups{"cells", "rows", "columns"};
    const std::string example = " (write e.g. 'cells 1,2 1,3; row 4; column 1')";
    Highlight h;
    std::set<std::pair<int, int>> seenCells;
    std::set<int> seenRows;
    std::set<int> seenColumns;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(';', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view group = trim(text.substr(start, end - start));
        start = end + 1;
        if (group.empty())
            continue; // a doubled or trailing ';'
        std::size_t kwEnd = 0;
        while (kwEnd < group.size() && !isSpace(group[kwEnd]))
            ++kwEnd;
        const std::string_view keyword = group.substr(0, kwEnd);
        const std::string_view items = trim(group.substr(kwEnd));
        if (keyword == "cells" || keyword == "cell") {
            // Spaces around the comma of a pair are allowed: "1, 2".
            std::string packed;
            packed.reserve(items.size());
            for (std::size_t i = 0; i < items.size(); ++i) {
                if (isSpace(items[i])) {
                    const std::size_t next = items.find_first_not_of(" \t", i);
                    if ((!packed.empty() && packed.back() == ',') || (next != std::string_view::npos && items[next] == ','))
                        continue;
                }
                packed += items[i];
            }
            const auto pairs = words(packed);
            if (pairs.empty())
                throw std::invalid_argument(quote(keyword) + " needs at least one row,column pair" + example);
            for (const std::string_view pair : pairs) {
                const std::size_t comma = pair.find(',');
                if (comma == std::string_view::npos || comma == 0 || comma + 1 == pair.size()
                    || pair.find(',', comma + 1) != std::string_view::npos)
                    throw std::invalid_argument(quote(pair) + " is not a cell: write row,column like 1,2");
                const std::pair<int, int> cell{position(pair.substr(0, comma), Axis::Row),
                                               position(pair.substr(comma + 1), Axis::Column)};
                if (seenCells.insert(cell).second)
                    h.cells.push_back(cell);
            }
        } else if (keyword == "rows" || keyword == "row" || keyword == "columns" || keyword == "column") {
            const Axis axis = keyword.front() == 'r' ? Axis::Row : Axis::Column;
            const auto list = words(items);
            if (list.empty())
                throw std::invalid_argument(quote(keyword) + " needs at least one " + (axis == Axis::Row ? "row" : "column")
                                            + " number" + example);
            for (const std::string_view item : list) {
                if (item.find(',') != std::string_view::npos)
                    throw std::invalid_argument(quote(item) + " is not a " + (axis == Axis::Row ? "row" : "column")
                                                + " number (separate numbers with spaces; pairs belong to 'cells')");
                const int p = position(item, axis);
                if (axis == Axis::Row ? seenRows.insert(p).second : seenColumns.insert(p).second)
                    (axis == Axis::Row ? h.rows : h.columns).push_back(p);
            }
        } else {
            throw std::invalid_argument("unknown group " + quote(keyword) + didYouMean(keyword, kGroups)
                                        + " (expected cells, rows or columns)");
        }
    }
    if (h.empty())
        throw std::invalid_argument("nothing to highlight" + example);
    return h;
}

// --- the parser ---

class Parser {
public:
    Parser(std::string_view text, const std::string& file)
        : m_file(file)
    {
        if (text.substr(0, kBom.size()) == kBom)
            text.remove_prefix(kBom.size());
        m_lines = splitLines(text);
    }

    Lesson run()
    {
        checkText();
        Lesson lesson;
        lesson.fileName = m_file;
        int n = readHeader(lesson);

        // Before the first step: blank lines and level-1 headings (ignored) only.
        for (; n <= count() && !isStepHeading(line(n)); ++n) {
            if (isBlank(line(n)) || isTitleHeading(line(n)))
                continue;
            fail(n, "text before the first step: " + quote(trim(line(n))) + " (a step starts with a '## ' heading)");
        }
        if (n > count())
            fail(std::max(count(), 1), "the lesson has no steps (each step starts with a '## ' heading)");

        State state{lesson.config, "tokens", 0, 0};
        while (n <= count())
            n = readStep(n, state, lesson.steps);
        return lesson;
    }

private:
    /// What carries over from step to step.
    struct State {
        Config config;
        std::string stage;
        int head;     ///< 0-based
        int headLine; ///< where the head was chosen (0: never)
        int layer = 0;                      ///< 0-based
        int layerLine = 0;                  ///< where the layer was chosen (0: never)
        Block block = Block::EncoderSelf;
        int blockLine = 0;                  ///< where the block was chosen (0: never)
    };

    /// Stages that exist only in an encoder–decoder model.
    static bool isModelStage(const std::string& id)
    {
        const auto& l = layerStageIds();
        const auto& m = modelStageIds();
        return std::find(l.begin(), l.end(), id) != l.end() || std::find(m.begin(), m.end(), id) != m.end();
    }

    [[noreturn]] void fail(int n, const std::string& reason) const { throw LessonError(m_file, n, reason); }
    int count() const { return static_cast<int>(m_lines.size()); }
    std::string_view line(int n) const { return m_lines[static_cast<std::size_t>(n - 1)]; }

    /// Refuses binary files and other encodings before anything else is read.
    void checkText() const
    {
        for (int n = 1; n <= count(); ++n) {
            const std::string_view l = line(n);
            if (l.find('\0') != std::string_view::npos)
                fail(n, "this is not a text file (it contains a NUL byte)");
            const std::size_t bad = invalidUtf8At(l);
            if (bad != std::string_view::npos) {
                static constexpr char kHex[] = "0123456789ABCDEF";
                const auto b = static_cast<unsigned char>(l[bad]);
                fail(n, std::string("the file is not UTF-8 text (byte 0x") + kHex[b >> 4] + kHex[b & 15]
                            + " in this line); save it as UTF-8");
            }
        }
    }

    void applySettingsAt(int n, std::string_view value, Config& config) const
    {
        try {
            config = applySettings(config, value);
        } catch (const std::invalid_argument& e) {
            fail(n, std::string("settings: ") + e.what());
        }
        const auto problems = config.problems();
        if (!problems.empty())
            fail(n, "settings: " + join(problems, "; "));
    }

    /// Reads the header into `lesson`; returns the first line after it.
    int readHeader(Lesson& lesson) const
    {
        const std::string example = "a lesson starts with a header between two '---' lines";
        if (count() == 0 || std::all_of(m_lines.begin(), m_lines.end(), isBlank))
            fail(1, "the file is empty (" + example + ")");
        if (trim(line(1)) != "---")
            fail(1, "the first line must be '---' (" + example + "), not " + quote(trim(line(1))));
        int close = 2;
        while (close <= count() && trim(line(close)) != "---")
            ++close;
        if (close > count())
            fail(1, "the header is not closed: add a line '---' after its last key");

        std::vector<std::pair<std::string, int>> seen; // key, line
        for (int n = 2; n < close; ++n) {
            if (isBlank(line(n)))
                continue;
            const auto kv = splitKeyValue(line(n));
            if (!kv)
                fail(n, quote(trim(line(n))) + " is not a 'key: value' line");
            const std::string key(kv->key);
            if (std::find(kHeaderKeys.begin(), kHeaderKeys.end(), key) == kHeaderKeys.end())
                fail(n, unknown("header key", key, kHeaderKeys));
            const auto earlier = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == key; });
            if (earlier != seen.end())
                fail(n, "'" + key + "' is given twice in the header (first on line " + std::to_string(earlier->second) + ")");
            seen.emplace_back(key, n);
            const std::string_view value = kv->value;
            if (value.empty())
                fail(n, "'" + key + "' has no value");
            if (key == "title") {
                lesson.title = value;
            } else if (key == "language") {
                if (value != "en" && value != "zh")
                    fail(n, "language " + quote(value) + " is not supported" + didYouMean(value, kLanguages)
                                + " (expected en or zh)");
                lesson.language = value;
            } else if (key == "summary") {
                lesson.summary = value;
            } else if (key == "sentence") {
                lesson.sentence = std::string(value);
            } else if (key == "order") {
                try {
                    lesson.order = parseInt("order", value);
                } catch (const std::invalid_argument& e) {
                    fail(n, e.what());
                }
            } else if (key == "settings") {
                applySettingsAt(n, value, lesson.config);
            }
        }
        if (lesson.title.empty())
            fail(close, "the header has no 'title'");
        if (lesson.language.empty())
            fail(close, "the header has no 'language' (en or zh)");
        return close + 1;
    }

    /// Reads the step whose heading is on line `n` into `steps`; returns the line after it.
    int readStep(int n, State& state, std::vector<LessonStep>& steps) const
    {
        LessonStep step;
        step.line = n;
        step.title = headingTitle(line(n));
        if (step.title.empty())
            fail(n, "a step heading needs a title after '## '");
        ++n;

        // Directives: directly below the heading, up to the first blank line.
        std::vector<std::pair<std::string, int>> seen; // key, line
        std::optional<int> headWanted;                 // 0-based
        std::string_view headText;
        int headLine = 0;
        int settingsLine = 0;
        for (; n <= count() && !isBlank(line(n)) && !isStepHeading(line(n)); ++n) {
            const auto kv = splitKeyValue(line(n));
            if (!kv)
                fail(n, quote(trim(line(n))) + " is not a directive ('key: value'); leave a blank line between the "
                                                "directives and the explanation");
            const std::string key(kv->key);
            if (std::find(kDirectives.begin(), kDirectives.end(), key) == kDirectives.end())
                fail(n, "unknown directive " + quote(key) + didYouMean(key, kDirectives) + " (expected one of "
                            + join(kDirectives) + "; the explanation starts after a blank line)");
            const auto earlier = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == key; });
            if (earlier != seen.end())
                fail(n, "'" + key + "' is given twice in this step (first on line " + std::to_string(earlier->second) + ")");
            seen.emplace_back(key, n);
            const std::string_view value = kv->value;
            if (value.empty())
                fail(n, "'" + key + "' has no value");

            if (key == "sentence") {
                step.sentence = std::string(value);
            } else if (key == "target") {
                step.target = std::string(value);
            } else if (key == "generate") {
                long long k = 0;
                if (value == "last") {
                    step.generate = LessonStep::kLastGenerationStep;
                } else if (parseInteger(value, k) != NumberKind::Ok || k < 1 || k > 1024) {
                    fail(n, "generate: " + quote(value) + " is not a generation step (1, 2, … counting from 1, or 'last')");
                } else {
                    step.generate = static_cast<int>(k - 1);
                }
            } else if (key == "layer") {
                long long k = 0;
                if (parseInteger(value, k) != NumberKind::Ok || k < 1 || k > ConfigLimits::maxLayers)
                    fail(n, "layer: " + quote(value) + " is not a layer (1 … " + std::to_string(ConfigLimits::maxLayers)
                                + ", counting from 1)");
                state.layer = static_cast<int>(k - 1);
                state.layerLine = n;
            } else if (key == "block") {
                const auto block = parseBlock(value);
                if (!block || *block == Block::None)
                    fail(n, unknown("block", value, kBlocks));
                state.block = *block;
                state.blockLine = n;
            } else if (key == "settings") {
                applySettingsAt(n, value, state.config);
                settingsLine = n;
            } else if (key == "stage") {
                const auto& ids = lessonStageIds();
                if (std::find(ids.begin(), ids.end(), value) == ids.end())
                    fail(n, unknown("stage", value, ids));
                state.stage = value;
            } else if (key == "head") {
                long long h = 0;
                const NumberKind kind = parseInteger(value, h);
                if (kind == NumberKind::NotANumber)
                    fail(n, "head: " + quote(value) + " is not a whole number (heads count from 1)");
                if (kind == NumberKind::Ok && h < 1)
                    fail(n, "head " + shortNumber(value) + " does not exist: heads count from 1");
                headWanted = kind == NumberKind::Ok && h <= INT_MAX ? static_cast<int>(h - 1) : INT_MAX;
                headText = value;
                headLine = n;
            } else if (key == "view") {
                const auto& views = lessonViews();
                if (std::find(views.begin(), views.end(), value) == views.end())
                    fail(n, unknown("view", value, views));
                step.view = value;
            } else if (key == "highlight") {
                try {
                    step.highlight = parseHighlight(value);
                } catch (const std::invalid_argument& e) {
                    fail(n, std::string("highlight: ") + e.what());
                }
            }
        }

        // The head is checked against the heads in force after this step's settings.
        const int heads = state.config.heads;
        const std::string there = heads == 1 ? "there is 1 head" : "there are " + std::to_string(heads) + " heads";
        if (headWanted) {
            if (*headWanted >= heads)
                fail(headLine, "head " + shortNumber(headText) + " does not exist: " + there + " at this step (heads=" + std::to_string(heads) + ")");
            state.head = *headWanted;
            state.headLine = headLine;
        } else if (state.head >= heads) {
            fail(settingsLine > 0 ? settingsLine : step.line,
                 "settings: with heads=" + std::to_string(heads) + " there is no head " + std::to_string(state.head + 1)
                     + " (chosen on line " + std::to_string(state.headLine)
                     + "); choose one in this step, e.g. 'head: 1'");
        }

        // Explanation: everything up to the next step heading outside code blocks.
        const int first = n;
        std::optional<Fence> open;
        int openLine = 0;
        for (; n <= count(); ++n) {
            const std::string_view l = line(n);
            if (!open && isStepHeading(l))
                break;
            const auto fence = fenceOf(l);
            if (!fence)
                continue;
            if (!open) {
                open = fence;
                openLine = n;
            } else if (fence->mark == open->mark && fence->length >= open->length && isBlank(fence->rest)) {
                open.reset();
            }
        }
        if (open)
            fail(openLine, "this code block is never closed: add a line " + std::string(open->length, open->mark)
                               + " after it (otherwise it swallows the steps below)");
        int from = first;
        int to = n - 1;
        while (from <= to && isBlank(line(from)))
            ++from;
        while (to >= from && isBlank(line(to)))
            --to;
        for (int k = from; k <= to; ++k) {
            if (k > from)
                step.explanation += '\n';
            step.explanation += line(k);
        }

        // Layers, blocks and the stages of a whole Transformer need a model.
        const bool model = state.config.model != ModelKind::None;
        if (!model && (step.generate || state.layerLine > 0 || state.blockLine > 0 || isModelStage(state.stage))) {
            const int at = state.layerLine > 0 ? state.layerLine : state.blockLine > 0 ? state.blockLine : step.line;
            fail(at, "this step needs an encoder–decoder model: set 'settings: model=reversal' or 'model=seeded' first");
        }
        if (state.config.model == ModelKind::Seeded && state.layer >= state.config.layers)
            fail(state.layerLine, "layer " + std::to_string(state.layer + 1) + " does not exist: the model has "
                                      + std::to_string(state.config.layers) + " layers (layers=" + std::to_string(state.config.layers) + ")");
        if (state.config.model == ModelKind::File)
            fail(settingsLine > 0 ? settingsLine : step.line, "settings: model=file cannot be used in a lesson (use reversal or seeded)");

        step.config = state.config;
        step.stage = state.stage;
        step.head = state.head;
        step.layer = state.layer;
        step.block = state.block;
        steps.push_back(std::move(step));
        return n;
    }

    const std::string& m_file;
    std::vector<std::string_view> m_lines; ///< line n is m_lines[n - 1]
};

std::string errorMessage(const std::string& file, int line, const std::string& reason)
{
    return line > 0 ? file + ":" + std::to_string(line) + ": " + reason : file + ": " + reason;
}

} // namespace

LessonError::LessonError(std::string file, int line, const std::string& reason)
    : std::runtime_error(errorMessage(file, line, reason))
    , m_file(std::move(file))
    , m_line(line)
    , m_reason(reason)
{
}

const std::vector<std::string>& lessonStageIds()
{
    static const std::vector<std::string> kIds = [] {
        std::vector<std::string> ids{"tokens"};
        ids.insert(ids.end(), stageIds().begin(), stageIds().end());
        ids.insert(ids.end(), layerStageIds().begin(), layerStageIds().end());
        ids.insert(ids.end(), modelStageIds().begin(), modelStageIds().end());
        return ids;
    }();
    return kIds;
}

const std::vector<std::string>& lessonViews()
{
    static const std::vector<std::string> kViews{"stage", "heads", "kernel-regression", "softmax-scaling"};
    return kViews;
}

Lesson parseLesson(std::string_view text, const std::string& fileName)
{
    return Parser(text, fileName).run();
}

Lesson loadLesson(const std::string& path)
{
    std::string bytes;
    try {
        bytes = readFile(path, kMaxLessonBytes);
    } catch (const std::exception& e) {
        throw LessonError(path, 0, e.what());
    }
    return parseLesson(bytes, path);
}

std::vector<std::string> highlightProblems(const Highlight& h, int rows, int columns)
{
    const std::string tokens = "the sentence has " + plural(rows, "token", "tokens");
    const std::string cols = "the matrix has " + plural(columns, "column", "columns");
    const std::string fromOne = "positions count from 1";
    std::vector<std::string> out;
    for (const auto& [r, c] : h.cells) {
        const std::string name = "cell " + std::to_string(r + 1LL) + "," + std::to_string(c + 1LL);
        if (r < 0 || c < 0)
            out.push_back(name + " (" + fromOne + ")");
        else if (r >= rows && c >= columns)
            out.push_back(name + " (" + tokens + " and the matrix " + plural(columns, "column", "columns") + ")");
        else if (r >= rows)
            out.push_back(name + " (" + tokens + ")");
        else if (c >= columns)
            out.push_back(name + " (" + cols + ")");
    }
    for (const int r : h.rows) {
        if (r < 0)
            out.push_back("row " + std::to_string(r + 1LL) + " (" + fromOne + ")");
        else if (r >= rows)
            out.push_back("row " + std::to_string(r + 1LL) + " (" + tokens + ")");
    }
    for (const int c : h.columns) {
        if (c < 0)
            out.push_back("column " + std::to_string(c + 1LL) + " (" + fromOne + ")");
        else if (c >= columns)
            out.push_back("column " + std::to_string(c + 1LL) + " (" + cols + ")");
    }
    return out;
}

Config applySettings(const Config& base, std::string_view text)
{
    Config c = base;
    std::vector<std::string> seen;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view pair = trim(text.substr(start, end - start));
        start = end + 1;
        if (pair.empty())
            continue; // a trailing or doubled comma
        const std::size_t eq = pair.find('=');
        if (eq == std::string_view::npos)
            throw std::invalid_argument(quote(pair) + " is not key=value (e.g. heads=2)");
        std::string key(trim(pair.substr(0, eq)));
        const std::string_view value = trim(pair.substr(eq + 1));
        if (key.empty())
            throw std::invalid_argument(quote(pair) + " has no setting name before '='");
        if (key == "weights_preset")
            key = "weights"; // the trace format's name
        if (key == "d_k")
            throw std::invalid_argument("d_k cannot be set: it is d_model / heads");
        if (std::find(kSettingKeys.begin(), kSettingKeys.end(), key) == kSettingKeys.end())
            throw std::invalid_argument(unknown("setting", key, kSettingKeys));
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            throw std::invalid_argument(key + " is set twice");
        seen.push_back(key);
        if (value.empty())
            throw std::invalid_argument(key + ": the value is empty");

        if (key == "d_model") {
            c.dModel = parseInt(key, value);
        } else if (key == "heads") {
            c.heads = parseInt(key, value);
        } else if (key == "seed") {
            c.seed = parseSeed(value);
        } else if (key == "pe") {
            const auto pe = parsePositionalEncoding(value);
            if (!pe)
                throw std::invalid_argument("pe: " + unknown("value", value, {"sinusoidal", "learned", "none"}));
            c.positional = *pe;
        } else if (key == "embed_scale") {
            c.embedScale = parseSwitch(key, value);
        } else if (key == "scale") {
            c.scaleScores = parseSwitch(key, value);
        } else if (key == "mask") {
            const auto mask = parseMaskKind(value);
            if (mask == MaskKind::Custom)
                throw std::invalid_argument("mask: 'custom' cannot be used in a lesson (it needs a matrix drawn by hand)");
            if (!mask)
                throw std::invalid_argument("mask: " + unknown("value", value, {"none", "causal", "padding", "causal+padding"}));
            c.mask = *mask;
        } else if (key == "pad_to") {
            c.padTo = parseInt(key, value);
        } else if (key == "max_tokens") {
            c.maxTokens = parseInt(key, value);
        } else if (key == "model") {
            const auto model = parseModelKind(value);
            if (!model)
                throw std::invalid_argument("model: " + unknown("value", value, {"none", "seeded", "reversal"}));
            c.model = *model;
        } else if (key == "layers") {
            c.layers = parseInt(key, value);
        } else if (key == "d_ff") {
            c.dFF = parseInt(key, value);
        } else if (key == "norm") {
            const auto norm = parseNormPlacement(value);
            if (!norm)
                throw std::invalid_argument("norm: " + unknown("value", value, {"post", "pre"}));
            c.norm = *norm;
        } else if (key == "activation") {
            const auto act = parseActivation(value);
            if (!act)
                throw std::invalid_argument("activation: " + unknown("value", value, {"relu", "gelu"}));
            c.activation = *act;
        } else if (key == "weights") {
            const auto preset = parseWeightsPreset(value);
            if (!preset)
                throw std::invalid_argument("weights: " + unknown("value", value, {"seeded", "identity"}));
            c.weightsPreset = *preset;
        }
    }
    return c;
}

} // namespace attnlab
