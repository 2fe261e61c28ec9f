// A whole encoder–decoder model: embeddings, the stacks, the output head, teacher forcing and
// greedy generation (docs/model-format.md).

#include "model/model.h"

#include "nn/embedding.h"
#include "nn/softmax.h"
#include "io/fileio.h"
#include "core/random.h"
#include "core/stage_builder.h"
#include "io/tensor_reader.h"
#include "text/tokenizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace attnlab {

namespace {

using detail::addStage;
using detail::numberedLabels;
using detail::putMatrix;

constexpr std::string_view kFormat = "attention-lab-seq2seq/1";
constexpr std::uint64_t kMaxModelBytes = 1ULL << 30;
constexpr int kMaxTargetLength = 1024;

std::string str(long long v) { return std::to_string(v); }

// --- Seeded weights ---

/// A sub-seed per named tensor, so that every layer gets its own numbers.
std::uint64_t subSeed(std::uint64_t seed, const std::string& name) { return mixSeed(seed ^ fnv1a64(name)); }

/// Uniform in ±1/√fan_in, as PyTorch's nn.Linear initialises weight and bias.
Eigen::MatrixXf seededLinear(const std::string& name, int rows, int cols, int fanIn, std::uint64_t seed)
{
    SplitMix64 s = stream(name, seed);
    const float bound = 1.0f / std::sqrt(static_cast<float>(fanIn));
    Eigen::MatrixXf m(rows, cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            m(r, c) = s.symmetric(bound);
    }
    return m;
}

FeedForwardWeights seededFeedForward(const std::string& prefix, int d, int dFF, std::uint64_t seed)
{
    FeedForwardWeights w;
    w.linear1Weight = seededLinear(prefix + "linear1.weight", dFF, d, d, seed);
    w.linear1Bias = seededLinear(prefix + "linear1.bias", dFF, 1, d, seed);
    w.linear2Weight = seededLinear(prefix + "linear2.weight", d, dFF, dFF, seed);
    w.linear2Bias = seededLinear(prefix + "linear2.bias", d, 1, dFF, seed);
    return w;
}

LayerNormWeights unitNorm(int d) { return {Eigen::VectorXf::Ones(d), Eigen::VectorXf::Zero(d)}; }

AttentionWeights seededAttention(const std::string& name, int d, std::uint64_t seed)
{
    AttentionWeights w = presetWeights(WeightsPreset::Seeded, d, subSeed(seed, name));
    w.source = "seeded";
    return w;
}

// --- Metadata ---

[[noreturn]] void badMetadata(const std::string& key, const std::string& why)
{
    throw FormatError("metadata '" + key + "' " + why + " (docs/model-format.md)");
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
            badMetadata(key, "is missing");
        return *fallback;
    }
    int out = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || end != v->data() + v->size())
        badMetadata(key, "is '" + v->substr(0, 40) + "', not a whole number");
    if (out < lo || out > hi)
        badMetadata(key, "is " + *v + " but must be between " + str(lo) + " and " + str(hi));
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
    badMetadata(key, "is '" + v->substr(0, 40) + "' but must be true or false");
}

template <typename Parse>
auto metadataEnum(const TensorFile& f, const std::string& key, decltype(*std::declval<Parse>()(std::string_view())) fallback,
                  Parse parse, const std::string& allowed)
{
    const std::string* v = metadataValue(f, key);
    if (!v)
        return fallback;
    const auto parsed = parse(*v);
    if (!parsed)
        badMetadata(key, "is '" + v->substr(0, 40) + "' but must be " + allowed);
    return *parsed;
}

