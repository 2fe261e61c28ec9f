// Qwen3 (model_type "qwen3"): the gated decoder of families/gated.h with an RMSNorm over head_dim
// on each query and key head before RoPE (q_norm, k_norm); head_dim is its own key (128 for a
// 1024-wide model with 16 heads).

#include "families/gated.h"

#include "families/config_reader.h"

namespace attnlab {

namespace {

void readConfig(const ConfigReader& r, HfConfig& c)
{
    readGatedConfig(r, c);
    c.qkNorm = true;
}

} // namespace

extern const ModelFamily kQwen3Family = gatedFamily(
    PretrainedFamily::Qwen3, "qwen3", "Qwen3", readConfig,
    {{"use_sliding_window", "false", "Attention Lab does not compute Qwen3's sliding-window attention"}}, {"q_norm", "k_norm"});

} // namespace attnlab
