// Qwen2 (model_type "qwen2": Qwen2.5): the gated decoder of families/gated.h with biases on the
// query, key and value projections (not on the output projection), usually tied embeddings.

#include "families/gated.h"

#include "families/config_reader.h"

namespace attnlab {

namespace {

void readConfig(const ConfigReader& r, HfConfig& c)
{
    readGatedConfig(r, c);
    c.qkvBias = true; // Qwen2Attention: q_proj, k_proj, v_proj with bias=True, o_proj without
    c.outputBias = false;
}

} // namespace

// use_sliding_window: true would hide far keys on the layers from max_window_layers on.
extern const ModelFamily kQwen2Family = gatedFamily(
    PretrainedFamily::Qwen2, "qwen2", "Qwen2", readConfig,
    {{"use_sliding_window", "false", "Attention Lab does not compute Qwen2's sliding-window attention"}});

} // namespace attnlab
