// Reading and writing models in Attention Lab's safetensors layout: PyTorch's nn.Transformer
// names plus the embeddings and the output head, vocabularies and options in the metadata
// (docs/model-format.md).

#include "model/messages.h"
#include "model/model.h"
#include "model/open.h"
#include "model/parameters.h"

#include "io/fileio.h"
#include "io/tensor_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace attnlab {

namespace {

constexpr std::string_view kFormat = "attention-lab-seq2seq/1";
constexpr std::uint64_t kMaxModelBytes = 1ULL << 30;

std::string str(long long v) { return std::to_string(v); }

// --- Metadata ---

/// A refusal of a key of the metadata: line `t` of kModelMessages, its %1 the key.
template <class... Args>
[[noreturn]] void badMetadata(const MessageTemplate& t, const std::string& key, const Args&... args)
{
    throw FormatError(say(t, key, args...));
}

const std::string* metadataValue(const TensorFile& f, const std::string& key)
{
    const auto it = f.metadata.find(key);
    return it == f.metadata.end() ? nullptr : &it->second;
}

int metadataInt(const TensorFile& f, const std::string& key, std::optional<int> fallback, int lo, int hi)
{
    const std::string* v = metadataValue(f, key);
    if (!v) {
        if (!fallback)
            badMetadata(modelMessage("metadata_missing"), key);
        return *fallback;
    }
    int out = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || end != v->data() + v->size())
        badMetadata(modelMessage("metadata_not_integer"), key, printable(v->substr(0, 40)));
    if (out < lo || out > hi)
        badMetadata(modelMessage("metadata_range"), key, *v, lo, hi);
    return out;
}

bool metadataBool(const TensorFile& f, const std::string& key, bool fallback)
{
    const std::string* v = metadataValue(f, key);
    if (!v)
        return fallback;
    if (*v == "true")
        return true;
    if (*v == "false")
        return false;
    badMetadata(modelMessage("metadata_not_bool"), key, printable(v->substr(0, 40)));
}

template <typename Parse>
auto metadataEnum(const TensorFile& f, const std::string& key, decltype(*std::declval<Parse>()(std::string_view())) fallback,
                  Parse parse, const char* one, const char* other)
{
    const std::string* v = metadataValue(f, key);
    if (!v)
        return fallback;
    const auto parsed = parse(*v);
    if (!parsed)
        badMetadata(modelMessage("metadata_choice"), key, printable(v->substr(0, 40)), one, other);
    return *parsed;
}

std::vector<std::string> metadataVocabulary(const TensorFile& f, const std::string& key, const std::vector<std::string>& required)
{
    const std::string* v = metadataValue(f, key);
    if (!v)
        badMetadata(modelMessage("metadata_missing"), key);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*v);
    } catch (const nlohmann::json::exception&) {
        badMetadata(modelMessage("metadata_not_json_array"), key);
    }
    if (!j.is_array() || j.empty())
        badMetadata(modelMessage("metadata_empty_array"), key);
    std::vector<std::string> out;
    for (const auto& e : j) {
        if (!e.is_string())
            badMetadata(modelMessage("metadata_not_strings"), key);
        out.push_back(e.get<std::string>());
    }
    std::vector<std::string> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end())
        badMetadata(modelMessage("metadata_twice"), key, printable(dup->substr(0, 40)));
    for (const auto& r : required) {
        if (std::find(out.begin(), out.end(), r) == out.end())
            badMetadata(modelMessage("metadata_must_contain"), key, r);
    }
    return out;
}

/// A model file's tokenizer: its own (words, chars); GPT-2's and BERT's need their folders' files.
std::optional<ModelTokenizer> parseFileTokenizer(std::string_view s)
{
    const auto t = parseModelTokenizer(s);
    return t == ModelTokenizer::Words || t == ModelTokenizer::Chars ? t : std::nullopt;
}

