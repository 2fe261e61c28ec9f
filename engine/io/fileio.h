#pragma once
/// Whole-file reads and crash-safe writes, shared by every file the program writes: sessions,
/// exports, weights, models, traces and lesson decks.

#include "core/message.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attnlab {

/// A file that could not be written: a std::runtime_error with its Message (messages::cannotWrite).
using FileError = MessageError<std::runtime_error>;

/// Writes `bytes` to `path` so that `path` holds either its earlier content or all of `bytes`,
/// whatever happens (a full disk, a kill, a power cut): the bytes go to `path` + ".part" in the
/// same folder, are flushed to the disk (fsync), and the file is renamed over `path`; the folder
/// is flushed too. A failure removes the temporary file. A file that is replaced keeps its
/// permissions; a new one gets the usual ones (0666 less the umask). Writers of the same path
/// take turns (a lock on the temporary file). Throws FileError saying why: the folder does not
/// exist, a file is in the way, the folder is read-only or not ours, the disk is full.
void writeFileAtomically(const std::string& path, std::string_view bytes);
/// Reads a whole file, at most `maxBytes`. Throws std::runtime_error with the reason.
std::string readFile(const std::string& path, std::uint64_t maxBytes);

} // namespace attnlab
