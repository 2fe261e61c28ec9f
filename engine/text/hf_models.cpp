#include "text/hf_models.h"

#include "text/subword.h"
#include "text/unicode.h"

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <queue>

namespace attnlab::hf {

namespace {

/// Ids above this are no vocabulary but a damaged file (the largest vocabularies have 256 k).
constexpr long long kMaxId = (1 << 24) - 1;

std::uint64_t pairKey(int left, int right)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

/// The pieces seen so far and their ids (short pieces only; forgotten all at once when full), so
/// that retyping a sentence redoes only the piece that changed. Shared by copies; thread-safe.
class PieceCache {
public:
    static constexpr std::size_t kMaxPiece = 256;
    static constexpr std::size_t kMaxEntries = 1 << 16;

    bool find(std::string_view piece, std::vector<int>& ids) const
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_ids.find(piece);
        if (it == m_ids.end())
            return false;
        ids.insert(ids.end(), it->second.begin(), it->second.end());
        return true;
    }
    void insert(std::string_view piece, std::vector<int> ids) const
    {
        const std::lock_guard lock(m_mutex);
        if (m_ids.size() >= kMaxEntries)
            m_ids.clear();
        m_ids.emplace(std::string(piece), std::move(ids));
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    mutable std::mutex m_mutex;
    mutable std::unordered_map<std::string, std::vector<int>, Hash, std::equal_to<>> m_ids;
};

/// The characters (code points) of valid UTF-8 `text`, as byte ranges.
std::vector<std::string_view> characters(std::string_view text)
{
    std::vector<std::string_view> out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t length = unicode::stepUtf8(text, pos).length;
        out.push_back(text.substr(pos, length));
        pos += length;
    }
    return out;
}

/// Byte-pair encoding as `tokenizers`' models/bpe (model.rs merge_word, word.rs merge_all).
class BpeModel final : public Model {
public:
    BpeModel(const nlohmann::json& j, const JsonPlace& at)
    {
        if (const nlohmann::json* dropout = optionalMember(j, "dropout")) {
            if (!dropout->is_number())
                fail(at / "dropout", "expected a number, found " + subword::shortText(dropout->dump()));
            if (dropout->get<double>() != 0.0)
                fail(at / "dropout", "BPE dropout (" + dropout->dump() + ") drops merges at random; Attention Lab tokenizes "
                                     "the same way every time and does not compute it");
        }
        m_vocab = ModelVocab::fromJson(member(j, "vocab", at), at / "vocab");
        m_unk = optionalString(j, "unk_token", at);
        if (m_unk && !m_vocab.id(*m_unk))
            fail(at / "unk_token", "the unknown token " + subword::shortQuote(*m_unk) + " is not in the vocabulary");
        m_prefix = optionalString(j, "continuing_subword_prefix", at).value_or("");
        m_suffix = optionalString(j, "end_of_word_suffix", at).value_or("");
        m_fuseUnk = boolMember(j, "fuse_unk", false, at);
        m_byteFallback = boolMember(j, "byte_fallback", false, at);
        m_ignoreMerges = boolMember(j, "ignore_merges", false, at);
        if (m_byteFallback) {
            for (int b = 0; b < 256; ++b) {
                char name[8];
                std::snprintf(name, sizeof name, "<0x%02X>", b);
                m_byteIds[static_cast<std::size_t>(b)] = m_vocab.id(name).value_or(-1);
            }
        }
        readMerges(member(j, "merges", at), at / "merges");
    }

    std::string_view type() const override { return "BPE"; }

    void tokenize(std::string_view piece, std::vector<int>& ids) const override
    {
        if (piece.empty())
            return;
        // ignore_merges (Llama 3): a piece that is a token is that token, whatever the merges say.
        if (m_ignoreMerges) {
            if (const std::optional<int> id = m_vocab.id(piece)) {
                ids.push_back(*id);
                return;
            }
        }
        const bool cached = piece.size() < PieceCache::kMaxPiece;
        if (cached && m_cache->find(piece, ids))
            return;
        std::vector<int> word = mergeWord(piece);
        ids.insert(ids.end(), word.begin(), word.end());
        if (cached)
            m_cache->insert(piece, std::move(word));
    }

private:
    struct Merge {
        int rank;
        int result;
    };

