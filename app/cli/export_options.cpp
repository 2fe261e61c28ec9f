// export's own options (--stage, --head, --format, --output, ...) on top of trace's, checked
// against each other before anything is computed.

#include "options.h"

#include "export/exporter.h"
#include "core/trace.h"
#include "families/family.h"
#include "pretrained/model_folder.h"
#include "text/printable.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace attnlab::cli {

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
        if (o.trace.model->pretrained) {
            ids.insert(ids.end(), pretrainedStageIds().begin(), pretrainedStageIds().end());
            // A modern decoder's own stages (gate, up, q/k norms, post-norms) and its RoPE.
            const ModelFamily& family = modelFamily(o.trace.model->pretrained->family());
            ids.insert(ids.end(), family.ownLayerStages.begin(), family.ownLayerStages.end());
            if (family.layerKind == FamilyLayer::Gated)
                ids.insert(ids.end(), {"q_rotated", "k_rotated"});
        }
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
            o.head = parseIntOption(a, value());
        } else if (a == "--layer") {
            o.layer = parseIntOption(a, value());
        } else if (a == "--block") {
            const std::string& v = value();
            o.block = parseBlock(v);
            if (!o.block || *o.block == Block::None)
                throw UsageError("--block must be " + allowed(blockNames()) + ", got " + inQuotes(v));
        } else if (a == "--format") {
            const std::string v = value();
            given.format = lower(v);
            if (!isExportFormat(*given.format))
                throw UsageError("--format must be " + allowed({"png", "svg", "pdf", "csv"}) + ", got " + inQuotes(v));
        } else if (a == "--dpi") {
            o.dpi = parseIntOption(a, value());
        } else if (a == "--width") {
            o.width = parseIntOption(a, value());
            given.width = true;
        } else if (a == "--height") {
            o.height = parseIntOption(a, value());
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
        if (const QString p = e.ruleProblem(); !p.isEmpty())
            throw UsageError(p.toStdString());
        // What the picture will hold, before the trace is computed: refused above the limit,
        // announced when large, in export's own options.
        const bool png = *format == ImageFormat::Png;
        checkWorkCost(e.describe().toStdString(), e.cost(),
                      png ? "use a smaller --width or --height, or a lower --dpi" : "use a smaller --width or --height",
                      o.all ? "for each picture" : "");
    }
    return o;
}

} // namespace attnlab::cli
