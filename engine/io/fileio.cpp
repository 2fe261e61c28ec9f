#include "io/fileio.h"

#include "text/printable.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
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

namespace {

namespace fs = std::filesystem;

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

/// An open file descriptor, closed when it goes.
struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
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

/// Flushes the folder's entries (the rename) to the disk; best effort.
void syncFolder(const std::string& folder)
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    writeFileAtomically(path, [bytes](const ByteSink& sink) { sink(bytes); });
}

void writeFileAtomically(const std::string& path, const std::function<void(const ByteSink&)>& produce)
{
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw writeError(path, "is_folder", path, 0);
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
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw writeError(path, "is_folder", path, 0);
    std::string probe = (fs::path(folderOf(path)) / ".attention-lab-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        throw creationError(path, probe, errno);
    ::close(fd);
    ::unlink(probe.c_str());
}

StagedFolder::StagedFolder(std::string path)
    : m_path(std::move(path))
{
    fs::path target(m_path);
    if (target.filename().empty()) // "out/" names the folder "out"
        target = target.parent_path();
    std::error_code ec;
    if (fs::exists(target, ec) && !fs::is_directory(target, ec))
        throw writeError(m_path, "not_a_folder", m_path, ENOTDIR);
    const fs::path staging = target.parent_path() / ("." + target.filename().string() + ".part-" + std::to_string(::getpid()));
    fs::remove_all(staging, ec); // a leftover of this process id's earlier run
    if (!fs::create_directory(staging, ec))
        throw creationError(target.string(), staging.string(), ec.value());
    m_staging = staging.string();
}

StagedFolder::~StagedFolder()
{
    std::error_code ec;
    if (!m_staging.empty())
        fs::remove_all(m_staging, ec);
}

void StagedFolder::commit()
{
    std::error_code ec;
    const fs::path target(m_path);
    if (!fs::exists(target, ec)) {
        // A new folder appears whole, by one rename.
        if (::rename(m_staging.c_str(), m_path.c_str()) == 0) {
            m_staging.clear();
            syncFolder(folderOf(fs::path(m_path).lexically_normal().string()));
            return;
        }
        fs::create_directories(target, ec);
    }
    for (const auto& entry : fs::directory_iterator(m_staging, ec)) {
        const fs::path to = target / entry.path().filename();
        if (::rename(entry.path().c_str(), to.c_str()) != 0)
            throw writingError(to.string(), errno);
    }
    if (ec)
        throw writingError(m_staging, ec.value());
    syncFolder(m_path);
}

} // namespace attnlab