    void readMerges(const nlohmann::json& merges, const JsonPlace& at)
    {
        if (!merges.is_array())
            fail(at, std::string("expected a list of merges, found ") + merges.type_name());
        m_merges.reserve(merges.size());
        for (std::size_t i = 0; i < merges.size(); ++i) {
            // A merge is "a b" (split at the first space) or ["a", "b"].
            std::string a, b;
            const nlohmann::json& m = merges[i];
            if (m.is_string()) {
                const std::string& line = m.get_ref<const std::string&>();
                const std::size_t space = line.find(' ');
                if (space == std::string::npos)
                    fail(at[i], "expected two tokens separated by a space, found " + subword::shortQuote(line));
                a = line.substr(0, space);
                b = line.substr(space + 1);
            } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
                a = m[0].get<std::string>();
                b = m[1].get<std::string>();
            } else {
                fail(at[i], "expected \"a b\" or [\"a\", \"b\"], found " + subword::shortText(m.dump()));
            }
            const std::optional<int> left = m_vocab.id(a), right = m_vocab.id(b);
            for (const auto& [part, id] : {std::pair{&a, left}, std::pair{&b, right}})
                if (!id)
                    fail(at[i], subword::shortQuote(*part) + " is not in the vocabulary");
            // The merged token drops the right part's continuing_subword_prefix.
            const std::string joined = a + (b.starts_with(m_prefix) ? b.substr(m_prefix.size()) : b);
            const std::optional<int> result = m_vocab.id(joined);
            if (!result)
                fail(at[i], "the merge of " + subword::shortQuote(a) + " and " + subword::shortQuote(b) + ", "
                                + subword::shortQuote(joined) + ", is not in the vocabulary");
            // A pair listed twice keeps its last rank (Rust collects the list into a map).
            m_merges.insert_or_assign(pairKey(*left, *right), Merge{static_cast<int>(i), *result});
        }
    }

    std::optional<Merge> merge(int left, int right) const
    {
        const auto it = m_merges.find(pairKey(left, right));
        return it == m_merges.end() ? std::nullopt : std::optional<Merge>(it->second);
    }

    /// merge_word: each character its token (with the prefix after the first and the suffix on the
    /// last), else its bytes' <0xNN> tokens (byte_fallback), else the unknown token (runs of them
    /// fused with fuse_unk), else nothing; then the merges.
    std::vector<int> mergeWord(std::string_view piece) const
    {
        std::vector<int> symbols;
        std::optional<int> unk; // an unknown token not yet added (it may still grow with fuse_unk)
        const std::vector<std::string_view> chars = characters(piece);
        std::string s;
        for (std::size_t i = 0; i < chars.size(); ++i) {
            s.assign(i > 0 ? m_prefix : std::string());
            s += chars[i];
            if (i + 1 == chars.size())
                s += m_suffix;
            if (const std::optional<int> id = m_vocab.id(s)) {
                if (unk)
                    symbols.push_back(*unk), unk.reset();
                symbols.push_back(*id);
                continue;
            }
            if (m_byteFallback) {
                bool all = true;
                for (const char byte : s)
                    all = all && m_byteIds[static_cast<unsigned char>(byte)] >= 0;
                if (all) {
                    for (const char byte : s)
                        symbols.push_back(m_byteIds[static_cast<unsigned char>(byte)]);
                    continue;
                }
            }
            if (m_unk) {
                const int unkId = *m_vocab.id(*m_unk);
                if (unk && !m_fuseUnk)
                    symbols.push_back(*unk);
                unk = unkId;
            }
        }
        if (unk)
            symbols.push_back(*unk);
        mergeAll(symbols);
        return symbols;
    }

