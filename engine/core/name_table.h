#pragma once
/// The names of an enum's values, written once in a table: toString and parse read the same
/// table, so the command line, JSON and files agree on every spelling.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace attnlab::detail {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

template <typename Enum, std::size_t N>
std::string_view nameOf(const NameTable<Enum, N>& table, Enum value)
{
    for (const auto& [e, name] : table) {
        if (e == value)
            return name;
    }
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const NameTable<Enum, N>& table, std::string_view name)
{
    for (const auto& [e, n] : table) {
        if (n == name)
            return e;
    }
    return std::nullopt;
}

} // namespace attnlab::detail
