#include "core/model_spec.h"

#include "core/name_table.h"
#include "core/options.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace attnlab {

namespace {

using detail::NameTable;

constexpr NameTable<Architecture, 3> kArchitectureNames{{
    {Architecture::EncoderStack, "encoder"},
    {Architecture::EncoderDecoder, "encoder-decoder"},
    {Architecture::DecoderOnly, "decoder"},
}};

constexpr NameTable<AttentionKind, 9> kAttentionNames{{
    {AttentionKind::Full, "full"},
    {AttentionKind::SlidingWindow, "sliding-window"},
    {AttentionKind::BigBird, "bigbird"},
    {AttentionKind::Strided, "strided"},
    {AttentionKind::Linformer, "linformer"},
    {AttentionKind::Performer, "performer"},
    {AttentionKind::Linear, "linear"},
    {AttentionKind::Lsh, "lsh"},
    {AttentionKind::Flash, "flash"},
}};

constexpr NameTable<PositionalEncoding, 7> kPositionalNames{{
    {PositionalEncoding::Sinusoidal, "sinusoidal"},
    {PositionalEncoding::Learned, "learned"},
    {PositionalEncoding::None, "none"},
    {PositionalEncoding::Rope, "rope"},
    {PositionalEncoding::Alibi, "alibi"},
    {PositionalEncoding::Relative, "relative"},
    {PositionalEncoding::Xl, "xl"},
}};

constexpr NameTable<NormPlacement, 2> kNormNames{{
    {NormPlacement::Post, "post"},
    {NormPlacement::Pre, "pre"},
}};

constexpr NameTable<Activation, 3> kActivationNames{{
    {Activation::Relu, "relu"},
    {Activation::Gelu, "gelu"},
    {Activation::GeluTanh, "gelu-tanh"},
}};

constexpr NameTable<ModelTokenizer, 4> kTokenizerNames{{
    {ModelTokenizer::Words, "words"},
    {ModelTokenizer::Chars, "chars"},
    {ModelTokenizer::Bpe, "gpt2-bpe"},
    {ModelTokenizer::WordPiece, "wordpiece"},
}};

std::string str(long long v)
{
    return std::to_string(v);
}

std::string between(const char* name, long long value, long long lo, long long hi)
{
    return std::string(name) + " (" + str(value) + ") must be between " + str(lo) + " and " + str(hi);
}

/// The rules on the layer counts: "layers" when they are the paper's N (an encoder stack's
/// count, or as many layers in both stacks, as the settings and the command line give it), each
/// stack's count otherwise.
void layerProblems(const ModelSpec& s, std::vector<std::string>& out)
{
    const bool pretrained = s.tokenizer == ModelTokenizer::Bpe || s.tokenizer == ModelTokenizer::WordPiece;
    const int maxLayers = pretrained ? ConfigLimits::maxPretrainedLayers : ConfigLimits::maxLayers;
    const bool encoderStack = s.architecture == Architecture::EncoderStack;
    if (s.architecture == Architecture::DecoderOnly) {
        if (s.decoderLayers < 1 || s.decoderLayers > maxLayers)
            out.push_back(between("layers", s.decoderLayers, 1, maxLayers));
        if (s.encoderLayers != 0)
            out.push_back("a decoder-only model has no encoder layers (encoder_layers is " + str(s.encoderLayers) + ")");
        return;
    }
    if (encoderStack || s.encoderLayers == s.decoderLayers) {
        if (s.encoderLayers < 1 || s.encoderLayers > maxLayers)
            out.push_back(between("layers", s.encoderLayers, 1, maxLayers));
    } else {
        if (s.encoderLayers < 0 || s.encoderLayers > maxLayers)
            out.push_back(between("encoder_layers", s.encoderLayers, 0, maxLayers));
        if (s.decoderLayers < 0 || s.decoderLayers > maxLayers)
            out.push_back(between("decoder_layers", s.decoderLayers, 0, maxLayers));
    }
    if (encoderStack && s.decoderLayers != 0)
        out.push_back("an encoder stack has no decoder layers (decoder_layers is " + str(s.decoderLayers) + ")");
}

/// The rules on the settings of the attention kind in use (the others are not read; core/options.h).
void attentionProblems(const ModelSpec& s, std::vector<std::string>& out)
{
    for (const OptionInfo& o : options()) {
        if (isKindOption(o) && readsOption(s, o))
            optionProblems(s, o, out);
    }
}

/// The rules of the position schemes that act inside attention.
void positionProblems(const ModelSpec& s, std::vector<std::string>& out)
{
    const bool onScores = s.positional == PositionalEncoding::Alibi || s.positional == PositionalEncoding::Relative
                          || s.positional == PositionalEncoding::Xl;
    if (onScores && s.attention != AttentionKind::Full)
        out.push_back(std::string(toString(s.positional)) + " adds a term to every query–key score: it works with full attention, not "
                      + std::string(toString(s.attention)));
    for (const OptionInfo& o : options()) { // rope_base, max_distance, segment, memory (core/options.h)
        if (!isKindOption(o) && readsOption(s, o))
            optionProblems(s, o, out);
    }
    if (s.positional == PositionalEncoding::Rope && s.heads >= 1 && s.dModel % s.heads == 0 && s.dK() % 2 != 0)
        out.push_back("rope rotates the dimensions of each head in pairs: d_k (" + str(s.dK())
                      + ") must be even; choose d_model and heads so that d_model / heads is even");
}

} // namespace