    /// merge_all: the pair of lowest rank (then leftmost) first, each new pair queued as it forms.
    void mergeAll(std::vector<int>& symbols) const
    {
        const int n = static_cast<int>(symbols.size());
        if (n < 2)
            return;
        std::vector<int> prev(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));
        std::vector<bool> removed(static_cast<std::size_t>(n), false);
        for (int i = 0; i < n; ++i)
            prev[i] = i - 1, next[i] = i + 1 < n ? i + 1 : -1;
        struct Candidate {
            int rank, pos, result;
            bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
        };
        std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
        for (int i = 0; i + 1 < n; ++i)
            if (const auto m = merge(symbols[i], symbols[i + 1]))
                queue.push({m->rank, i, m->result});
        while (!queue.empty()) {
            const Candidate top = queue.top();
            queue.pop();
            if (removed[top.pos] || next[top.pos] < 0)
                continue;
            const int right = next[top.pos];
            // An entry whose pair has changed since it was queued is stale.
            const auto current = merge(symbols[top.pos], symbols[right]);
            if (!current || current->result != top.result)
                continue;
            symbols[top.pos] = top.result;
            removed[right] = true;
            next[top.pos] = next[right];
            if (next[right] >= 0)
                prev[next[right]] = top.pos;
            if (prev[top.pos] >= 0)
                if (const auto m = merge(symbols[prev[top.pos]], symbols[top.pos]))
                    queue.push({m->rank, prev[top.pos], m->result});
            if (next[top.pos] >= 0)
                if (const auto m = merge(symbols[top.pos], symbols[next[top.pos]]))
                    queue.push({m->rank, top.pos, m->result});
        }
        std::vector<int> out;
        for (int i = 0; i >= 0; i = next[i])
            out.push_back(symbols[i]);
        symbols = std::move(out);
    }

    std::optional<std::string> m_unk;
    std::string m_prefix;
    std::string m_suffix;
    bool m_fuseUnk = false;
    bool m_byteFallback = false;
    bool m_ignoreMerges = false;
    std::array<int, 256> m_byteIds{};
    std::unordered_map<std::uint64_t, Merge> m_merges;
    std::shared_ptr<PieceCache> m_cache = std::make_shared<PieceCache>();
};

/// Greedy longest-match-first WordPiece, as models/wordpiece: a piece longer than
/// max_input_chars_per_word characters, or with a part no token matches, is one unknown token.
class WordPieceModel final : public Model {
public:
    WordPieceModel(const nlohmann::json& j, const JsonPlace& at)
    {
        m_vocab = ModelVocab::fromJson(member(j, "vocab", at), at / "vocab");
        const std::string unk = optionalString(j, "unk_token", at).value_or("[UNK]");
        const std::optional<int> unkId = m_vocab.id(unk);
        if (!unkId)
            fail(at / "unk_token", "the unknown token " + subword::shortQuote(unk) + " is not in the vocabulary");
        m_unk = *unkId;
        m_prefix = optionalString(j, "continuing_subword_prefix", at).value_or("##");
        if (optionalMember(j, "max_input_chars_per_word"))
            m_maxChars = static_cast<std::size_t>(integerMember(j, "max_input_chars_per_word", 0, 1 << 30, at));
    }

    std::string_view type() const override { return "WordPiece"; }

    void tokenize(std::string_view piece, std::vector<int>& ids) const override
    {
        const std::vector<std::string_view> chars = characters(piece);
        if (chars.size() > m_maxChars) {
            ids.push_back(m_unk);
            return;
        }
        std::vector<int> found;
        std::size_t start = 0; // in characters
        std::string candidate;
        while (start < chars.size()) {
            std::optional<int> id;
            std::size_t end = chars.size();
            for (; end > start; --end) {
                candidate.assign(start > 0 ? m_prefix : std::string());
                for (std::size_t c = start; c < end; ++c)
                    candidate += chars[c];
                if ((id = m_vocab.id(candidate)))
                    break;
            }
            if (!id) {
                ids.push_back(m_unk);
                return;
            }
            found.push_back(*id);
            start = end;
        }
        ids.insert(ids.end(), found.begin(), found.end());
    }

private:
    int m_unk = 0;
    std::string m_prefix;
    std::size_t m_maxChars = 100;
};

