#include "pretrained/model_folder.h"

#include "families/family.h"
#include "io/fileio.h"
#include "io/messages.h"
#include "model/model.h"
#include "pretrained/forward.h"
#include "pretrained/messages.h"
#include "text/bpe.h"
#include "text/hf_tokenizer.h"
#include "text/printable.h"
#include "text/wordpiece.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

namespace attnlab {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxTextFile = 64ULL * 1024 * 1024; ///< config.json, vocabularies

std::string readText(const fs::path& path)
{
    try {
        return readFile(path.string(), kMaxTextFile);
    } catch (const std::runtime_error& e) {
        throw FormatError(messageOf(e));
    }
}

/// True when something is at `p`: a file, or what stands in a file's place (a folder, a FIFO, a
/// device, a link, even a broken one or a loop), or what cannot be looked at (no permission),
/// which reading it then names ("cannot read 'g/config.json': it is a pipe (FIFO), not a
/// regular file"); false only when nothing is there.
bool present(const fs::path& p)
{
    std::error_code ec;
    return fs::symlink_status(p, ec).type() != fs::file_type::not_found;
}

/// BERT's do_lower_case from tokenizer_config.json: true when the file or the key is missing.
bool doLowerCase(const fs::path& folder)
{
    const fs::path path = folder / "tokenizer_config.json";
    if (!present(path))
        return true;
    const std::string text = readText(path);
    const std::string name = printable(path.string());
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(say(pretrainedMessage("folder_json_invalid"), name, e.what()));
    }
    const auto it = j.find("do_lower_case");
    if (!j.is_object() || it == j.end() || it->is_null())
        return true;
    if (!it->is_boolean())
        throw FormatError(say(pretrainedMessage("folder_lower_case"), name));
    return it->get<bool>();
}

/// The shards model.safetensors.index.json names (its weight_map's files, in order, once each),
/// each a plain file name in the folder.
std::vector<fs::path> shardFiles(const fs::path& folder, std::map<std::string, std::string>& weightMap)
{
    const fs::path index = folder / "model.safetensors.index.json";
    const std::string name = printable(index.string());
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(readText(index));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(say(pretrainedMessage("folder_json_invalid"), name, e.what()));
    }
    const auto map = j.is_object() ? j.find("weight_map") : j.end();
    if (map == j.end() || !map->is_object() || map->empty())
        throw FormatError(say(pretrainedMessage("folder_no_weight_map"), name));
    std::vector<fs::path> files;
    for (const auto& [tensor, file] : map->items()) {
        const std::string f = file.is_string() ? file.get<std::string>() : std::string();
        // Only files beside the index: no folders, no way out of the model's folder.
        if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f == "." || f == "..")
            throw FormatError(say(pretrainedMessage("folder_shard_name"), name, printable(tensor), printable(file.dump())));
        weightMap[tensor] = f;
        if (std::find(files.begin(), files.end(), folder / f) == files.end())
            files.push_back(folder / f);
    }
    for (const fs::path& f : files) {
        if (!present(f))
            throw FormatError(say(pretrainedMessage("folder_shard_missing"), printable(f.string())));
    }
    return files;
}

/// The model's weights files: model.safetensors, or the shards of model.safetensors.index.json;
/// or the reason there are none.
std::vector<fs::path> weightsFiles(const fs::path& folder, std::map<std::string, std::string>& weightMap)
{
    const fs::path st = folder / "model.safetensors";
    if (present(st))
        return {st}; // opening it says what is wrong with what stands there
    if (present(folder / "model.safetensors.index.json"))
        return shardFiles(folder, weightMap);
    if (present(folder / "pytorch_model.bin"))
        throw FormatError(say(pretrainedMessage("folder_pytorch_only"), printable(folder.string())));
    throw FormatError(say(pretrainedMessage("folder_no_safetensors"), printable(folder.string())));
}

Labels vocabularyLabels(const PretrainedModel& m)
{
    const int v = m.config().vocabulary;
    auto labels = std::make_shared<std::vector<std::string>>();
    labels->reserve(static_cast<std::size_t>(v));
    const int known = m.tokenizerSize();
    for (int id = 0; id < v; ++id)
        labels->push_back(id < known ? m.display(id) : "<id " + std::to_string(id) + ">");
    return labels;
}

