// Lessons that need a pretrained model: `requires:`, the family's stages and blocks, and finding
// the folder in the Models folder (docs/lesson-format.md).

#include "lesson/requirement.h"

#include "families/family.h"
#include "lesson/lesson_text.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab {

namespace {

using namespace lessontext;

bool isFolderNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

std::vector<std::string> knownNames()
{
    std::vector<std::string> names;
    for (const KnownModel& m : knownModels())
        names.emplace_back(m.name);
    return names;
}

std::optional<PretrainedFamily> parseFamily(std::string_view s)
{
    if (const ModelFamily* f = familyOfModelType(s))
        return f->id;
    return std::nullopt;
}

/// "'type=gpt2' or 'type=bert'": every family's model_type.
std::string typeChoices()
{
    std::vector<std::string> choices;
    for (const std::string& t : supportedModelTypes())
        choices.push_back("'type=" + t + "'");
    return join(choices, " or ");
}

} // namespace

const std::vector<KnownModel>& knownModels()
{
    using F = PretrainedFamily;
    static const std::vector<KnownModel> kModels{
        {"gpt2", F::Gpt2, "openai-community/gpt2", "GPT-2 small", 12, 12, 768},
        {"gpt2-medium", F::Gpt2, "openai-community/gpt2-medium", "GPT-2 medium", 24, 16, 1024},
        {"distilgpt2", F::Gpt2, "distilbert/distilgpt2", "DistilGPT2", 6, 12, 768},
        {"bert-base-uncased", F::Bert, "google-bert/bert-base-uncased", "BERT-base, uncased", 12, 12, 768},
        {"bert-base-cased", F::Bert, "google-bert/bert-base-cased", "BERT-base, cased", 12, 12, 768},
        {"bert-large-uncased", F::Bert, "google-bert/bert-large-uncased", "BERT-large, uncased", 24, 16, 1024},
        {"bert-large-cased", F::Bert, "google-bert/bert-large-cased", "BERT-large, cased", 24, 16, 1024},
        {"bert-base-chinese", F::Bert, "google-bert/bert-base-chinese", "BERT-base, Chinese", 12, 12, 768},
        {"bert-base-multilingual-cased", F::Bert, "google-bert/bert-base-multilingual-cased", "BERT-base, multilingual", 12, 12,
         768},
        // Modern decoders (families/gated.h); heads are query heads (SmolLM2-135M: 3 key/value heads).
        {"SmolLM2-135M", F::Llama, "HuggingFaceTB/SmolLM2-135M", "SmolLM2-135M", 30, 9, 576},
        {"SmolLM2-360M", F::Llama, "HuggingFaceTB/SmolLM2-360M", "SmolLM2-360M", 32, 15, 960},
        {"Qwen2.5-0.5B", F::Qwen2, "Qwen/Qwen2.5-0.5B", "Qwen2.5-0.5B", 24, 14, 896},
        {"Qwen3-0.6B", F::Qwen3, "Qwen/Qwen3-0.6B", "Qwen3-0.6B", 28, 16, 1024},
    };
    return kModels;
}

const KnownModel* knownModel(std::string_view name)
{
    const auto& all = knownModels();
    const auto it = std::find_if(all.begin(), all.end(), [&](const KnownModel& m) { return m.name == name; });
    return it != all.end() ? &*it : nullptr;
}

