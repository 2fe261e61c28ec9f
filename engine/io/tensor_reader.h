#pragma once
/// Internal to the engine: reading a PyTorch state dict from a safetensors TensorFile by
/// parameter names, with named errors, and noting which tensors were read so that anything
/// left over can be reported as unknown.

#include "io/messages.h"
#include "io/tensor_eigen.h"
#include "nn/transformer.h"
#include "text/printable.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace attnlab::detail {

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

    /// Throws FormatError for the first tensor under the prefix that was not read; `expected`
    /// (English, shown as it is) says what the tensors may be.
    void rejectUnknown(const std::string& expected) const
    {
        for (const auto& [name, t] : m_file.tensors) {
            if (name.starts_with(m_prefix) && !m_used.contains(name))
                throw FormatError(sayAbout(ioMessage("tensor_unknown"), Message{{}, {}, expected}, printable(name), shapeText(t.shape)));
        }
    }

private:
    const Tensor& require(const std::string& name, const std::vector<std::int64_t>& shape)
    {
        const std::string full = m_prefix + name;
        const Tensor* t = findTensor(m_file, full);
        if (!t)
            throw FormatError(say(ioMessage("tensor_missing"), printable(full), shapeText(shape)));
        expectShape(full, *t, shape);
        for (const float v : t->values) {
            if (!std::isfinite(v))
                throw FormatError(say(ioMessage("tensor_not_finite"), printable(full)));
        }
        m_used.insert(full);
        return *t;
    }

    const TensorFile& m_file;
    std::string m_prefix;
    std::set<std::string>& m_used;
};

/// encoder.layers.{i}.*, decoder.layers.{i}.*, encoder.norm.*, decoder.norm.* as the options
/// say (validated by the caller).
TransformerWeights readTransformerWeights(TensorReader& r, const ModelSpec& o);
/// The unknown-tensor message's explanation for these options.
std::string expectedTransformerTensors(const ModelSpec& o);

} // namespace attnlab::detail