std::vector<std::string> metadataVocabulary(const TensorFile& f, const std::string& key, const std::vector<std::string>& required)
{
    const std::string* v = metadataValue(f, key);
    if (!v)
        badMetadata(key, "is missing");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(*v);
    } catch (const nlohmann::json::exception&) {
        badMetadata(key, "is not a JSON array of strings");
    }
    if (!j.is_array() || j.empty())
        badMetadata(key, "must be a non-empty JSON array of strings");
    std::vector<std::string> out;
    for (const auto& e : j) {
        if (!e.is_string())
            badMetadata(key, "must hold only strings");
        out.push_back(e.get<std::string>());
    }
    std::vector<std::string> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    if (const auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end())
        badMetadata(key, "holds '" + dup->substr(0, 40) + "' twice");
    for (const auto& r : required) {
        if (std::find(out.begin(), out.end(), r) == out.end())
            badMetadata(key, "must contain " + r);
    }
    return out;
}

std::optional<ModelTokenizer> parseTokenizer(std::string_view s)
{
    if (s == "words")
        return ModelTokenizer::Words;
    if (s == "chars")
        return ModelTokenizer::Chars;
    return std::nullopt;
}

std::optional<PositionalEncoding> parseModelPositional(std::string_view s)
{
    if (s == "sinusoidal")
        return PositionalEncoding::Sinusoidal;
    if (s == "none")
        return PositionalEncoding::None;
    return std::nullopt;
}

// --- Tokens ---

/// The UTF-8 characters of a token (the tokenizer has already replaced invalid bytes).
std::vector<std::string> characters(const std::string& token)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < token.size();) {
        const auto lead = static_cast<unsigned char>(token[i]);
        const std::size_t len = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        out.push_back(token.substr(i, len));
        i += len;
    }
    return out;
}

int indexIn(const std::vector<std::string>& vocab, const std::string& token)
{
    const auto it = std::find(vocab.begin(), vocab.end(), token);
    return it == vocab.end() ? -1 : static_cast<int>(it - vocab.begin());
}

// --- One pass ---

/// embedding, positional_encoding, input for one side; returns X (n x d).
Eigen::MatrixXf embed(const Seq2SeqModel& m, const std::vector<std::string>& tokens, bool target, const Labels& labels,
                      std::vector<Stage>& stages)
{
    const int d = m.options.dModel;
    const auto n = static_cast<Eigen::Index>(tokens.size());
    const std::string block = target ? "decoder_self" : "encoder_self";
    const std::vector<std::string>& vocab = target ? m.tgtVocab : m.srcVocab;
    const Eigen::MatrixXf& table = target ? m.tgtEmbedding : m.srcEmbedding;
    Eigen::MatrixXf e(n, d);
    if (m.openVocabulary()) {
        e = tokenEmbeddings(tokens, d, m.seed);
    } else {
        for (Eigen::Index i = 0; i < n; ++i) {
            const int row = indexIn(vocab, tokens[static_cast<std::size_t>(i)]);
            if (row < 0)
                throw std::invalid_argument("'" + tokens[static_cast<std::size_t>(i)] + "' is not in the model's "
                                            + (target ? "target" : "source") + " vocabulary");
            e.row(i) = table.row(row);
        }
    }
    const Labels dims = numberedLabels(d);
    const float s = embeddingScale(d, m.embedScale);
    // embedding: E (n x d), rows of the embedding table; the scaled copy is what enters X.
    {
        Stage& st = addStage(stages, "embedding", {}, {}, block, target ? "Target embeddings" : "Source embeddings",
                             m.embedScale ? "E = Embed(tokens);  E·√d_model" : "E = Embed(tokens)");
        Eigen::MatrixXf scaled = e * s;
        putMatrix(st, "E", std::move(e), labels, dims);
        putMatrix(st, "E_scaled", std::move(scaled), labels, dims);
    }
    // positional_encoding: P (n x d) for positions 0..n−1 (the target's restart at 0).
    {
        Stage& st = addStage(stages, "positional_encoding", {}, {}, block, "Positional encoding",
                             m.positional == PositionalEncoding::Sinusoidal
                                 ? "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)),  PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))"
                                 : m.positional == PositionalEncoding::Learned ? "P = learned position table [pos]"
                                                                                : "P = 0  (no positional encoding)");
        putMatrix(st, "P", positionalEncoding(m.positional, static_cast<int>(n), d, m.seed), labels, dims);
    }
    // input: X = E·s + P (n x d).
    const std::size_t e0 = stages.size() - 2;
    Eigen::MatrixXf x = stages[e0].matrices[1].values + stages[e0 + 1].main().values;
    putMatrix(addStage(stages, "input", {}, {}, block, target ? "Decoder input" : "Encoder input",
                       m.embedScale ? "X = E·√d_model + P" : "X = E + P"),
              "X", x, labels, dims);
    return x;
}

