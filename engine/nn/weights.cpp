#include "nn/weights.h"

#include "io/fileio.h"
#include "io/messages.h"
#include "nn/messages.h"
#include "core/random.h"
#include "io/tensor_eigen.h"
#include "text/printable.h"

#include <charconv>
#include <cmath>
#include <set>

namespace attnlab {

namespace {

using detail::expectShape;
using detail::findTensor;
using detail::fromMatrix;
using detail::fromVector;
using detail::shapeText;
using detail::toMatrix;
using detail::toVector;

constexpr const char* kInWeight = "in_proj_weight";
constexpr const char* kInBias = "in_proj_bias";
constexpr const char* kOutWeight = "out_proj.weight";
constexpr const char* kOutBias = "out_proj.bias";

/// A (rows x cols) matrix filled row-major from a named seeded stream, uniform in [-bound, bound).
Eigen::MatrixXf seededMatrix(const char* name, int rows, int cols, double bound, std::uint64_t seed)
{
    SplitMix64 rng = stream(name, seed);
    const auto a = static_cast<float>(bound);
    Eigen::MatrixXf m(rows, cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            m(r, c) = rng.symmetric(a);
    }
    return m;
}

/// The prefixes under which `file` holds an in_proj_weight.
std::set<std::string> attentionPrefixes(const TensorFile& file)
{
    std::set<std::string> out;
    const std::string suffix = kInWeight;
    for (const auto& [name, t] : file.tensors) {
        if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.insert(name.substr(0, name.size() - suffix.size()));
    }
    return out;
}

} // namespace

AttentionWeights presetWeights(WeightsPreset preset, int dModel, std::uint64_t seed)
{
    AttentionWeights w;
    const int d = dModel;
    w.inProjBias = Eigen::VectorXf::Zero(3 * d);
    w.outProjBias = Eigen::VectorXf::Zero(d);
    switch (preset) {
    case WeightsPreset::Identity:
        w.inProjWeight.resize(3 * d, d);
        for (int i = 0; i < 3; ++i)
            w.inProjWeight.middleRows(i * d, d).setIdentity();
        w.outProjWeight = Eigen::MatrixXf::Identity(d, d);
        w.source = "identity";
        break;
    case WeightsPreset::Seeded:
        // PyTorch: xavier_uniform_(in_proj_weight) with fan_in = d, fan_out = 3d, and
        // out_proj keeps nn.Linear's default, kaiming_uniform_(a = sqrt 5) = U(-1/sqrt d, 1/sqrt d).
        w.inProjWeight = seededMatrix("#in_proj_weight", 3 * d, d, std::sqrt(6.0 / (d + 3.0 * d)), seed);
        w.outProjWeight = seededMatrix("#out_proj.weight", d, d, 1.0 / std::sqrt(static_cast<double>(d)), seed);
        w.source = "seeded";
        break;
    }
    return w;
}

namespace {

/// The prefix of the one attention block in `file` ("" or "self_attn."). Throws FormatError
/// when there is none (naming separate q/k/v projections, which are not supported) or several.
std::string onlyAttentionPrefix(const TensorFile& file)
{
    const auto prefixes = attentionPrefixes(file);
    if (prefixes.empty()) {
        for (const char* separate : {"q_proj_weight", "k_proj_weight", "v_proj_weight"}) {
            for (const auto& [name, t] : file.tensors) {
                if (name.ends_with(separate))
                    throw FormatError(say(nnMessage("weights_separate_qkv"), printable(name)));
            }
        }
        throw FormatError(say(nnMessage("weights_none")));
    }
    if (prefixes.size() > 1) {
        std::string list;
        for (const auto& q : prefixes)
            list += (list.empty() ? "'" : ", '") + printable(q) + "'";
        throw FormatError(say(nnMessage("weights_several_blocks"), list));
    }
    return *prefixes.begin();
}

} // namespace

AttentionWeights attentionWeightsFromTensors(const TensorFile& file, const std::optional<std::string>& prefix)
{
    const std::string p = prefix ? *prefix : onlyAttentionPrefix(file);
    const std::string inW = p + kInWeight;
    const Tensor* in = findTensor(file, inW);
    if (!in)
        throw FormatError(say(nnMessage("weights_missing_in_proj"), printable(inW)));
    if (in->shape.size() != 2 || in->shape[1] < 1 || in->shape[0] != 3 * in->shape[1])
        throw FormatError(say(nnMessage("weights_in_proj_shape"), printable(inW), shapeText(in->shape)));
    const std::int64_t d = in->shape[1];
    if (d > ConfigLimits::maxDModel)
        throw FormatError(say(nnMessage("weights_d_model"), printable(inW), d, ConfigLimits::maxDModel));

    AttentionWeights w;
    w.inProjWeight = toMatrix(*in);
    const std::string inB = p + kInBias;
    if (const Tensor* t = findTensor(file, inB)) {
        expectShape(inB, *t, {3 * d});
        w.inProjBias = toVector(*t);
    } else {
        w.inProjBias = Eigen::VectorXf::Zero(3 * d); // bias=False in PyTorch
    }
    const std::string outW = p + kOutWeight;
    const Tensor* out = findTensor(file, outW);
    if (!out)
        throw FormatError(say(nnMessage("weights_missing_out_proj"), printable(outW), d, d));
    expectShape(outW, *out, {d, d});
    w.outProjWeight = toMatrix(*out);
    const std::string outB = p + kOutBias;
    if (const Tensor* t = findTensor(file, outB)) {
        expectShape(outB, *t, {d});
        w.outProjBias = toVector(*t);
    } else {
        w.outProjBias = Eigen::VectorXf::Zero(d);
    }

    for (const auto* m : {&w.inProjWeight, &w.outProjWeight}) {
        if (!m->allFinite())
            throw FormatError(say(nnMessage("weights_not_finite")));
    }
    if (!w.inProjBias.allFinite() || !w.outProjBias.allFinite())
        throw FormatError(say(nnMessage("biases_not_finite")));

    // The head count Attention Lab's export stores: a value that is not one is refused, never
    // passed over (the heads would then silently come from the settings instead).
    if (const auto it = file.metadata.find("num_heads"); it != file.metadata.end()) {
        const std::string& text = it->second;
        int h = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), h);
        if (ec != std::errc() || end != text.data() + text.size() || h < 1 || h > ConfigLimits::maxHeads || d % h != 0)
            throw FormatError(say(nnMessage("weights_num_heads"), printable(text.substr(0, 40)), ConfigLimits::maxHeads, d));
        w.heads = h;
    }
    return w;
}

