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
} // namespace

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