ModelRequirement parseRequirement(std::string_view value)
{
    const std::size_t comma = value.find(',');
    const std::string_view name = trim(value.substr(0, comma));
    if (name.empty())
        throw Error(say(lessonMessage("requires_no_name"), join(knownNames())));
    if (name.front() == '.' || !std::all_of(name.begin(), name.end(), isFolderNameChar))
        throw Error(say(lessonMessage("requires_folder_name"), cut(name)));
    std::optional<PretrainedFamily> type;
    if (comma != std::string_view::npos) {
        const std::string_view rest = trim(value.substr(comma + 1));
        const std::size_t eq = rest.find('=');
        if (eq == std::string_view::npos || trim(rest.substr(0, eq)) != "type")
            throw Error(say(lessonMessage("requires_after_name"), typeChoices(), cut(rest)));
        const std::string_view family = trim(rest.substr(eq + 1));
        type = parseFamily(family);
        if (!type) {
            if (const auto near = nearestName(family, supportedModelTypes()))
                throw Error(say(lessonMessage("requires_unknown_type_near"), cut(family), *near, join(supportedModelTypes())));
            throw Error(say(lessonMessage("requires_unknown_type"), cut(family), join(supportedModelTypes())));
        }
    }
    ModelRequirement r;
    r.name = name;
    if (const KnownModel* known = knownModel(name)) {
        if (type && *type != known->family)
            throw Error(say(lessonMessage("requires_family_mismatch"), name, familyTitle(known->family), toString(*type)));
        r.family = known->family;
        r.hubId = known->hubId;
        r.layers = known->layers;
        r.heads = known->heads;
        return r;
    }
    if (!type) {
        if (const auto near = nearestName(name, knownNames()))
            throw Error(say(lessonMessage("requires_unknown_model_near"), cut(name), *near, join(knownNames()), name, typeChoices().substr(1)));
        throw Error(say(lessonMessage("requires_unknown_model"), cut(name), join(knownNames()), name, typeChoices().substr(1)));
    }
    r.family = *type;
    return r;
}

std::string familyTitle(PretrainedFamily family)
{
    return std::string(modelFamily(family).title);
}

Block familyBlock(PretrainedFamily family)
{
    return modelFamily(family).block();
}

std::vector<std::string> requiredFiles(PretrainedFamily family)
{
    std::vector<std::string> files{"config.json", "model.safetensors"};
    for (const std::string& f : modelFamily(family).tokenizerFiles)
        files.push_back(f);
    return files;
}

bool familyComputesSchemeStage(PretrainedFamily family, std::string_view stage)
{
    return modelFamily(family).layerKind == FamilyLayer::Gated && (stage == "q_rotated" || stage == "k_rotated");
}

bool isFamilyOwnStage(std::string_view stage)
{
    const auto& modelFamilies = attnlab::modelFamilies();
    return std::any_of(modelFamilies.begin(), modelFamilies.end(), [&](const ModelFamily* f) { return f->hasOwnLayerStage(stage); });
}

std::optional<std::string> familyOwnStageProblem(const std::optional<ModelRequirement>& requirement, std::string_view stage)
{
    if (!isFamilyOwnStage(stage) || (requirement && modelFamily(requirement->family).hasOwnLayerStage(stage)))
        return std::nullopt;
    std::vector<std::string> owners;
    const ModelFamily* first = nullptr;
    for (const ModelFamily* f : modelFamilies()) {
        if (f->hasOwnLayerStage(stage)) {
            owners.emplace_back(f->title);
            first = first ? first : f;
        }
    }
    // A model to require: the first known one of a family that computes the stage, else a folder of the first family.
    const auto& known = knownModels();
    const auto example = std::find_if(known.begin(), known.end(), [&](const KnownModel& m) { return modelFamily(m.family).hasOwnLayerStage(stage); });
    const std::string require = example != known.end() ? "'requires: " + std::string(example->name) + "'"
                                                       : "'requires: FOLDER, type=" + std::string(first->modelType) + "'";
    const std::string lastOwner = owners.back();
    owners.pop_back();
    const std::string who = owners.empty() ? lastOwner : join(owners, ", ") + " and " + lastOwner;
    return "stage " + quote(stage) + " exists only in " + who + (requirement ? ", not in " + familyTitle(requirement->family) : std::string())
           + ": the lesson needs such a model (" + require + ")";
}

std::optional<std::string> familyStageProblem(PretrainedFamily id, std::string_view stage)
{
    const ModelFamily& family = modelFamily(id);
    const bool decoder = family.architecture == Architecture::DecoderOnly;
    if (stage == "cross_residual" || stage == "cross_norm")
        return "stage " + quote(stage) + " does not exist in " + familyTitle(id) + ": it has no cross-attention (only "
               + (decoder ? "a decoder" : "an encoder") + ")";
    if (family.hasOuterStage(stage))
        return std::nullopt;
    std::vector<std::string> owners; // the families that have it
    for (const ModelFamily* other : modelFamilies()) {
        if (std::string_view(other->stackOutput) == stage)
            return "stage " + quote(stage) + " does not exist in " + familyTitle(id) + ", " + (decoder ? "a decoder" : "an encoder")
                   + "-only model: its last stack output is " + quote(family.stackOutput);
        if (other->hasOuterStage(stage))
            owners.emplace_back(other->title);
    }
    if (!owners.empty())
        return "stage " + quote(stage) + " exists only in " + join(owners, " and ");
    return std::nullopt;
}

