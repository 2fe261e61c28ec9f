#pragma once
/// Lessons that need a pretrained model (docs/lesson-format.md, "Lessons that need a model").
/// The header's `requires:` names the Hugging Face model folder the lesson plays on ("gpt2",
/// "bert-base-uncased"); steps with `settings: model=pretrained` run it. The parser checks the
/// steps against the model's family (its blocks and stages) and, for a model it knows, its
/// layers and heads; the player finds the folder in the user's Models folder
/// (findRequiredModel) and says what to download when it is not there.

#include "core/stage_key.h"
#include "model/catalog.h"
#include "pretrained/hf_config.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

/// A model of the Hugging Face hub that lessons may name by its folder name alone.
struct KnownModel {
    std::string_view name;   ///< the folder name ("gpt2"), also the hub's short name
    PretrainedFamily family;
    std::string_view hubId;  ///< the hub's repository ("openai-community/gpt2")
    std::string_view title;  ///< "GPT-2 small"
    int layers = 0;
    int heads = 0;
    int dModel = 0;
};

/// gpt2, gpt2-medium, distilgpt2, bert-base-uncased, bert-base-cased, bert-large-uncased,
/// bert-large-cased, bert-base-chinese, bert-base-multilingual-cased, SmolLM2-135M, SmolLM2-360M,
/// Qwen2.5-0.5B, Qwen3-0.6B (the ones Attention Lab opens).
const std::vector<KnownModel>& knownModels();
const KnownModel* knownModel(std::string_view name);

/// The model folder a lesson needs.
struct ModelRequirement {
    std::string name;                         ///< the sub-folder of the Models folder ("gpt2")
    PretrainedFamily family = PretrainedFamily::Gpt2;
    /// Where it is downloaded from: the known model's hub repository, else empty.
    std::string hubId;
    /// A known model's sizes; a teacher's own model (`type=`) has none and is checked against
    /// the limits of the folders Attention Lab opens.
    std::optional<int> layers;
    std::optional<int> heads;

    bool operator==(const ModelRequirement&) const = default;
};

/// Parses the value of `requires:`: a known model's name ("gpt2"), or any folder name with its
/// family ("my-bert, type=bert"). A folder name is letters, digits, '-', '_' and '.', not
/// starting with '.'. Throws std::invalid_argument with the reason.
ModelRequirement parseRequirement(std::string_view value);

/// "GPT-2", "BERT".
std::string familyTitle(PretrainedFamily family);
/// The block a family's layers belong to: decoder_self (GPT-2), encoder_self (BERT).
Block familyBlock(PretrainedFamily family);
/// The files a folder of `family` needs: config.json, model.safetensors, and vocab.json +
/// merges.txt (GPT-2) or vocab.txt (BERT).
std::vector<std::string> requiredFiles(PretrainedFamily family);
/// Why `stage` (a lesson stage id) does not exist in a model of `family` (English), or nothing.
std::optional<std::string> familyStageProblem(PretrainedFamily family, std::string_view stage);
/// True when a model of `family` computes `stage` itself where a plain attention block would
/// need a position scheme set: the rotated q and k of a gated decoder (Llama, Qwen, Gemma),
/// whose attention always applies RoPE.
bool familyComputesSchemeStage(PretrainedFamily family, std::string_view stage);
/// True for the layer stages only some modern decoders compute (families/gated.h: ffn_gate,
/// ffn_up, q_norm, k_norm, attn_post_norm, ffn_post_norm).
bool isFamilyOwnStage(std::string_view stage);
/// Why a lesson requiring `requirement` (none: the studio's own models) cannot show `stage`, one
/// of those stages, naming the families that compute it and a model to require (English); or
/// nothing when the required family computes it.
std::optional<std::string> familyOwnStageProblem(const std::optional<ModelRequirement>& requirement, std::string_view stage);

/// The directive of a step a problem is about (the parser turns it into a line).
enum class StepPart {
    Settings,
    Stage,
    Layer,
    Block,
    Target,
    Generate,
};

struct StepProblem {
    StepPart part = StepPart::Settings;
    std::string reason; ///< English, without the line
};

/// What a step with model=pretrained shows, with what carried over (the block already the
/// family's when no step chose one).
struct PretrainedStep {
    std::string_view stage;
    int layer = 0; ///< 0-based
    Block block = Block::None;
    bool target = false;   ///< the step gives `target`
    bool generate = false; ///< the step gives `generate`
};

/// Why a step cannot run the pretrained model: no `requires:` in the header, a stage the family
/// lacks, another block than the family's, a layer beyond the known model's (or beyond 24),
/// `target` or `generate` (GPT-2's generation is not a lesson step). Nothing when it can.
std::optional<StepProblem> pretrainedStepProblem(const std::optional<ModelRequirement>& requirement, const PretrainedStep& step);
/// The heads a step of the pretrained model may name: the known model's, else 16.
int requirementHeads(const std::optional<ModelRequirement>& requirement);

/// What the steps that run the model ask of it (filled by the parser).
struct ModelUse {
    int layers = 0;          ///< the highest layer a step names, counted from 1 (0: none)
    int heads = 0;           ///< the highest head in force at such a step, counted from 1
    bool outputHead = false; ///< a step shows logits or probabilities

    bool operator==(const ModelUse&) const = default;
};

/// Why the folder `found` cannot play a lesson of `requirement` and `use` (English): another
/// family, fewer layers or heads than the steps name; nothing when it can.
std::optional<std::string> modelFolderProblem(const ModelFolderInfo& found, const ModelRequirement& requirement, const ModelUse& use);

/// The folder of the Models folder a lesson plays on.
struct RequirementMatch {
    const ModelFolderInfo* folder = nullptr; ///< into the catalogue; null when none fits
    /// The folder with the required name when it does not fit (into the catalogue), else null.
    const ModelFolderInfo* unusable = nullptr;
    /// Why the folder with the required name could not be used (another family, too few
    /// layers or heads; English); empty when it was used or is absent.
    std::string problem;
};

/// The folder named as required, when it fits; else, for a known model, a folder of the same
/// family and the known model's layers, heads and d_model under another name (a download saved
/// as "GPT2" or "gpt2-small"), the first by name. Nothing else is guessed.
RequirementMatch findRequiredModel(const ModelCatalog& catalog, const ModelRequirement& requirement, const ModelUse& use);

} // namespace attnlab
