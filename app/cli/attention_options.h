#pragma once
// The attention kind's options (--attention KIND and its settings), shared by trace, export and cost.

#include "core/config.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::cli {

/// What the command line said about the attention kind.
struct AttentionGiven {
    std::optional<AttentionKind> kind;
    AttentionOptions options;
    std::vector<std::string> given; ///< the kind options given, as typed ("--window"), to check them against the kind
    std::optional<double> ropeBase; ///< --rope-base: RoPE's B (with --pe rope only)
    std::optional<int> maxDistance; ///< --max-distance: relative positions' K (with --pe relative only)
    std::optional<int> segment;     ///< --segment: Transformer-XL's L (with --pe xl only)
    std::optional<int> memory;      ///< --memory: Transformer-XL's M (with --pe xl only)
};

/// Reads --attention and its options (--window, --dilation, --global, --random, --stride,
/// --proj-dim, --features, --buckets, --chunk, --query-block, --key-block) RoPE's --rope-base, relative positions' --max-distance and Transformer-XL's --segment and --memory; false when `a` is not one of them.
/// Throws UsageError for a value that is not a number or a kind.
bool readAttentionOption(const std::string& a, const std::function<const std::string&()>& value, AttentionGiven& g);

/// Puts the kind and its options into `spec`. Throws UsageError for an option the kind does not
/// read ("--window applies to sliding-window and bigbird attention").
void applyAttentionOptions(const AttentionGiven& g, ModelSpec& spec);

} // namespace attnlab::cli
