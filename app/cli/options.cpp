#include "options.h"

#include "attention_options.h"

#include "export/exporter.h"
#include "io/fileio.h"
#include "model/run.h"
#include "model/shipped.h"
#include "position/inside.h"
#include "core/trace.h"
#include "text/printable.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

namespace attnlab::cli {

namespace {

template <typename Int>
Int parseInt(const std::string& option, const std::string& value)
{
    Int v{};
    const auto* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, v);
    if (ec == std::errc::result_out_of_range)
        throw UsageError(option + " value " + inQuotes(value) + " is out of range");
    if (ec != std::errc() || ptr != end)
        throw UsageError(option + " expects a whole number, got " + inQuotes(value));
    return v;
}

std::string allowed(std::initializer_list<const char*> names)
{
    std::string s;
    for (const char* n : names)
        s += (s.empty() ? "" : "|") + std::string(n);
    return s;
}

} // namespace

void readOptions(const std::vector<std::string>& args, const ExtraOption& take)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        // The option's value, taken once: a second call (a message that repeats what was given)
        // gets the same value, never the next option.
        const std::size_t at = i;
        const std::function<const std::string&()> value = [&args, &a, &i, at]() -> const std::string& {
            if (at + 1 >= args.size())
                throw UsageError(a + " needs a value");
            i = at + 1;
            return args[at + 1];
        };
        if (!take(a, value))
            throw UsageError("unknown option " + inQuotes(a) + " (see --help)");
    }
}

int parseIntOption(const std::string& option, const std::string& value)
{
    return parseInt<int>(option, value);
}

std::uint64_t parseSeedOption(const std::string& option, const std::string& value)
{
    return parseInt<std::uint64_t>(option, value);
}

double parseNumberOption(const std::string& option, const std::string& v)
{
    char* end = nullptr;
    errno = 0;
    const double x = std::strtod(v.c_str(), &end);
    const bool whole = !v.empty() && end == v.c_str() + v.size() && !std::isspace(static_cast<unsigned char>(v.front()));
    if (!whole || std::isnan(x) || (std::isinf(x) && errno != ERANGE))
        throw UsageError(option + " expects a number, got " + inQuotes(v));
    // Out of range: strtod gives ±HUGE_VAL above the largest double, and a tiny or zero number
    // below the smallest; neither is the value that was typed.
    if (errno == ERANGE && std::isinf(x))
        throw UsageError(option + " value " + inQuotes(v) + " is out of range: a double holds at most 1.8e+308");
    if (errno == ERANGE && x == 0)
        throw UsageError(option + " value " + inQuotes(v) + " is too close to 0: a double holds at least 2.2e-308 (or 0)");
    return x;
}

float parseFloatOption(const std::string& option, const std::string& v)
{
    const double x = parseNumberOption(option, v);
    // The value is used as a float: one outside float's range would silently become inf or 0.
    if (std::abs(x) > std::numeric_limits<float>::max())
        throw UsageError(option + " value " + inQuotes(v) + " is out of range: a float holds at most 3.4e+38");
    if (x != 0 && static_cast<float>(x) == 0)
        throw UsageError(option + " value " + inQuotes(v) + " is too close to 0: a float holds at least 1.4e-45 (or 0)");
    return static_cast<float>(x);
}

