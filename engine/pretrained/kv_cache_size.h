#pragma once
// What generation keeps in memory (issue 31 §3, issue 32 §5): for every token already read, each
// layer keeps its key and its value — head_dim numbers for each key/value head — so that the next
// token's queries need not recompute them. Grouped-query attention shrinks that by sharing one
// key/value head among several query heads; multi-query attention keeps a single one.

#include "pretrained/hf_config.h"

#include <cstdint>

namespace attnlab {

struct KvCacheShape {
    int layers = 0;
    int heads = 0;   ///< query heads
    int kvHeads = 0; ///< key/value heads: = heads (multi-head), fewer (grouped-query), 1 (multi-query)
    int headDim = 0;

    /// 2 · layers · kv · head_dim · bytesPerValue: the bytes one token adds to a cache with `kv`
    /// key/value heads per layer.
    std::int64_t bytesPerToken(int kv, int bytesPerValue) const;
};

/// The cache's shape for a model's config: num_key_value_heads and head_dim where given
/// (Llama, Qwen), else as many key/value heads as query heads and d_model / heads (GPT-2).
KvCacheShape kvCacheShape(const HfConfig& config);

} // namespace attnlab
