#include "io/mapped_safetensors.h"

#include "io/fileio.h"
#include "io/messages.h"
#include "text/printable.h"

#include <bit>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnlab {

namespace {

/// Closes a file descriptor however the function that opened it ends.
struct FdCloser {
    int fd;
    ~FdCloser()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

/// Why a file of mode `mode`, not a regular file, cannot be mapped.
Message notRegular(mode_t mode)
{
    if (S_ISDIR(mode))
        return say(ioMessage("mapped_directory"));
    if (S_ISFIFO(mode))
        return say(ioMessage("mapped_fifo"));
    if (S_ISCHR(mode))
        return say(ioMessage("mapped_character_device"));
    if (S_ISBLK(mode))
        return say(ioMessage("mapped_block_device"));
    if (S_ISSOCK(mode))
        return say(ioMessage("mapped_socket"));
    return say(ioMessage("mapped_not_regular"));
}

/// The system's words for errno, shown as they are.
Message systemReason(int error)
{
    return Message{{}, {}, std::strerror(error)};
}

} // namespace

std::shared_ptr<const MappedSafetensors> MappedSafetensors::open(const std::string& path)
{
    const auto fail = [&](Message why) { return FormatError(sayAbout(ioMessage("in_file"), std::move(why), printable(path))); };
    // O_NONBLOCK: opening a FIFO would wait for a writer, forever; its type is checked next.
    const FdCloser fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (fd.fd < 0)
        throw fail(systemReason(errno));
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0)
        throw fail(systemReason(errno));
    if (!S_ISREG(st.st_mode))
        throw fail(notRegular(st.st_mode));
    std::shared_ptr<MappedSafetensors> file(new MappedSafetensors);
    file->m_path = path;
    file->m_size = static_cast<std::uint64_t>(st.st_size);
    if (file->m_size > 0) {
        void* p = ::mmap(nullptr, file->m_size, PROT_READ, MAP_PRIVATE, fd.fd, 0);
        if (p == MAP_FAILED)
            throw fail(say(ioMessage("mapped_cannot_map"), std::strerror(errno)));
        file->m_bytes = static_cast<const char*>(p);
    }
    try {
        file->m_layout = parseSafetensorsLayout(std::string_view(file->m_bytes ? file->m_bytes : "", file->m_size));
    } catch (const FormatError& e) {
        throw fail(e.message());
    }
    return file;
}

MappedSafetensors::~MappedSafetensors()
{
    if (m_bytes)
        ::munmap(const_cast<char*>(m_bytes), m_size);
}

const TensorEntry* MappedSafetensors::find(const std::string& name) const
{
    const auto it = m_layout.tensors.find(name);
    return it == m_layout.tensors.end() ? nullptr : &it->second;
}

FloatSpan MappedSafetensors::floats(const std::string& name) const
{
    const TensorEntry* t = find(name);
    if (!t)
        throw FormatError(say(ioMessage("mapped_no_tensor"), printable(m_path), printable(name)));
    FloatSpan span;
    span.size = t->numel();
    span.shape = t->shape;
    const char* data = m_bytes + m_layout.dataOffset;
    const char* at = data + t->begin;
    const bool aligned = reinterpret_cast<std::uintptr_t>(at) % alignof(float) == 0;
    if (t->dtype == "F32" && aligned && std::endian::native == std::endian::little) {
        span.data = reinterpret_cast<const float*>(at);
        span.owner = shared_from_this();
        span.mapped = true;
        return span;
    }
    // Not zeroed first: convertToFloat writes every value (zeroing 2 GB of Qwen2.5-0.5B's
    // widened weights cost a fifth of its opening).
    std::shared_ptr<float[]> values = std::make_shared_for_overwrite<float[]>(static_cast<std::size_t>(span.size));
    convertToFloat(*t, data, values.get());
    // The file's pages of a converted tensor are not read again: out of this process's resident
    // memory with them (they stay in the page cache; a later read maps them again). Only pages
    // wholly inside the tensor's bytes, so a neighbour that is read in place keeps its pages.
    const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(at) + page - 1) / page * page;
    const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(data + t->end)) / page * page;
    if (last > first)
        ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
    span.data = values.get();
    span.owner = std::move(values);
    return span;
}

} // namespace attnlab