struct Encoded {
    std::vector<Stage> stages;
    std::vector<std::string> warnings;
    Eigen::MatrixXf memory;
    Labels tokens;
};

TransformerOptions optionsFor(const Seq2SeqModel& m, const Config& config)
{
    config.validate();
    if (config.dModel != m.options.dModel || config.heads != m.options.heads)
        throw std::invalid_argument("d_model (" + str(config.dModel) + ") and heads (" + str(config.heads)
                                    + ") must be the model's: d_model " + str(m.options.dModel) + ", heads " + str(m.options.heads));
    TransformerOptions o = m.options;
    o.scaleScores = config.scaleScores;
    return o;
}

void checkCells(const TransformerOptions& o, std::int64_t n, std::int64_t m)
{
    const std::int64_t cells = (o.encoderLayers * n * n + o.decoderLayers * m * (m + n)) * o.heads;
    if (cells > ConfigLimits::maxAttentionCells)
        throw std::invalid_argument("the layers' attention matrices would hold " + str(cells) + " cells in all, more than "
                                    + str(ConfigLimits::maxAttentionCells) + ": use a shorter sentence");
}

Encoded encode(const Seq2SeqModel& m, const std::vector<std::string>& source, const TransformerOptions& o)
{
    if (source.empty())
        throw std::invalid_argument("the source has no tokens: type at least one");
    checkCells(o, static_cast<std::int64_t>(source.size()), 1);
    Encoded e;
    e.tokens = std::make_shared<const std::vector<std::string>>(source);
    const Eigen::MatrixXf x = embed(m, source, false, e.tokens, e.stages);
    const auto n = static_cast<Eigen::Index>(source.size());
    const BoolMatrix none = BoolMatrix::Constant(n, n, false);
    e.memory = encoderStack(x, m.weights.encoder, o.finalNorms ? m.weights.encoderNorm : std::nullopt, o, none, e.tokens,
                            e.stages, e.warnings);
    return e;
}

Trace decode(const std::shared_ptr<const Seq2SeqModel>& model, const Encoded& enc, const std::vector<std::string>& input,
             const TransformerOptions& o, const Config& config)
{
    const Seq2SeqModel& m = *model;
    if (input.empty())
        throw std::invalid_argument("the decoder needs at least one input token (<sos>)");
    const auto n = static_cast<Eigen::Index>(enc.tokens->size());
    const auto len = static_cast<Eigen::Index>(input.size());
    checkCells(o, n, len);

    Trace t;
    t.config = config;
    t.tokens = *enc.tokens;
    t.targetTokens = input;
    t.model = model;
    t.warnings = enc.warnings;
    t.stages.reserve(enc.stages.size() * 2 + 64);
    t.stages = enc.stages;

    const Labels target = std::make_shared<const std::vector<std::string>>(input);
    const Eigen::MatrixXf y = embed(m, input, true, target, t.stages);
    const BoolMatrix noCross = BoolMatrix::Constant(len, n, false);
    const Eigen::MatrixXf out = decoderStack(y, enc.memory, m.weights.decoder, o.finalNorms ? m.weights.decoderNorm : std::nullopt, o,
                                             causalMask(len), noCross, target, enc.tokens, t.stages, t.warnings);
    if (!m.hasHead())
        return t;

    // logits: (m x V) = D (m x d) · W_genᵀ (d x V) + b_gen
    const auto vocab = std::make_shared<const std::vector<std::string>>(m.tgtVocab);
    Eigen::MatrixXf logits = out * m.generatorWeight.transpose();
    logits.rowwise() += m.generatorBias.transpose();
    // probabilities: (m x V) = softmax of each row of the logits
    Eigen::MatrixXf p = rowSoftmax(logits);
    putMatrix(addStage(t.stages, "logits", {}, {}, {}, "Logits", "logits = D·W_genᵀ + b_gen"), "logits", std::move(logits),
              target, vocab);
    putMatrix(addStage(t.stages, "probabilities", {}, {}, {}, "Next-token probabilities", "P = softmax(logits) per row"), "P",
              std::move(p), target, vocab);
    return t;
}

} // namespace

