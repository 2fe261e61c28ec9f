#pragma once
/// The config as a JSON object, with the names used on the command line and in trace and
/// session files: {"d_model", "heads", "d_k", "seed", "pe", "embed_scale", "scale", "mask",
/// "pad_to", "max_tokens", "weights_preset"}. The one place that knows those names.

#include "core/config.h"

#include <nlohmann/json.hpp>

namespace attnlab {

nlohmann::ordered_json configToJson(const Config& config);

/// Reads what configToJson wrote. Missing keys keep their defaults; a key of the wrong type or
/// an unknown value throws std::invalid_argument naming the key. Does not validate() the result.
Config configFromJson(const nlohmann::json& object);

} // namespace attnlab