namespace {

/// What the trace options said, before they are checked against each other.
struct GivenOptions {
    std::optional<int> dModel;
    std::optional<int> heads;
    std::optional<std::string> weightsFile;
    std::optional<std::string> weightsPrefix;
    std::optional<WeightsPreset> preset;
    std::optional<std::string> maskFile;
    std::optional<MaskKind> mask;
    std::optional<std::string> modelFile;
    std::optional<std::string> sentence;
    std::optional<std::string> source;
    std::optional<std::string> segmentB;
    std::optional<int> layers;
    std::optional<int> dFF;
    std::optional<NormPlacement> norm;
    std::optional<Activation> activation;
    std::optional<float> eps;
    /// --seed, --pe, --no-embed-scale as given: a trained model has its own (issue 11 §1).
    std::vector<std::string> modelOwns;
};

/// A named value of an enum option, or a UsageError listing the allowed names.
template <typename Parse>
auto parseChoice(const std::string& option, const std::string& v, Parse parse, std::initializer_list<const char*> names,
                 const char* hint = "")
{
    const auto parsed = parse(v);
    if (!parsed)
        throw UsageError(option + " must be " + allowed(names) + ", got " + inQuotes(v) + hint);
    return *parsed;
}

/// The input and the Transformer's options; false when `a` is not one of them.
bool readModelOption(const std::string& a, const std::function<const std::string&()>& value, GivenOptions& g, TraceOptions& o)
{
    if (a == "--sentence") {
        g.sentence = value();
    } else if (a == "--source") {
        g.source = value();
    } else if (a == "--segment-b") {
        g.segmentB = value();
        o.segmentB = g.segmentB;
    } else if (a == "--target") {
        o.target = value();
    } else if (a == "--model") {
        g.modelFile = value();
    } else if (a == "--save-model") {
        o.saveModel = value();
    } else if (a == "--layers") {
        g.layers = parseInt<int>(a, value());
    } else if (a == "--d-ff") {
        g.dFF = parseInt<int>(a, value());
    } else if (a == "--norm") {
        g.norm = parseChoice(a, value(), parseNormPlacement, {"post", "pre"});
    } else if (a == "--layer-norm-eps") {
        const std::string& v = value();
        const float e = parseFloatOption(a, v);
        if (!(e > 0))
            throw UsageError("--layer-norm-eps expects a positive number, got " + inQuotes(v));
        g.eps = e;
    } else if (a == "--activation") {
        g.activation = parseChoice(a, value(), [](std::string_view v) {
            const auto a = parseActivation(v);
            return a == Activation::GeluTanh ? std::optional<Activation>() : a;
        }, {"relu", "gelu"});
    } else {
        return false;
    }
    return true;
}

/// The attention block's settings, weights and output; false when `a` is not one of them.
bool readBlockOption(const std::string& a, const std::function<const std::string&()>& value, GivenOptions& g, TraceOptions& o)
{
    Config& c = o.request.config;
    if (a == "--d-model") {
        g.dModel = parseInt<int>(a, value());
    } else if (a == "--heads") {
        g.heads = parseInt<int>(a, value());
    } else if (a == "--seed") {
        c.seed = parseInt<std::uint64_t>(a, value());
        g.modelOwns.push_back(a);
    } else if (a == "--pe") {
        c.positional = parseChoice(a, value(), parsePositionalEncoding, {"sinusoidal", "learned", "none", "rope", "alibi", "relative", "xl"});
        g.modelOwns.push_back(a);
    } else if (a == "--no-embed-scale") {
        c.embedScale = false;
        g.modelOwns.push_back(a);
    } else if (a == "--no-scale") {
        c.scaleScores = false;
    } else if (a == "--mask") {
        const auto& v = value();
        g.mask = parseMaskKind(v);
        if (!g.mask || *g.mask == MaskKind::Custom)
            throw UsageError("--mask must be " + allowed({"none", "causal", "padding", "causal+padding"}) + ", got " + inQuotes(v)
                             + " (a custom mask comes from --mask-file)");
    } else if (a == "--mask-file") {
        g.maskFile = value();
    } else if (a == "--pad-to") {
        c.padTo = parseInt<int>(a, value());
    } else if (a == "--max-tokens") {
        c.maxTokens = parseInt<int>(a, value());
    } else if (a == "--weights") {
        g.weightsFile = value();
    } else if (a == "--weights-prefix") {
        g.weightsPrefix = value();
    } else if (a == "--weights-preset") {
        g.preset = parseChoice(a, value(), parseWeightsPreset, {"seeded", "identity"});
    } else if (a == "--save-weights") {
        o.saveWeights = value();
    } else if (a == "--output" || a == "-o") {
        o.output = value();
    } else if (a == "--pretty") {
        o.pretty = true;
    } else {
        return false;
    }
    return true;
}

/// The model a Transformer's options ask for: a file, the shipped model, or a seeded stack.
void finishTransformer(const GivenOptions& g, TraceOptions& o)
{
    Config& c = o.request.config;
    const bool encoderDecoder = g.source || o.target;
    if (!g.modelFile && g.sentence && encoderDecoder)
        throw UsageError("--sentence is the input of an encoder stack; an encoder–decoder reads --source and --target");
    if (!g.modelFile && g.segmentB)
        throw UsageError("--segment-b is BERT's second segment: give --model with a BERT folder");
    for (const auto& [given, name] : {std::pair{g.weightsFile.has_value() || g.preset.has_value(), "--weights/--weights-preset"},
                                      std::pair{g.mask.has_value() || g.maskFile.has_value(), "--mask/--mask-file"},
                                      std::pair{c.padTo > 0, "--pad-to"}}) {
        if (given)
            throw UsageError(std::string(name) + " belongs to a single attention block; a Transformer has its own weights "
                             "and masks (the decoder's look-ahead mask is always on)");
    }
    if (o.saveWeights)
        throw UsageError("--save-weights writes one attention block; write a Transformer with --save-model FILE");
    c.dModel = g.dModel.value_or(c.dModel);
    c.heads = g.heads.value_or(c.heads);
    c.architecture = encoderDecoder ? Architecture::EncoderDecoder : Architecture::EncoderStack;
    c.setLayers(g.layers.value_or(c.encoderLayers));
    c.dFF = g.dFF.value_or(c.dFF);
    c.norm = g.norm.value_or(c.norm);
    c.activation = g.activation.value_or(c.activation);
    c.layerNormEps = g.eps.value_or(c.layerNormEps);
    o.source = g.source ? *g.source : g.sentence ? *g.sentence : std::string(kDefaultSentence);
    if (g.modelFile) {
        ModelOptions m{*g.modelFile, g.dModel, g.heads, g.layers, g.dFF, g.norm, g.activation, g.eps,
                       g.sentence.has_value(), g.source.has_value(), o.target.has_value(), g.segmentB.has_value(), g.modelOwns};
        o.model = openCliModel(m, c, c.model);
        adoptModel(c, *o.model);
        if (g.sentence)
            o.source = *g.sentence;
    } else {
        c.model = ModelKind::Seeded;
        if (const auto p = c.problems(); !p.empty())
            throw UsageError(p.front());
        RunRequest probe;
        probe.text = o.source;
        probe.target = o.target;
        probe.config = c;
        checkRunCost(probe, nullptr); // before making the weights: 1.4 billion of them take 5.6 GB
        o.costChecked = true;
        o.model = std::make_shared<const Seq2SeqModel>(seededModel(c));
        if (encoderDecoder && !o.target)
            throw UsageError("a seeded model cannot generate (it has no trained output head): give --target TEXT");
    }
}

/// One attention block: its weights file or preset, its mask, d_model and heads.
void finishSingleBlock(const GivenOptions& g, TraceOptions& o)
{
    Config& c = o.request.config;
    if (g.sentence)
        o.request.sentence = *g.sentence;
    if (o.saveModel)
        throw UsageError("--save-model writes a Transformer: give --model, --layers or --source too");
    if (g.weightsFile && g.preset)
        throw UsageError("use either --weights FILE or --weights-preset, not both");
    if (g.weightsPrefix && !g.weightsFile)
        throw UsageError("--weights-prefix needs --weights FILE");
    if (g.maskFile && g.mask)
        throw UsageError("use either --mask or --mask-file, not both");
    c.weightsPreset = g.preset.value_or(c.weightsPreset);
    c.mask = g.mask.value_or(c.mask);
    std::optional<int> heads = g.heads;
    if (g.weightsFile) {
        auto w = std::make_shared<AttentionWeights>(loadAttentionWeights(*g.weightsFile, g.weightsPrefix));
        if (g.dModel && *g.dModel != w->dModel())
            throw UsageError("--d-model " + std::to_string(*g.dModel) + " does not match the weights file, whose d_model is "
                             + std::to_string(w->dModel()));
        c.dModel = w->dModel();
        // The head count is not part of a PyTorch state dict; Attention Lab's export stores it.
        if (!heads && w->heads)
            heads = w->heads;
        if (heads && *heads >= 1 && w->dModel() % *heads != 0)
            throw UsageError("d_model (" + std::to_string(w->dModel()) + ", from the weights file " + inQuotes(*g.weightsFile)
                             + ") must be a multiple of heads (" + std::to_string(*heads) + "): give --heads as one of its divisors");
        o.request.weights = std::move(w);
    } else if (g.dModel) {
        c.dModel = *g.dModel;
    }
    c.heads = heads.value_or(c.heads);
    if (g.maskFile) {
        try {
            o.request.customMask = parseMaskText(readFile(*g.maskFile, 64ULL * 1024 * 1024));
        } catch (const FileError& e) {
            throw UsageError("mask file " + inQuotes(*g.maskFile) + ": " + e.reason());
        } catch (const std::exception& e) {
            throw UsageError("mask file " + inQuotes(*g.maskFile) + ": " + e.what());
        }
        c.mask = MaskKind::Custom;
    }
}

} // namespace

