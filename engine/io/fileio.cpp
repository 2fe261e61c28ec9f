#include "io/fileio.h"
#include "io/write_errors.h"

#include "text/printable.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

namespace attnlab {

namespace {

/// What a file that is not a regular file is, for a message.
const char* kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a pipe (FIFO)";
    if (S_ISCHR(mode))
        return "a device (character special file)";
    if (S_ISBLK(mode))
        return "a device (block special file)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/// Closes a file descriptor on every way out.
struct FileDescriptor {
    int fd = -1;
    ~FileDescriptor()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

/// "4 MB" for 4 MiB; bytes when not a whole number of MB.
std::string sizeText(std::uint64_t bytes)
{
    constexpr std::uint64_t kMB = 1024 * 1024;
    if (bytes >= kMB && bytes % kMB == 0)
        return std::to_string(bytes / kMB) + " MB";
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

[[noreturn]] void failRead(const std::string& path, const std::string& reason)
{
    throw FileError("cannot read " + inQuotes(path) + ": " + reason, reason);
}

[[noreturn]] void tooLarge(const std::string& path, std::uint64_t maxBytes)
{
    failRead(path, "it is too large (the limit is " + sizeText(maxBytes) + ")");
}

} // namespace

const char* fileKind(unsigned int mode)
{
    return S_ISREG(mode) ? "a regular file" : kindOf(static_cast<mode_t>(mode));
}

std::string readFile(const std::string& path, std::uint64_t maxBytes)
{
    // O_NONBLOCK: opening a FIFO for reading would wait for a writer, forever; the file's type
    // is checked right after, on the open file (no race with a rename).
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (file.fd < 0) {
        const std::string reason = std::strerror(errno);
        throw FileError("cannot open " + inQuotes(path) + ": " + reason, reason);
    }
    struct stat info {};
    if (::fstat(file.fd, &info) != 0)
        failRead(path, std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        failRead(path, std::string("it is ") + kindOf(info.st_mode) + ", not a regular file");
    if (static_cast<std::uint64_t>(info.st_size) > maxBytes)
        tooLarge(path, maxBytes);
    ::fcntl(file.fd, F_SETFL, ::fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);

    // The size is a hint only (files in /proc report 0, a file may grow while read): read until
    // the end, but never more than maxBytes + 1 bytes.
    std::string bytes;
    bytes.reserve(static_cast<std::size_t>(info.st_size));
    constexpr std::size_t kChunk = 1 << 16;
    for (;;) {
        const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, maxBytes + 1 - bytes.size()));
        const std::size_t old = bytes.size();
        bytes.resize(old + room);
        const ssize_t got = ::read(file.fd, bytes.data() + old, room);
        if (got < 0 && errno == EINTR) {
            bytes.resize(old);
            continue;
        }
        if (got < 0)
            failRead(path, std::strerror(errno));
        bytes.resize(old + static_cast<std::size_t>(got));
        if (got == 0)
            return bytes;
        if (bytes.size() > maxBytes)
            tooLarge(path, maxBytes);
    }
}

namespace fs = std::filesystem;

namespace detail {

/// The folder a file is written into ("." for a bare file name).
std::string folderOf(const std::string& path)
{
    const fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? std::string(".") : parent.string();
}

FileError writeError(const std::string& path, const std::string& reason, const std::string& subject, int err)
{
    return FileError(messages::cannotWrite(path, reason, subject, err ? std::strerror(err) : ""));
}

/// Why the temporary file `tmp` for `path` could not be made (errno `err`), in the user's terms.
FileError creationError(const std::string& path, const std::string& tmp, int err)
{
    const std::string folder = folderOf(path);
    if (err == ENOENT || err == ENOTDIR) {
        // The nearest part of the folder's path that exists: a file in its way, or else the
        // folder is missing.
        std::error_code ec;
        fs::path p(folder);
        while (!p.empty() && p != p.root_path() && !fs::exists(p, ec))
            p = p.parent_path();
        if (!p.empty() && fs::exists(p, ec) && !fs::is_directory(p, ec))
            return writeError(path, "not_a_folder", p.string(), err);
        // The folder is there and still no file can be made in it: the kernel's /proc, /sys.
        if (err == ENOENT && p == fs::path(folder) && fs::is_directory(p, ec))
            return writeError(path, "kernel_folder", folder, err);
        return writeError(path, "no_folder", folder, err);
    }
    if (err == EROFS)
        return writeError(path, "read_only", folder, err);
    if (err == EACCES || err == EPERM)
        return writeError(path, "no_permission", folder, err);
    if (err == ENOSPC || err == EDQUOT)
        return writeError(path, "disk_full", folder, err);
    if (err == EISDIR)
        return writeError(path, "in_the_way", tmp, err);
    return writeError(path, "other", folder, err);
}

/// Why writing the bytes failed (errno `err`).
FileError writingError(const std::string& path, int err)
{
    if (err == ENOSPC || err == EDQUOT)
        return writeError(path, "disk_full", folderOf(path), err);
    return writeError(path, "other", folderOf(path), err);
}

/// Flushes the folder's entries (the rename) to the disk; best effort.
void syncFolder(const std::string& folder)
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace detail

using namespace detail;

namespace {

/// An open file descriptor, closed when it goes.
struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

/// The descriptor an output names when it is one this process already has — /dev/stdout (1),
/// /dev/stderr (2), /dev/fd/N, /proc/self/fd/N — or -1. Such an output is written to that
/// descriptor where it stands (opening the name again would start a file the shell redirected
/// to at its beginning, or replace it).
int inheritedDescriptor(const std::string& path)
{
    if (path == "/dev/stdout")
        return 1;
    if (path == "/dev/stderr")
        return 2;
    for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
        if (!path.starts_with(prefix))
            continue;
        const std::string_view digits = std::string_view(path).substr(prefix.size());
        if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return -1;
        return std::stoi(std::string(digits));
    }
    return -1;
}

/// Checks that the inherited descriptor `fd` (named `path`) is open for writing.
void checkInherited(const std::string& path, int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
        throw writeError(path, "other", folderOf(path), EBADF);
}

/// Why an existing file that is not a regular one cannot be opened for writing in place.
FileError inPlaceError(const std::string& path, mode_t mode, int err)
{
    if (err == ENXIO && S_ISFIFO(mode))
        return writeError(path, "no_reader", path, err);
    if (err == EACCES || err == EPERM)
        return writeError(path, "not_writable", path, err);
    if (err == EROFS)
        return writeError(path, "read_only", folderOf(path), err);
    return writeError(path, "other", folderOf(path), err);
}

/// Opens an existing file that is not a regular one (a device, a FIFO) for writing in place.
/// O_NONBLOCK: opening a FIFO that no program reads fails (ENXIO) instead of waiting for a
/// reader forever; a terminal line does not wait for its carrier. Writes then block as usual.
int openInPlace(const std::string& path, mode_t mode)
{
    if (S_ISSOCK(mode)) // open() cannot open one; say what it is
        throw writeError(path, "socket", path, ENXIO);
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        throw inPlaceError(path, mode, errno);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

/// While it lives, SIGPIPE is blocked on this thread, so that a write to a FIFO whose reader has
/// gone fails with EPIPE (an error we report) instead of ending the process; a SIGPIPE the
/// writes raised is taken back before the mask is restored.
class NoSigpipe {
public:
    NoSigpipe()
    {
        sigemptyset(&m_pipe);
        sigaddset(&m_pipe, SIGPIPE);
        ::pthread_sigmask(SIG_BLOCK, &m_pipe, &m_old);
        sigset_t pending;
        m_wasPending = ::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    }
    ~NoSigpipe()
    {
        if (!m_wasPending) {
            const timespec zero{};
            while (::sigtimedwait(&m_pipe, nullptr, &zero) == SIGPIPE) {
            }
        }
        ::pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }
    NoSigpipe(const NoSigpipe&) = delete;
    NoSigpipe& operator=(const NoSigpipe&) = delete;

private:
    sigset_t m_pipe{};
    sigset_t m_old{};
    bool m_wasPending = false;
};

/// Opens `tmp` for writing, locked against other writers of the same file: the lock is taken
/// on the file at `tmp` (a leftover of an interrupted write is reused), and taken again when
/// another writer renamed it away meanwhile. Returns -1 with errno set on failure.
int openLockedTemporary(const std::string& tmp)
{
    for (;;) {
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0)
            return -1;
        int locked;
        do
            locked = ::flock(fd, LOCK_EX);
        while (locked != 0 && errno == EINTR);
        struct stat mine {};
        struct stat there {};
        if (locked != 0 || ::fstat(fd, &mine) != 0) {
            const int err = errno;
            ::close(fd);
            errno = err;
            return -1;
        }
        // Still the file at `tmp` (not one another writer has renamed into place): ours.
        if (::lstat(tmp.c_str(), &there) == 0 && there.st_dev == mine.st_dev && there.st_ino == mine.st_ino)
            return fd;
        ::close(fd);
    }
}

/// Writes all of `bytes` to `fd`; false with errno set on failure.
bool writeAll(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

/// Hands `produce`'s pieces to `fd` as they come, for an output written in place. A device's
/// refusal (/dev/full: ENOSPC) is the device's, not a full disk's: its own words only.
void writeInPlace(const std::string& path, int fd, const std::function<void(const ByteSink&)>& produce)
{
    if (fd == 1 || fd == 2)
        std::fflush(fd == 1 ? stdout : stderr); // what the program printed before comes first
    bool written = true;
    int err = 0;
    produce([&](std::string_view piece) {
        if (written && !writeAll(fd, piece)) {
            written = false;
            err = errno;
        }
    });
    if (!written)
        throw writeError(path, "other", folderOf(path), err);
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    writeFileAtomically(path, [bytes](const ByteSink& sink) { sink(bytes); });
}

void writeFileAtomically(const std::string& path, const std::function<void(const ByteSink&)>& produce)
{
    // Standard output and its kin: the descriptor the shell gave us.
    if (const int fd = inheritedDescriptor(path); fd >= 0) {
        checkInherited(path, fd);
        writeInPlace(path, fd, produce);
        return;
    }
    // A device or a FIFO (a link to one too) is written in place: renaming a file over it would
    // replace /dev/null for every program on the machine.
    struct stat info {};
    const bool exists = ::stat(path.c_str(), &info) == 0;
    if (exists && S_ISDIR(info.st_mode))
        throw writeError(path, "is_folder", path, 0);
    if (exists && !S_ISREG(info.st_mode)) {
        Fd file{openInPlace(path, info.st_mode)};
        std::optional<NoSigpipe> noSigpipe;
        if (S_ISFIFO(info.st_mode))
            noSigpipe.emplace();
        writeInPlace(path, file.fd, produce);
        // A block device's bytes reach the disk; a character device or a FIFO cannot be synced.
        if (S_ISBLK(info.st_mode) && ::fsync(file.fd) != 0)
            throw writeError(path, "other", folderOf(path), errno);
        const int fd = std::exchange(file.fd, -1);
        if (::close(fd) != 0 && errno != EINTR)
            throw writeError(path, "other", folderOf(path), errno);
        return;
    }
    std::error_code ec;
    // A link is followed: the file it points to is replaced, the link stays.
    std::string target = path;
    if (fs::is_symlink(path, ec)) {
        const fs::path resolved = fs::weakly_canonical(path, ec);
        if (!ec)
            target = resolved.string();
    }
    const std::string tmp = target + ".part";
    Fd file{openLockedTemporary(tmp)};
    if (file.fd < 0)
        throw creationError(path, tmp, errno);
    // A replaced file keeps its permissions.
    struct stat earlier {};
    if (::stat(target.c_str(), &earlier) == 0 && S_ISREG(earlier.st_mode))
        ::fchmod(file.fd, earlier.st_mode & 07777);
    bool written = ::ftruncate(file.fd, 0) == 0;
    int err = errno;
    try {
        produce([&](std::string_view piece) {
            if (written && !writeAll(file.fd, piece)) {
                written = false;
                err = errno;
            }
        });
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
    // Everything on the disk before the rename, so the new name never points at a partial file.
    if (!written || ::fsync(file.fd) != 0 || ::rename(tmp.c_str(), target.c_str()) != 0) {
        err = written ? errno : err;
        ::unlink(tmp.c_str()); // still ours: the lock is held until the descriptor closes
        throw writingError(path, err);
    }
    syncFolder(folderOf(target));
}

void checkWritable(const std::string& path)
{
    if (const int fd = inheritedDescriptor(path); fd >= 0) {
        checkInherited(path, fd);
        return;
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode))
            throw writeError(path, "is_folder", path, 0);
        if (!S_ISREG(info.st_mode)) {
            // Written in place: the right to write it is what counts, and no probe file goes
            // into /dev. A FIFO is not opened here (its reader would see the end of its input).
            if (S_ISSOCK(info.st_mode))
                throw writeError(path, "socket", path, ENXIO);
            if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0)
                throw inPlaceError(path, info.st_mode, errno);
            return;
        }
    }
    std::string probe = (fs::path(folderOf(path)) / ".attention-lab-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        throw creationError(path, probe, errno);
    ::close(fd);
    ::unlink(probe.c_str());
}

AppendFile::AppendFile(const std::string& path)
    : m_path(path)
{
    if (const int fd = inheritedDescriptor(path); fd >= 0) {
        checkInherited(path, fd);
        m_fd = fd;
        m_own = false;
        m_regular = false;
        return;
    }
    struct stat info {};
    const bool exists = ::stat(path.c_str(), &info) == 0;
    if (exists && S_ISDIR(info.st_mode))
        throw writeError(path, "is_folder", path, 0);
    if (exists && !S_ISREG(info.st_mode)) {
        m_fd = openInPlace(path, info.st_mode);
        m_regular = false;
        return;
    }
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (m_fd < 0) {
        const int err = errno;
        if (exists && (err == EACCES || err == EPERM))
            throw writeError(path, "not_writable", path, err); // the file's permissions, not the folder's
        throw creationError(path, path, err);
    }
}

AppendFile::~AppendFile()
{
    if (m_own && m_fd >= 0)
        ::close(m_fd);
}

void AppendFile::append(std::string_view bytes)
{
    if (m_fd == 1 || m_fd == 2)
        std::fflush(m_fd == 1 ? stdout : stderr);
    if (writeAll(m_fd, bytes)) {
        m_size += bytes.size();
        return;
    }
    const int err = errno;
    if (m_regular && ::ftruncate(m_fd, static_cast<off_t>(m_size)) == 0)
        ::lseek(m_fd, static_cast<off_t>(m_size), SEEK_SET); // no half line at the end
    throw writeError(m_path, "other", folderOf(m_path), err);
}

} // namespace attnlab
