#pragma once
/// Session files (docs/session-format.md): the sentence, the settings, the weights and mask,
/// where the user was and the lesson playing, as JSON. This is the one place that knows the
/// file's names; the studio's Session (ui/session) turns a SessionFile into its state and back.

#include "core/config.h"
#include "core/message.h"
#include "core/stage_key.h"
#include "nn/mask.h"
#include "nn/weights.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

/// Imported weights ("weights": {"source": "file", …}).
struct SessionWeights {
    std::string path;                    ///< where they were imported from (informative)
    std::optional<std::string> embedded; ///< the safetensors file itself, when the session carries it

    bool operator==(const SessionWeights&) const = default;
};

/// The lesson playing and its step (0-based).
struct SessionLesson {
    std::string path;
    int step = 0;

    bool operator==(const SessionLesson&) const = default;
};

/// Comparing two inputs: on or off, and what B is in its written form (compare/comparison.h's
/// toString: "人咬了狗", "pe=none", ...; read by parseComparison).
struct SessionComparison {
    bool on = false;
    std::string b;
};

struct SessionFile {
    std::string sentence;
    /// As configFromJson read it: not validated (the run that follows does it).
    Config config;
    /// Imported weights; none for a preset (config.weightsPreset).
    std::optional<SessionWeights> weights;
    std::optional<BoolMatrix> customMask; ///< n x n, true = masked
    std::string step = "weights";         ///< the stage shown
    int head = 0;
    /// A Transformer was shown: the keys below are written (a file without them reads as
    /// their defaults).
    bool transformer = false;
    std::optional<int> stepLayer;
    Block stepBlock = Block::None;
    std::optional<std::string> target; ///< teacher forcing's target; none: generation
    int generationStep = -1;           ///< -1: the last
    std::string modelPath;             ///< read and written when config.model is ModelKind::File
    std::optional<SessionLesson> lesson;
    /// Files written before comparisons have none.
    std::optional<SessionComparison> comparison;
};

/// The largest session file the studio opens.
inline constexpr std::uint64_t kMaxSessionBytes = 512ULL * 1024 * 1024;

/// Reads the text of a session file. Throws Error (core/message.h, the session_* messages)
/// naming what is wrong: not JSON, not a session file or another version, a missing key or one
/// of the wrong type, a custom mask that is not square, a bad lesson place. Throws
/// std::invalid_argument for a bad "config" (io/config_json.h). Nothing else for bad text.
SessionFile parseSessionJson(std::string_view text);

/// The session file of `s` (UTF-8 JSON, one key a line, ending with a line break).
std::string sessionJson(const SessionFile& s);

/// The imported weights a session file names: its embedded copy, else the file at their path.
/// Throws FormatError (also for a file that cannot be read).
AttentionWeights sessionWeights(const SessionWeights& w);

} // namespace attnlab
