#include "text/hf_tokenizer.h"

#include "io/safetensors.h"
#include "text/hf_added.h"
#include "text/hf_json.h"
#include "text/hf_models.h"
#include "text/hf_steps.h"
#include "text/messages.h"
#include "text/printable.h"
#include "text/unicode.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <stdexcept>

namespace attnlab {

namespace {

using nlohmann::json;
using hf::JsonPlace;
using hf::Piece;

using hf::AddedToken;
using hf::AddedTokenFinder;

/// What the post-processor makes of one sequence: its items in order, the sequence itself or
/// special tokens' ids.
struct TemplateItem {
    bool sequence = false;
    std::vector<int> ids;
};
using Template = std::vector<TemplateItem>;

std::string tokenName(const json& j, const JsonPlace& at)
{
    // A token in tokenizer_config.json: "<s>" or {"content": "<s>", …}.
    if (j.is_object())
        return hf::stringMember(j, "content", at);
    return hf::asString(j, at);
}

} // namespace

struct HfTokenizer::Data {
    std::unique_ptr<hf::Model> model;
    hf::Steps steps;
    std::vector<AddedToken> added;
    AddedTokenFinder rawFinder;        ///< added tokens with normalized false: looked for first
    AddedTokenFinder normalizedFinder; ///< the others: looked for in the normalized text
    std::unordered_map<std::string, int> addedIds;
    std::vector<int> addedIndex; ///< id -> index in `added`, or -1
    int size = 0;
    /// One template per post-processor of the chain (applied in turn); none: no specials.
    std::vector<Template> templates;
    std::optional<int> bos, eos;
    bool cleanUpSpaces = false;

