#include "text/wordpiece.h"

#include "io/safetensors.h"
#include "text/lines.h"
#include "text/messages.h"
#include "text/printable.h"
#include "text/unicode.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace attnlab {

namespace {

/// _is_whitespace of tokenization_utils.py: space, tab, newline, carriage return or Zs.
bool isBertWhitespace(char32_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || unicode::isSpaceSeparator(c);
}

/// _is_control: category C*, except tab, newline and carriage return (white space).
bool isBertControl(char32_t c)
{
    return c != '\t' && c != '\n' && c != '\r' && unicode::isOther(c);
}

/// _is_punctuation: the ASCII symbols (which Unicode files under S*, like $ + < = > ^ ` | ~) and P*.
bool isBertPunctuation(char32_t c)
{
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
        || unicode::isPunctuation(c);
}

/// _is_chinese_char: the CJK Unified Ideographs blocks (not Hangul, not kana) as BERT lists them.
bool isChineseChar(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF)
        || (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF)
        || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool spells(std::u32string_view text, std::string_view ascii)
{
    return std::equal(text.begin(), text.end(), ascii.begin(), ascii.end());
}

bool isSpecial(std::u32string_view word)
{
    const auto& specials = WordPieceTokenizer::kSpecialTokens;
    return std::any_of(specials.begin(), specials.end(), [&](std::string_view special) { return spells(word, special); });
}

/// The special token typed at `pos` of `text`, if any.
std::optional<std::string_view> specialAt(std::u32string_view text, std::size_t pos)
{
    for (const std::string_view special : WordPieceTokenizer::kSpecialTokens)
        if (spells(text.substr(pos, special.size()), special))
            return special;
    return std::nullopt;
}

/// _run_split_on_punc: every punctuation character a word of its own, the runs between them too.
void splitOnPunctuation(const std::u32string& word, std::vector<std::u32string>& out)
{
    bool startNewWord = true;
    for (const char32_t c : word) {
        if (isBertPunctuation(c)) {
            out.emplace_back(1, c);
            startNewWord = true;
        } else {
            if (startNewWord)
                out.emplace_back();
            startNewWord = false;
            out.back() += c;
        }
    }
}

/// _run_strip_accents: NFD, then the nonspacing marks dropped.
std::u32string stripAccents(const std::u32string& word)
{
    std::u32string out;
    for (const char32_t c : unicode::nfd(word))
        if (!unicode::isNonspacingMark(c))
            out += c;
    return out;
}

} // namespace

struct WordPieceTokenizer::Data {
    Vocabulary vocab;
    bool doLowerCase = true;
    int unk = 0, cls = 0, sep = 0;
    /// The vocabulary as a trie of bytes, for the longest token a word starts with: the child
    /// of node n by byte b is edges[n << 8 | b]; terminal[n] is the id of the token ending at n
    /// (−1: none). Continuation tokens are found from the node of "##".
    std::unordered_map<std::uint64_t, int> edges;
    std::vector<int> terminal{-1};
    int continuationRoot = -1;

    int child(int node, unsigned char byte) const
    {
        const auto it = edges.find((static_cast<std::uint64_t>(node) << 8) | byte);
        return it == edges.end() ? -1 : it->second;
    }
    void insert(std::string_view token, int id)
    {
        int node = 0;
        for (const char c : token) {
            const auto key = (static_cast<std::uint64_t>(node) << 8) | static_cast<unsigned char>(c);
            const auto [it, added] = edges.try_emplace(key, static_cast<int>(terminal.size()));
            if (added)
                terminal.push_back(-1);
            node = it->second;
        }
        terminal[static_cast<std::size_t>(node)] = id; // a repeated token: its last id, as the vocab dict
    }
};

WordPieceTokenizer WordPieceTokenizer::fromString(std::string_view vocabTxt, bool doLowerCase, std::string_view name)
{
    // The lines as Python's readlines() in text mode gives them (universal newlines).
    const std::vector<std::string_view> lines = splitLines(vocabTxt);
    std::vector<std::string> tokens;
    tokens.reserve(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].size() > subword::kMaxTokenBytes)
            throw FormatError(say(textMessage("wordpiece_line_long"), printable(name), i + 1, lines[i].size(), subword::kMaxTokenBytes,
                                  kMaxInputCharsPerWord, printable(subword::shortText(lines[i]))));
        if (!unicode::isValidUtf8(lines[i]))
            throw FormatError(say(textMessage("wordpiece_line_utf8"), printable(name), i + 1, printable(lines[i])));
        tokens.emplace_back(lines[i]);
    }
    auto data = std::make_shared<Data>();
    data->vocab = Vocabulary(std::move(tokens));
    data->doLowerCase = doLowerCase;
    for (const auto& [token, slot] : {std::pair{"[UNK]", &data->unk}, std::pair{"[CLS]", &data->cls}, std::pair{"[SEP]", &data->sep}}) {
        const std::optional<int> found = data->vocab.id(token);
        if (!found)
            throw FormatError(say(textMessage("wordpiece_no_special"), printable(name), token));
        *slot = *found;
    }
    for (int id = 0; id < data->vocab.size(); ++id)
        data->insert(data->vocab.token(id), id);
    int node = 0;
    for (const char c : std::string_view("##"))
        node = node < 0 ? -1 : data->child(node, static_cast<unsigned char>(c));
    data->continuationRoot = node;

    WordPieceTokenizer tokenizer;
    tokenizer.m_data = std::move(data);
    return tokenizer;
}

WordPieceTokenizer WordPieceTokenizer::fromFile(const std::string& path, bool doLowerCase)
{
    return fromString(subword::readFile(path), doLowerCase, path);
}