AttentionWeights loadAttentionWeights(const std::string& path, const std::optional<std::string>& prefix)
{
    try {
        AttentionWeights w = attentionWeightsFromTensors(readSafetensors(path), prefix);
        w.source = "file:" + path;
        return w;
    } catch (const FormatError& e) {
        // Name the file once: the reader's own messages may name it already.
        if (std::string(e.what()).find(inQuotes(path)) != std::string::npos)
            throw;
        throw FormatError(sayAbout(ioMessage("in_file"), e.message(), printable(path)));
    }
}

TensorFile attentionWeightsToTensors(const AttentionWeights& w, int heads)
{
    TensorFile f;
    f.tensors[kInWeight] = fromMatrix(w.inProjWeight);
    f.tensors[kInBias] = fromVector(w.inProjBias);
    f.tensors[kOutWeight] = fromMatrix(w.outProjWeight);
    f.tensors[kOutBias] = fromVector(w.outProjBias);
    f.metadata["format"] = "attention-lab.weights";
    f.metadata["num_heads"] = std::to_string(heads);
    return f;
}

void saveAttentionWeights(const AttentionWeights& w, int heads, const std::string& path)
{
    writeSafetensors(path, attentionWeightsToTensors(w, heads)); // refuses NaN or infinite weights
}

} // namespace attnlab
