// Bare PyTorch state dicts of nn.Transformer's modules, read as models (state_dict.h).

#include "model/state_dict.h"

#include "io/fileio.h"
#include "io/tensor_reader.h"
#include "model/messages.h"
#include "text/printable.h"

#include <charconv>
#include <map>
#include <regex>

namespace attnlab {

namespace {

/// Which module's state dict a file holds, from its names.
enum class Layout {
    Layer,       ///< nn.TransformerEncoderLayer / DecoderLayer: self_attn.*, linear1.*, norm1.*
    Stack,       ///< nn.TransformerEncoder / Decoder: layers.{i}.*, norm.*
    Transformer, ///< nn.Transformer: encoder.layers.{i}.*, decoder.layers.{i}.*, encoder.norm.*, decoder.norm.*
};

bool hasPrefix(const TensorFile& f, const std::string& prefix)
{
    const auto it = f.tensors.lower_bound(prefix);
    return it != f.tensors.end() && it->first.starts_with(prefix);
}

/// The file's names as nn.Transformer's, and back (for messages that name the user's tensors).
struct Renaming {
    Layout layout = Layout::Transformer;
    std::string stack; ///< "encoder." or "decoder." for a layer or a stack

    std::string toTransformer(const std::string& name) const
    {
        if (layout == Layout::Layer)
            return stack + "layers.0." + name;
        if (layout == Layout::Stack)
            return stack + name;
        return name;
    }
    std::string toUser(const std::string& name) const
    {
        if (layout == Layout::Transformer || !name.starts_with(stack))
            return name;
        const std::string rest = name.substr(stack.size());
        if (layout == Layout::Layer)
            return rest.starts_with("layers.0.") ? rest.substr(9) : rest;
        return rest;
    }
    /// A message with every quoted tensor name written the user's way.
    std::string message(const std::string& text) const
    {
        static const std::regex quoted("'([^']*)'");
        std::string out;
        auto last = text.cbegin();
        for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it) {
            out.append(last, (*it)[0].first);
            out += "'" + toUser((*it)[1].str()) + "'";
            last = (*it)[0].second;
        }
        out.append(last, text.cend());
        return out;
    }
    /// The same for a Message: its text, its arguments and its reasons.
    Message message(Message m) const
    {
        m.text = message(m.text);
        for (std::string& a : m.args)
            a = toUser(a);
        for (Message& r : m.reasons)
            r = message(std::move(r));
        return m;
    }
};

Renaming detectLayout(const TensorFile& f)
{
    Renaming r;
    if (hasPrefix(f, "encoder.layers.") || hasPrefix(f, "decoder.layers.")) {
        r.layout = Layout::Transformer;
    } else if (hasPrefix(f, "layers.")) {
        r.layout = Layout::Stack;
        r.stack = hasPrefix(f, "layers.0.multihead_attn.") ? "decoder." : "encoder.";
    } else if (hasPrefix(f, "self_attn.")) {
        r.layout = Layout::Layer;
        r.stack = hasPrefix(f, "multihead_attn.") ? "decoder." : "encoder.";
    } else {
        throw FormatError(say(modelMessage("not_state_dict")));
    }
    return r;
}

/// Layers 0 … N−1 under `prefix` ("encoder.layers."): N is one more than the largest index.
int countLayers(const TensorFile& f, const std::string& prefix)
{
    int count = 0;
    for (auto it = f.tensors.lower_bound(prefix); it != f.tensors.end() && it->first.starts_with(prefix); ++it) {
        const std::string_view rest = std::string_view(it->first).substr(prefix.size());
        int i = 0;
        const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), i);
        if (ec != std::errc() || end == rest.data() + rest.size() || *end != '.' || i < 0 || i >= ConfigLimits::maxLayers)
            throw FormatError(say(modelMessage("state_dict_layer_number"), printable(it->first), ConfigLimits::maxLayers - 1));
        count = std::max(count, i + 1);
    }
    return count;
}

/// d_model and d_ff from the first layer's out_proj and linear1.
void readWidths(const TensorFile& f, const std::string& layer, ModelSpec& o)
{
    const auto* out = detail::findTensor(f, layer + "self_attn.out_proj.weight");
    if (!out)
        throw FormatError(say(modelMessage("state_dict_no_d_model"), layer + "self_attn.out_proj.weight"));
    if (out->shape.size() != 2 || out->shape[0] != out->shape[1] || out->shape[0] < 1 || out->shape[0] > ConfigLimits::maxDModel)
        throw FormatError(say(modelMessage("state_dict_d_model_shape"), layer + "self_attn.out_proj.weight", detail::shapeText(out->shape),
                              ConfigLimits::maxDModel));
    o.dModel = static_cast<int>(out->shape[0]);
    const auto* l1 = detail::findTensor(f, layer + "linear1.weight");
    if (!l1)
        throw FormatError(say(modelMessage("state_dict_no_d_ff"), layer + "linear1.weight"));
    if (l1->shape.size() != 2 || l1->shape[0] < 1 || l1->shape[0] > ConfigLimits::maxDFF)
        throw FormatError(say(modelMessage("state_dict_d_ff_shape"), layer + "linear1.weight", detail::shapeText(l1->shape), ConfigLimits::maxDFF));
    o.dFF = static_cast<int>(l1->shape[0]);
}

} // namespace

bool isAttentionLabModel(const TensorFile& file)
{
    return file.metadata.contains("format");
}

Seq2SeqModel modelFromStateDict(const TensorFile& original, const StateDictOptions& options)
{
    const Renaming names = detectLayout(original);
    TensorFile f;
    for (const auto& [name, t] : original.tensors)
        f.tensors.emplace(names.toTransformer(name), t);
    try {
        Seq2SeqModel m;
        ModelSpec& o = m.spec;
        o.encoderLayers = countLayers(f, "encoder.layers.");
        o.decoderLayers = countLayers(f, "decoder.layers.");
        o.architecture = o.decoderLayers == 0 ? Architecture::EncoderStack : Architecture::EncoderDecoder;
        readWidths(f, o.encoderLayers > 0 ? "encoder.layers.0." : "decoder.layers.0.", o);
        if (options.heads < 1)
            throw FormatError(say(modelMessage("state_dict_no_heads")));
        o.heads = options.heads;
        o.norm = options.norm;
        o.activation = options.activation;
        o.layerNormEps = options.layerNormEps;
        o.finalNorms = hasPrefix(f, o.encoderLayers > 0 ? "encoder.norm." : "decoder.norm.");
        o.seed = options.seed;
        o.positional = options.positional;
        o.embedScale = options.embedScale;
        if (const auto problems = o.problems(); !problems.empty())
            throw FormatError(problems.front());
        std::set<std::string> used;
        detail::TensorReader r(f, "", used);
        m.weights = detail::readTransformerWeights(r, o);
        r.rejectUnknown(detail::expectedTransformerTensors(o));
        m.name = o.decoderLayers == 0 ? "PyTorch encoder" : "PyTorch Transformer";
        m.source = "state-dict";
        return m;
    } catch (const FormatError& e) {
        throw FormatError(names.message(e.message()));
    }
}

} // namespace attnlab