TraceOptions parseTraceOptions(const std::vector<std::string>& args, const ExtraOption& extra)
{
    TraceOptions o;
    o.request.sentence = kDefaultSentence;
    GivenOptions g;
    AttentionGiven kind;
    readOptions(args, [&](const std::string& a, const std::function<const std::string&()>& value) {
        return (extra && extra(a, value)) || readModelOption(a, value, g, o) || readBlockOption(a, value, g, o)
               || readAttentionOption(a, value, kind);
    });
    // Without a model or a source, a target would be decoded by a seeded model reading the
    // default sentence: never what was meant.
    if (o.target && !g.modelFile && !g.source)
        throw UsageError("--target needs a model to decode with: --model FILE (or --model reversal), or --source TEXT for a "
                         "seeded encoder–decoder");
    const bool transformer = g.modelFile || g.layers || g.dFF || g.norm || g.activation || g.eps || g.source || o.target;
    if (transformer)
        finishTransformer(g, o);
    else
        finishSingleBlock(g, o);
    applyAttentionOptions(kind, o.request.config); // after a model's own settings were adopted
    if (const auto p = o.request.config.problems(); !p.empty())
        throw UsageError(p.front());
    return o;
}

std::optional<int> ExportCommandOptions::traceLayer() const
{
    if (!layer)
        return std::nullopt;
    return *layer - 1;
}

