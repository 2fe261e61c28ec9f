// Loading encoder/decoder layer weights from a PyTorch state dict in safetensors, by the names
// nn.TransformerEncoderLayer, nn.TransformerDecoderLayer and nn.Transformer give them.

#include "io/messages.h"
#include "io/tensor_reader.h"
#include "model/messages.h"
#include "nn/transformer.h"

namespace attnlab {

namespace {

using detail::TensorReader;

EncoderLayerWeights readEncoderLayer(TensorReader& r, const ModelSpec& o)
{
    EncoderLayerWeights w;
    w.selfAttn = r.attention("self_attn.", o.dModel);
    w.ffn = r.feedForward(o.dModel, o.feedForwardWidth());
    w.norm1 = r.norm("norm1.", o.dModel);
    w.norm2 = r.norm("norm2.", o.dModel);
    return w;
}

DecoderLayerWeights readDecoderLayer(TensorReader& r, const ModelSpec& o)
{
    DecoderLayerWeights w;
    w.selfAttn = r.attention("self_attn.", o.dModel);
    w.crossAttn = r.attention("multihead_attn.", o.dModel);
    w.ffn = r.feedForward(o.dModel, o.feedForwardWidth());
    w.norm1 = r.norm("norm1.", o.dModel);
    w.norm2 = r.norm("norm2.", o.dModel);
    w.norm3 = r.norm("norm3.", o.dModel);
    return w;
}

/// "d_model 16, d_ff 32": what the options make the shapes, for the unknown-tensor message.
std::string widths(const ModelSpec& o)
{
    return "d_model " + std::to_string(o.dModel) + ", d_ff " + std::to_string(o.feedForwardWidth());
}

/// The options are checked first: the expected shapes are computed from them.
void validateForLoading(const ModelSpec& o)
{
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw FormatError(sayAbout(modelMessage("weights_options"), messageOf(e)));
    }
}

} // namespace

EncoderLayerWeights encoderLayerWeightsFromTensors(const TensorFile& file, const ModelSpec& spec, const std::string& prefix)
{
    validateForLoading(spec);
    std::set<std::string> used;
    TensorReader r(file, prefix, used);
    EncoderLayerWeights w = readEncoderLayer(r, spec);
    r.rejectUnknown("not part of an encoder layer (self_attn.*, linear1.*, linear2.*, norm1.*, norm2.*)");
    return w;
}

DecoderLayerWeights decoderLayerWeightsFromTensors(const TensorFile& file, const ModelSpec& spec, const std::string& prefix)
{
    validateForLoading(spec);
    std::set<std::string> used;
    TensorReader r(file, prefix, used);
    DecoderLayerWeights w = readDecoderLayer(r, spec);
    r.rejectUnknown("not part of a decoder layer (self_attn.*, multihead_attn.*, linear1.*, linear2.*, norm1.*, norm2.*, norm3.*)");
    return w;
}

TransformerWeights transformerWeightsFromTensors(const TensorFile& file, const ModelSpec& spec, const std::string& prefix)
{
    validateForLoading(spec);
    std::set<std::string> used;
    TensorReader r(file, prefix, used);
    TransformerWeights w = detail::readTransformerWeights(r, spec);
    r.rejectUnknown(detail::expectedTransformerTensors(spec));
    return w;
}

TransformerWeights detail::readTransformerWeights(TensorReader& r, const ModelSpec& o)
{
    TransformerWeights w;
    for (int i = 0; i < o.encoderLayers; ++i) {
        TensorReader layer = r.under("encoder.layers." + std::to_string(i) + ".");
        w.encoder.push_back(readEncoderLayer(layer, o));
    }
    for (int i = 0; i < o.decoderLayers; ++i) {
        TensorReader layer = r.under("decoder.layers." + std::to_string(i) + ".");
        w.decoder.push_back(readDecoderLayer(layer, o));
    }
    if (o.finalNorms) {
        if (o.encoderLayers > 0)
            w.encoderNorm = r.norm("encoder.norm.", o.dModel);
        if (o.decoderLayers > 0)
            w.decoderNorm = r.norm("decoder.norm.", o.dModel);
    }
    return w;
}

std::string detail::expectedTransformerTensors(const ModelSpec& o)
{
    return "not expected with " + std::to_string(o.encoderLayers) + " encoder and " + std::to_string(o.decoderLayers)
        + " decoder layers, " + widths(o) + (o.finalNorms ? ", final norms" : ", no final norms");
}

TransformerWeights loadTransformerWeights(const std::string& path, const ModelSpec& spec, const std::string& prefix)
{
    try {
        TransformerWeights w = transformerWeightsFromTensors(readSafetensors(path), spec, prefix);
        w.source = "file:" + path;
        return w;
    } catch (const FormatError& e) {
        if (std::string_view(e.what()).starts_with("'" + printable(path) + "'"))
            throw;
        throw FormatError(sayAbout(ioMessage("in_file"), e.message(), printable(path)));
    }
}

} // namespace attnlab
