#include "options.h"

#include "attention_options.h"

#include "export/exporter.h"
#include "io/fileio.h"
#include "model/run.h"
#include "nn/mask.h"
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

} // namespace

std::string allowed(std::initializer_list<const char*> names)
{
    return allowed(std::vector<std::string>(names.begin(), names.end()));
}

std::string allowed(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : "|") + n;
    return s;
}

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
    if (g.weightsFile || g.preset)
        throw UsageError("--weights/--weights-preset belongs to a single attention block; a Transformer has its own weights");
    if (g.maskFile)
        throw UsageError("--mask-file gives one attention block a custom mask; a Transformer takes --mask "
                         + allowed({"none", "causal", "padding", "causal+padding"}));
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
    // The encoder's src_mask and src_key_padding_mask; padding hides <pad> in cross-attention too.
    c.mask = g.mask.value_or(c.mask);
    o.source = g.source ? *g.source : g.sentence ? *g.sentence : std::string(kDefaultSentence);
    if (g.modelFile) {
        ModelOptions m{*g.modelFile, g.dModel, g.heads, g.layers, g.dFF, g.norm, g.activation, g.eps,
                       g.sentence.has_value(), g.source.has_value(), o.target.has_value(), g.segmentB.has_value(), g.modelOwns};
        o.model = openCliModel(m, c, c.model);
        if (o.model->pretrained && (g.mask || c.padTo > 0))
            throw UsageError(std::string(g.mask ? "--mask" : "--pad-to") + " does not apply to a Hugging Face model folder: it "
                             "reads its text as it is, with its own mask (a decoder's is causal)");
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
            o.request.customMask = parseMaskText(readFile(*g.maskFile, kMaxMaskFileBytes));
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

} // namespace attnlab::cli