namespace detail {
std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}
} // namespace detail

std::string_view toString(Architecture v) { return detail::nameOf(kArchitectureNames, v); }
std::string_view toString(AttentionKind v) { return detail::nameOf(kAttentionNames, v); }
std::string_view toString(PositionalEncoding v) { return detail::nameOf(kPositionalNames, v); }
std::string_view toString(NormPlacement v) { return detail::nameOf(kNormNames, v); }
std::string_view toString(Activation v) { return detail::nameOf(kActivationNames, v); }
std::string_view toString(ModelTokenizer v) { return detail::nameOf(kTokenizerNames, v); }

std::optional<Architecture> parseArchitecture(std::string_view s) { return detail::valueOf(kArchitectureNames, s); }
std::optional<AttentionKind> parseAttentionKind(std::string_view s) { return detail::valueOf(kAttentionNames, s); }
std::optional<PositionalEncoding> parsePositionalEncoding(std::string_view s) { return detail::valueOf(kPositionalNames, s); }
std::optional<NormPlacement> parseNormPlacement(std::string_view s) { return detail::valueOf(kNormNames, s); }
std::optional<Activation> parseActivation(std::string_view s) { return detail::valueOf(kActivationNames, s); }
std::optional<ModelTokenizer> parseModelTokenizer(std::string_view s) { return detail::valueOf(kTokenizerNames, s); }

void ModelSpec::setLayers(int n)
{
    encoderLayers = architecture == Architecture::DecoderOnly ? 0 : n;
    decoderLayers = architecture == Architecture::EncoderStack ? 0 : n;
}

std::vector<std::string> ModelSpec::problems() const
{
    std::vector<std::string> out;
    if (dModel < 1 || dModel > ConfigLimits::maxDModel)
        out.push_back(between("d_model", dModel, 1, ConfigLimits::maxDModel));
    if (heads < 1 || heads > ConfigLimits::maxHeads)
        out.push_back(between("heads", heads, 1, ConfigLimits::maxHeads));
    else if (dModel >= 1 && dModel % heads != 0)
        out.push_back("d_model (" + str(dModel) + ") must be a multiple of heads (" + str(heads) + ")");
    layerProblems(*this, out);
    attentionProblems(*this, out);
    positionProblems(*this, out);
    if (!(layerNormEps > 0) || !std::isfinite(layerNormEps))
        out.push_back("layer_norm_eps (" + detail::shortNumber(layerNormEps) + ") must be a positive number");
    if (dFF < 0 || dFF > ConfigLimits::maxDFF)
        out.push_back("d_ff (" + str(dFF) + ") must be 0 (4·d_model) or between 1 and " + str(ConfigLimits::maxDFF));
    if (maxTargetLength < 1 || maxTargetLength > kMaxTargetLength)
        out.push_back(between("max_target_length", maxTargetLength, 1, kMaxTargetLength));
    return out;
}

void ModelSpec::validate() const
{
    const auto p = problems();
    if (!p.empty())
        throw std::invalid_argument(p.front());
}

} // namespace attnlab
