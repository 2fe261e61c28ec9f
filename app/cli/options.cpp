#include "options.h"

#include "export/exporter.h"
#include "io/fileio.h"
#include "model/run.h"
#include "model/shipped.h"
#include "core/trace.h"

#include <algorithm>
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
        throw UsageError(option + " value '" + value + "' is out of range");
    if (ec != std::errc() || ptr != end)
        throw UsageError(option + " expects a whole number, got '" + value + "'");
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

TraceOptions parseTraceOptions(const std::vector<std::string>& args, const ExtraOption& extra)
{
    TraceOptions o;
    o.request.sentence = kDefaultSentence;
    Config& c = o.request.config;
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
    std::optional<int> layers;
    std::optional<int> dFF;
    std::optional<NormPlacement> norm;
    std::optional<Activation> activation;
    std::optional<float> eps;

    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            return args[++i];
        };
        if (extra && extra(a, value))
            continue;
        if (a == "--sentence") {
            sentence = value();
        } else if (a == "--source") {
            source = value();
        } else if (a == "--target") {
            o.target = value();
        } else if (a == "--model") {
            modelFile = value();
        } else if (a == "--save-model") {
            o.saveModel = value();
        } else if (a == "--layers") {
            layers = parseInt<int>(a, value());
        } else if (a == "--d-ff") {
            dFF = parseInt<int>(a, value());
        } else if (a == "--norm") {
            const auto& v = value();
            norm = parseNormPlacement(v);
            if (!norm)
                throw UsageError("--norm must be " + allowed({"post", "pre"}) + ", got '" + v + "'");
        } else if (a == "--layer-norm-eps") {
            const std::string& v = value();
            char* end = nullptr;
            const float e = std::strtof(v.c_str(), &end);
            if (v.empty() || end != v.c_str() + v.size() || !(e > 0) || !std::isfinite(e))
                throw UsageError("--layer-norm-eps expects a positive number, got '" + v + "'");
            eps = e;
        } else if (a == "--activation") {
            const auto& v = value();
            activation = parseActivation(v);
            if (!activation)
                throw UsageError("--activation must be " + allowed({"relu", "gelu"}) + ", got '" + v + "'");
        } else if (a == "--d-model") {
            dModel = parseInt<int>(a, value());
        } else if (a == "--heads") {
            heads = parseInt<int>(a, value());
        } else if (a == "--seed") {
            c.seed = parseInt<std::uint64_t>(a, value());
        } else if (a == "--pe") {
            const auto& v = value();
            const auto pe = parsePositionalEncoding(v);
            if (!pe)
                throw UsageError("--pe must be " + allowed({"sinusoidal", "learned", "none"}) + ", got '" + v + "'");
            c.positional = *pe;
        } else if (a == "--no-embed-scale") {
            c.embedScale = false;
        } else if (a == "--no-scale") {
            c.scaleScores = false;
        } else if (a == "--mask") {
            const auto& v = value();
            mask = parseMaskKind(v);
            if (!mask || *mask == MaskKind::Custom)
                throw UsageError("--mask must be " + allowed({"none", "causal", "padding", "causal+padding"})
                                 + ", got '" + v + "' (a custom mask comes from --mask-file)");
        } else if (a == "--mask-file") {
            maskFile = value();
        } else if (a == "--pad-to") {
            c.padTo = parseInt<int>(a, value());
        } else if (a == "--max-tokens") {
            c.maxTokens = parseInt<int>(a, value());
        } else if (a == "--weights") {
            weightsFile = value();
        } else if (a == "--weights-prefix") {
            weightsPrefix = value();
        } else if (a == "--weights-preset") {
            const auto& v = value();
            preset = parseWeightsPreset(v);
            if (!preset)
                throw UsageError("--weights-preset must be " + allowed({"seeded", "identity"}) + ", got '" + v + "'");
        } else if (a == "--save-weights") {
            o.saveWeights = value();
        } else if (a == "--output" || a == "-o") {
            o.output = value();
        } else if (a == "--pretty") {
            o.pretty = true;
        } else {
            throw UsageError("unknown option '" + a + "' (see --help)");
        }
    }

    // --- A Transformer: a model file, the shipped model, or a seeded stack ---
    const bool seededStack = layers || dFF || norm || activation || eps;
    const bool encoderDecoder = source || o.target;
    if (modelFile || seededStack || encoderDecoder) {
        if (modelFile && seededStack)
            throw UsageError("--layers, --d-ff, --norm, --activation and --layer-norm-eps describe a seeded model; a --model file has its own");
        if (sentence && encoderDecoder)
            throw UsageError("--sentence is the input of an encoder stack; an encoder–decoder reads --source and --target");
        if (modelFile && sentence)
            throw UsageError("a model translates a --source (and optionally a --target), not a --sentence");
        for (const auto& [given, name] : {std::pair{weightsFile.has_value() || preset.has_value(), "--weights/--weights-preset"},
                                          std::pair{mask.has_value() || maskFile.has_value(), "--mask/--mask-file"},
                                          std::pair{c.padTo > 0, "--pad-to"}}) {
            if (given)
                throw UsageError(std::string(name) + " belongs to a single attention block; a Transformer has its own weights "
                                 "and masks (the decoder's look-ahead mask is always on)");
        }
        if (o.saveWeights)
            throw UsageError("--save-weights writes one attention block; write a Transformer with --save-model FILE");
        if (dModel)
            c.dModel = *dModel;
        if (heads)
            c.heads = *heads;
        if (layers)
            c.layers = *layers;
        if (dFF)
            c.dFF = *dFF;
        if (norm)
            c.norm = *norm;
        if (activation)
            c.activation = *activation;
        if (eps)
            c.layerNormEps = *eps;
        o.source = source ? *source : sentence ? *sentence : std::string(kDefaultSentence);
        if (modelFile) {
            // Either throws FormatError with the reason.
            std::shared_ptr<const Seq2SeqModel> m;
            if (*modelFile == "reversal" && !std::filesystem::exists(*modelFile)) {
                m = shippedModel();
                c.model = ModelKind::Reversal;
            } else {
                m = std::make_shared<const Seq2SeqModel>(loadModel(*modelFile));
                c.model = ModelKind::File;
            }
            if ((dModel && *dModel != m->options.dModel) || (heads && *heads != m->options.heads))
                throw UsageError("--d-model and --heads must be the model's (d_model " + std::to_string(m->options.dModel) + ", heads "
                                 + std::to_string(m->options.heads) + ")");
            c.dModel = m->options.dModel;
            c.heads = m->options.heads;
            c.layers = m->options.encoderLayers;
            c.dFF = m->options.dFF;
            c.norm = m->options.norm;
            c.activation = m->options.activation;
            c.layerNormEps = m->options.eps;
            o.model = std::move(m);
        } else {
            c.model = ModelKind::Seeded;
            if (const auto p = c.problems(); !p.empty())
                throw UsageError(p.front());
            o.model = std::make_shared<const Seq2SeqModel>(seededModel(c, encoderDecoder));
            if (encoderDecoder && !o.target)
                throw UsageError("a seeded model cannot generate (it has no trained output head): give --target TEXT");
        }
        if (const auto p = c.problems(); !p.empty())
            throw UsageError(p.front());
        return o;
    }
    if (sentence)
        o.request.sentence = *sentence;
    if (o.saveModel)
        throw UsageError("--save-model writes a Transformer: give --model, --layers or --source too");

    if (weightsFile && preset)
        throw UsageError("use either --weights FILE or --weights-preset, not both");
    if (weightsPrefix && !weightsFile)
        throw UsageError("--weights-prefix needs --weights FILE");
    if (maskFile && mask)
        throw UsageError("use either --mask or --mask-file, not both");
    if (preset)
        c.weightsPreset = *preset;
    if (mask)
        c.mask = *mask;

    if (weightsFile) {
        auto w = std::make_shared<AttentionWeights>(loadAttentionWeights(*weightsFile, weightsPrefix));
        if (dModel && *dModel != w->dModel())
            throw UsageError("--d-model " + std::to_string(*dModel) + " does not match the weights file, whose d_model is "
                             + std::to_string(w->dModel()));
        c.dModel = w->dModel();
        // The head count is not part of a PyTorch state dict; Attention Lab's export stores it.
        if (!heads && w->heads)
            heads = w->heads;
        o.request.weights = std::move(w);
    } else if (dModel) {
        c.dModel = *dModel;
    }
    if (heads)
        c.heads = *heads;

    if (maskFile) {
        try {
            o.request.customMask = parseMaskText(readFile(*maskFile, 64ULL * 1024 * 1024));
        } catch (const std::exception& e) {
            throw UsageError("mask file '" + *maskFile + "': " + e.what());
        }
        c.mask = MaskKind::Custom;
    }
    if (const auto p = c.problems(); !p.empty())
        throw UsageError(p.front());
    return o;
}

