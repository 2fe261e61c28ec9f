#pragma once
/// Whole-file reads and crash-safe writes, shared by every file format of the engine.

#include <cstdint>
#include <string>
#include <string_view>

namespace attnlab {

/// Writes `bytes` to `path` through a temporary file and a rename, so an earlier file at
/// `path` survives any failure. Throws std::runtime_error with the reason.
void writeFileAtomically(const std::string& path, std::string_view bytes);
/// Reads a whole file, at most `maxBytes`. Throws std::runtime_error with the reason.
std::string readFile(const std::string& path, std::uint64_t maxBytes);

} // namespace attnlab
