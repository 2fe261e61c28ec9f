#pragma once
/// Whole-file reads and crash-safe writes, shared by every file format of the engine.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace attnlab {

/// A file that cannot be read or written. what() is the whole message ("cannot open 'a.md':
/// No such file or directory"); reason() is the part after the file's name, for callers that
/// name the file themselves.
class FileError : public std::runtime_error {
public:
    FileError(const std::string& message, std::string reason)
        : std::runtime_error(message)
        , m_reason(std::move(reason))
    {
    }
    const std::string& reason() const { return m_reason; }

private:
    std::string m_reason;
};

/// Writes `bytes` to `path` through a temporary file and a rename, so an earlier file at
/// `path` survives any failure. Throws FileError with the reason.
void writeFileAtomically(const std::string& path, std::string_view bytes);

/// Reads a whole regular file of at most `maxBytes`. Refuses anything else without waiting on
/// it: a directory, a FIFO, a device (/dev/zero, a terminal), a socket. Reads at most
/// `maxBytes` + 1 bytes, so a file whose size the system does not report cannot run away.
/// Throws FileError naming the file and the reason.
std::string readFile(const std::string& path, std::uint64_t maxBytes);

} // namespace attnlab
