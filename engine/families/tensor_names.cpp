#include "families/tensor_names.h"

#include "families/family.h"
#include "families/messages.h"
#include "io/messages.h"
#include "io/tensor_eigen.h"
#include "text/printable.h"

namespace attnlab {

using detail::shapeText;

TensorNames::TensorNames(const MappedSafetensors& file, const std::string& prefix)
    : TensorNames(std::vector<const MappedSafetensors*>{&file}, prefix)
{
}

TensorNames::TensorNames(const std::vector<const MappedSafetensors*>& files, const std::string& prefix)
{
    for (const MappedSafetensors* file : files) {
        for (const auto& [name, entry] : file->tensors()) {
            std::string canonical = name.starts_with(prefix) ? name.substr(prefix.size()) : name;
            // Checkpoints converted from TensorFlow name LayerNorm's γ and β the old way.
            for (const auto& [old, now] : {std::pair{"LayerNorm.gamma", "LayerNorm.weight"}, std::pair{"LayerNorm.beta", "LayerNorm.bias"}}) {
                if (canonical.ends_with(old))
                    canonical = canonical.substr(0, canonical.size() - std::string_view(old).size()) + now;
            }
            const auto [it, added] = m_names.emplace(canonical, Where{file, name});
            if (!added)
                throw FormatError(it->second.file == file
                                      ? say(familiesMessage("tensor_twice"), printable(canonical), printable(it->second.name), printable(name))
                                      : say(familiesMessage("tensor_twice_in"), printable(canonical), printable(it->second.name), printable(name),
                                            printable(file->path())));
        }
    }
}

void TensorNames::ignore(const std::string& name)
{
    if (has(name))
        m_used.insert(name);
}

FloatSpan TensorNames::take(const std::string& name, const std::vector<std::int64_t>& shape)
{
    const auto it = m_names.find(name);
    if (it == m_names.end())
        throw FormatError(say(ioMessage("tensor_missing"), printable(name), shapeText(shape)));
    const TensorEntry& entry = this->entry(it->second);
    if (entry.shape != shape)
        throw FormatError(say(ioMessage("tensor_shape"), printable(name), shapeText(entry.shape), shapeText(shape)));
    if (entry.dtype != "F32" && entry.dtype != "F16" && entry.dtype != "BF16")
        throw FormatError(say(familiesMessage("tensor_dtype_read"), printable(name), entry.dtype));
    m_used.insert(name);
    return it->second.file->floats(it->second.name);
}

Eigen::VectorXf TensorNames::vector(const std::string& name, std::int64_t size)
{
    const FloatSpan s = take(name, {size});
    return Eigen::Map<const Eigen::VectorXf>(s.data, size);
}

LayerNormWeights TensorNames::norm(const std::string& name, std::int64_t d)
{
    return {vector(name + ".weight", d), vector(name + ".bias", d)};
}

LinearLayer TensorNames::linear(const std::string& name, std::int64_t in, std::int64_t out, bool inOut, bool bias)
{
    LinearLayer l;
    l.in = in;
    l.out = out;
    l.inOut = inOut;
    l.weight = take(name + ".weight", inOut ? std::vector<std::int64_t>{in, out} : std::vector<std::int64_t>{out, in});
    if (bias)
        l.bias = vector(name + ".bias", out);
    return l;
}

EmbeddingTable TensorNames::table(const std::string& name, std::int64_t rows, std::int64_t cols)
{
    return {take(name, {rows, cols}), rows, cols};
}

std::string TensorNames::dtype(const std::string& name) const
{
    const auto it = m_names.find(name);
    return it == m_names.end() ? std::string() : entry(it->second).dtype;
}

void TensorNames::rejectUnknown(const std::string& expected) const
{
    for (const auto& [name, actual] : m_names) {
        if (!m_used.contains(name))
            throw FormatError(sayAbout(ioMessage("tensor_unknown"), Message{{}, {}, expected}, printable(name), shapeText(entry(actual).shape)));
    }
}

PretrainedLayer readLayer(TensorNames& r, const LayerTensorNames& names, int i, const HfConfig& c, NormPlacement placement)
{
    const std::int64_t d = c.dModel;
    const std::int64_t ff = c.dFF;
    const std::string p = names.layerPrefix + std::to_string(i) + ".";
    const bool io = names.inOut;
    PretrainedLayer l;
    const auto attention = [&] {
        if (*names.qkv) {
            l.attention.qkv = r.linear(p + names.qkv, d, 3 * d, io);
        } else {
            l.attention.q = r.linear(p + names.q, d, d, io);
            l.attention.k = r.linear(p + names.k, d, d, io);
            l.attention.v = r.linear(p + names.v, d, d, io);
        }
        l.attention.output = r.linear(p + names.attentionOutput, d, d, io);
    };
    const auto ffn = [&] {
        l.up = r.linear(p + names.up, d, ff, io);
        l.down = r.linear(p + names.down, ff, d, io);
    };
    if (placement == NormPlacement::Pre) {
        l.norm1 = r.norm(p + names.norm1, d);
        attention();
        l.norm2 = r.norm(p + names.norm2, d);
        ffn();
    } else {
        attention();
        l.norm1 = r.norm(p + names.norm1, d);
        ffn();
        l.norm2 = r.norm(p + names.norm2, d);
    }
    return l;
}

} // namespace attnlab
