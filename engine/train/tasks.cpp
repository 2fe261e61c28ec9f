#include "train/tasks.h"

#include "io/fileio.h"
#include "io/safetensors.h"
#include "text/printable.h"
#include "train/messages.h"
#include "text/lines.h"
#include "text/unicode.h"
#include "text/utf8.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace attnlab::train {

namespace {

/// The characters of a UTF-8 string, each as its own string.
std::vector<std::string> characters(std::string_view s)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        const std::size_t start = pos;
        bool invalid = false;
        utf8::decode(s, pos, invalid);
        out.emplace_back(s.substr(start, pos - start));
    }
    return out;
}

const std::array<std::uint32_t, 256>& crcTable()
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1; // the reflected IEEE polynomial
            t[i] = c;
        }
        return t;
    }();
    return table;
}

std::vector<std::string> withSpecials(std::vector<std::string> specials, const std::vector<std::string>& tokens)
{
    for (const std::string& t : tokens) {
        if (std::find(specials.begin(), specials.end(), t) == specials.end())
            specials.push_back(t);
    }
    return specials;
}

} // namespace

std::optional<TaskKind> parseTaskKind(std::string_view name)
{
    if (name == "copy")
        return TaskKind::Copy;
    if (name == "reverse")
        return TaskKind::Reverse;
    if (name == "sort")
        return TaskKind::Sort;
    return std::nullopt;
}

std::uint32_t crc32(std::string_view bytes)
{
    std::uint32_t c = 0xFFFFFFFFu;
    for (const char b : bytes)
        c = crcTable()[(c ^ static_cast<unsigned char>(b)) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

bool isHeldOut(std::string_view source)
{
    return crc32(source) % 16 == 0;
}

const std::vector<std::string>& taskAlphabet()
{
    static const std::vector<std::string> alphabet = [] {
        std::vector<std::string> a;
        for (char c = 'a'; c <= 'z'; ++c)
            a.emplace_back(1, c);
        for (char c = '0'; c <= '9'; ++c)
            a.emplace_back(1, c);
        for (std::string& c : characters("我你他她它们爱是的人猫狗学生老师中国好大小天上下日月山水火木年家里有不在这世界"))
            a.push_back(std::move(c));
        return a;
    }();
    return alphabet;
}

std::string taskTarget(TaskKind kind, std::string_view source)
{
    std::vector<std::string> chars = characters(source);
    if (kind == TaskKind::Reverse)
        std::reverse(chars.begin(), chars.end());
    else if (kind == TaskKind::Sort)
        std::sort(chars.begin(), chars.end()); // UTF-8 byte order is code-point order
    std::string out;
    for (const std::string& c : chars)
        out += c;
    return out;
}

Pair Task::sample(SplitMix64& random) const
{
    if (!generated()) {
        const auto i = static_cast<std::size_t>(random.uniform53() * static_cast<double>(train.size()));
        return train[std::min(i, train.size() - 1)];
    }
    const auto& alphabet = taskAlphabet();
    for (;;) {
        const int length = 1 + static_cast<int>(random.uniform53() * maxLength);
        std::string s;
        for (int i = 0; i < length; ++i)
            s += alphabet[static_cast<std::size_t>(random.uniform53() * static_cast<double>(alphabet.size()))];
        if (!isHeldOut(s))
            return {s, taskTarget(kind, s)};
    }
}

Task builtInTask(TaskKind kind, int maxLength, int heldOut)
{
    if (kind == TaskKind::File)
        throw std::invalid_argument("a file task is read with fileTask");
    if (maxLength < 1 || maxLength > 64)
        throw Error(say(trainMessage("train_longest_string"), maxLength));
    Task t;
    t.kind = kind;
    t.name = kind == TaskKind::Copy ? "copy" : kind == TaskKind::Reverse ? "reverse" : "sort";
    t.maxLength = maxLength;
    t.meanSource = t.meanTarget = (maxLength + 1) / 2.0; // lengths uniform in 1 … maxLength
    t.longestSource = t.longestTarget = maxLength;
    t.tokenizer = ModelTokenizer::Chars;
    t.lowercase = true; // a teacher may type "Hello"; the task's letters are lower case
    t.sourceVocab = withSpecials({"<pad>", "<unk>"}, taskAlphabet());
    t.targetVocab = withSpecials({"<pad>", "<unk>", "<sos>", "<eos>"}, taskAlphabet());
    // The held-out sample: the same strings on every run (its own seed), every one distinct.
    SplitMix64 random(0x4a7e1d0u + static_cast<std::uint64_t>(maxLength));
    std::set<std::string> seen;
    const auto& alphabet = taskAlphabet();
    for (int tries = 0; static_cast<int>(t.heldOut.size()) < heldOut && tries < heldOut * 1000; ++tries) {
        const int length = 1 + static_cast<int>(random.uniform53() * maxLength);
        std::string s;
        for (int i = 0; i < length; ++i)
            s += alphabet[static_cast<std::size_t>(random.uniform53() * static_cast<double>(alphabet.size()))];
        if (isHeldOut(s) && seen.insert(s).second)
            t.heldOut.push_back({s, taskTarget(kind, s)});
    }
    return t;
}

namespace {

[[noreturn]] void badLine(const std::string& path, std::size_t line, Message why)
{
    throw FormatError(sayAbout(trainMessage("task_file_line"), std::move(why), printable(path), line));
}

/// The tokens of one side of a line, as a model with this tokenizer reads them: at most one
/// more than the side may have (a longer side is refused whole).
std::vector<std::string> sideTokens(const ModelSpec& spec, std::string_view text, bool target)
{
    std::vector<Message> ignored;
    return specTokens(spec, text, target, (target ? kMaxPairTarget : kMaxPairSource) + 1, ignored);
}

/// The tokens of `counts`, most frequent first (then in order of first appearance), at most kMaxFileVocabulary.
std::vector<std::string> mostFrequent(const std::map<std::string, std::pair<int, int>>& counts)
{
    std::vector<std::pair<std::string, std::pair<int, int>>> v(counts.begin(), counts.end());
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
        return a.second.first != b.second.first ? a.second.first > b.second.first : a.second.second < b.second.second;
    });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size() && static_cast<int>(i) < kMaxFileVocabulary; ++i)
        out.push_back(v[i].first);
    return out;
}

} // namespace