    const AddedToken* addedToken(int id) const
    {
        return id >= 0 && id < static_cast<int>(addedIndex.size()) && addedIndex[id] >= 0 ? &added[addedIndex[id]] : nullptr;
    }
    std::optional<int> tokenId(std::string_view token) const
    {
        const auto it = addedIds.find(std::string(token));
        return it != addedIds.end() ? std::optional<int>(it->second) : model->vocab().id(token);
    }
};

namespace {

std::vector<Template> readPostProcessor(const json& j, const JsonPlace& at, const HfTokenizer::Data& d);

Template templateProcessing(const json& j, const JsonPlace& at)
{
    // special_tokens: {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}
    const json& specials = hf::object(hf::member(j, "special_tokens", at), at / "special_tokens");
    const json& single = hf::member(j, "single", at);
    if (!single.is_array())
        hf::fail(at / "single", say(textMessage("json_expected_list"), single.type_name()));
    Template t;
    for (std::size_t i = 0; i < single.size(); ++i) {
        const JsonPlace where = (at / "single")[i];
        const json& item = hf::object(single[i], where);
        if (const json* seq = hf::optionalMember(item, "Sequence")) {
            const std::string id = hf::stringMember(*seq, "id", where / "Sequence");
            if (id != "A")
                hf::fail(where / "Sequence", say(textMessage("template_single_a"), id));
            t.push_back({true, {}});
        } else if (const json* special = hf::optionalMember(item, "SpecialToken")) {
            const std::string name = hf::stringMember(*special, "id", where / "SpecialToken");
            const JsonPlace entry = at / "special_tokens" / name;
            const json* e = hf::optionalMember(specials, name);
            if (e == nullptr)
                hf::fail(at / "special_tokens", say(textMessage("template_special_unlisted"), printable(subword::shortText(name))));
            const json& ids = hf::member(*e, "ids", entry);
            TemplateItem item2;
            for (std::size_t k = 0; k < ids.size(); ++k) {
                if (!ids[k].is_number_unsigned())
                    hf::fail((entry / "ids")[k], say(textMessage("template_token_id"), subword::shortText(ids[k].dump())));
                item2.ids.push_back(static_cast<int>(ids[k].get<unsigned long long>()));
            }
            t.push_back(std::move(item2));
        } else {
            hf::fail(where, say(textMessage("template_item")));
        }
    }
    return t;
}

/// BertProcessing and RobertaProcessing: "cls": ["[CLS]", 101], "sep": ["[SEP]", 102].
Template clsSep(const json& j, const JsonPlace& at)
{
    const auto idOf = [&](std::string_view key) {
        const json& pair = hf::member(j, key, at);
        if (!pair.is_array() || pair.size() != 2 || !pair[1].is_number_unsigned())
            hf::fail(at / key, say(textMessage("template_pair"), subword::shortText(pair.dump())));
        return static_cast<int>(pair[1].get<unsigned long long>());
    };
    return {{false, {idOf("cls")}}, {true, {}}, {false, {idOf("sep")}}};
}

struct PostProcessorType {
    std::string_view name;
    std::vector<Template> (*make)(const json& j, const JsonPlace& at, const HfTokenizer::Data& d);
};

constexpr PostProcessorType kPostProcessors[] = {
    {"TemplateProcessing", [](const json& j, const JsonPlace& at, const HfTokenizer::Data&) { return std::vector<Template>{templateProcessing(j, at)}; }},
    {"BertProcessing", [](const json& j, const JsonPlace& at, const HfTokenizer::Data&) { return std::vector<Template>{clsSep(j, at)}; }},
    {"RobertaProcessing", [](const json& j, const JsonPlace& at, const HfTokenizer::Data&) { return std::vector<Template>{clsSep(j, at)}; }},
    // ByteLevel only trims the tokens' offsets: the ids are left alone.
    {"ByteLevel", [](const json&, const JsonPlace&, const HfTokenizer::Data&) { return std::vector<Template>{}; }},
    {"Sequence",
     [](const json& j, const JsonPlace& at, const HfTokenizer::Data& d) {
         const json& list = hf::member(j, "processors", at);
         if (!list.is_array())
             hf::fail(at / "processors", say(textMessage("json_expected_list"), list.type_name()));
         std::vector<Template> all;
         for (std::size_t i = 0; i < list.size(); ++i)
             for (Template& t : readPostProcessor(list[i], (at / "processors")[i], d))
                 all.push_back(std::move(t));
         return all;
     }},
};

std::vector<Template> readPostProcessor(const json& j, const JsonPlace& at, const HfTokenizer::Data& d)
{
    const std::string type = hf::typeOf(j, at);
    for (const PostProcessorType& t : kPostProcessors)
        if (t.name == type)
            return t.make(j, at, d);
    std::string names;
    for (const PostProcessorType& t : kPostProcessors)
        names += (names.empty() ? "" : ", ") + std::string(t.name);
    hf::fail(at / "type", say(textMessage("post_processor_unsupported"), printable(subword::shortText(type)), names));
}

json parseJson(std::string_view text, const std::string& file)
{
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        const std::string what = e.what();
        const std::size_t end = what.find("] ");
        throw FormatError(say(textMessage("hf_not_json"), file, end == std::string::npos ? what : what.substr(end + 2)));
    }
}

/// The tokenizer classes whose transformers class rebuilds the post-processor from add_bos_token
/// and add_eos_token (LlamaTokenizerFast.update_post_processor, GemmaTokenizerFast likewise).
bool rebuildsTemplate(std::string_view tokenizerClass)
{
    for (const std::string_view c : {"LlamaTokenizer", "LlamaTokenizerFast", "CodeLlamaTokenizer", "CodeLlamaTokenizerFast",
                                     "GemmaTokenizer", "GemmaTokenizerFast"})
        if (c == tokenizerClass)
            return true;
    return false;
}

void readAddedTokens(const json& list, const JsonPlace& at, HfTokenizer::Data& d)
{
    if (!list.is_array())
        hf::fail(at, say(textMessage("json_expected_list"), list.type_name()));
    // As AddedVocabulary::add_tokens: a token the model has keeps the model's id; the others get
    // ids from the model's size on, in the order of the list.
    int next = d.model->vocab().count();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const JsonPlace where = at[i];
        const json& e = hf::object(list[i], where);
        AddedToken t;
        t.content = hf::stringMember(e, "content", where);
        hf::integerMember(e, "id", 0, (1 << 24) - 1, where);
        t.special = hf::boolMember(e, "special", false, where);
        t.singleWord = hf::boolMember(e, "single_word", false, where);
        t.lstrip = hf::boolMember(e, "lstrip", false, where);
        t.rstrip = hf::boolMember(e, "rstrip", false, where);
        t.normalized = hf::boolMember(e, "normalized", !t.special, where);
        if (t.content.empty())
            continue;
        if (t.content.size() > subword::kMaxTokenBytes)
            hf::fail(where / "content", say(textMessage("added_token_long"), t.content.size()));
        if (const auto it = d.addedIds.find(t.content); it != d.addedIds.end()) {
            t.id = it->second; // listed again: the later entry's flags
        } else {
            t.id = d.model->vocab().id(t.content).value_or(next);
            if (t.id == next)
                ++next;
        }
        t.pattern = t.content;
        if (t.normalized && d.steps.normalizer)
            d.steps.normalizer(t.pattern);
        d.addedIds[t.content] = t.id;
        if (static_cast<std::size_t>(t.id) >= d.addedIndex.size())
            d.addedIndex.resize(static_cast<std::size_t>(t.id) + 1, -1);
        if (d.addedIndex[t.id] >= 0)
            d.added[static_cast<std::size_t>(d.addedIndex[t.id])] = t;
        else {
            d.addedIndex[t.id] = static_cast<int>(d.added.size());
            d.added.push_back(t);
        }
    }
    for (const AddedToken& t : d.added)
        (t.normalized ? d.normalizedFinder : d.rawFinder).add(&t);
}

} // namespace

