#pragma once
/// A checkpoint's tensors under their names without the family's prefix ("transformer.",
/// "bert."), with TensorFlow's old LayerNorm names mapped to new ones; it records which were read
/// so that the rest can be reported as unknown. The families read their tensors with it.

#include "io/mapped_safetensors.h"
#include "pretrained/weights.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace attnlab {

struct LayerTensorNames;

class TensorNames {
public:
    /// Throws FormatError when two names are the same without the prefix.
    TensorNames(const MappedSafetensors& file, const std::string& prefix);
    /// The tensors of every shard of a checkpoint; a name in two shards is refused too.
    TensorNames(const std::vector<const MappedSafetensors*>& files, const std::string& prefix);

    bool has(const std::string& name) const { return m_names.contains(name); }
    /// Marks a tensor the model does not use (a buffer, a head it does not compute) as read.
    void ignore(const std::string& name);
    /// A required tensor of this shape, as float32. Throws FormatError when it is missing, of
    /// another shape, or not F32, F16 or BF16.
    FloatSpan take(const std::string& name, const std::vector<std::int64_t>& shape);
    Eigen::VectorXf vector(const std::string& name, std::int64_t size);
    /// name.weight and name.bias (d each).
    LayerNormWeights norm(const std::string& name, std::int64_t d);
    /// nn.Linear (weight [out, in]) or, with inOut, GPT-2's Conv1D (weight [in, out]), and its
    /// bias (without `bias`: none, and a stored name.bias is left unread, so reported unknown).
    LinearLayer linear(const std::string& name, std::int64_t in, std::int64_t out, bool inOut, bool bias = true);
    EmbeddingTable table(const std::string& name, std::int64_t rows, std::int64_t cols);
    /// The stored dtype of a tensor the checkpoint holds ("BF16"), empty when it has none by that name.
    std::string dtype(const std::string& name) const;
    /// Throws for the first tensor not read: `expected` says what the checkpoint may hold.
    void rejectUnknown(const std::string& expected) const;

private:
    struct Where {
        const MappedSafetensors* file;
        std::string name; ///< in the file
    };
    const TensorEntry& entry(const Where& w) const { return *w.file->find(w.name); }
    std::map<std::string, Where> m_names; ///< canonical name -> where it is
    std::set<std::string> m_used;
};

/// Layer i of a family, its tensors read in the order of its pass (Pre-LN: norm1, attention,
/// norm2, FFN; Post-LN: attention, norm1, FFN, norm2), named by the family's table.
PretrainedLayer readLayer(TensorNames& r, const LayerTensorNames& names, int i, const HfConfig& c, NormPlacement placement);

} // namespace attnlab
