#pragma once
/// The projection weights of one multi-head attention block, in PyTorch's
/// nn.MultiheadAttention layout (docs/engine.md, section 5).

#include "core/config.h"
#include "io/safetensors.h"

#include <Eigen/Core>

#include <optional>
#include <string>

namespace attnlab {

struct AttentionWeights {
    /// in_proj_weight (3d x d): rows [0, d) are W_Q, [d, 2d) W_K, [2d, 3d) W_V.
    /// Q = X * W_Q^T + b_Q, exactly as torch.nn.functional.linear.
    Eigen::MatrixXf inProjWeight;
    /// in_proj_bias (3d).
    Eigen::VectorXf inProjBias;
    /// out_proj.weight (d x d) and out_proj.bias (d): O = C * W_O^T + b_O.
    Eigen::MatrixXf outProjWeight;
    Eigen::VectorXf outProjBias;
    /// The head count stored with the weights (Attention Lab's export writes it), if any.
    std::optional<int> heads;
    /// Where the weights came from, for the trace: "seeded", "identity" or "file:<path>".
    std::string source;

    int dModel() const { return static_cast<int>(outProjWeight.rows()); }
};

/// Weights made from a preset for a given width and seed.
AttentionWeights presetWeights(WeightsPreset preset, int dModel, std::uint64_t seed);

/// Finds an nn.MultiheadAttention state dict in `file`, with or without a key prefix such as
/// "self_attn.". `prefix` picks one when the file holds several; otherwise it must be unique.
/// Throws FormatError naming the missing or mis-shaped tensor and the shape it should have.
AttentionWeights attentionWeightsFromTensors(const TensorFile& file, const std::optional<std::string>& prefix = {});

/// Reads a safetensors file (see attentionWeightsFromTensors). Throws FormatError.
AttentionWeights loadAttentionWeights(const std::string& path, const std::optional<std::string>& prefix = {});

/// The state dict of `w` (F32, keys without prefix) plus Attention Lab's metadata.
TensorFile attentionWeightsToTensors(const AttentionWeights& w, int heads);

/// Writes `w` as safetensors, crash-safe; weights that are not all finite are not written (FileError,
/// reason non_finite). Throws std::runtime_error.
void saveAttentionWeights(const AttentionWeights& w, int heads, const std::string& path);

} // namespace attnlab