HfTokenizer HfTokenizer::fromStrings(std::string_view tokenizerJson, std::string_view tokenizerConfigJson, std::string_view name,
                                     std::string_view configName)
{
    const std::string file = inQuotes(name);
    const JsonPlace root{file, ""};
    const json j = parseJson(tokenizerJson, file);
    hf::object(j, root);
    if (const json* version = hf::optionalMember(j, "version"); version && *version != "1.0")
        hf::fail(root / "version", say(textMessage("tokenizer_version"), subword::shortText(version->dump())));

    auto d = std::make_shared<Data>();
    d->model = hf::readModel(hf::member(j, "model", root), root / "model");
    hf::readNormalizer(j.value("normalizer", json()), root / "normalizer", d->steps);
    hf::readPreTokenizer(j.value("pre_tokenizer", json()), root / "pre_tokenizer", d->steps);
    hf::readDecoder(j.value("decoder", json()), root / "decoder", d->steps);
    // Padding pads a batch to its longest text (nothing for one text) or to a fixed length.
    if (const json* padding = hf::optionalMember(j, "padding")) {
        const json* strategy = hf::optionalMember(*padding, "strategy");
        if (strategy && strategy->is_object() && strategy->contains("Fixed"))
            hf::fail(root / "padding", say(textMessage("padding_fixed")));
    }
    // (truncation is not applied here: the engine cuts a text to the model's positions, with a warning.)
    if (const json* added = hf::optionalMember(j, "added_tokens"))
        readAddedTokens(*added, root / "added_tokens", *d);
    d->size = std::max(d->model->vocab().end(), static_cast<int>(d->addedIndex.size()));
    if (const json* post = hf::optionalMember(j, "post_processor"))
        d->templates = readPostProcessor(*post, root / "post_processor", *d);

    // tokenizer_config.json: BOS and EOS, and for Llama and Gemma whether they are added.
    if (!tokenizerConfigJson.empty()) {
        const std::string cfile = inQuotes(configName);
        const JsonPlace croot{cfile, ""};
        const json c = parseJson(tokenizerConfigJson, cfile);
        hf::object(c, croot);
        const auto specialId = [&](std::string_view key) -> std::optional<int> {
            const json* token = hf::optionalMember(c, key);
            if (token == nullptr)
                return std::nullopt;
            const std::string name = tokenName(*token, croot / key);
            const std::optional<int> id = d->tokenId(name);
            if (!id)
                hf::fail(croot / key, say(textMessage("special_not_in_vocabulary"), printable(subword::shortText(name)), file));
            return id;
        };
        d->bos = specialId("bos_token");
        d->eos = specialId("eos_token");
        d->cleanUpSpaces = hf::boolMember(c, "clean_up_tokenization_spaces", false, croot);
        const std::optional<std::string> cls = hf::optionalString(c, "tokenizer_class", croot);
        if (cls && rebuildsTemplate(*cls)) {
            const bool addBos = hf::boolMember(c, "add_bos_token", true, croot);
            const bool addEos = hf::boolMember(c, "add_eos_token", false, croot);
            if (addBos && !d->bos)
                hf::fail(croot / "add_bos_token", say(textMessage("add_bos_missing")));
            if (addEos && !d->eos)
                hf::fail(croot / "add_eos_token", say(textMessage("add_eos_missing")));
            Template t;
            if (addBos)
                t.push_back({false, {*d->bos}});
            t.push_back({true, {}});
            if (addEos)
                t.push_back({false, {*d->eos}});
            d->templates = {t};
        }
    }
    for (const Template& t : d->templates)
        for (const TemplateItem& item : t)
            for (const int id : item.ids)
                if (id < 0 || id >= d->size)
                    hf::fail(root / "post_processor", say(textMessage("special_id_outside"), id, d->size - 1));

    HfTokenizer tokenizer;
    tokenizer.m_data = std::move(d);
    return tokenizer;
}

