#include "io/fileio.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnlab {

std::string readFile(const std::string& path, std::uint64_t maxBytes)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw std::runtime_error("cannot read '" + path + "': it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(in.tellg());
    if (size > maxBytes)
        throw std::runtime_error("'" + path + "' is too large (" + std::to_string(size) + " bytes; the limit is "
                                 + std::to_string(maxBytes) + ")");
    in.seekg(0);
    std::string bytes(size, '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(size)))
        throw std::runtime_error("cannot read '" + path + "'");
    return bytes;
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
    // Everything on the disk before the rename, so the new name never points at a partial file.
    if (::ftruncate(file.fd, 0) != 0 || !writeAll(file.fd, bytes) || ::fsync(file.fd) != 0
        || ::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str()); // still ours: the lock is held until the descriptor closes
        throw writingError(path, err);
    }
    syncFolder(folderOf(target));
}

} // namespace attnlab