void loadTokenizer(const fs::path& folder, PretrainedModel& m)
{
    // The tokenizer is the family's (families/family.h); each kind reads its own files.
    const ModelFamily& family = modelFamily(m.family());
    if (family.tokenizerJson && present(folder / "tokenizer.json")) {
        m.hf = loadFolderTokenizer(folder.string());
    } else if (family.tokenizer == ModelTokenizer::Bpe) {
        for (const char* f : {"vocab.json", "merges.txt"}) {
            if (!present(folder / f))
                throw FormatError(family.tokenizerJson
                                      ? say(pretrainedMessage("folder_no_tokenizer_json"), printable(folder.string()), family.title)
                                      : say(pretrainedMessage("folder_no_bpe_file"), printable(folder.string()), f, family.title));
        }
        // The tokenizer's messages name the file they are about, with its folder.
        const fs::path vocab = folder / "vocab.json", merges = folder / "merges.txt";
        m.bpe = std::make_shared<const BpeTokenizer>(
            BpeTokenizer::fromStrings(readText(vocab), readText(merges), vocab.string(), merges.string()));
    } else {
        const fs::path vocab = folder / "vocab.txt";
        if (!present(vocab))
            throw FormatError(say(pretrainedMessage("folder_no_vocab_txt"), printable(folder.string()), family.title));
        m.wordPiece = std::make_shared<const WordPieceTokenizer>(
            WordPieceTokenizer::fromString(readText(vocab), doLowerCase(folder), vocab.string()));
    }
    const int size = m.tokenizerSize();
    if (size > m.config().vocabulary)
        throw FormatError(say(pretrainedMessage("folder_tokenizer_size"), printable((folder / m.tokenizerFile()).string()), size, m.config().vocabulary));
}

/// Cuts a BERT encoding to `limit` tokens, keeping [CLS] and each segment's [SEP]: the longer
/// segment loses its last pieces first (Hugging Face's longest_first).
void cutBert(PretrainedTokens& t, std::size_t limit)
{
    const std::size_t n = t.ids.size();
    // [CLS] A… [SEP] (B… [SEP]): A's [SEP] stands just before the first token of segment 1.
    const auto firstB = static_cast<std::size_t>(std::find(t.segments.begin(), t.segments.end(), 1) - t.segments.begin());
    const std::size_t sepA = std::min(firstB, n) - 1;
    const bool pair = sepA + 1 < n;
    std::size_t a = sepA - 1;                // A's pieces: [1, sepA)
    std::size_t b = pair ? n - sepA - 2 : 0; // B's pieces: [sepA + 1, n − 1)
    const std::size_t specials = pair ? 3 : 2;
    while (a + b + specials > limit && a + b > 0)
        (a > b ? a : b) -= 1;
    std::vector<std::size_t> keep{0};
    for (std::size_t i = 1; i <= a; ++i)
        keep.push_back(i);
    keep.push_back(sepA);
    if (pair) {
        for (std::size_t i = 0; i < b; ++i)
            keep.push_back(sepA + 1 + i);
        keep.push_back(n - 1);
    }
    const auto pick = [&](auto& v) {
        std::decay_t<decltype(v)> out;
        for (const std::size_t i : keep)
            out.push_back(v[i]);
        v = std::move(out);
    };
    pick(t.ids);
    pick(t.tokens);
    pick(t.labels);
    pick(t.segments);
}

} // namespace

bool PretrainedModel::predictsNextToken() const
{
    return modelFamily(family()).task == FamilyTask::NextToken;
}

std::string PretrainedModel::token(int id) const
{
    return hf ? hf->token(id) : bpe ? bpe->token(id) : wordPiece->token(id);
}

std::string PretrainedModel::display(int id) const
{
    return hf ? hf->display(id) : bpe ? bpe->display(id) : wordPiece->token(id);
}

std::string PretrainedModel::decode(const std::vector<int>& ids) const
{
    return hf ? hf->decode(ids) : bpe ? bpe->decode(ids) : wordPiece->decode(ids);
}

int PretrainedModel::tokenizerSize() const
{
    return hf ? hf->size() : bpe ? bpe->size() : wordPiece->size();
}

const char* PretrainedModel::tokenizerFile() const
{
    return hf ? "tokenizer.json" : bpe ? "vocab.json" : "vocab.txt";
}

bool isModelFolder(const std::string& path)
{
    std::error_code ec;
    return fs::is_directory(path, ec);
}

