#pragma once
/// Whole-file reads and crash-safe writes, shared by every file the program writes: sessions,
/// exports, weights, models, traces and lesson decks.

#include "core/message.h"

#include <cstdint>
#include <stdexcept>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace attnlab {

/// A file that cannot be read or written: a std::runtime_error with its Message (a write's is
/// messages::cannotWrite, translated by the studio). what() is the whole English message
/// ("cannot open 'a.md': No such file or directory"); reason() is the part after the file's
/// name, for callers that name the file themselves.
class FileError : public MessageError<std::runtime_error> {
public:
    /// A write that failed (messages::cannotWrite): its reason is what follows the file's name.
    explicit FileError(Message message)
        : MessageError(std::move(message))
        , m_reason(afterName(this->message()))
    {
    }
    /// A read that failed: the whole message and the reason in it.
    FileError(const std::string& message, std::string reason)
        : MessageError(Message{"cannot_read", {}, message})
        , m_reason(std::move(reason))
    {
    }
    const std::string& reason() const { return m_reason; }

private:
    static std::string afterName(const Message& m)
    {
        const std::string prefix = m.args.empty() ? std::string() : "cannot write '" + m.args.front() + "': ";
        return !prefix.empty() && m.text.rfind(prefix, 0) == 0 ? m.text.substr(prefix.size()) : m.text;
    }

    std::string m_reason;
};

/// Writes `bytes` to `path` so that `path` holds either its earlier content or all of `bytes`,
/// whatever happens (a full disk, a kill, a power cut): the bytes go to `path` + ".part" in the
/// same folder, are flushed to the disk (fsync), and the file is renamed over `path`; the folder
/// is flushed too. A failure removes the temporary file. A file that is replaced keeps its
/// permissions; a new one gets the usual ones (0666 less the umask). Writers of the same path
/// take turns (a lock on the temporary file). Throws FileError saying why: the folder does not
/// exist, a file is in the way, the folder is read-only or not ours, the disk is full.
void writeFileAtomically(const std::string& path, std::string_view bytes);

/// Receives the pieces of a file being written, in order.
using ByteSink = std::function<void(std::string_view)>;
/// The same for a file made piece by piece (a trace's JSON of a gigabyte is never held whole):
/// `produce` hands its pieces to the sink it is given. An exception from `produce` removes the
/// temporary file and is passed on.
void writeFileAtomically(const std::string& path, const std::function<void(const ByteSink&)>& produce);

/// Checks that a file can be written at `path` (by making and removing a temporary file beside
/// it), so that a command with several outputs can refuse before it writes any. Throws
/// FileError as writeFileAtomically.
void checkWritable(const std::string& path);

/// A folder of outputs written whole or not at all (export --all, a lesson's pages, generation
/// steps): the files go into a hidden folder beside `path` (".NAME.part-PID"); commit() moves
/// them into `path` (made when missing; files of the same names there are replaced, others
/// kept). Destroyed without commit() — a failure, an exception — it removes what it wrote; a
/// kill leaves only the hidden folder, never a half-written `path`.
class StagedFolder {
public:
    /// Makes the hidden folder. Throws FileError (cannot_write, about `path`) when it cannot.
    explicit StagedFolder(std::string path);
    ~StagedFolder();
    StagedFolder(const StagedFolder&) = delete;
    StagedFolder& operator=(const StagedFolder&) = delete;

    /// Where to write the files now.
    const std::string& staging() const { return m_staging; }
    /// The folder they end up in.
    const std::string& path() const { return m_path; }
    /// Moves every file into path(). Throws FileError when it cannot.
    void commit();

private:
    std::string m_path;
    std::string m_staging;
};

/// What a file is, from its st_mode, for a message: "a regular file", "a directory", "a pipe
/// (FIFO)", "a device (character special file)", "a socket", ...
const char* fileKind(unsigned int mode);

/// Reads a whole regular file of at most `maxBytes`. Refuses anything else without waiting on
/// it: a directory, a FIFO, a device (/dev/zero, a terminal), a socket. Reads at most
/// `maxBytes` + 1 bytes, so a file whose size the system does not report cannot run away.
/// Throws FileError naming the file and the reason.
std::string readFile(const std::string& path, std::uint64_t maxBytes);

} // namespace attnlab