Task fileTask(const std::string& path, ModelTokenizer tokenizer, bool batchAll)
{
    const std::string bytes = readFile(path, kMaxTaskFileBytes);
    Task t;
    t.kind = TaskKind::File;
    t.name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    t.tokenizer = tokenizer;
    ModelSpec spec;
    spec.tokenizer = tokenizer;
    std::map<std::string, std::pair<int, int>> sourceCounts, targetCounts; // token → (count, first seen)
    int order = 0;
    int longest = 1;
    double sourceTokens = 0, targetTokens = 0;
    const std::vector<std::string_view> lines = splitLines(utf8::withoutByteOrderMark(bytes));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        if (line.find('\0') != std::string_view::npos)
            badLine(path, i + 1, say(trainMessage("task_binary")));
        if (!unicode::isValidUtf8(line))
            badLine(path, i + 1, say(trainMessage("task_not_utf8")));
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        const auto tabs = std::count(line.begin(), line.end(), '\t');
        if (tabs != 1)
            badLine(path, i + 1, tabs == 0 ? say(trainMessage("task_no_tab")) : say(trainMessage("task_tabs"), tabs));
        const std::size_t tab = line.find('\t');
        Pair p{std::string(line.substr(0, tab)), std::string(line.substr(tab + 1))};
        const auto src = sideTokens(spec, p.source, false);
        const auto tgt = sideTokens(spec, p.target, true);
        if (src.empty() || tgt.empty())
            badLine(path, i + 1, src.empty() ? say(trainMessage("task_source_empty")) : say(trainMessage("task_target_empty")));
        // A side longer than a model reads would be cut at every step it is drawn (and cost
        // seconds each time): refused, as the pair it stands for cannot be learnt whole.
        const bool longSource = src.size() > static_cast<std::size_t>(kMaxPairSource);
        if (longSource || tgt.size() > static_cast<std::size_t>(kMaxPairTarget))
            badLine(path, i + 1, say(longSource ? trainMessage("task_source_long") : trainMessage("task_target_long"), kMaxPairSource, kMaxPairTarget));
        sourceTokens += static_cast<double>(src.size());
        targetTokens += static_cast<double>(tgt.size());
        t.longestSource = std::max(t.longestSource, static_cast<int>(src.size()));
        t.longestTarget = std::max(t.longestTarget, static_cast<int>(tgt.size()));
        for (const auto& s : src)
            sourceCounts.try_emplace(s, 0, order++).first->second.first++;
        for (const auto& s : tgt)
            targetCounts.try_emplace(s, 0, order++).first->second.first++;
        longest = std::max({longest, static_cast<int>(src.size()), static_cast<int>(tgt.size())});
        (!batchAll && isHeldOut(p.source) ? t.heldOut : t.train).push_back(std::move(p));
    }
    if (t.train.empty() && t.heldOut.empty())
        throw FormatError(say(trainMessage("task_file_empty"), printable(path)));
    if (t.train.empty())
        throw FormatError(t.heldOut.size() == 1 ? say(trainMessage("task_held_out_one"), printable(path))
                                                 : say(trainMessage("task_held_out"), printable(path), t.heldOut.size()));
    t.maxLength = std::min(longest, ConfigLimits::maxTokens - 1);
    const auto pairs = static_cast<double>(t.train.size() + t.heldOut.size());
    t.meanSource = sourceTokens / pairs;
    t.meanTarget = targetTokens / pairs;
    t.sourceVocab = withSpecials({"<pad>", "<unk>"}, mostFrequent(sourceCounts));
    t.targetVocab = withSpecials({"<pad>", "<unk>", "<sos>", "<eos>"}, mostFrequent(targetCounts));
    return t;
}

