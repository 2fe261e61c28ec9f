// The table of model families: one line per family (its folder holds the rest).

#include "families/family.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab {

extern const ModelFamily kGpt2Family;
extern const ModelFamily kBertFamily;
extern const ModelFamily kLlamaFamily;
extern const ModelFamily kMistralFamily;
extern const ModelFamily kQwen2Family;
extern const ModelFamily kQwen3Family;
extern const ModelFamily kGemma3Family;

const std::vector<const ModelFamily*>& modelFamilies()
{
    static const std::vector<const ModelFamily*> kFamilies{
        &kGpt2Family, // families/gpt2/
        &kBertFamily, // families/bert/
        &kLlamaFamily, // families/llama/
        &kMistralFamily, // families/llama/ (without a sliding window)
        &kQwen2Family, // families/qwen2/
        &kQwen3Family, // families/qwen3/
        &kGemma3Family, // families/gemma3/
    };
    return kFamilies;
}

const ModelFamily& modelFamily(PretrainedFamily id)
{
    for (const ModelFamily* f : modelFamilies()) {
        if (f->id == id)
            return *f;
    }
    throw std::logic_error("a PretrainedFamily with no line in families.cpp");
}

const ModelFamily* familyOfModelType(std::string_view modelType)
{
    for (const ModelFamily* f : modelFamilies()) {
        if (f->modelType == modelType)
            return f;
    }
    return nullptr;
}

const ModelFamily& familyOfSpec(const ModelSpec& spec)
{
    for (const ModelFamily* f : modelFamilies()) {
        if (f->architecture == spec.architecture)
            return *f;
    }
    return *modelFamilies().back();
}

std::vector<std::string> supportedModelTypes()
{
    std::vector<std::string> types;
    for (const ModelFamily* f : modelFamilies())
        types.emplace_back(f->modelType);
    return types;
}

bool ModelFamily::hasOuterStage(std::string_view stage) const
{
    return std::any_of(outerStages.begin(), outerStages.end(), [&](const OuterStage& s) { return s.id == stage; });
}

bool ModelFamily::hasOwnLayerStage(std::string_view stage) const
{
    return std::find(ownLayerStages.begin(), ownLayerStages.end(), stage) != ownLayerStages.end();
}

} // namespace attnlab
