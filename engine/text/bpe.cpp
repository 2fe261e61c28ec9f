#include "text/bpe.h"

#include "io/messages.h"
#include "io/safetensors.h"
#include "text/messages.h"
#include "text/lines.h"
#include "text/printable.h"
#include "text/unicode.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <queue>
#include <unordered_map>

namespace attnlab {

namespace {

/// encoder.py's bytes_to_unicode: the printable bytes ('!'…'~', '¡'…'¬', '®'…'ÿ') stand for
/// themselves; the other 68 (controls, space, DEL, NBSP, soft hyphen) get U+0100, U+0101, … in
/// byte order, so that no token holds white space or a control character (a space is "Ġ").
std::array<char32_t, 256> bytesToUnicode()
{
    std::array<char32_t, 256> table{};
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        table[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
    }
    return table;
}

std::uint64_t pairKey(int left, int right)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

/// A merge of merges.txt: its rank (its line's order) and the token it makes.
struct Merge {
    int rank = 0;
    int result = 0;
};
using MergeTable = std::unordered_map<std::uint64_t, Merge>;

/// A refusal about the file `name`: "'vocab.json': " and why.
FormatError inFile(std::string_view name, Message why)
{
    return FormatError(sayAbout(ioMessage("in_file"), std::move(why), printable(name)));
}

/// A refusal about line `line` (1-based) of the file `name`: "'merges.txt': line 3: " and why.
FormatError atLine(std::string_view name, std::size_t line, Message why)
{
    return inFile(name, sayAbout(textMessage("file_line"), std::move(why), line));
}

/// nlohmann's parse error without its "[json.exception.parse_error.101] " prefix.
std::string jsonReason(const nlohmann::json::exception& e)
{
    const std::string what = e.what();
    const std::size_t end = what.find("] ");
    return end == std::string::npos ? what : what.substr(end + 2);
}

/// vocab.json: an object of token -> id, the ids 0 … n − 1 each once.
std::vector<std::string> parseVocabJson(std::string_view json, std::string_view name)
{
    nlohmann::json object;
    try {
        object = nlohmann::json::parse(json);
    } catch (const nlohmann::json::exception& e) {
        throw inFile(name, say(textMessage("vocab_not_json"), jsonReason(e)));
    }
    if (!object.is_object())
        throw inFile(name, say(textMessage("vocab_not_object"), object.type_name()));
    const std::size_t n = object.size();
    std::vector<std::string> tokens(n);
    std::vector<bool> seen(n, false);
    for (const auto& [token, value] : object.items()) {
        if (token.size() > subword::kMaxTokenBytes)
            throw inFile(name, say(textMessage("vocab_token_long"), printable(subword::shortText(token)), token.size(), subword::kMaxTokenBytes));
        if (!value.is_number_integer()) // (a megabyte of JSON in the message would be no help)
            throw inFile(name, say(textMessage("vocab_id_not_integer"), printable(token), subword::shortText(value.dump())));
        // Non-negative integers are read as unsigned, negative ones as signed.
        const bool inRange = value.is_number_unsigned() && value.get<std::uint64_t>() < n;
        if (!inRange)
            throw inFile(name, say(textMessage("vocab_id_outside"), printable(token), value.dump(), n - 1, n));
        const auto index = static_cast<std::size_t>(value.get<std::uint64_t>());
        if (seen[index])
            throw inFile(name, say(textMessage("vocab_same_id"), printable(tokens[index]), printable(token), value.dump()));
        seen[index] = true;
        tokens[index] = token;
    }
    return tokens;
}

/// The parts of a merges.txt line, split at ASCII white space.
std::vector<std::string_view> splitWords(std::string_view line)
{
    std::vector<std::string_view> words;
    const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && isSpace(line[pos]))
            ++pos;
        std::size_t end = pos;
        while (end < line.size() && !isSpace(line[end]))
            ++end;
        if (end > pos)
            words.push_back(line.substr(pos, end - pos));
        pos = end;
    }
    return words;
}