// --- Making, reading and writing models ---

Seq2SeqModel seededModel(const Config& config, bool decoder)
{
    config.validate();
    Seq2SeqModel m;
    TransformerOptions& o = m.options;
    o.dModel = config.dModel;
    o.heads = config.heads;
    o.dFF = config.feedForwardWidth();
    o.norm = config.norm;
    o.activation = config.activation;
    o.eps = config.layerNormEps;
    o.encoderLayers = config.layers;
    o.decoderLayers = decoder ? config.layers : 0;
    o.finalNorms = true;
    o.scaleScores = config.scaleScores;
    o.validate();
    const int d = o.dModel;
    for (int i = 0; i < o.encoderLayers; ++i) {
        const std::string p = "encoder.layers." + str(i) + ".";
        EncoderLayerWeights w;
        w.selfAttn = seededAttention(p + "self_attn", d, config.seed);
        w.ffn = seededFeedForward(p, d, o.dFF, config.seed);
        w.norm1 = unitNorm(d);
        w.norm2 = unitNorm(d);
        m.weights.encoder.push_back(std::move(w));
    }
    for (int i = 0; i < o.decoderLayers; ++i) {
        const std::string p = "decoder.layers." + str(i) + ".";
        DecoderLayerWeights w;
        w.selfAttn = seededAttention(p + "self_attn", d, config.seed);
        w.crossAttn = seededAttention(p + "multihead_attn", d, config.seed);
        w.ffn = seededFeedForward(p, d, o.dFF, config.seed);
        w.norm1 = unitNorm(d);
        w.norm2 = unitNorm(d);
        w.norm3 = unitNorm(d);
        m.weights.decoder.push_back(std::move(w));
    }
    m.weights.encoderNorm = unitNorm(d);
    if (decoder)
        m.weights.decoderNorm = unitNorm(d);
    m.weights.source = "seeded";
    m.embedScale = config.embedScale;
    m.positional = config.positional;
    m.tokenizer = ModelTokenizer::Words;
    m.seed = config.seed;
    m.name = "Seeded encoder–decoder";
    m.source = "seeded";
    return m;
}