HfTokenizer HfTokenizer::fromFolder(const std::string& folder)
{
    const std::filesystem::path dir(folder);
    const std::filesystem::path json = dir / "tokenizer.json", config = dir / "tokenizer_config.json";
    std::error_code ec;
    const bool hasConfig = std::filesystem::symlink_status(config, ec).type() != std::filesystem::file_type::not_found;
    return fromStrings(subword::readFile(json.string()), hasConfig ? subword::readFile(config.string()) : std::string(),
                       json.string(), config.string());
}

std::shared_ptr<const HfTokenizer> loadFolderTokenizer(const std::string& folder)
{
    std::error_code ec;
    const std::filesystem::path json = std::filesystem::path(folder) / "tokenizer.json";
    if (std::filesystem::symlink_status(json, ec).type() == std::filesystem::file_type::not_found)
        return nullptr;
    return std::make_shared<const HfTokenizer>(HfTokenizer::fromFolder(folder));
}

SubwordEncoding HfTokenizer::encode(std::string_view input, bool addSpecialTokens) const
{
    const Data& d = *m_data;
    // 1. The added tokens that are not normalized, in the raw text.
    std::vector<Piece> pieces;
    hf::splitAtAddedTokens({unicode::replaceInvalidUtf8(input), -1, true}, d.rawFinder, pieces);
    // 2. The normalizer on the text between them; then the normalized added tokens.
    std::vector<Piece> normalized;
    for (Piece& piece : pieces) {
        if (piece.addedId >= 0) {
            normalized.push_back(std::move(piece));
            continue;
        }
        if (d.steps.normalizer)
            d.steps.normalizer(piece.text);
        if (!piece.text.empty())
            hf::splitAtAddedTokens(piece, d.normalizedFinder, normalized);
    }
    // 3. The pre-tokenizer.
    if (d.steps.preTokenizer)
        d.steps.preTokenizer(normalized);
    // 4. The model, piece by piece.
    std::vector<int> ids;
    ids.reserve(input.size());
    for (const Piece& piece : normalized) {
        if (piece.addedId >= 0)
            ids.push_back(piece.addedId);
        else if (!piece.text.empty())
            d.model->tokenize(piece.text, ids);
    }
    // 5. The post-processors' special tokens.
    if (addSpecialTokens) {
        for (const Template& t : d.templates) {
            std::vector<int> framed;
            for (const TemplateItem& item : t)
                framed.insert(framed.end(), item.sequence ? ids.begin() : item.ids.begin(), item.sequence ? ids.end() : item.ids.end());
            ids = std::move(framed);
        }
    }
    SubwordEncoding out;
    out.ids = std::move(ids);
    out.tokens.reserve(out.ids.size());
    for (const int id : out.ids)
        out.tokens.push_back(token(id));
    return out;
}