/// An Attention Lab model file's activation: relu or gelu (exact).
std::optional<Activation> parseFileActivation(std::string_view s)
{
    const auto a = parseActivation(s);
    return a == Activation::Relu || a == Activation::Gelu ? a : std::nullopt;
}

std::optional<PositionalEncoding> parseModelPositional(std::string_view s)
{
    if (s == "sinusoidal")
        return PositionalEncoding::Sinusoidal;
    if (s == "none")
        return PositionalEncoding::None;
    return std::nullopt;
}

/// The options of `m` as metadata (docs/model-format.md); vocabularies are added by the caller.
void putMetadata(const Seq2SeqModel& m, std::map<std::string, std::string>& md)
{
    const ModelSpec& o = m.spec;
    md["format"] = std::string(kFormat);
    md["d_model"] = str(o.dModel);
    md["heads"] = str(o.heads);
    md["d_ff"] = str(o.feedForwardWidth());
    md["encoder_layers"] = str(o.encoderLayers);
    md["decoder_layers"] = str(o.decoderLayers);
    md["norm"] = std::string(toString(o.norm));
    md["activation"] = std::string(toString(o.activation));
    char eps[32];
    std::snprintf(eps, sizeof eps, "%.9g", static_cast<double>(o.layerNormEps));
    md["layer_norm_eps"] = eps;
    md["final_norms"] = o.finalNorms ? "true" : "false";
    md["embed_scale"] = m.spec.embedScale ? "true" : "false";
    md["positional_encoding"] = m.spec.positional == PositionalEncoding::None ? "none" : "sinusoidal";
    md["tokenizer"] = std::string(toString(m.spec.tokenizer));
    md["lowercase"] = m.spec.lowercase ? "true" : "false";
    md["max_target_length"] = str(m.spec.maxTargetLength);
    if (!m.name.empty())
        md["name"] = m.name;
    if (!m.description.empty())
        md["description"] = m.description;
}

} // namespace

