#include "text/subword.h"

#include "io/fileio.h"
#include "io/safetensors.h"
#include "text/messages.h"
#include "text/printable.h"
#include "text/unicode.h"

#include <cstdio>

#include <stdexcept>

namespace attnlab {

Vocabulary::Vocabulary(std::vector<std::string> tokens)
    : m_tokens(std::move(tokens))
{
    m_ids.reserve(m_tokens.size());
    for (std::size_t i = 0; i < m_tokens.size(); ++i)
        m_ids.insert_or_assign(m_tokens[i], static_cast<int>(i));
}

std::optional<int> Vocabulary::id(std::string_view token) const
{
    const auto it = m_ids.find(token);
    return it == m_ids.end() ? std::nullopt : std::optional<int>(it->second);
}

const std::string& Vocabulary::token(int id) const
{
    if (id < 0 || id >= size())
        throw MessageError<std::out_of_range>(say(textMessage("token_id_outside"), id, size() - 1));
    return m_tokens[static_cast<std::size_t>(id)];
}

namespace subword {

std::string shortText(std::string_view text)
{
    constexpr std::size_t kMost = 60;
    if (text.size() <= kMost)
        return std::string(text);
    std::size_t cut = kMost;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) // not inside a character
        --cut;
    return std::string(text.substr(0, cut)) + "\u2026";
}

std::string shortQuote(std::string_view text)
{
    return inQuotes(shortText(text));
}

std::string readFile(const std::string& path)
{
    try {
        return attnlab::readFile(path, 256ULL * 1024 * 1024);
    } catch (const FileError& e) {
        throw FormatError(e.message());
    }
}

std::string readableBytes(std::string_view bytes)
{
    const auto hexByte = [](unsigned char b) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "<0x%02X>", b);
        return std::string(buffer);
    };
    std::string out;
    for (std::size_t pos = 0; pos < bytes.size();) {
        const unicode::Utf8Step step = unicode::stepUtf8(bytes, pos);
        const auto first = static_cast<unsigned char>(bytes[pos]);
        if (!step.valid) {
            for (std::size_t i = 0; i < step.length; ++i)
                out += hexByte(static_cast<unsigned char>(bytes[pos + i]));
        } else if (first == ' ') {
            out += "␣";
        } else if (first == '\n') {
            out += "↵";
        } else if (first == '\t') {
            out += "⇥";
        } else if (first < 0x20 || first == 0x7F) {
            out += hexByte(first);
        } else {
            out.append(bytes, pos, step.length);
        }
        pos += step.length;
    }
    return out;
}

void fillTokens(SubwordEncoding& encoding, const Vocabulary& vocabulary)
{
    encoding.tokens.clear();
    encoding.tokens.reserve(encoding.ids.size());
    for (const int id : encoding.ids)
        encoding.tokens.push_back(vocabulary.token(id));
}

} // namespace subword

} // namespace attnlab