Seq2SeqModel modelFromTensors(const TensorFile& f)
{
    const std::string* format = metadataValue(f, "format");
    if (!format)
        throw FormatError("not an Attention Lab model: the metadata has no 'format' (expected " + std::string(kFormat)
                          + "; docs/model-format.md)");
    if (*format != kFormat)
        badMetadata("format", "is '" + format->substr(0, 40) + "' but must be " + std::string(kFormat));

    Seq2SeqModel m;
    TransformerOptions& o = m.options;
    o.dModel = metadataInt(f, "d_model", {}, 1, ConfigLimits::maxDModel);
    o.heads = metadataInt(f, "heads", {}, 1, ConfigLimits::maxHeads);
    o.dFF = metadataInt(f, "d_ff", {}, 1, ConfigLimits::maxDFF);
    o.encoderLayers = metadataInt(f, "encoder_layers", {}, 1, ConfigLimits::maxLayers);
    o.decoderLayers = metadataInt(f, "decoder_layers", {}, 0, ConfigLimits::maxLayers);
    o.norm = metadataEnum(f, "norm", NormPlacement::Post, parseNormPlacement, "post or pre");
    o.activation = metadataEnum(f, "activation", Activation::Relu, parseActivation, "relu or gelu");
    o.finalNorms = metadataBool(f, "final_norms", true);
    if (const std::string* eps = metadataValue(f, "layer_norm_eps")) {
        char* end = nullptr;
        const double v = std::strtod(eps->c_str(), &end);
        if (end != eps->c_str() + eps->size() || !(v > 0) || !std::isfinite(v))
            badMetadata("layer_norm_eps", "is '" + eps->substr(0, 40) + "' but must be a positive number");
        o.eps = static_cast<float>(v);
    }
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw FormatError(std::string("the metadata describes an invalid model: ") + e.what());
    }
    m.embedScale = metadataBool(f, "embed_scale", true);
    m.positional = metadataEnum(f, "positional_encoding", PositionalEncoding::Sinusoidal, parseModelPositional, "sinusoidal or none");
    m.tokenizer = metadataEnum(f, "tokenizer", ModelTokenizer::Words, parseTokenizer, "words or chars");
    m.lowercase = metadataBool(f, "lowercase", false);
    m.maxTargetLength = metadataInt(f, "max_target_length", 32, 1, kMaxTargetLength);
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
            badMetadata("seed", "is missing (an open vocabulary needs it)");
        std::uint64_t s = 0;
        const auto [end, ec] = std::from_chars(seed->data(), seed->data() + seed->size(), s);
        if (ec != std::errc() || end != seed->data() + seed->size())
            badMetadata("seed", "is '" + seed->substr(0, 40) + "', not a whole number");
        m.seed = s;
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
    return m;
}

Seq2SeqModel loadModel(const std::string& path)
{
    try {
        Seq2SeqModel m = modelFromTensors(parseSafetensors(readFile(path, kMaxModelBytes)));
        m.source = "file:" + path;
        m.weights.source = m.source;
        return m;
    } catch (const FormatError& e) {
        throw FormatError("'" + path + "': " + e.what());
    } catch (const std::runtime_error& e) {
        throw FormatError(e.what());
    }
}