Trace computeCliTrace(const TraceOptions& o, Generation* generation)
{
    RunRequest r;
    r.config = o.request.config;
    if (!o.model) {
        r.text = o.request.sentence;
        r.weights = o.request.weights;
        r.customMask = o.request.customMask;
        return *run(r).trace;
    }
    r.text = o.source;
    r.target = o.target;
    r.model = o.model;
    r.maxSteps = o.maxLength;
    if (!o.target && o.model->options.decoderLayers > 0 && !o.model->hasHead())
        throw std::invalid_argument("this model has no output head (a seeded model): generation needs a trained model; "
                                    "give --target TEXT (teacher forcing)");
    RunResult result = run(r);
    if (generation)
        *generation = std::move(result.generation);
    return *result.trace;
}

std::string traceOptionsHelp()
{
    return R"(Input:
  --sentence TEXT        the sentence (default: "The animal didn't cross the street because it was too tired.")
                         Latin text splits into words and punctuation, CJK text per character;
                         <sos> <eos> <pad> <unk> [CLS] [SEP] [MASK] stay whole.
  --max-tokens N         keep at most N tokens, 1..1024 (default 512; a warning says when cut)
  --pad-to N             append <pad> tokens up to length N
Model:
  --d-model N            width d_model, 1..2048 (default 32; taken from --weights when given)
  --heads H              attention heads, 1..64, must divide d_model (default 4)
  --seed S               seed of embeddings, learned positions and seeded weights (default 42)
  --pe KIND              positional encoding: sinusoidal (default) | learned | none
  --no-embed-scale       do not multiply embeddings by sqrt(d_model)
  --no-scale             do not divide scores by sqrt(d_k)
  --mask KIND            none (default) | causal | padding | causal+padding
  --mask-file FILE       a custom n x n mask: n lines of n values 0/1, 1 = masked
Transformer (docs/transformer-layers.md, docs/model-format.md):
  --model FILE           an encoder–decoder model in safetensors (docs/model-format.md);
                         'reversal' is the trained model shipped inside the program
  --source TEXT          the encoder's input of an encoder–decoder
  --target TEXT          teacher forcing: the decoder reads <sos> + TEXT. Without it a trained
                         model generates greedily and the trace is the last generation step
  --layers N             a seeded Transformer with N layers, 1..12: an encoder stack on
                         --sentence, or N encoder and N decoder layers with --source/--target
  --d-ff N               the feed-forward width of a seeded Transformer (default 4·d_model)
  --norm post|pre        LayerNorm after (post, the paper, default) or before each sublayer
  --activation relu|gelu the feed-forward network's non-linearity (default relu)
  --layer-norm-eps E     the ε of every LayerNorm (default 1e-05, as PyTorch)
  --save-model FILE      also write the Transformer used, in the same safetensors layout
Weights:
  --weights-preset P     seeded (default: Xavier-uniform as PyTorch) | identity (W = I)
  --weights FILE         a PyTorch nn.MultiheadAttention state dict in safetensors
                         (in_proj_weight [3d, d], in_proj_bias [3d], out_proj.weight [d, d],
                         out_proj.bias [d]; F32, F64, F16 or BF16; optionally under a prefix)
  --weights-prefix P     the prefix to use when the file holds several attention blocks
  --save-weights FILE    also write the weights used, in the same safetensors layout
Output:
  --output FILE, -o FILE where to write the trace JSON; - is stdout (default)
  --pretty               indent the JSON
)";
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

