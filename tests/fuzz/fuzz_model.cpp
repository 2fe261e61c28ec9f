// A model file (model/model.h, docs/model-format.md): parseSafetensors, then modelFromTensors;
// a model it accepts goes through fuzz::checkModel.

#include "model_checks.h"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto model = fuzz::attempt<FormatError>([&] { return modelFromTensors(parseSafetensors(fuzz::text(data, size))); }))
        fuzz::checkModel(*model);
    return 0;
}