TensorFile modelToTensors(const Seq2SeqModel& m)
{
    using detail::fromMatrix;
    using detail::fromVector;
    TensorFile f;
    const TransformerOptions& o = m.options;
    auto putAttention = [&](const std::string& p, const AttentionWeights& w) {
        f.tensors[p + "in_proj_weight"] = fromMatrix(w.inProjWeight);
        f.tensors[p + "in_proj_bias"] = fromVector(w.inProjBias);
        f.tensors[p + "out_proj.weight"] = fromMatrix(w.outProjWeight);
        f.tensors[p + "out_proj.bias"] = fromVector(w.outProjBias);
    };
    auto putNorm = [&](const std::string& p, const LayerNormWeights& w) {
        f.tensors[p + "weight"] = fromVector(w.gamma);
        f.tensors[p + "bias"] = fromVector(w.beta);
    };
    auto putFeedForward = [&](const std::string& p, const FeedForwardWeights& w) {
        f.tensors[p + "linear1.weight"] = fromMatrix(w.linear1Weight);
        f.tensors[p + "linear1.bias"] = fromVector(w.linear1Bias);
        f.tensors[p + "linear2.weight"] = fromMatrix(w.linear2Weight);
        f.tensors[p + "linear2.bias"] = fromVector(w.linear2Bias);
    };
    for (std::size_t i = 0; i < m.weights.encoder.size(); ++i) {
        const std::string p = "encoder.layers." + str(static_cast<long long>(i)) + ".";
        const EncoderLayerWeights& w = m.weights.encoder[i];
        putAttention(p + "self_attn.", w.selfAttn);
        putFeedForward(p, w.ffn);
        putNorm(p + "norm1.", w.norm1);
        putNorm(p + "norm2.", w.norm2);
    }
    for (std::size_t i = 0; i < m.weights.decoder.size(); ++i) {
        const std::string p = "decoder.layers." + str(static_cast<long long>(i)) + ".";
        const DecoderLayerWeights& w = m.weights.decoder[i];
        putAttention(p + "self_attn.", w.selfAttn);
        putAttention(p + "multihead_attn.", w.crossAttn);
        putFeedForward(p, w.ffn);
        putNorm(p + "norm1.", w.norm1);
        putNorm(p + "norm2.", w.norm2);
        putNorm(p + "norm3.", w.norm3);
    }
    if (o.finalNorms && m.weights.encoderNorm)
        putNorm("encoder.norm.", *m.weights.encoderNorm);
    if (o.finalNorms && m.weights.decoderNorm)
        putNorm("decoder.norm.", *m.weights.decoderNorm);

    auto& md = f.metadata;
    md["format"] = std::string(kFormat);
    md["d_model"] = str(o.dModel);
    md["heads"] = str(o.heads);
    md["d_ff"] = str(o.dFF);
    md["encoder_layers"] = str(o.encoderLayers);
    md["decoder_layers"] = str(o.decoderLayers);
    md["norm"] = std::string(toString(o.norm));
    md["activation"] = std::string(toString(o.activation));
    char eps[32];
    std::snprintf(eps, sizeof eps, "%.9g", static_cast<double>(o.eps));
    md["layer_norm_eps"] = eps;
    md["final_norms"] = o.finalNorms ? "true" : "false";
    md["embed_scale"] = m.embedScale ? "true" : "false";
    md["positional_encoding"] = m.positional == PositionalEncoding::None ? "none" : "sinusoidal";
    md["tokenizer"] = m.tokenizer == ModelTokenizer::Chars ? "chars" : "words";
    md["lowercase"] = m.lowercase ? "true" : "false";
    md["max_target_length"] = str(m.maxTargetLength);
    if (!m.name.empty())
        md["name"] = m.name;
    if (!m.description.empty())
        md["description"] = m.description;
    if (m.openVocabulary()) {
        md["open_vocabulary"] = "true";
        md["seed"] = std::to_string(m.seed);
    } else {
        md["src_vocab"] = nlohmann::json(m.srcVocab).dump();
        md["tgt_vocab"] = nlohmann::json(m.tgtVocab).dump();
        f.tensors["src_embed.weight"] = fromMatrix(m.srcEmbedding);
        f.tensors["tgt_embed.weight"] = fromMatrix(m.tgtEmbedding);
        if (m.hasHead()) {
            f.tensors["generator.weight"] = fromMatrix(m.generatorWeight);
            f.tensors["generator.bias"] = fromVector(m.generatorBias);
        }
    }
    return f;
}

void saveModel(const Seq2SeqModel& model, const std::string& path)
{
    if (model.positional == PositionalEncoding::Learned)
        throw std::runtime_error("a model with learned positions cannot be written: the model format has no position table");
    writeFileAtomically(path, serializeSafetensors(modelToTensors(model)));
}

// --- Running ---

