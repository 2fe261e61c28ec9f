#include "options.h"

#include "fileio.h"

#include <charconv>
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

TraceOptions parseTraceOptions(const std::vector<std::string>& args)
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

    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            return args[++i];
        };
        if (a == "--sentence") {
            o.request.sentence = value();
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

} // namespace attnlab::cli
