// Loading encoder/decoder layer weights from a PyTorch state dict in safetensors, by the names
// nn.TransformerEncoderLayer, nn.TransformerDecoderLayer and nn.Transformer give them.

#include "tensor_eigen.h"
#include "transformer.h"

#include <cmath>
#include <set>

namespace attnlab {

namespace {

using detail::expectShape;
using detail::findTensor;
using detail::shapeText;
using detail::toMatrix;
using detail::toVector;

/// Reads the tensors under one prefix, recording in `used` which it read, so that whatever is
/// left over can be reported as unknown.
class TensorReader {
public:
    TensorReader(const TensorFile& file, std::string prefix, std::set<std::string>& used)
        : m_file(file)
        , m_prefix(std::move(prefix))
        , m_used(used)
    {
    }

    /// A required weight matrix [rows, cols].
    Eigen::MatrixXf matrix(const std::string& name, std::int64_t rows, std::int64_t cols)
    {
        return toMatrix(require(name, {rows, cols}));
    }

    /// A required vector [size] (LayerNorm's weight).
    Eigen::VectorXf vector(const std::string& name, std::int64_t size) { return toVector(require(name, {size})); }

    /// A bias [size], 0 when absent (PyTorch's bias=False).
    Eigen::VectorXf bias(const std::string& name, std::int64_t size)
    {
        if (!findTensor(m_file, m_prefix + name))
            return Eigen::VectorXf::Zero(size);
        return vector(name, size);
    }

    /// An nn.MultiheadAttention under `name` ("self_attn."), read by the attention loader.
    AttentionWeights attention(const std::string& name, std::int64_t d)
    {
        // Checked here first for a message with the expected shape in numbers, not "[3d, d]".
        require(name + "in_proj_weight", {3 * d, d});
        AttentionWeights w = attentionWeightsFromTensors(m_file, m_prefix + name);
        for (const char* part : {"in_proj_bias", "out_proj.weight", "out_proj.bias"})
            m_used.insert(m_prefix + name + part);
        return w;
    }

    LayerNormWeights norm(const std::string& name, std::int64_t d)
    {
        LayerNormWeights w;
        w.gamma = vector(name + "weight", d);
        w.beta = bias(name + "bias", d);
        return w;
    }

    FeedForwardWeights feedForward(std::int64_t d, std::int64_t dFF)
    {
        FeedForwardWeights w;
        w.linear1Weight = matrix("linear1.weight", dFF, d);
        w.linear1Bias = bias("linear1.bias", dFF);
        w.linear2Weight = matrix("linear2.weight", d, dFF);
        w.linear2Bias = bias("linear2.bias", d);
        return w;
    }

    /// A reader for the tensors under prefix + `sub`, recording into the same set.
    TensorReader under(const std::string& sub) const { return TensorReader(m_file, m_prefix + sub, m_used); }

    /// Throws FormatError for the first tensor under the prefix that was not read.
    void rejectUnknown(const std::string& expected) const
    {
        for (const auto& [name, t] : m_file.tensors) {
            if (name.starts_with(m_prefix) && !m_used.contains(name))
                throw FormatError("unknown tensor '" + name + "' " + shapeText(t.shape) + ": " + expected);
        }
    }

private:
    const Tensor& require(const std::string& name, const std::vector<std::int64_t>& shape)
    {
        const std::string full = m_prefix + name;
        const Tensor* t = findTensor(m_file, full);
        if (!t)
            throw FormatError("missing tensor '" + full + "' " + shapeText(shape));
        expectShape(full, *t, shape);
        for (const float v : t->values) {
            if (!std::isfinite(v))
                throw FormatError("tensor '" + full + "' holds non-finite values (inf or NaN)");
        }
        m_used.insert(full);
        return *t;
    }

    const TensorFile& m_file;
    std::string m_prefix;
    std::set<std::string>& m_used;
};

EncoderLayerWeights readEncoderLayer(TensorReader& r, const TransformerOptions& o)
{
    EncoderLayerWeights w;
    w.selfAttn = r.attention("self_attn.", o.dModel);
    w.ffn = r.feedForward(o.dModel, o.dFF);
    w.norm1 = r.norm("norm1.", o.dModel);
    w.norm2 = r.norm("norm2.", o.dModel);
    return w;
}

DecoderLayerWeights readDecoderLayer(TensorReader& r, const TransformerOptions& o)
{
    DecoderLayerWeights w;
    w.selfAttn = r.attention("self_attn.", o.dModel);
    w.crossAttn = r.attention("multihead_attn.", o.dModel);
    w.ffn = r.feedForward(o.dModel, o.dFF);
    w.norm1 = r.norm("norm1.", o.dModel);
    w.norm2 = r.norm("norm2.", o.dModel);
    w.norm3 = r.norm("norm3.", o.dModel);
    return w;
}

/// "d_model 16, d_ff 32": what the options make the shapes, for the unknown-tensor message.
std::string widths(const TransformerOptions& o)
{
    return "d_model " + std::to_string(o.dModel) + ", d_ff " + std::to_string(o.dFF);
}

/// The options are checked first: the expected shapes are computed from them.
void validateForLoading(const TransformerOptions& o)
{
    try {
        o.validate();
    } catch (const std::invalid_argument& e) {
        throw FormatError(std::string("cannot read the weights with these options: ") + e.what());
    }
}

} // namespace

EncoderLayerWeights encoderLayerWeightsFromTensors(const TensorFile& file, const TransformerOptions& options, const std::string& prefix)
{
    validateForLoading(options);
    std::set<std::string> used;
    TensorReader r(file, prefix, used);
    EncoderLayerWeights w = readEncoderLayer(r, options);
    r.rejectUnknown("not part of an encoder layer (self_attn.*, linear1.*, linear2.*, norm1.*, norm2.*)");
    return w;
}

DecoderLayerWeights decoderLayerWeightsFromTensors(const TensorFile& file, const TransformerOptions& options, const std::string& prefix)
{
    validateForLoading(options);
    std::set<std::string> used;
    TensorReader r(file, prefix, used);
    DecoderLayerWeights w = readDecoderLayer(r, options);
    r.rejectUnknown("not part of a decoder layer (self_attn.*, multihead_attn.*, linear1.*, linear2.*, norm1.*, norm2.*, norm3.*)");
    return w;
}

TransformerWeights transformerWeightsFromTensors(const TensorFile& file, const TransformerOptions& options, const std::string& prefix)
{
    const TransformerOptions& o = options;
    validateForLoading(o);
    std::set<std::string> used;
    TensorReader r(file, prefix, used);
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
    r.rejectUnknown("not expected with " + std::to_string(o.encoderLayers) + " encoder and " + std::to_string(o.decoderLayers)
                    + " decoder layers, " + widths(o) + (o.finalNorms ? ", final norms" : ", no final norms"));
    return w;
}

TransformerWeights loadTransformerWeights(const std::string& path, const TransformerOptions& options, const std::string& prefix)
{
    try {
        TransformerWeights w = transformerWeightsFromTensors(readSafetensors(path), options, prefix);
        w.source = "file:" + path;
        return w;
    } catch (const FormatError& e) {
        const std::string what = e.what();
        if (what.starts_with("'" + path + "'"))
            throw;
        throw FormatError("'" + path + "': " + what);
    }
}

} // namespace attnlab