/// One token per piece: the piece's own, else the unknown token.
class WordLevelModel final : public Model {
public:
    WordLevelModel(const nlohmann::json& j, const JsonPlace& at)
    {
        m_vocab = ModelVocab::fromJson(member(j, "vocab", at), at / "vocab");
        const std::string unk = optionalString(j, "unk_token", at).value_or("<unk>");
        m_unk = m_vocab.id(unk);
        if (!m_unk)
            fail(at / "unk_token", "the unknown token " + subword::shortQuote(unk) + " is not in the vocabulary");
    }

    std::string_view type() const override { return "WordLevel"; }

    void tokenize(std::string_view piece, std::vector<int>& ids) const override
    {
        ids.push_back(m_vocab.id(piece).value_or(*m_unk));
    }

private:
    std::optional<int> m_unk;
};

/// The model types, one line each.
struct ModelType {
    std::string_view name;
    std::unique_ptr<Model> (*make)(const nlohmann::json& j, const JsonPlace& at);
};

template <class M>
std::unique_ptr<Model> make(const nlohmann::json& j, const JsonPlace& at)
{
    return std::make_unique<M>(j, at);
}

constexpr ModelType kModelTypes[] = {
    {"BPE", &make<BpeModel>},
    {"WordPiece", &make<WordPieceModel>},
    {"WordLevel", &make<WordLevelModel>},
};

} // namespace

ModelVocab ModelVocab::fromJson(const nlohmann::json& vocab, const JsonPlace& at)
{
    if (!vocab.is_object())
        fail(at, std::string("expected a JSON object of token -> id, found ") + vocab.type_name());
    ModelVocab v;
    v.m_ids.reserve(vocab.size());
    for (const auto& [token, value] : vocab.items()) {
        if (token.size() > subword::kMaxTokenBytes)
            fail(at, "the token " + subword::shortQuote(token) + " is " + std::to_string(token.size())
                         + " bytes long, more than a token can be (" + std::to_string(subword::kMaxTokenBytes) + " bytes)");
        if (!unicode::isValidUtf8(token))
            fail(at, "the token " + subword::shortQuote(token) + " is not UTF-8");
        if (!value.is_number_unsigned() || value.get<unsigned long long>() > static_cast<unsigned long long>(kMaxId))
            fail(at, "the id of token " + subword::shortQuote(token) + " is not a whole number from 0 to " + std::to_string(kMaxId)
                         + ": " + subword::shortText(value.dump()));
        const int id = static_cast<int>(value.get<unsigned long long>());
        if (static_cast<std::size_t>(id) >= v.m_tokens.size()) {
            v.m_tokens.resize(static_cast<std::size_t>(id) + 1);
            v.m_present.resize(static_cast<std::size_t>(id) + 1, false);
        }
        if (v.m_present[static_cast<std::size_t>(id)])
            fail(at, "tokens " + subword::shortQuote(v.m_tokens[static_cast<std::size_t>(id)]) + " and " + subword::shortQuote(token)
                         + " have the same id " + std::to_string(id));
        v.m_present[static_cast<std::size_t>(id)] = true;
        v.m_tokens[static_cast<std::size_t>(id)] = token;
        v.m_ids.emplace(token, id);
    }
    return v;
}

std::optional<int> ModelVocab::id(std::string_view token) const
{
    const auto it = m_ids.find(token);
    return it == m_ids.end() ? std::nullopt : std::optional<int>(it->second);
}

const std::string* ModelVocab::token(int id) const
{
    if (id < 0 || id >= end() || !m_present[static_cast<std::size_t>(id)])
        return nullptr;
    return &m_tokens[static_cast<std::size_t>(id)];
}

std::unique_ptr<Model> readModel(const nlohmann::json& model, const JsonPlace& at)
{
    object(model, at);
    // Files written before the "type" key had a BPE model without it.
    const std::string type = optionalMember(model, "type") ? typeOf(model, at) : std::string("BPE");
    for (const ModelType& t : kModelTypes)
        if (t.name == type)
            return t.make(model, at);
    std::string names;
    for (const ModelType& t : kModelTypes)
        names += (names.empty() ? "" : ", ") + std::string(t.name);
    fail(at / "type", "the model " + subword::shortQuote(type) + " is not supported (Attention Lab reads " + names + ")");
}

} // namespace attnlab::hf
