#include "io/mapped_safetensors.h"

#include "io/fileio.h"
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

} // namespace

std::shared_ptr<const MappedSafetensors> MappedSafetensors::open(const std::string& path)
{
    const auto fail = [&](const std::string& why) { return FormatError(inQuotes(path) + ": " + why); };
    // O_NONBLOCK: opening a FIFO would wait for a writer, forever; its type is checked next.
    const FdCloser fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (fd.fd < 0)
        throw fail(std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0)
        throw fail(std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw fail(std::string("it is ") + fileKind(st.st_mode) + ", not a regular file");
    std::shared_ptr<MappedSafetensors> file(new MappedSafetensors);
    file->m_path = path;
    file->m_size = static_cast<std::uint64_t>(st.st_size);
    if (file->m_size > 0) {
        void* p = ::mmap(nullptr, file->m_size, PROT_READ, MAP_PRIVATE, fd.fd, 0);
        if (p == MAP_FAILED)
            throw fail(std::string("cannot map the file: ") + std::strerror(errno));
        file->m_bytes = static_cast<const char*>(p);
    }
    try {
        file->m_layout = parseSafetensorsLayout(std::string_view(file->m_bytes ? file->m_bytes : "", file->m_size));
    } catch (const FormatError& e) {
        throw fail(e.what());
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
        throw FormatError(inQuotes(m_path) + ": no tensor " + inQuotes(name));
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
