// Llama (model_type "llama": SmolLM2, TinyLlama, Llama 3.x) and Mistral without a sliding window
// ("mistral"): the gated decoder of families/gated.h as it is, RoPE scaling none, linear or llama3.

#include "families/gated.h"

#include "families/config_reader.h"

namespace attnlab {

namespace {

void readConfig(const ConfigReader& r, HfConfig& c)
{
    readGatedConfig(r, c);
}

} // namespace

extern const ModelFamily kLlamaFamily = gatedFamily(PretrainedFamily::Llama, "llama", "Llama", readConfig, {});

// Mistral's sliding window hides keys more than sliding_window positions back; Attention Lab
// opens the Mistral checkpoints that have none (v0.2 on).
extern const ModelFamily kMistralFamily = gatedFamily(
    PretrainedFamily::Mistral, "mistral", "Mistral", readConfig,
    {{"sliding_window", "null", "Attention Lab does not compute Mistral's sliding-window attention"}});

} // namespace attnlab