Seq2SeqModel freshModel(const ModelSpec& spec, const Task& task)
{
    ModelSpec o = spec;
    o.architecture = Architecture::EncoderDecoder;
    o.positional = PositionalEncoding::Sinusoidal;
    o.embedScale = true;
    o.finalNorms = true;
    if (o.decoderLayers < 1)
        throw Error(say(trainMessage("train_decoder_layer")));
    Seq2SeqModel m = seededModel(o);
    m.spec.tokenizer = task.tokenizer;
    m.spec.lowercase = task.lowercase;
    m.spec.maxTargetLength = std::min(task.maxLength + 4, kMaxTargetLength);
    m.srcVocab = task.sourceVocab;
    m.tgtVocab = task.targetVocab;
    const int d = o.dModel;
    // Embeddings N(0, 1/d): after the ×√d scale, unit components like the sinusoids'.
    auto normalTable = [&](const char* name, std::size_t rows) {
        NormalStream normal(stream(name, o.seed));
        Eigen::MatrixXf e(static_cast<Eigen::Index>(rows), d);
        const double sd = 1.0 / std::sqrt(static_cast<double>(d));
        for (Eigen::Index r = 0; r < e.rows(); ++r) {
            for (Eigen::Index c = 0; c < d; ++c)
                e(r, c) = static_cast<float>(normal.next() * sd);
        }
        return e;
    };
    m.srcEmbedding = normalTable("src_embed.weight", m.srcVocab.size());
    m.tgtEmbedding = normalTable("tgt_embed.weight", m.tgtVocab.size());
    // The head as nn.Linear: uniform in ±1/√d.
    SplitMix64 head = stream("generator", o.seed);
    const float bound = 1.0f / std::sqrt(static_cast<float>(d));
    const auto vt = static_cast<Eigen::Index>(m.tgtVocab.size());
    m.generatorWeight.resize(vt, d);
    m.generatorBias.resize(vt);
    for (Eigen::Index r = 0; r < vt; ++r) {
        for (Eigen::Index c = 0; c < d; ++c)
            m.generatorWeight(r, c) = head.symmetric(bound);
    }
    for (Eigen::Index r = 0; r < vt; ++r)
        m.generatorBias(r) = head.symmetric(bound);
    m.name = "Trained: " + task.name;
    m.description = "Trained in Attention Lab on " + task.name + ".";
    m.source = "trained";
    return m;
}

} // namespace attnlab::train