std::string HfTokenizer::decode(const std::vector<int>& ids, bool skipSpecialTokens) const
{
    const Data& d = *m_data;
    std::vector<std::string> tokens;
    for (const int id : ids) {
        const std::string& t = token(id); // throws outside the vocabulary
        const AddedToken* added = d.addedToken(id);
        if (added && added->special && skipSpecialTokens)
            continue;
        if (added == nullptr && d.model->vocab().token(id) == nullptr)
            continue; // an id without a token
        tokens.push_back(added ? added->pattern : t);
    }
    std::string text;
    if (d.steps.decoder) {
        d.steps.decoder(tokens);
        for (const std::string& t : tokens)
            text += t;
    } else {
        for (std::size_t i = 0; i < tokens.size(); ++i)
            text += (i > 0 ? " " : "") + tokens[i];
    }
    if (d.cleanUpSpaces) {
        // transformers' clean_up_tokenization: no space before punctuation and contractions.
        for (const auto& [from, to] : {std::pair{" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"},
                                       {" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}}) {
            for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + std::string_view(to).size()))
                text.replace(at, std::string_view(from).size(), to);
        }
    }
    return text;
}

std::string HfTokenizer::display(int id) const
{
    const Data& d = *m_data;
    const std::string& t = token(id);
    if (const AddedToken* added = d.addedToken(id))
        return subword::readableBytes(added->content);
    if (d.model->vocab().token(id) == nullptr)
        return "<id " + std::to_string(id) + ">";
    std::string bytes;
    switch (d.steps.spelling) {
    case hf::TokenSpelling::ByteLevel: {
        // Each character of GPT-2's byte alphabet is its byte (a token with another character,
        // which no byte-level merge makes, is shown as it is written).
        for (const char32_t c : unicode::decodeUtf8(t)) {
            const int b = hf::byteOfCharacter(c);
            if (b < 0)
                return subword::readableBytes(t);
            bytes += static_cast<char>(b);
        }
        break;
    }
    case hf::TokenSpelling::Metaspace: {
        // "▁" is a space; a byte-fallback token <0x0A> is its byte.
        const bool byteToken = t.size() == 6 && t.starts_with("<0x") && t.ends_with('>');
        if (byteToken) {
            try {
                bytes = std::string(1, static_cast<char>(std::stoi(t.substr(3, 2), nullptr, 16)));
                break;
            } catch (const std::exception&) {
            }
        }
        for (std::size_t pos = 0; pos < t.size();) {
            if (std::string_view(t).substr(pos).starts_with("\u2581")) {
                bytes += ' ';
                pos += 3;
            } else {
                bytes += t[pos++];
            }
        }
        break;
    }
    case hf::TokenSpelling::Plain:
        bytes = t;
        break;
    }
    return subword::readableBytes(bytes);
}

int HfTokenizer::size() const
{
    return m_data->size;
}

std::optional<int> HfTokenizer::id(std::string_view token) const
{
    return m_data->tokenId(token);
}

const std::string& HfTokenizer::token(int id) const
{
    const Data& d = *m_data;
    if (id < 0 || id >= d.size)
        throw MessageError<std::out_of_range>(say(textMessage("token_id_outside"), id, d.size - 1));
    if (const AddedToken* added = d.addedToken(id))
        return added->content;
    static const std::string kNone;
    const std::string* t = d.model->vocab().token(id);
    return t ? *t : kNone;
}

bool HfTokenizer::isSpecial(int id) const
{
    const AddedToken* added = m_data->addedToken(id);
    return added != nullptr && added->special;
}

std::optional<int> HfTokenizer::bosId() const
{
    return m_data->bos;
}

std::optional<int> HfTokenizer::eosId() const
{
    return m_data->eos;
}

} // namespace attnlab