ExportCommandOptions parseExportOptions(const std::vector<std::string>& args)
{
    ExportCommandOptions o;
    std::optional<std::string> format;
    std::optional<std::string> stage;
    std::optional<std::string> output;
    std::optional<std::string> outputDir;
    const auto extra = [&](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--all") {
            o.all = true;
        } else if (a == "--stage") {
            stage = value();
        } else if (a == "--head") {
            o.head = parseInt<int>(a, value());
        } else if (a == "--layer") {
            o.layer = parseInt<int>(a, value());
        } else if (a == "--block") {
            const std::string& v = value();
            o.block = parseBlock(v);
            if (!o.block || *o.block == Block::None)
                throw UsageError("--block must be " + allowed({"encoder_self", "decoder_self", "cross"}) + ", got '" + v + "'");
        } else if (a == "--format") {
            const std::string v = value();
            format = lower(v);
            if (!isExportFormat(*format))
                throw UsageError("--format must be " + allowed({"png", "svg", "pdf", "csv"}) + ", got '" + v + "'");
        } else if (a == "--dpi") {
            o.dpi = parseInt<int>(a, value());
        } else if (a == "--width") {
            o.width = parseInt<int>(a, value());
        } else if (a == "--height") {
            o.height = parseInt<int>(a, value());
        } else if (a == "--output" || a == "-o") {
            output = value();
        } else if (a == "--output-dir") {
            outputDir = value();
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

    if (o.all) {
        if (stage)
            throw UsageError("--all exports every stage; drop --stage");
        if (o.head || o.layer || o.block)
            throw UsageError("--all exports every stage of every head and layer; drop --head, --layer and --block");
        if (output)
            throw UsageError("--all writes many files: give --output-dir DIR, not --output");
        if (!outputDir || outputDir->empty())
            throw UsageError("--all needs --output-dir DIR");
        o.outputDir = *outputDir;
        o.format = format.value_or("png");
    } else {
        if (outputDir)
            throw UsageError("--output-dir goes with --all; one stage goes to --output FILE");
        std::vector<std::string> ids = stageIds();
        if (o.trace.model) {
            ids.insert(ids.end(), layerStageIds().begin(), layerStageIds().end());
            ids.insert(ids.end(), modelStageIds().begin(), modelStageIds().end());
        }
        if (!stage)
            throw UsageError("export needs --stage ID (or --all); the stages are " + joined(ids));
        if (std::find(ids.begin(), ids.end(), *stage) == ids.end())
            throw UsageError("unknown stage '" + *stage + "'; the stages are " + joined(ids));
        o.stage = *stage;
        if (!o.trace.model) {
            if (o.layer || o.block)
                throw UsageError("--layer and --block choose a stage of a Transformer (--model, --layers or --source)");
        } else {
            const auto& m = modelStageIds();
            const bool outside = o.stage == "encoder_output" || o.stage == "decoder_output"
                || std::find(m.begin(), m.end(), o.stage) != m.end();
            const bool inputStage = o.stage == "embedding" || o.stage == "positional_encoding" || o.stage == "input";
            const bool decoder = o.trace.model->options.decoderLayers > 0;
            if (outside) {
                if (o.layer || o.block)
                    throw UsageError("stage '" + o.stage + "' belongs to no layer or block; drop --layer and --block");
            } else if (inputStage) {
                if (o.layer)
                    throw UsageError("stage '" + o.stage + "' comes before the layers; drop --layer (--block encoder_self is the source, decoder_self the target)");
                o.block = o.block.value_or(Block::EncoderSelf);
                if (o.block == Block::Cross)
                    throw UsageError("stage '" + o.stage + "' has --block encoder_self (the source) or decoder_self (the target)");
            } else {
                o.block = o.block.value_or(Block::EncoderSelf);
                const bool crossOnly = o.stage == "cross_residual" || o.stage == "cross_norm";
                if (crossOnly && o.block != Block::Cross)
                    throw UsageError("stage '" + o.stage + "' belongs to --block cross");
                if (o.block == Block::Cross && (o.stage.starts_with("ffn_") || o.stage == "attn_residual" || o.stage == "attn_norm" || o.stage == "layer_output"))
                    throw UsageError("stage '" + o.stage + "' of a decoder layer has --block decoder_self");
                const int layers = o.block == Block::EncoderSelf ? o.trace.model->options.encoderLayers : o.trace.model->options.decoderLayers;
                if (o.block != Block::EncoderSelf && !decoder)
                    throw UsageError("this Transformer has no decoder: use --block encoder_self");
                o.layer = o.layer.value_or(1);
                if (*o.layer < 1 || *o.layer > layers)
                    throw UsageError("--layer " + std::to_string(*o.layer) + " is out of range: the " + (o.block == Block::EncoderSelf ? "encoder" : "decoder")
                                     + " has layers 1 to " + std::to_string(layers));
            }
            if (((o.block && *o.block != Block::EncoderSelf) || o.stage == "decoder_output" || o.stage == "logits" || o.stage == "probabilities") && !decoder)
                throw UsageError("this Transformer has no decoder (give --source/--target or a --model)");
        }
        const int heads = o.trace.request.config.heads;
        if (isPerHeadStage(o.stage)) {
            if (o.head && (*o.head < 1 || *o.head > heads))
                throw UsageError("--head " + std::to_string(*o.head) + " is out of range: heads are numbered from 1 to "
                                 + std::to_string(heads));
            o.head = o.head.value_or(1);
        } else if (o.head) {
            throw UsageError("stage '" + o.stage + "' is the same for every head; drop --head");
        }
        if (!output || output->empty())
            throw UsageError("export needs --output FILE");
        if (*output == "-")
            throw UsageError("export writes a file, not standard output: give --output FILE");
        o.output = *output;
        const std::string suffix = suffixOf(o.output);
        if (format) {
            if (isExportFormat(suffix) && suffix != *format)
                throw UsageError("--format " + *format + " does not match the output file '" + o.output + "'");
            o.format = *format;
        } else if (isExportFormat(suffix)) {
            o.format = suffix;
        } else {
            throw UsageError("cannot tell the format of '" + o.output + "': give --format png|svg|pdf|csv or a file name ending in one of them");
        }
    }

    if (o.format == "png") {
        ExportOptions e;
        e.format = ImageFormat::Png;
        e.dpi = o.dpi;
        e.width = o.width;
        e.height = o.height;
        if (const QString p = e.problem(); !p.isEmpty())
            throw UsageError(p.toStdString());
    }
    return o;
}

std::string exportOptionsHelp()
{
    return R"(Options of export (with every option of trace under Input, Model and Weights):
  --stage ID             the stage to draw, one of: embedding, positional_encoding, input, q, k,
                         v, scores, scaled, mask, masked_scores, weights, head_output, concat, output
  --head H               the head of a per-head stage, counted from 1 as in the studio
  --layer N              a Transformer's layer, counted from 1 (default 1)
  --block B              encoder_self (default) | decoder_self | cross: the attention block of
                         a layer's stage; for embedding/positional_encoding/input the side
                         (1..heads, default 1; the trace JSON counts heads from 0)
  --format F             png | svg | pdf | csv (default: the output's suffix; png for --all).
                         SVG and PDF keep text as text; csv writes the numbers (UTF-8 with BOM)
  --dpi N                PNG resolution, 48..1200 (default 150): the PNG is width*N/96 pixels wide
  --width W, --height H  plot size in pixels at 96 dpi, 50..10000 (default 1200 x 900)
  --output FILE, -o FILE the file to write (one stage)
  --all                  every stage and head, numbered by position in the trace
                         (01_embedding.png, ..., 04_q_head1.png, ...), each with a .csv
                         (with --format csv only the .csv files)
  --output-dir DIR       where --all writes; created when missing (its parent must exist)
)";
}

} // namespace attnlab::cli