Seq2SeqModel modelFromTensors(const TensorFile& f)
{
    const std::string* format = metadataValue(f, "format");
    if (!format)
        throw FormatError(say(modelMessage("not_attnlab_model"), kFormat));
    if (*format != kFormat)
        badMetadata(modelMessage("metadata_not_value"), "format", printable(format->substr(0, 40)), kFormat);

    Seq2SeqModel m;
    ModelSpec& o = m.spec;
    o.dModel = metadataInt(f, "d_model", {}, 1, ConfigLimits::maxDModel);
    o.heads = metadataInt(f, "heads", {}, 1, ConfigLimits::maxHeads);
    o.dFF = metadataInt(f, "d_ff", {}, 1, ConfigLimits::maxDFF);
    o.encoderLayers = metadataInt(f, "encoder_layers", {}, 1, ConfigLimits::maxLayers);
    o.decoderLayers = metadataInt(f, "decoder_layers", {}, 0, ConfigLimits::maxLayers);
    o.norm = metadataEnum(f, "norm", NormPlacement::Post, parseNormPlacement, "post", "pre");
    o.activation = metadataEnum(f, "activation", Activation::Relu, parseFileActivation, "relu", "gelu");
    o.finalNorms = metadataBool(f, "final_norms", true);
    o.architecture = o.decoderLayers == 0 ? Architecture::EncoderStack : Architecture::EncoderDecoder;
    if (const std::string* eps = metadataValue(f, "layer_norm_eps")) {
        char* end = nullptr;
        const double v = std::strtod(eps->c_str(), &end);
        if (end != eps->c_str() + eps->size() || !(v > 0) || !std::isfinite(v))
            badMetadata(modelMessage("metadata_not_positive"), "layer_norm_eps", printable(eps->substr(0, 40)));
        o.layerNormEps = static_cast<float>(v);
    }
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw FormatError(sayAbout(modelMessage("metadata_invalid_model"), messageOf(e)));
    }
    m.spec.embedScale = metadataBool(f, "embed_scale", true);
    m.spec.positional = metadataEnum(f, "positional_encoding", PositionalEncoding::Sinusoidal, parseModelPositional, "sinusoidal", "none");
    m.spec.tokenizer = metadataEnum(f, "tokenizer", ModelTokenizer::Words, parseFileTokenizer, "words", "chars");
    m.spec.lowercase = metadataBool(f, "lowercase", false);
    m.spec.maxTargetLength = metadataInt(f, "max_target_length", 32, 1, kMaxTargetLength);
    if (const std::string* v = metadataValue(f, "name"))
        m.name = *v;
    if (const std::string* v = metadataValue(f, "description"))
        m.description = *v;

    std::set<std::string> used;
    detail::TensorReader r(f, "", used);
    const int d = o.dModel;
    if (metadataBool(f, "open_vocabulary", false)) {
        // A seeded model written back: embeddings come from the seed, there is no head.
        const std::string* seed = metadataValue(f, "seed");
        if (!seed)
            badMetadata(modelMessage("metadata_seed_missing"), "seed");
        std::uint64_t s = 0;
        const auto [end, ec] = std::from_chars(seed->data(), seed->data() + seed->size(), s);
        if (ec != std::errc() || end != seed->data() + seed->size())
            badMetadata(modelMessage("metadata_not_integer"), "seed", printable(seed->substr(0, 40)));
        m.spec.seed = s;
    } else {
        m.srcVocab = metadataVocabulary(f, "src_vocab", {"<unk>"});
        m.tgtVocab = metadataVocabulary(f, "tgt_vocab", {"<sos>", "<eos>", "<unk>"});
        const auto vs = static_cast<std::int64_t>(m.srcVocab.size());
        const auto vt = static_cast<std::int64_t>(m.tgtVocab.size());
        m.srcEmbedding = r.matrix("src_embed.weight", vs, d);
        m.tgtEmbedding = r.matrix("tgt_embed.weight", vt, d);
        m.generatorWeight = r.matrix("generator.weight", vt, d);
        m.generatorBias = r.bias("generator.bias", vt);
    }
    m.weights = detail::readTransformerWeights(r, o);
    r.rejectUnknown(m.openVocabulary() ? detail::expectedTransformerTensors(o)
                                       : detail::expectedTransformerTensors(o) + ", src_embed, tgt_embed, generator");
    // What the file left out (a bias read as 0) stays out when the model is trained or written.
    for (const ParameterRef& p : modelParameters(m)) {
        if (!f.tensors.contains(p.name))
            m.absent.insert(p.name);
    }
    return m;
}

Seq2SeqModel loadModel(const std::string& path)
{
    return openModel(path);
}

TensorFile modelToTensors(const Seq2SeqModel& m)
{
    TensorFile f;
    // modelParameters only reads through the pointers here.
    for (const ParameterRef& p : modelParameters(const_cast<Seq2SeqModel&>(m))) {
        const Eigen::Map<const Eigen::MatrixXf> values(p.data, p.rows, p.cols);
        f.tensors[p.name] = p.vector ? detail::fromVector(values) : detail::fromMatrix(values);
    }
    putMetadata(m, f.metadata);
    if (m.openVocabulary()) {
        f.metadata["open_vocabulary"] = "true";
        f.metadata["seed"] = std::to_string(m.spec.seed);
    } else {
        f.metadata["src_vocab"] = nlohmann::json(m.srcVocab).dump();
        f.metadata["tgt_vocab"] = nlohmann::json(m.tgtVocab).dump();
    }
    return f;
}

void saveModel(const Seq2SeqModel& model, const std::string& path)
{
    if (model.spec.positional == PositionalEncoding::Learned)
        throw MessageError<std::runtime_error>(say(modelMessage("write_learned_positions")));
    if (model.spec.positional != PositionalEncoding::Sinusoidal && model.spec.positional != PositionalEncoding::None)
        throw MessageError<std::runtime_error>(say(modelMessage("write_positions"), toString(model.spec.positional)));
    writeSafetensors(path, modelToTensors(model)); // refuses NaN or infinite weights
}

} // namespace attnlab
