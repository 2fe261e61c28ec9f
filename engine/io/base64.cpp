#include "io/base64.h"

#include <array>
#include <cstdint>

namespace attnlab {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of each byte: 0..63, or -1 for a byte outside the alphabet.
constexpr std::array<std::int8_t, 256> kValues = [] {
    std::array<std::int8_t, 256> v{};
    v.fill(-1);
    for (std::size_t i = 0; i < kAlphabet.size(); ++i)
        v[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
    return v;
}();

bool isWhiteSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

std::string toBase64(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    // Three bytes (24 bits) make four characters of 6 bits each.
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16
            | static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8 | static_cast<unsigned char>(bytes[i + 2]);
        for (int shift = 18; shift >= 0; shift -= 6)
            out += kAlphabet[(v >> shift) & 63];
    }
    // One or two bytes left: two or three characters, then '=' up to four.
    if (const std::size_t rest = bytes.size() - i; rest > 0) {
        std::uint32_t v = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (rest == 2)
            v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::optional<std::string> fromBase64(std::string_view text)
{
    std::string out;
    out.reserve(text.size() / 4 * 3);
    std::uint32_t bits = 0; // the characters of the current group of four
    int count = 0;          // how many of them have been read
    std::size_t padding = 0;
    for (const char c : text) {
        if (isWhiteSpace(c))
            continue;
        if (c == '=') {
            ++padding;
            continue;
        }
        const int v = kValues[static_cast<unsigned char>(c)];
        if (v < 0 || padding > 0)
            return std::nullopt; // not base64, or text after the padding
        bits = bits << 6 | static_cast<std::uint32_t>(v);
        if (++count == 4) {
            out += static_cast<char>((bits >> 16) & 0xFF);
            out += static_cast<char>((bits >> 8) & 0xFF);
            out += static_cast<char>(bits & 0xFF);
            bits = 0;
            count = 0;
        }
    }
    // A last group of two or three characters holds one or two bytes; one character holds none.
    if (count == 1 || (padding > 0 && (count < 2 || count + padding != 4)))
        return std::nullopt;
    if (count == 2) {
        out += static_cast<char>((bits >> 4) & 0xFF);
    } else if (count == 3) {
        out += static_cast<char>((bits >> 10) & 0xFF);
        out += static_cast<char>((bits >> 2) & 0xFF);
    }
    return out;
}

} // namespace attnlab
