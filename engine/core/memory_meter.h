#pragma once
/// Peak memory of a piece of work, measured by the operating system (Linux: the process's
/// resident-set high-water mark, VmHWM, reset through /proc/self/clear_refs). Large allocations
/// are made to go straight to the system (mallopt), so that freed memory leaves the resident set
/// and the high-water mark follows what the work really held.

#include <cstdint>

namespace attnlab {

class MemoryMeter {
public:
    /// Resets the high-water mark to the current resident size.
    MemoryMeter();
    /// Whether the system can measure (false elsewhere than Linux, or without /proc).
    bool available() const { return m_available; }
    /// Bytes the resident set grew above what it was at construction, at its highest since.
    std::int64_t peakExtraBytes() const;

private:
    bool m_available = false;
    std::int64_t m_baseline = 0;
};

} // namespace attnlab
