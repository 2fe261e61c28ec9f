#pragma once
/// Attention masks (docs/engine.md, section 7): which keys each query may not see.

#include "core/config.h"

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// n x n, true = key j is hidden from query i (PyTorch's boolean attn_mask convention).
using BoolMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;
/// One flag per key, true = the key is padding (PyTorch's boolean key_padding_mask).
using BoolVector = Eigen::Matrix<bool, Eigen::Dynamic, 1>;

/// The blocked cells for a mask kind. `custom` is required (n x n) for MaskKind::Custom and
/// ignored otherwise. Throws std::invalid_argument when the custom mask is missing or its size
/// differs from the token count.
BoolMatrix blockedCells(MaskKind kind, const std::vector<std::string>& tokens, const std::optional<BoolMatrix>& custom);

/// The blocked cells (queries x keys) of an attention block as PyTorch combines its two masks:
/// cell (i, j) is masked when attnMask(i, j) is true or key j is padding (keyPadding(j) true).
/// Either may be absent. `maskName` and `paddingName` ("tgt_mask", "tgt_key_padding") name them
/// in the std::invalid_argument thrown when a size differs from queries x keys or keys.
BoolMatrix combineMasks(Eigen::Index queries, Eigen::Index keys, const std::optional<BoolMatrix>& attnMask,
                        const std::optional<BoolVector>& keyPadding, std::string_view maskName = "attn_mask",
                        std::string_view paddingName = "key_padding_mask");

/// The look-ahead mask of n tokens: key j is hidden from query i when j > i.
BoolMatrix causalMask(Eigen::Index n);

// --- A whole Transformer's masks, as PyTorch's arguments (docs/transformer-layers.md) ---
// A model run's mask kind becomes nn.Transformer's src_mask and src_key_padding_mask (the
// encoder's self-attention) and memory_key_padding_mask (every decoder layer's
// cross-attention); the decoder's self-attention keeps its causal tgt_mask.

/// src_mask for a mask kind: the causal mask of n tokens for causal and causal+padding, else
/// nothing. Throws std::invalid_argument for a custom mask (one attention block only).
std::optional<BoolMatrix> sourceAttentionMask(MaskKind kind, Eigen::Index n);
/// src_key_padding_mask and memory_key_padding_mask for a mask kind: true for each <pad> token
/// with padding and causal+padding, else nothing. Throws std::invalid_argument for a custom mask.
std::optional<BoolVector> keyPaddingMask(MaskKind kind, const std::vector<std::string>& tokens);

/// The additive mask M: 0 where allowed, -infinity where blocked.
Eigen::MatrixXf additiveMask(const BoolMatrix& blocked);

/// Parses a mask file: n lines of n values 0 or 1 (spaces or commas between), '#' comments,
/// blank lines ignored, a byte-order mark at the start skipped. Throws std::invalid_argument
/// naming the line, the byte and what is wrong.
BoolMatrix parseMaskText(std::string_view text);
/// The largest mask file read (a 1024-token mask is about 2 MB): the command line and the studio
/// refuse a larger one before reading it.
inline constexpr std::uint64_t kMaxMaskFileBytes = 64ULL * 1024 * 1024;

} // namespace attnlab
