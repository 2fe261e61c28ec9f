#pragma once
// The tiny Hugging Face folders of scripts/gen_hf_reference.py (tests/reference/hf/), opened
// the engine's way, shared by the pretrained-model tests.

#include "io/fileio.h"
#include "io/mapped_safetensors.h"
#include "pretrained/hf_config.h"
#include "pretrained/weights.h"

#include <string>

namespace attnlab::testing {

inline std::string hfDir()
{
    return ATTNLAB_TEST_DATA "/hf";
}

/// A folder's config and memory-mapped weights (no tokenizer).
inline PretrainedWeights openWeights(const std::string& folder)
{
    const HfConfig config = parseHfConfig(readFile(folder + "/config.json", 1 << 20));
    return readPretrainedWeights(config, MappedSafetensors::open(folder + "/model.safetensors"));
}

} // namespace attnlab::testing
