#include "pretrained/kv_cache_size.h"

namespace attnlab {

std::int64_t KvCacheShape::bytesPerToken(int kv, int bytesPerValue) const
{
    return std::int64_t{2} * layers * kv * headDim * bytesPerValue;
}

KvCacheShape kvCacheShape(const HfConfig& config)
{
    KvCacheShape shape;
    shape.layers = config.layers;
    shape.heads = config.heads;
    shape.kvHeads = config.kvHeads > 0 ? config.kvHeads : config.heads;
    shape.headDim = config.headDim > 0 ? config.headDim : (config.heads > 0 ? config.dModel / config.heads : 0);
    return shape;
}

} // namespace attnlab
