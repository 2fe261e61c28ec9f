#pragma once
/// The Models folder (docs/pretrained-models.md, "The Models folder"): one folder holding the
/// Hugging Face model folders a user downloaded, each in a sub-folder of its own ("gpt2",
/// "bert-base-uncased"). The studio's model menu lists them and lessons that need a model find
/// it there. Only each sub-folder's config.json is read here; opening a model is
/// model/open.h's job.

#include "pretrained/hf_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

/// A sub-folder of the Models folder whose config.json Attention Lab reads (GPT-2 or BERT).
struct ModelFolderInfo {
    std::string name;   ///< the sub-folder's name ("gpt2")
    std::string path;   ///< its full path
    HfConfig config;    ///< family, layers, heads, d_model, … from its config.json
};

/// A sub-folder with a config.json that is not a GPT-2 or BERT Attention Lab opens.
struct SkippedModelFolder {
    std::string name;
    std::string reason; ///< the config reader's one-line message (English)
};

struct ModelCatalog {
    std::vector<ModelFolderInfo> models;      ///< sorted by name
    std::vector<SkippedModelFolder> skipped;  ///< sorted by name
};

/// The largest config.json read (the hub's are about 1 KB).
inline constexpr std::uint64_t kMaxModelConfigBytes = 1024 * 1024;

/// Lists the sub-folders of `folder` that hold a config.json: those of model_type gpt2 or bert
/// with valid sizes in `models`, the others in `skipped` with the reason. Sub-folders without a
/// config.json (and plain files) are not models and are left out. A missing or unreadable
/// `folder` gives an empty catalogue; nothing here throws.
ModelCatalog scanModelsFolder(const std::string& folder);

} // namespace attnlab
