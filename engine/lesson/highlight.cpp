// Highlights of a lesson step: parsing "cells 1,2; rows 3" and checking them against a matrix.

#include "lesson/lesson_text.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace attnlab {

namespace lessontext {

namespace {

// Largest positions a highlight may name: rows are tokens; columns are keys or features.
constexpr int kMaxHighlightRow = ConfigLimits::maxTokens;
constexpr int kMaxHighlightColumn = std::max(ConfigLimits::maxTokens, ConfigLimits::maxDModel);

// --- highlight ---

enum class Axis {
    Row,
    Column,
};

int position(std::string_view s, Axis axis)
{
    const bool row = axis == Axis::Row;
    long long v = 0;
    const NumberKind kind = parseInteger(s, v);
    if (kind == NumberKind::NotANumber)
        throw Error(say(row ? lessonMessage("highlight_not_row_number") : lessonMessage("highlight_not_column_number"), cut(s)));
    if (kind == NumberKind::Ok && v < 1)
        throw Error(say(row ? lessonMessage("highlight_row_zero") : lessonMessage("highlight_column_zero"), shortNumber(s)));
    const int limit = row ? kMaxHighlightRow : kMaxHighlightColumn;
    if (kind == NumberKind::TooLarge || v > limit)
        throw Error(say(row ? lessonMessage("highlight_row_beyond") : lessonMessage("highlight_column_beyond"), shortNumber(s), limit));
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
} // namespace

Highlight parseHighlight(std::string_view text)
{
    static const std::vector<std::string> kGroups{"cells", "rows", "columns"};
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
                throw Error(say(lessonMessage("highlight_no_pair"), cut(keyword)));
            for (const std::string_view pair : pairs) {
                const std::size_t comma = pair.find(',');
                if (comma == std::string_view::npos || comma == 0 || comma + 1 == pair.size()
                    || pair.find(',', comma + 1) != std::string_view::npos)
                    throw Error(say(lessonMessage("highlight_not_cell"), cut(pair)));
                const std::pair<int, int> cell{position(pair.substr(0, comma), Axis::Row),
                                               position(pair.substr(comma + 1), Axis::Column)};
                if (seenCells.insert(cell).second)
                    h.cells.push_back(cell);
            }
        } else if (keyword == "rows" || keyword == "row" || keyword == "columns" || keyword == "column") {
            const Axis axis = keyword.front() == 'r' ? Axis::Row : Axis::Column;
            const auto list = words(items);
            if (list.empty())
                throw Error(say(axis == Axis::Row ? lessonMessage("highlight_no_row") : lessonMessage("highlight_no_column"), cut(keyword)));
            for (const std::string_view item : list) {
                if (item.find(',') != std::string_view::npos)
                    throw Error(say(axis == Axis::Row ? lessonMessage("highlight_item_not_row") : lessonMessage("highlight_item_not_column"),
                                    cut(item)));
                const int p = position(item, axis);
                if (axis == Axis::Row ? seenRows.insert(p).second : seenColumns.insert(p).second)
                    (axis == Axis::Row ? h.rows : h.columns).push_back(p);
            }
        } else {
            if (const auto near = nearestName(keyword, kGroups))
                throw Error(say(lessonMessage("highlight_unknown_group_near"), cut(keyword), *near));
            throw Error(say(lessonMessage("highlight_unknown_group"), cut(keyword)));
        }
    }
    if (h.empty())
        throw Error(say(lessonMessage("highlight_nothing")));
    return h;
}

} // namespace lessontext

using lessontext::plural;

std::vector<HighlightMiss> highlightMisses(const Highlight& h, int rows, int columns)
{
    const auto rowOutside = [&](int r) { return r < 0 || r >= rows; };
    const auto columnOutside = [&](int c) { return c < 0 || c >= columns; };
    std::vector<HighlightMiss> out;
    for (const auto& [r, c] : h.cells) {
        if (rowOutside(r) || columnOutside(c))
            out.push_back({HighlightMiss::Kind::Cell, r, c, rowOutside(r), columnOutside(c)});
    }
    for (const int r : h.rows) {
        if (rowOutside(r))
            out.push_back({HighlightMiss::Kind::Row, r, -1, true, false});
    }
    for (const int c : h.columns) {
        if (columnOutside(c))
            out.push_back({HighlightMiss::Kind::Column, -1, c, false, true});
    }
    return out;
}

std::vector<std::string> highlightProblems(const Highlight& h, int rows, int columns)
{
    const std::string tokens = "the sentence has " + plural(rows, "token", "tokens");
    const std::string cols = "the matrix has " + plural(columns, "column", "columns");
    const std::string fromOne = "positions count from 1";
    std::vector<std::string> out;
    for (const HighlightMiss& m : highlightMisses(h, rows, columns)) {
        const std::string row = std::to_string(m.row + 1LL);
        const std::string column = std::to_string(m.column + 1LL);
        switch (m.kind) {
        case HighlightMiss::Kind::Cell: {
            const std::string name = "cell " + row + "," + column;
            if (m.row < 0 || m.column < 0)
                out.push_back(name + " (" + fromOne + ")");
            else if (m.rowOutside && m.columnOutside)
                out.push_back(name + " (" + tokens + " and the matrix " + plural(columns, "column", "columns") + ")");
            else
                out.push_back(name + " (" + (m.rowOutside ? tokens : cols) + ")");
            break;
        }
        case HighlightMiss::Kind::Row:
            out.push_back("row " + row + " (" + (m.row < 0 ? fromOne : tokens) + ")");
            break;
        case HighlightMiss::Kind::Column:
            out.push_back("column " + column + " (" + (m.column < 0 ? fromOne : cols) + ")");
            break;
        }
    }
    return out;
}

} // namespace attnlab
