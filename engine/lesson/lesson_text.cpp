#include "lesson/lesson_text.h"

#include "lesson/lesson.h"
#include "attention/kind.h"
#include "core/trace.h"
#include "position/inside.h"
#include "text/utf8.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <system_error>

namespace attnlab::lessontext {

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

std::string cut(std::string_view s)
{
    if (s.size() <= kQuoteBytes)
        return std::string(s);
    std::size_t n = kQuoteBytes;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
        --n; // do not cut a character in half
    std::string out(s.substr(0, n));
    out += "\xE2\x80\xA6"; // …
    return out;
}

std::string quote(std::string_view s)
{
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string out = "'";
    out += cut(s);
    out += '\'';
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator)
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

std::optional<std::string> nearestName(std::string_view s, const std::vector<std::string>& known)
{
    if (s.empty() || s.size() > 40)
        return std::nullopt;
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
    return best ? std::optional<std::string>(*best) : std::nullopt;
}

std::string didYouMean(std::string_view s, const std::vector<std::string>& known)
{
    const auto best = nearestName(s, known);
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

std::optional<std::pair<int, Message>> textProblem(const std::vector<std::string_view>& lines)
{
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view l = lines[i];
        const int n = static_cast<int>(i + 1);
        if (l.find('\0') != std::string_view::npos)
            return std::pair{n, say(lessonMessage("lesson_not_text"))};
        const std::size_t bad = invalidUtf8At(l);
        if (bad != std::string_view::npos) {
            static constexpr char kHex[] = "0123456789ABCDEF";
            const auto b = static_cast<unsigned char>(l[bad]);
            return std::pair{n, say(lessonMessage("lesson_not_utf8"), std::string{kHex[b >> 4], kHex[b & 15]})};
        }
    }
    return std::nullopt;
}

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

int parseInt(std::string_view key, std::string_view value)
{
    long long v = 0;
    const NumberKind kind = parseInteger(value, v);
    if (kind == NumberKind::NotANumber)
        throw Error(say(lessonMessage("lesson_not_whole_number"), key, cut(value)));
    if (kind == NumberKind::TooLarge || v > INT_MAX || v < INT_MIN)
        throw Error(say(lessonMessage("lesson_too_large"), key, cut(value)));
    return static_cast<int>(v);
}

std::uint64_t parseSeed(std::string_view value)
{
    if (!value.empty() && value.front() == '-')
        throw Error(say(lessonMessage("lesson_seed_negative"), cut(value)));
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec == std::errc::result_out_of_range)
        throw Error(say(lessonMessage("lesson_seed_too_large"), cut(value)));
    if (ec != std::errc{} || end != value.data() + value.size())
        throw Error(say(lessonMessage("lesson_not_whole_number"), "seed", cut(value)));
    return v;
}

bool parseSwitch(std::string_view key, std::string_view value)
{
    if (value == "on" || value == "true")
        return true;
    if (value == "off" || value == "false")
        return false;
    throw Error(say(lessonMessage("lesson_not_switch"), key, cut(value)));
}

std::string shortNumber(std::string_view s)
{
    return s.size() <= 20 ? std::string(s) : std::string(s.substr(0, 20)) + "\xE2\x80\xA6"; // …
}

bool isKeyChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

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

bool isStepHeading(std::string_view line)
{
    return line.size() >= 2 && line[0] == '#' && line[1] == '#' && (line.size() == 2 || isSpace(line[2]));
}

bool isTitleHeading(std::string_view line)
{
    return !line.empty() && line[0] == '#' && (line.size() == 1 || isSpace(line[1]));
}

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

namespace {

/// Scripts written without spaces between words, and their punctuation.
bool isWideChar(char32_t c)
{
    return (c >= 0x2E80 && c <= 0x303F)     // CJK radicals, symbols and punctuation (、。「」)
        || (c >= 0x3040 && c <= 0x30FF)     // kana
        || (c >= 0x3400 && c <= 0x4DBF)     // CJK extension A
        || (c >= 0x4E00 && c <= 0x9FFF)     // CJK unified ideographs
        || (c >= 0xF900 && c <= 0xFAFF)     // compatibility ideographs
        || (c >= 0xFF00 && c <= 0xFF60)     // full-width forms (，：；（）)
        || (c >= 0x20000 && c <= 0x2FA1F);  // extensions B and later
}

} // namespace

bool joinsWithoutSpace(std::string_view before, std::string_view after)
{
    if (before.ends_with("  ")) // Markdown's hard line break stays one
        return false;
    before = trim(before);
    after = trim(after);
    if (before.empty() || after.empty())
        return false;
    // The last character of `before`: step back over UTF-8 continuation bytes.
    std::size_t start = before.size() - 1;
    while (start > 0 && (static_cast<unsigned char>(before[start]) & 0xC0) == 0x80)
        --start;
    bool invalid = false;
    std::size_t pos = start;
    const char32_t last = utf8::decode(before, pos, invalid);
    pos = 0;
    const char32_t first = utf8::decode(after, pos, invalid);
    return !invalid && isWideChar(last) && isWideChar(first);
}

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

} // namespace attnlab::lessontext

namespace attnlab {

namespace {

/// "<file>:<line>: <reason>", or "<file>: <reason>" for line 0.
Message errorMessage(const std::string& file, int line, Message reason)
{
    return line > 0 ? sayAbout(lessonMessage("lesson_file_line"), std::move(reason), file, line)
                    : sayAbout(lessonMessage("lesson_file"), std::move(reason), file);
}

} // namespace

LessonError::LessonError(std::string file, int line, Message reason)
    : MessageError(errorMessage(file, line, reason))
    , m_file(std::move(file))
    , m_line(line)
    , m_reason(std::move(reason.text))
{
}

LessonError::LessonError(std::string file, int line, const std::string& reason)
    : LessonError(std::move(file), line, Message{{}, {}, reason})
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

namespace lessontext {

bool isSchemeStage(const std::string& stage)
{
    const auto positions = allPositionStageIds();
    return !kindsComputing(stage).empty() || std::find(positions.begin(), positions.end(), stage) != positions.end();
}

std::string stageNeedsSetting(const std::string& stage, const Config& c)
{
    const auto kinds = kindsComputing(stage);
    if (!kinds.empty() && std::find(kinds.begin(), kinds.end(), c.attention) == kinds.end()) {
        std::string owners;
        for (const AttentionKind k : kinds)
            owners += (owners.empty() ? "" : ", ") + std::string(toString(k));
        return "stage " + quote(stage) + " is computed by attention=" + owners + " only (settings: attention=...)";
    }
    const auto all = allPositionStageIds();
    const auto own = positionStageIds(c.positional);
    if (std::find(all.begin(), all.end(), stage) != all.end() && std::find(own.begin(), own.end(), stage) == own.end()) {
        std::string owners;
        for (const PositionalEncoding p : {PositionalEncoding::Rope, PositionalEncoding::Alibi, PositionalEncoding::Relative, PositionalEncoding::Xl}) {
            const auto ids = positionStageIds(p);
            if (std::find(ids.begin(), ids.end(), stage) != ids.end())
                owners += (owners.empty() ? "pe=" : ", pe=") + std::string(toString(p));
        }
        return "stage " + quote(stage) + " is computed with " + owners + " only (settings: pe=...)";
    }
    return {};
}

} // namespace lessontext

} // namespace attnlab