/// merges.txt: "a b" per line, rank = order; both parts and their concatenation are tokens.
MergeTable parseMerges(std::string_view text, const Vocabulary& vocab, std::string_view name, std::string_view vocabName)
{
    MergeTable merges;
    const std::vector<std::string_view> lines = splitLines(text);
    int rank = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i == 0 && lines[i].starts_with("#version"))
            continue;
        if (lines[i].size() > 2 * subword::kMaxTokenBytes + 1)
            throw atLine(name, i + 1,
                         say(textMessage("merges_line_long"), lines[i].size(), subword::kMaxTokenBytes, printable(subword::shortText(lines[i]))));
        const std::vector<std::string_view> parts = splitWords(lines[i]);
        if (parts.empty())
            continue;
        if (parts.size() != 2)
            throw atLine(name, i + 1, say(textMessage("merges_two_tokens"), parts.size(), printable(lines[i])));
        const std::optional<int> left = vocab.id(parts[0]);
        const std::optional<int> right = vocab.id(parts[1]);
        for (const auto& [part, id] : {std::pair{parts[0], left}, std::pair{parts[1], right}})
            if (!id)
                throw atLine(name, i + 1, say(textMessage("merges_not_in_vocabulary"), printable(part), printable(vocabName)));
        const std::string joined = std::string(parts[0]) + std::string(parts[1]);
        const std::optional<int> result = vocab.id(joined);
        if (!result)
            throw atLine(name, i + 1,
                         say(textMessage("merges_result_not_in_vocabulary"), printable(parts[0]), printable(parts[1]), printable(joined),
                             printable(vocabName)));
        merges.insert_or_assign(pairKey(*left, *right), Merge{rank++, *result});
    }
    return merges;
}

/// encoder.py's bpe() on token ids: the adjacent pair of lowest rank is merged, every occurrence
/// left to right, then the next lowest among the pairs that are left, until no pair has a rank.
/// A heap of (rank, position) finds them in O(n log n) (encoder.py rescans the word after each
/// merge, which is quadratic on a long run of CJK text). The pairs a round's merges make join the
/// heap when the round is over, as encoder.py looks for them only then.
std::vector<int> applyMerges(std::vector<int> symbols, const MergeTable& merges)
{
    const int n = static_cast<int>(symbols.size());
    if (n < 2)
        return symbols;
    // A linked list over the symbols: a merge keeps the left one and unlinks the right one (-1).
    std::vector<int> next(static_cast<std::size_t>(n)), prev(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        next[i] = i + 1, prev[i] = i - 1;

    struct Candidate {
        int rank, left, leftId, rightId, result;
        bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : left > o.left; }
    };
    std::vector<Candidate> found;
    const auto consider = [&](int left) {
        if (left < 0 || next[left] >= n)
            return;
        const auto it = merges.find(pairKey(symbols[left], symbols[next[left]]));
        if (it != merges.end())
            found.push_back({it->second.rank, left, symbols[left], symbols[next[left]], it->second.result});
    };
    // Still there: no merge has changed either side of the pair since it was found.
    const auto current = [&](const Candidate& c) {
        return symbols[c.left] == c.leftId && next[c.left] < n && symbols[next[c.left]] == c.rightId;
    };

    for (int i = 0; i + 1 < n; ++i)
        consider(i);
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap(std::greater<>(), std::move(found));
    found.clear();
    while (!heap.empty()) {
        const int rank = heap.top().rank;
        while (!heap.empty() && heap.top().rank == rank) {
            const Candidate c = heap.top();
            heap.pop();
            if (!current(c))
                continue;
            const int right = next[c.left];
            symbols[c.left] = c.result;
            symbols[right] = -1;
            next[c.left] = next[right];
            if (next[right] < n)
                prev[next[right]] = c.left;
            consider(prev[c.left]);
            consider(c.left);
        }
        for (const Candidate& c : found)
            heap.push(c);
        found.clear();
    }
    std::vector<int> out;
    for (int i = 0; i < n; i = next[i])
        out.push_back(symbols[i]);
    return out;
}

std::string hexByte(unsigned char b)
{
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "<0x%02X>", b);
    return buffer;
}

} // namespace

struct BpeTokenizer::Data {
    Vocabulary vocab;
    MergeTable merges;
    std::array<int, 256> byteIds{};   ///< the token of each byte's character
    std::vector<std::string> bytesOf; ///< what each token stands for, as bytes
    std::optional<int> endOfText;
};

/// The ids of the pieces seen so far (short pieces only; forgotten all at once when full).
class BpeTokenizer::Cache {
public:
    static constexpr std::size_t kMaxPiece = 128;
    static constexpr std::size_t kMaxEntries = 1 << 16;

    std::optional<std::vector<int>> find(std::string_view piece)
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_ids.find(piece);
        return it == m_ids.end() ? std::nullopt : std::optional<std::vector<int>>(it->second);
    }
    void insert(std::string_view piece, const std::vector<int>& ids)
    {
        const std::lock_guard lock(m_mutex);
        if (m_ids.size() >= kMaxEntries)
            m_ids.clear();
        m_ids.emplace(std::string(piece), ids);
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::mutex m_mutex;
    std::unordered_map<std::string, std::vector<int>, Hash, std::equal_to<>> m_ids;
};

