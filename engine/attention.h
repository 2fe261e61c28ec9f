#pragma once
/// Multi-head self-attention, computed stage by stage (docs/engine.md, section 6).
///
///   X = E·s + P                                   (n x d)
///   Q_h, K_h, V_h = columns of X·W_Qᵀ + b_Q, ...  (n x d_k)
///   A_h = softmax(Q_h·K_hᵀ / √d_k + M)            (n x n)
///   Z_h = A_h·V_h                                 (n x d_k)
///   O = [Z_0 | ... | Z_{h-1}]·W_Oᵀ + b_O          (n x d)

#include "config.h"
#include "mask.h"
#include "trace.h"
#include "weights.h"

#include <memory>
#include <optional>
#include <string>

namespace attnlab {

struct Request {
    std::string sentence;
    Config config;
    /// Imported or cached weights; when null, made from config.weightsPreset (slower: the
    /// UI keeps them and recomputes only when d_model, seed or preset change).
    std::shared_ptr<const AttentionWeights> weights;
    /// Required when config.mask is MaskKind::Custom: n x n, true = masked.
    std::optional<BoolMatrix> customMask;
};

/// Computes every stage. Throws std::invalid_argument for a bad request (invalid config, no
/// tokens, weights of another width, a custom mask of the wrong size, a trace too large);
/// numeric events such as a fully masked row are warnings in the trace.
Trace computeTrace(const Request& request);

/// Row softmax of `scores`: exp(x - rowmax) / sum. A row whose entries are all -inf gets
/// all-zero weights and its index is appended to `emptyRows`.
Eigen::MatrixXf rowSoftmax(const Eigen::MatrixXf& scores, std::vector<Eigen::Index>* emptyRows = nullptr);

} // namespace attnlab
