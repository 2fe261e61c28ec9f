#pragma once
// The attention kind's options (--attention KIND and its settings), shared by trace, export and cost.

#include "core/config.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::cli {

/// What the command line said about the attention kind and the options of kinds and schemes.
struct AttentionGiven {
    std::optional<AttentionKind> kind;
    /// The options' values as given (core/options.h), in their members; the others keep their defaults.
    ModelSpec values;
    std::vector<std::string> given; ///< the options given, as typed ("--window"), to check them against the kind or scheme
};

/// Reads --attention and the options of core/options.h (the kinds' --window, --dilation, --global,
/// --random, --stride, --proj-dim, --features, --buckets, --chunk, --query-block, --key-block; RoPE's
/// --rope-base, relative positions' --max-distance and Transformer-XL's --segment and --memory);
/// false when `a` is not one of them.
/// Throws UsageError for a value that is not a number or a kind.
bool readAttentionOption(const std::string& a, const std::function<const std::string&()>& value, AttentionGiven& g);

/// Puts the kind and its options into `spec`, and the schemes' options given. Throws UsageError
/// for an option the kind or scheme does not read ("--window applies to --attention sliding-window
/// and bigbird, not full").
void applyAttentionOptions(const AttentionGiven& g, ModelSpec& spec);

} // namespace attnlab::cli