std::optional<StepProblem> pretrainedStepProblem(const std::optional<ModelRequirement>& requirement, const PretrainedStep& step)
{
    if (!requirement)
        return StepProblem{StepPart::Settings, "settings: model=pretrained needs the model folder named in the header: add e.g. "
                                               "'requires: gpt2' (known: " + join(knownNames()) + ")"};
    const ModelRequirement& r = *requirement;
    const std::string model = r.name + " (" + familyTitle(r.family) + ")";
    const std::string reads = ": a pretrained model reads the sentence only (teacher forcing and generation steps are for model=reversal)";
    if (step.target)
        return StepProblem{StepPart::Target, "target" + reads};
    if (step.generate)
        return StepProblem{StepPart::Generate, "generate" + reads};
    if (const auto problem = familyStageProblem(r.family, step.stage))
        return StepProblem{StepPart::Stage, *problem};
    const Block block = familyBlock(r.family);
    if (step.block != block)
        return StepProblem{StepPart::Block, "block " + quote(toString(step.block)) + " does not exist in " + model + ": its layers are "
                                                + std::string(toString(block))};
    const int layers = r.layers.value_or(PretrainedLimits::maxLayers);
    if (step.layer >= layers)
        return StepProblem{StepPart::Layer, "layer " + std::to_string(step.layer + 1) + " does not exist: " + model + " has "
                                                + plural(layers, "layer", "layers")};
    return std::nullopt;
}

int requirementHeads(const std::optional<ModelRequirement>& requirement)
{
    return requirement && requirement->heads ? *requirement->heads : PretrainedLimits::maxHeads;
}

std::optional<std::string> modelFolderProblem(const ModelFolderInfo& found, const ModelRequirement& requirement, const ModelUse& use)
{
    const HfConfig& c = found.config;
    const std::string what = found.name + " is a " + familyTitle(c.family) + " with " + plural(c.layers, "layer", "layers")
                           + " and " + plural(c.heads, "head", "heads");
    if (c.family != requirement.family)
        return what + "; this lesson needs a " + familyTitle(requirement.family);
    if (c.layers < use.layers || c.heads < use.heads)
        return what + "; this lesson's steps need at least " + plural(use.layers, "layer", "layers") + " and "
               + plural(use.heads, "head", "heads");
    return std::nullopt;
}

RequirementMatch findRequiredModel(const ModelCatalog& catalog, const ModelRequirement& requirement, const ModelUse& use)
{
    RequirementMatch match;
    for (const ModelFolderInfo& m : catalog.models) {
        if (m.name != requirement.name)
            continue;
        if (const auto problem = modelFolderProblem(m, requirement, use)) {
            match.problem = *problem;
            match.unusable = &m;
        } else {
            match.folder = &m;
        }
        break;
    }
    const KnownModel* known = knownModel(requirement.name);
    if (match.folder || !known)
        return match;
    // The same model saved under another name: its family and all its sizes agree.
    for (const ModelFolderInfo& m : catalog.models) {
        const HfConfig& c = m.config;
        if (c.family == known->family && c.layers == known->layers && c.heads == known->heads && c.dModel == known->dModel) {
            match.folder = &m;
            return match;
        }
    }
    return match;
}

ModelUse modelUseOf(const std::vector<LessonStep>& steps)
{
    ModelUse use;
    for (const LessonStep& s : steps) {
        if (!s.needsModel())
            continue;
        use.layers = std::max(use.layers, s.layer + 1);
        use.heads = std::max(use.heads, s.head + 1);
        use.outputHead = use.outputHead || s.stage == "logits" || s.stage == "probabilities" || s.stage == "mlm_transform";
    }
    return use;
}

} // namespace attnlab