std::string ExportCommandOptions::whereText() const
{
    std::string s;
    if (layer)
        s += "layer " + std::to_string(*layer);
    if (block)
        s += (s.empty() ? "" : ", ") + std::string("block ") + std::string(toString(*block));
    return s.empty() ? s : " (" + s + ")";
}

std::optional<int> ExportCommandOptions::traceHead() const
{
    if (!head)
        return std::nullopt;
    return *head - 1;
}

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return s;
}

/// "png" for "slides/a.PNG"; empty when the name has no suffix.
std::string suffixOf(const std::string& path)
{
    const std::string ext = std::filesystem::path(path).extension().string();
    return ext.empty() ? std::string() : lower(ext.substr(1));
}

bool isExportFormat(const std::string& f)
{
    return f == "png" || f == "svg" || f == "pdf" || f == "csv";
}

std::string joined(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

void checkRange(const std::string& option, int value, int lo, int hi)
{
    if (value < lo || value > hi)
        throw UsageError(option + " " + std::to_string(value) + " is out of range: it must be between " + std::to_string(lo) + " and "
                         + std::to_string(hi));
}

} // namespace

namespace {

/// What export's own options said, before they are checked.
struct GivenExport {
    std::optional<std::string> format;
    std::optional<std::string> stage;
    std::optional<std::string> output;
    std::optional<std::string> outputDir;
    bool width = false;         ///< --width given
    bool height = false;        ///< --height given
    GivenComparison comparison; ///< --compare, --compare-pe, --compare-mask, --compare-seed
};

/// --all: no single stage, a folder to write into.
void checkAll(const GivenExport& g, ExportCommandOptions& o)
{
    if (g.stage)
        throw UsageError("--all exports every stage; drop --stage");
    if (o.head || o.layer || o.block)
        throw UsageError("--all exports every stage of every head and layer; drop --head, --layer and --block");
    if (g.output)
        throw UsageError("--all writes many files: give --output-dir DIR, not --output");
    if (!g.outputDir || g.outputDir->empty())
        throw UsageError("--all needs --output-dir DIR");
    o.outputDir = *g.outputDir;
    o.format = g.format.value_or("png");
}

/// One stage: it exists, and --layer and --block fit it and the model.
void checkStage(const GivenExport& g, ExportCommandOptions& o)
{
    if (g.outputDir)
        throw UsageError("--output-dir goes with --all; one stage goes to --output FILE");
    std::vector<std::string> ids = stageIds();
    const auto kindIds = kindStageIds(o.trace.request.config.attention); // an attention kind's own stages
    ids.insert(ids.end(), kindIds.begin(), kindIds.end());
    for (const std::string& id : positionStageIds(o.trace.request.config.positional)) // rope's, alibi's
        ids.push_back(id);
    if (o.trace.model) {
        ids.insert(ids.end(), layerStageIds().begin(), layerStageIds().end());
        ids.insert(ids.end(), modelStageIds().begin(), modelStageIds().end());
        if (o.trace.model->pretrained)
            ids.insert(ids.end(), pretrainedStageIds().begin(), pretrainedStageIds().end());
    }
    if (!g.stage)
        throw UsageError("export needs --stage ID (or --all); the stages are " + joined(ids));
    if (std::find(ids.begin(), ids.end(), *g.stage) == ids.end())
        throw UsageError("unknown stage " + inQuotes(*g.stage) + "; the stages are " + joined(ids));
    o.stage = *g.stage;
    if (!o.trace.model) {
        if (o.layer || o.block)
            throw UsageError("--layer and --block choose a stage of a Transformer (--model, --layers or --source)");
    } else {
        const auto& m = modelStageIds();
        const bool outside = o.stage == "encoder_output" || o.stage == "decoder_output" || o.stage == "rollout"
            || o.stage == "mlm_transform" || std::find(m.begin(), m.end(), o.stage) != m.end();
        const bool inputStage = o.stage == "embedding" || o.stage == "positional_encoding" || o.stage == "input"
            || o.stage == "segment_embedding" || o.stage == "embedding_sum";
        const bool decoder = o.trace.model->spec.decoderLayers > 0;
        // A decoder-only model (GPT-2) has its layers and embeddings in decoder_self.
        const Block own = o.trace.model->spec.architecture == Architecture::DecoderOnly ? Block::DecoderSelf : Block::EncoderSelf;
        if (outside) {
            if (o.layer || o.block)
                throw UsageError("stage '" + o.stage + "' belongs to no layer or block; drop --layer and --block");
        } else if (inputStage) {
            if (o.layer)
                throw UsageError("stage '" + o.stage + "' comes before the layers; drop --layer (--block encoder_self is the source, decoder_self the target)");
            o.block = o.block.value_or(own);
            if (o.block == Block::Cross)
                throw UsageError("stage '" + o.stage + "' has --block encoder_self (the source) or decoder_self (the target)");
        } else {
            o.block = o.block.value_or(own);
            const bool crossOnly = o.stage == "cross_residual" || o.stage == "cross_norm";
            if (crossOnly && o.block != Block::Cross)
                throw UsageError("stage '" + o.stage + "' belongs to --block cross");
            if (o.block == Block::Cross && (o.stage.starts_with("ffn_") || o.stage == "attn_residual" || o.stage == "attn_norm" || o.stage == "layer_output"))
                throw UsageError("stage '" + o.stage + "' of a decoder layer has --block decoder_self");
            const int layers = o.block == Block::EncoderSelf ? o.trace.model->spec.encoderLayers : o.trace.model->spec.decoderLayers;
            if (o.block != Block::EncoderSelf && !decoder)
                throw UsageError("this Transformer has no decoder: use --block encoder_self");
            o.layer = o.layer.value_or(1);
            if (*o.layer < 1 || *o.layer > layers)
                throw UsageError("--layer " + std::to_string(*o.layer) + " is out of range: the " + (o.block == Block::EncoderSelf ? "encoder" : "decoder")
                                 + " has layers 1 to " + std::to_string(layers));
        }
        if (((o.block && *o.block != Block::EncoderSelf) || o.stage == "decoder_output" || o.stage == "logits" || o.stage == "probabilities") && !decoder)
            throw UsageError("this Transformer has no decoder (give --source/--target or a --model)");
        if ((o.stage == "logits" || o.stage == "probabilities") && !o.trace.model->hasHead())
            throw UsageError("stage '" + o.stage + "' comes from the output head, and a seeded model has none: use a trained model "
                             "(--model FILE or --model reversal)");
    }
}

void checkOutput(const GivenExport& g, ExportCommandOptions& o);

/// One stage: --head fits it, and the output file and its format agree.
void checkHeadAndOutput(const GivenExport& g, ExportCommandOptions& o)
{
    const int heads = o.trace.request.config.heads;
    if (isPerHeadStage(o.stage, o.trace.request.config.attention)) {
        if (o.head && (*o.head < 1 || *o.head > heads))
            throw UsageError("--head " + std::to_string(*o.head) + " is out of range: heads are numbered from 1 to "
                             + std::to_string(heads));
        o.head = o.head.value_or(1);
    } else if (o.head) {
        throw UsageError("stage '" + o.stage + "' is the same for every head; drop --head");
    }
    checkOutput(g, o);
}

/// --view model: the grid of every layer and head of a model, one picture.
void checkView(const GivenExport& g, ExportCommandOptions& o)
{
    if (o.view != "model")
        throw UsageError("--view must be 'model' (the grid of every layer and head), got " + inQuotes(o.view));
    if (g.stage || o.all || o.head || o.layer)
        throw UsageError("--view model draws every layer and head: drop --stage, --all, --head and --layer (--block chooses the block)");
    if (!o.trace.model)
        throw UsageError("--view model draws a model: give --model DIR, FILE or reversal");
    if (g.outputDir)
        throw UsageError("--view model writes one picture: give --output FILE");
    checkOutput(g, o);
    if (o.format == "csv")
        throw UsageError("--view model draws a picture: png, svg or pdf, not csv");
}

/// The output file and its format agree.
void checkOutput(const GivenExport& g, ExportCommandOptions& o)
{
    if (!g.output || g.output->empty())
        throw UsageError("export needs --output FILE");
    o.output = *g.output;
    const std::string suffix = suffixOf(o.output);
    if (g.format) {
        if (isExportFormat(suffix) && suffix != *g.format)
            throw UsageError("--format " + *g.format + " does not match the output file " + inQuotes(o.output));
        o.format = *g.format;
    } else if (isExportFormat(suffix)) {
        o.format = suffix;
    } else {
        throw UsageError("cannot tell the format of " + inQuotes(o.output) + ": give --format png|svg|pdf|csv or a file name ending in one of them");
    }
    if (o.output == "-")
        o.output = "/dev/stdout"; // the picture on standard output, written where it stands
}

} // namespace

