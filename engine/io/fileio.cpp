#include "io/fileio.h"

#include "text/printable.h"

#include <fcntl.h>
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

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    namespace fs = std::filesystem;
    const auto fail = [&path](const std::string& reason) { throw FileError("cannot write " + inQuotes(path) + ": " + reason, reason); };
    std::error_code ec;
    if (fs::is_directory(path, ec))
        fail("it is a directory");
    const std::string tmp = path + ".part";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            fail(std::strerror(errno));
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            const std::string why = std::strerror(errno);
            out.close();
            fs::remove(tmp, ec);
            fail(why + " (is the disk full?)");
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        fail(ec.message());
    }
}

} // namespace attnlab
