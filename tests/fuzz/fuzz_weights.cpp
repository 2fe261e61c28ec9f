// attentionWeightsFromTensors (nn/weights.h) on whatever parseSafetensors accepts, then one
// attention block run with the weights, as the studio does right after importing them.

#include "fuzz.h"

#include "io/safetensors.h"
#include "model/run.h"
#include "nn/weights.h"

#include <stdexcept>

using namespace attnlab;

namespace {

void checkWeights(const AttentionWeights& w)
{
    const Eigen::Index d = w.dModel();
    FUZZ_CHECK(d >= 1 && d <= ConfigLimits::maxDModel);
    FUZZ_CHECK(w.inProjWeight.rows() == 3 * d && w.inProjWeight.cols() == d);
    FUZZ_CHECK(w.outProjWeight.rows() == d && w.outProjWeight.cols() == d);
    FUZZ_CHECK(w.inProjBias.size() == 3 * d && w.outProjBias.size() == d);
    FUZZ_CHECK(w.inProjWeight.allFinite() && w.outProjWeight.allFinite() && w.inProjBias.allFinite() && w.outProjBias.allFinite());
    FUZZ_CHECK(!w.heads || *w.heads >= 1);
}

/// The weights on a two-token sentence, with the head count they carry when it fits.
void runWith(const AttentionWeights& w)
{
    RunRequest request;
    request.text = "a b";
    request.config.dModel = w.dModel();
    request.config.heads = w.heads && *w.heads <= ConfigLimits::maxHeads && w.dModel() % *w.heads == 0 ? *w.heads : 1;
    request.weights = std::make_shared<const AttentionWeights>(w);
    auto compute = [&] { FUZZ_CHECK(run(request).trace != nullptr); };
    fuzz::accepts<std::invalid_argument>(compute); // e.g. too many attention cells
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = fuzz::attempt<FormatError>([&] { return parseSafetensors(fuzz::text(data, size)); });
    if (!file)
        return 0;

    for (const std::optional<std::string>& prefix : {std::optional<std::string>(), std::optional<std::string>("self_attn.")}) {
        const auto read = fuzz::attempt<FormatError>([&] { return attentionWeightsFromTensors(*file, prefix); });
        if (!read)
            continue;
        const AttentionWeights& w = *read;
        checkWeights(w);
        // What the studio writes of them is read back the same.
        const AttentionWeights again = attentionWeightsFromTensors(parseSafetensors(serializeSafetensors(attentionWeightsToTensors(w, w.heads.value_or(1)))));
        FUZZ_CHECK(again.inProjWeight == w.inProjWeight && again.outProjWeight == w.outProjWeight);
        FUZZ_CHECK(again.inProjBias == w.inProjBias && again.outProjBias == w.outProjBias);
        runWith(w);
    }
    return 0;
}