std::vector<std::string> modelTokens(const Seq2SeqModel& m, std::string_view text, bool target, int maxTokens,
                                     std::vector<std::string>& warnings)
{
    std::string lowered(text);
    if (m.lowercase) {
        for (char& c : lowered) {
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        }
    }
    // Split generously first, then cut at maxTokens with the tokenizer's own warning wording.
    Tokenization tok = tokenize(lowered, ConfigLimits::maxTokens * 4);
    std::vector<std::string> tokens;
    if (m.tokenizer == ModelTokenizer::Chars) {
        const auto& special = specialTokens();
        for (const auto& t : tok.tokens) {
            if (std::find(special.begin(), special.end(), t) != special.end()) {
                tokens.push_back(t);
            } else {
                for (auto& c : characters(t))
                    tokens.push_back(std::move(c));
            }
        }
    } else {
        tokens = std::move(tok.tokens);
    }
    warnings.insert(warnings.end(), tok.warnings.begin(), tok.warnings.end());
    if (maxTokens >= 0 && static_cast<int>(tokens.size()) > maxTokens) {
        warnings.push_back("the " + std::string(target ? "target" : "source") + " has " + str(static_cast<long long>(tokens.size()))
                           + " tokens; only the first " + str(maxTokens) + " are used");
        tokens.resize(static_cast<std::size_t>(maxTokens));
    }
    if (m.openVocabulary())
        return tokens;
    const std::vector<std::string>& vocab = target ? m.tgtVocab : m.srcVocab;
    for (auto& t : tokens) {
        if (indexIn(vocab, t) < 0) {
            warnings.push_back("'" + t.substr(0, 40) + "' is not in the model's " + (target ? "target" : "source")
                               + " vocabulary: it is read as <unk>");
            t = "<unk>";
        }
    }
    return tokens;
}

std::vector<std::string> teacherForcingInput(const Seq2SeqModel& model, std::string_view target, int maxTokens,
                                             std::vector<std::string>& warnings)
{
    std::vector<std::string> input{"<sos>"};
    const auto tokens = modelTokens(model, target, true, maxTokens, warnings);
    input.insert(input.end(), tokens.begin(), tokens.end());
    return input;
}

Trace computeModelTrace(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source,
                        const std::vector<std::string>& decoderInput, const Config& config)
{
    if (!model)
        throw std::invalid_argument("no model");
    const TransformerOptions o = optionsFor(*model, config);
    Encoded enc = encode(*model, source, o);
    if (model->options.decoderLayers > 0)
        return decode(model, enc, decoderInput, o, config);
    Trace t;
    t.config = config;
    t.tokens = *enc.tokens;
    t.model = model;
    t.warnings = std::move(enc.warnings);
    t.stages = std::move(enc.stages);
    return t;
}

Eigen::Index argmaxFirst(const Eigen::Ref<const Eigen::RowVectorXf>& row)
{
    Eigen::Index best = 0;
    for (Eigen::Index j = 1; j < row.size(); ++j) {
        if (row(j) > row(best))
            best = j;
    }
    return best;
}

Generation generate(std::shared_ptr<const Seq2SeqModel> model, const std::vector<std::string>& source, const Config& config,
                    int maxSteps)
{
    if (!model)
        throw std::invalid_argument("no model");
    const Seq2SeqModel& m = *model;
    if (!m.hasHead() || m.openVocabulary() || m.options.decoderLayers == 0)
        throw std::invalid_argument("this model has no output head (a seeded model): generation needs a trained model; "
                                    "type a target instead (teacher forcing)");
    const TransformerOptions o = optionsFor(m, config);
    const int limit = maxSteps > 0 ? std::min(maxSteps, kMaxTargetLength) : m.maxTargetLength;
    const Encoded enc = encode(m, source, o);
    Generation g;
    std::vector<std::string> input{"<sos>"};
    for (int k = 0; k < limit; ++k) {
        auto trace = std::make_shared<Trace>(decode(model, enc, input, o, config));
        const Stage& logits = trace->stages[trace->stages.size() - 2];
        const Eigen::Index next = argmaxFirst(logits.main().values.row(logits.main().values.rows() - 1));
        const std::string& token = m.tgtVocab[static_cast<std::size_t>(next)];
        g.tokens.push_back(token);
        g.steps.push_back(std::move(trace));
        if (token == "<eos>") {
            g.finished = true;
            break;
        }
        input.push_back(token);
    }
    return g;
}

} // namespace attnlab
