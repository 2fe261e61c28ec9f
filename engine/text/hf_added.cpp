#include "text/hf_added.h"

#include "text/unicode.h"

namespace attnlab::hf {

namespace {

/// The code point that ends `text` / starts it (text not empty, valid UTF-8).
char32_t lastCharacter(std::string_view text)
{
    std::size_t pos = text.size() - 1;
    while (pos > 0 && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
        --pos;
    return unicode::stepUtf8(text, pos).codePoint;
}

char32_t firstCharacter(std::string_view text)
{
    return unicode::stepUtf8(text, 0).codePoint;
}

/// Where the white space that ends `text` begins.
std::size_t trailingSpaceStart(std::string_view text)
{
    std::size_t start = text.size();
    while (start > 0) {
        std::size_t pos = start - 1;
        while (pos > 0 && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
            --pos;
        if (!unicode::isWhiteSpace(unicode::stepUtf8(text, pos).codePoint))
            break;
        start = pos;
    }
    return start;
}

/// The length of the white space that starts `text`.
std::size_t leadingSpaceLength(std::string_view text)
{
    std::size_t pos = 0;
    while (pos < text.size()) {
        const unicode::Utf8Step step = unicode::stepUtf8(text, pos);
        if (!unicode::isWhiteSpace(step.codePoint))
            break;
        pos += step.length;
    }
    return pos;
}

} // namespace

/// AddedVocabulary::find_matches: `piece` cut at the added tokens `finder` knows, with their
/// single_word, lstrip and rstrip rules. The pieces' atStart follows the text's start.
void splitAtAddedTokens(const Piece& piece, const AddedTokenFinder& finder, std::vector<Piece>& out)
{
    const std::string_view text = piece.text;
    if (finder.empty() || text.empty()) {
        out.push_back(piece);
        return;
    }
    std::size_t done = 0; // the text before this is in `out`
    const auto emit = [&](std::size_t begin, std::size_t end, int id) {
        out.push_back({std::string(text.substr(begin, end - begin)), id, piece.atStart && begin == 0});
    };
    for (std::size_t pos = done; pos < text.size();) {
        const AddedToken* token = finder.at(text, pos);
        if (token == nullptr) {
            ++pos;
            continue;
        }
        std::size_t start = pos, stop = pos + token->pattern.size();
        pos = stop; // the search goes on after this match, whether it is kept or not
        if (token->singleWord) {
            const bool spaceBefore = start == 0 || !unicode::isWordCharacter(lastCharacter(text.substr(0, start)));
            const bool spaceAfter = stop == text.size() || !unicode::isWordCharacter(firstCharacter(text.substr(stop)));
            if (!spaceBefore || !spaceAfter)
                continue;
        }
        if (token->lstrip) // the white space before it goes with it (not what an earlier match took)
            start = std::max(trailingSpaceStart(text.substr(0, start)), done);
        if (token->rstrip)
            stop += leadingSpaceLength(text.substr(stop));
        if (done < start)
            emit(done, start, -1);
        emit(start, stop, token->id);
        done = stop;
        pos = std::max(pos, stop);
    }
    if (done < text.size())
        emit(done, text.size(), -1);
}

} // namespace attnlab::hf