ExportCommandOptions parseExportOptions(const std::vector<std::string>& args)
{
    ExportCommandOptions o;
    GivenExport given;
    const auto extra = [&o, &given](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--all") {
            o.all = true;
        } else if (a == "--stage") {
            given.stage = value();
        } else if (a == "--view") {
            o.view = value();
        } else if (a == "--head") {
            o.head = parseInt<int>(a, value());
        } else if (a == "--layer") {
            o.layer = parseInt<int>(a, value());
        } else if (a == "--block") {
            const std::string& v = value();
            o.block = parseBlock(v);
            if (!o.block || *o.block == Block::None)
                throw UsageError("--block must be " + allowed({"encoder_self", "decoder_self", "cross"}) + ", got " + inQuotes(v));
        } else if (a == "--format") {
            const std::string v = value();
            given.format = lower(v);
            if (!isExportFormat(*given.format))
                throw UsageError("--format must be " + allowed({"png", "svg", "pdf", "csv"}) + ", got " + inQuotes(v));
        } else if (a == "--dpi") {
            o.dpi = parseInt<int>(a, value());
        } else if (a == "--width") {
            o.width = parseInt<int>(a, value());
            given.width = true;
        } else if (a == "--height") {
            o.height = parseInt<int>(a, value());
            given.height = true;
        } else if (given.comparison.read(a, value)) {
            // B: checked below, against the trace's settings
        } else if (a == "--output" || a == "-o") {
            given.output = value();
        } else if (a == "--output-dir") {
            given.outputDir = value();
        } else if (a == "--pretty") {
            throw UsageError("--pretty is for trace's JSON; export writes pictures and CSV");
        } else {
            return false;
        }
        return true;
    };
    o.trace = parseTraceOptions(args, extra);

    checkRange("--dpi", o.dpi, kMinExportDpi, kMaxExportDpi);
    checkRange("--width", o.width, kMinExportSide, kMaxExportSide);
    checkRange("--height", o.height, kMinExportSide, kMaxExportSide);
    if (!o.view.empty()) {
        checkView(given, o);
    } else if (o.all) {
        checkAll(given, o);
    } else {
        checkStage(given, o);
        checkHeadAndOutput(given, o);
    }
    given.comparison.check(o, given.width, given.height);
    if (const auto format = parseImageFormat(QString::fromStdString(o.format))) {
        ExportOptions e;
        e.format = *format;
        e.dpi = o.dpi;
        e.width = o.width;
        e.height = o.height;
        // What the picture will hold, before the trace is computed: refused above the limit,
        // announced when large, in export's own options.
        const bool png = *format == ImageFormat::Png;
        checkWorkCost(e.describe().toStdString(), e.cost(),
                      png ? "use a smaller --width or --height, or a lower --dpi" : "use a smaller --width or --height",
                      o.all ? "for each picture" : "");
        if (const QString p = e.problem(); !p.isEmpty())
            throw UsageError(p.toStdString());
    }
    return o;
}

} // namespace attnlab::cli
