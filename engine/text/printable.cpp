#include "text/printable.h"

#include "text/utf8.h"

#include <cstdio>

namespace attnlab {

namespace {

/// A character a message must not show as it is.
bool isHidden(char32_t c)
{
    const bool control = c < 0x20 || (c >= 0x7F && c <= 0x9F);
    const bool bidi = c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)
        || c == 0x061C;
    return control || bidi || c == 0x2028 || c == 0x2029 || c == 0xFEFF;
}

std::string hex(const char* format, unsigned value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

} // namespace

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t start = pos;
        bool invalid = false;
        const char32_t c = utf8::decode(text, pos, invalid);
        if (invalid)
            out += hex("\\x%02x", static_cast<unsigned char>(text[start]));
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x80 && isHidden(c))
            out += hex("\\x%02x", static_cast<unsigned>(c));
        else if (isHidden(c))
            out += hex("\\u%04x", static_cast<unsigned>(c));
        else
            out.append(text.substr(start, pos - start));
    }
    return out;
}

std::string inQuotes(std::string_view text)
{
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
    std::string out = "'";
    out += printable(text);
    out += '\'';
    return out;
}

std::string describeCharacter(std::string_view text, std::size_t pos)
{
    if (pos >= text.size())
        return "the end of the text";
    std::size_t end = pos;
    bool invalid = false;
    const char32_t c = utf8::decode(text, end, invalid);
    if (invalid || (c < 0x80 && isHidden(c)))
        return hex("byte 0x%02x", static_cast<unsigned char>(text[pos]));
    if (isHidden(c))
        return hex("character U+%04X", static_cast<unsigned>(c));
    const std::string shown = "character '" + std::string(text.substr(pos, end - pos)) + "'";
    return c < 0x80 ? shown : shown + hex(" (U+%04X)", static_cast<unsigned>(c));
}

} // namespace attnlab