PretrainedTokens pretrainedTokens(const PretrainedModel& m, std::string_view text, const std::optional<std::string>& segmentB,
                                  int maxTokens)
{
    PretrainedTokens t;
    SubwordEncoding e = m.hf    ? m.hf->encode(text)
                        : m.bpe ? m.bpe->encode(text)
                                : m.wordPiece->encode(text, segmentB ? std::optional<std::string_view>(*segmentB) : std::nullopt);
    t.ids = std::move(e.ids);
    t.tokens = std::move(e.tokens);
    t.segments = std::move(e.segmentIds);
    for (const int id : t.ids)
        t.labels.push_back(m.display(id));
    const auto limit = static_cast<std::size_t>(std::max(1, std::min(maxTokens, m.config().positions)));
    if (t.ids.size() <= limit)
        return t;
    t.warnings.push_back(messages::tokensCut(static_cast<long long>(t.ids.size()), static_cast<long long>(limit)));
    if (m.wordPiece && limit >= 3) {
        cutBert(t, limit);
    } else {
        t.ids.resize(limit);
        t.tokens.resize(limit);
        t.labels.resize(limit);
        if (!t.segments.empty())
            t.segments.resize(limit);
    }
    return t;
}

Trace computePretrainedTrace(std::shared_ptr<const Seq2SeqModel> model, const PretrainedTokens& tokens, const Config& config,
                             const TraceKeep& options)
{
    if (!model || !model->pretrained)
        throw std::invalid_argument("not a pretrained model");
    const PretrainedModel& m = *model->pretrained;
    if (config.dModel != model->spec.dModel || config.heads != model->spec.heads)
        throw Error(say(pretrainedMessage("pretrained_width"), model->spec.dModel, model->spec.heads));
    ModelSpec spec = model->spec;
    spec.scaleScores = config.scaleScores;
    Trace t;
    t.config = config;
    t.tokens = tokens.tokens;
    t.tokenIds = tokens.ids;
    t.segmentIds = tokens.segments;
    t.model = model;
    const PretrainedInput in{tokens.ids, tokens.segments, std::make_shared<const std::vector<std::string>>(tokens.labels)};
    const auto n = static_cast<std::int64_t>(tokens.ids.size());
    keepStages(t.stages, isCompact(spec, n, m.hasHead() ? m.config().vocabulary : 0, options), options.only, options.deferHead);
    pretrainedPass(m.weights, spec, in, m.vocabulary, t.stages, t.warnings);
    t.stages.endKeep();
    return t;
}

Seq2SeqModel loadModelFolder(const std::string& folderName)
{
    const fs::path folder(folderName);
    if (!isModelFolder(folderName))
        throw FormatError(say(pretrainedMessage("folder_not_folder"), printable(folderName)));
    if (!present(folder / "config.json"))
        throw FormatError(say(pretrainedMessage("folder_no_config"), printable(folderName)));
    const HfConfig config = parseHfConfig(readText(folder / "config.json"), inQuotes((folder / "config.json").string()));
    std::map<std::string, std::string> weightMap;
    const std::vector<fs::path> weights = weightsFiles(folder, weightMap);
    auto pretrained = std::make_shared<PretrainedModel>();
    try {
        std::vector<std::shared_ptr<const MappedSafetensors>> files;
        for (const fs::path& f : weights)
            files.push_back(MappedSafetensors::open(f.string()));
        // Every tensor of the index is in the shard it names.
        for (const auto& [tensor, file] : weightMap) {
            const auto& f = files[static_cast<std::size_t>(std::find(weights.begin(), weights.end(), folder / file) - weights.begin())];
            if (!f->find(tensor))
                throw FormatError(say(pretrainedMessage("folder_shard_lacks_tensor"), printable(tensor), printable(file)));
        }
        pretrained->weights = readPretrainedWeights(config, std::move(files));
    } catch (const FormatError& e) {
        if (std::string_view(e.what()).starts_with("'"))
            throw; // it names its file
        const fs::path where = weights.size() == 1 ? weights.front() : folder;
        throw FormatError(sayAbout(ioMessage("in_file"), e.message(), printable(where.string())));
    }
    pretrained->folder = folderName;
    loadTokenizer(folder, *pretrained);
    pretrained->vocabulary = vocabularyLabels(*pretrained);

    Seq2SeqModel m;
    m.spec = pretrainedSpec(config);
    m.name = folder.filename().empty() ? folder.parent_path().filename().string() : folder.filename().string();
    m.description = std::string(modelFamily(config.family).title) + " from " + folderName;
    m.source = "folder:" + folderName;
    m.pretrained = std::move(pretrained);
    return m;
}

} // namespace attnlab
