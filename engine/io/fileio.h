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
#include <vector>

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
/// take turns (a lock on the temporary file). A link is followed: its target is replaced.
///
/// An output that exists and is not a regular file — a device (/dev/null, /dev/full, a
/// terminal), a FIFO — is written in place, as `cat > path` would: opened for writing, never
/// renamed over, replaced or removed. /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N
/// write to the descriptor this process already has (what the shell redirected), from where it
/// stands. A FIFO that no program reads is refused at once (reason "no_reader") rather than
/// waited on forever; a socket cannot be opened as a file.
///
/// Throws FileError saying why: the folder does not exist, a file is in the way, the folder is
/// read-only or not ours, the disk is full, the device refused the bytes.
void writeFileAtomically(const std::string& path, std::string_view bytes);

/// Receives the pieces of a file being written, in order.
using ByteSink = std::function<void(std::string_view)>;
/// The same for a file made piece by piece (a trace's JSON of a gigabyte is never held whole):
/// `produce` hands its pieces to the sink it is given. An exception from `produce` removes the
/// temporary file and is passed on.
void writeFileAtomically(const std::string& path, const std::function<void(const ByteSink&)>& produce);

/// Checks that a file can be written at `path`, so that a command with several outputs can
/// refuse before it does any work: for a regular file or a new one, by making and removing a
/// temporary file beside it; an output written in place (a device, a FIFO, standard output) is
/// checked without opening it (opening a FIFO would end its reader's input). Throws FileError
/// as writeFileAtomically.
void checkWritable(const std::string& path);

/// Checks that a StagedFolder can be made for `path` (a folder, or nothing, in a folder we may
/// write in), by making and removing an empty folder beside it; nothing is left behind. Throws
/// FileError as StagedFolder's constructor.
void checkFolderWritable(const std::string& path);

/// A folder of outputs written whole or not at all (export --all, a lesson's pages, generation
/// steps): the files go into a hidden folder beside `path` (".NAME.part-PID"); commit() moves
/// them into `path` (made when missing; files of the same names there are replaced, others
/// kept). Destroyed without commit() — a failure, an exception, a signal the caller turned into
/// one — it removes what it wrote. A kill (SIGKILL, a power cut) leaves only the hidden folder,
/// never a half-written `path`; the next StagedFolder for the same `path` removes the hidden
/// folders of processes that no longer exist (never one of a live process).
class StagedFolder {
public:
    /// Removes stale hidden folders, then makes this one. Throws FileError (cannot_write, about
    /// `path`) when it cannot.
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

    /// Removes the hidden folders beside `path` left by processes that have ended (the process
    /// id in their name is no longer running); returns how many. Hidden folders of running
    /// processes, and names that are not ours, are left alone.
    static int removeStale(const std::string& path);

private:
    std::string m_path;
    std::string m_staging;
};

/// A folder made for outputs written into it one at a time (train --snapshots): `path` and any
/// missing folder above it are made (as mkdir -p). Destroyed before keep(), it removes the folders
/// it made that are still empty, so that a run that fails leaves no empty folder behind; the
/// whole files written into it stay. Throws FileError saying why a folder cannot be made.
class MadeFolder {
public:
    explicit MadeFolder(const std::string& path);
    ~MadeFolder();
    MadeFolder(const MadeFolder&) = delete;
    MadeFolder& operator=(const MadeFolder&) = delete;

    /// Keeps the folders whatever they hold.
    void keep() { m_made.clear(); }

private:
    void removeMade();

    std::vector<std::string> m_made; ///< the folders this made, the deepest last
};

/// A file written a line at a time (a training log): created or emptied when opened, each
/// append() written whole, at once, or thrown as a FileError naming the file and the reason (a
/// full disk, a device's error) with the file cut back to its last whole append. An output that
/// is not a regular file (a device, a FIFO, standard output) is written in place, as by
/// writeFileAtomically.
class AppendFile {
public:
    /// Opens `path`. Throws FileError saying why it cannot.
    explicit AppendFile(const std::string& path);
    ~AppendFile();
    AppendFile(const AppendFile&) = delete;
    AppendFile& operator=(const AppendFile&) = delete;

    /// Writes `bytes` after what is written. Throws FileError.
    void append(std::string_view bytes);
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    int m_fd = -1;
    bool m_own = true;    ///< false: an inherited descriptor (standard output), not closed here
    bool m_regular = true; ///< a regular file: a failed append is cut back
    std::uint64_t m_size = 0; ///< bytes written whole so far
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
