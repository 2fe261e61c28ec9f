#pragma once
/// A safetensors file memory-mapped (POSIX mmap), not read into memory: a 500 MB model opens in
/// milliseconds and its F32 tensors are used where they lie in the page cache. F16, BF16 and F64
/// tensors (and F32 ones whose bytes are not 4-aligned) are converted to float32 when asked for.

#include "io/safetensors.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

/// The float32 values of one tensor, row-major: a view into the mapping, or converted values
/// the object owns. Either way `owner` keeps the memory alive (copies of the span share it).
struct FloatSpan {
    const float* data = nullptr;
    std::int64_t size = 0;
    std::vector<std::int64_t> shape;
    std::shared_ptr<const void> owner;
    /// True when the values are the file's bytes themselves (mapped, not copied).
    bool mapped = false;
};

class MappedSafetensors : public std::enable_shared_from_this<MappedSafetensors> {
public:
    /// Maps and checks `path` (header, ranges, sizes as parseSafetensorsLayout). Throws
    /// FormatError naming the file and what is wrong (also for a missing or unreadable file).
    static std::shared_ptr<const MappedSafetensors> open(const std::string& path);
    ~MappedSafetensors();
    MappedSafetensors(const MappedSafetensors&) = delete;
    MappedSafetensors& operator=(const MappedSafetensors&) = delete;

    const std::string& path() const { return m_path; }
    const SafetensorsLayout& layout() const { return m_layout; }
    const std::map<std::string, TensorEntry>& tensors() const { return m_layout.tensors; }
    const TensorEntry* find(const std::string& name) const;
    /// The tensor's values (mapped when it is little-endian, aligned F32). Throws FormatError
    /// when there is no such tensor.
    FloatSpan floats(const std::string& name) const;
    /// The bytes mapped (the whole file).
    std::uint64_t fileSize() const { return m_size; }

private:
    MappedSafetensors() = default;
    std::string m_path;
    const char* m_bytes = nullptr;
    std::uint64_t m_size = 0;
    SafetensorsLayout m_layout;
};

} // namespace attnlab