SubwordEncoding WordPieceTokenizer::encode(std::string_view a, std::optional<std::string_view> b) const
{
    SubwordEncoding out;
    out.ids.push_back(m_data->cls);
    encodeText(a, out.ids);
    out.ids.push_back(m_data->sep);
    out.segmentIds.assign(out.ids.size(), 0);
    if (b) {
        encodeText(*b, out.ids);
        out.ids.push_back(m_data->sep);
        out.segmentIds.resize(out.ids.size(), 1);
    }
    subword::fillTokens(out, m_data->vocab);
    return out;
}

void WordPieceTokenizer::encodeText(std::string_view text, std::vector<int>& ids) const
{
    // The special tokens are cut out first (as written: "[mask]" is not one); the text between
    // them is lower-cased one character at a time and goes through the basic tokenizer.
    const std::u32string cps = unicode::decodeUtf8(text);
    std::u32string plain;
    const auto flush = [&] {
        for (const std::u32string& word : basicTokenize(plain))
            wordPiece(word, ids);
        plain.clear();
    };
    for (std::size_t i = 0; i < cps.size();) {
        if (const std::optional<std::string_view> special = cps[i] == '[' ? specialAt(cps, i) : std::nullopt) {
            flush();
            ids.push_back(m_data->vocab.id(*special).value_or(m_data->unk));
            i += special->size(); // ASCII: one code point per byte
            continue;
        }
        if (m_data->doLowerCase)
            unicode::appendLower(plain, cps[i]);
        else
            plain += cps[i];
        ++i;
    }
    flush();
}

std::vector<std::u32string> WordPieceTokenizer::basicTokenize(const std::u32string& text) const
{
    // _clean_text and _tokenize_chinese_chars: drop what cannot be shown, white space to a
    // space, a space on each side of a CJK ideograph.
    std::u32string cleaned;
    cleaned.reserve(text.size());
    for (const char32_t c : text) {
        if (c == 0 || c == 0xFFFD || isBertControl(c))
            continue;
        if (isBertWhitespace(c))
            cleaned += ' ';
        else if (isChineseChar(c))
            cleaned.append({U' ', c, U' '});
        else
            cleaned += c;
    }
    // whitespace_tokenize (Python's str.split()), then per word: accents, punctuation.
    std::vector<std::u32string> words;
    std::size_t pos = 0;
    while (pos < cleaned.size()) {
        while (pos < cleaned.size() && unicode::isPythonSpace(cleaned[pos]))
            ++pos;
        std::size_t end = pos;
        while (end < cleaned.size() && !unicode::isPythonSpace(cleaned[end]))
            ++end;
        if (end == pos)
            break;
        const std::u32string word = cleaned.substr(pos, end - pos);
        pos = end;
        if (isSpecial(word)) { // never_split: a special token that cleaning brought together
            words.push_back(word);
            continue;
        }
        splitOnPunctuation(m_data->doLowerCase ? stripAccents(word) : word, words);
    }
    return words;
}

void WordPieceTokenizer::wordPiece(const std::u32string& word, std::vector<int>& ids) const
{
    if (word.size() > kMaxInputCharsPerWord) {
        ids.push_back(m_data->unk);
        return;
    }
    // Greedy longest match first: the longest token the rest of the word starts with ("##"
    // tokens after the first piece). Vocabulary tokens are UTF-8, so a match of bytes ends
    // between characters.
    const std::string bytes = unicode::encodeUtf8(word);
    std::vector<int> pieces;
    for (std::size_t start = 0; start < bytes.size();) {
        int node = start == 0 ? 0 : m_data->continuationRoot;
        int best = -1;
        std::size_t bestEnd = start;
        for (std::size_t p = start; node >= 0 && p < bytes.size(); ++p) {
            node = m_data->child(node, static_cast<unsigned char>(bytes[p]));
            if (node >= 0 && m_data->terminal[static_cast<std::size_t>(node)] >= 0) {
                best = m_data->terminal[static_cast<std::size_t>(node)];
                bestEnd = p + 1;
            }
        }
        if (best < 0) {
            ids.push_back(m_data->unk); // a part matches nothing: the whole word is [UNK]
            return;
        }
        pieces.push_back(best);
        start = bestEnd;
    }
    ids.insert(ids.end(), pieces.begin(), pieces.end());
}

std::string WordPieceTokenizer::decode(const std::vector<int>& ids) const
{
    // " ".join(tokens).replace(" ##", "").strip()
    std::string joined;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0)
            joined += ' ';
        joined += m_data->vocab.token(ids[i]);
    }
    std::string glued;
    for (std::size_t pos = 0; pos < joined.size();) {
        if (joined.compare(pos, 3, " ##") == 0) {
            pos += 3;
        } else {
            glued += joined[pos];
            ++pos;
        }
    }
    std::u32string text = unicode::decodeUtf8(glued);
    const auto notSpace = [](char32_t c) { return !unicode::isPythonSpace(c); };
    text.erase(std::find_if(text.rbegin(), text.rend(), notSpace).base(), text.end());
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), notSpace));
    return unicode::encodeUtf8(text);
}

int WordPieceTokenizer::size() const
{
    return m_data->vocab.size();
}

bool WordPieceTokenizer::doLowerCase() const
{
    return m_data->doLowerCase;
}

std::optional<int> WordPieceTokenizer::id(std::string_view token) const
{
    return m_data->vocab.id(token);
}

const std::string& WordPieceTokenizer::token(int id) const
{
    return m_data->vocab.token(id);
}

} // namespace attnlab