BpeTokenizer BpeTokenizer::fromStrings(std::string_view vocabJson, std::string_view merges, std::string_view vocabName,
                                       std::string_view mergesName)
{
    auto data = std::make_shared<Data>();
    data->vocab = Vocabulary(parseVocabJson(vocabJson, vocabName));
    data->merges = parseMerges(merges, data->vocab, mergesName, vocabName);

    const std::array<char32_t, 256> table = bytesToUnicode();
    std::unordered_map<char32_t, char> byteOf;
    for (int b = 0; b < 256; ++b) {
        const std::string character = unicode::encodeUtf8(std::u32string(1, table[static_cast<std::size_t>(b)]));
        const std::optional<int> id = data->vocab.id(character);
        if (!id)
            throw inFile(vocabName, say(textMessage("byte_no_token"), hexByte(static_cast<unsigned char>(b)), printable(character)));
        data->byteIds[static_cast<std::size_t>(b)] = *id;
        byteOf[table[static_cast<std::size_t>(b)]] = static_cast<char>(b);
    }
    // A token's bytes: each character of the byte alphabet is its byte; any other (in a special
    // token someone added) is itself, in UTF-8.
    data->bytesOf.reserve(static_cast<std::size_t>(data->vocab.size()));
    for (int id = 0; id < data->vocab.size(); ++id) {
        std::string bytes;
        for (const char32_t c : unicode::decodeUtf8(data->vocab.token(id))) {
            const auto it = byteOf.find(c);
            bytes += it != byteOf.end() ? std::string(1, it->second) : unicode::encodeUtf8(std::u32string(1, c));
        }
        data->bytesOf.push_back(std::move(bytes));
    }
    data->endOfText = data->vocab.id(kEndOfText);

    BpeTokenizer tokenizer;
    tokenizer.m_data = std::move(data);
    tokenizer.m_cache = std::make_shared<Cache>();
    return tokenizer;
}

BpeTokenizer BpeTokenizer::fromFiles(const std::string& vocabPath, const std::string& mergesPath)
{
    const std::string vocab = subword::readFile(vocabPath);
    const std::string merges = subword::readFile(mergesPath);
    return fromStrings(vocab, merges, vocabPath, mergesPath);
}

std::vector<int> BpeTokenizer::bpe(std::string_view piece) const
{
    const bool cached = piece.size() <= Cache::kMaxPiece;
    if (cached) {
        if (auto ids = m_cache->find(piece))
            return std::move(*ids);
    }
    std::vector<int> symbols;
    symbols.reserve(piece.size());
    for (const char byte : piece)
        symbols.push_back(m_data->byteIds[static_cast<unsigned char>(byte)]);
    std::vector<int> ids = applyMerges(std::move(symbols), m_data->merges);
    if (cached)
        m_cache->insert(piece, ids);
    return ids;
}

SubwordEncoding BpeTokenizer::encode(std::string_view text) const
{
    SubwordEncoding out;
    const auto encodePlain = [&](std::string_view part) {
        for (const std::string_view piece : unicode::gpt2Pieces(part)) {
            const std::vector<int> ids = bpe(piece);
            out.ids.insert(out.ids.end(), ids.begin(), ids.end());
        }
    };
    // "<|endoftext|>" is cut out first: the text around it is encoded as if it were not there.
    while (m_data->endOfText) {
        const std::size_t at = text.find(kEndOfText);
        if (at == std::string_view::npos)
            break;
        encodePlain(text.substr(0, at));
        out.ids.push_back(*m_data->endOfText);
        text.remove_prefix(at + kEndOfText.size());
    }
    encodePlain(text);
    subword::fillTokens(out, m_data->vocab);
    return out;
}

std::string BpeTokenizer::decode(const std::vector<int>& ids) const
{
    std::string bytes;
    for (const int id : ids) {
        m_data->vocab.token(id); // throws std::out_of_range outside the vocabulary
        bytes += m_data->bytesOf[static_cast<std::size_t>(id)];
    }
    return unicode::replaceInvalidUtf8(bytes);
}

std::string BpeTokenizer::display(int id) const
{
    m_data->vocab.token(id);
    return subword::readableBytes(m_data->bytesOf[static_cast<std::size_t>(id)]);
}

int BpeTokenizer::size() const
{
    return m_data->vocab.size();
}

std::optional<int> BpeTokenizer::id(std::string_view token) const
{
    return m_data->vocab.id(token);
}

const std::string& BpeTokenizer::token(int id) const
{
    return m_data->vocab.token(id);
}

} // namespace attnlab
