#include "core/memory_meter.h"

#include <fstream>
#include <string>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attnlab {

namespace {

/// A "Vm...:   1234 kB" line of /proc/self/status, in bytes; -1 when absent.
std::int64_t statusBytes(const char* field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(field) + ":";
    while (std::getline(in, line)) {
        if (line.rfind(prefix, 0) == 0)
            return std::stoll(line.substr(prefix.size())) * 1024;
    }
    return -1;
}

} // namespace

MemoryMeter::MemoryMeter()
{
#if defined(__linux__) && defined(__GLIBC__)
    // Blocks of 64 KiB and more come from mmap and go back on free; the heap is trimmed.
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    malloc_trim(0);
#endif
    std::ofstream reset("/proc/self/clear_refs");
    reset << "5"; // resets VmHWM to the current resident size
    reset.flush();
    m_baseline = statusBytes("VmRSS");
    m_available = reset.good() && m_baseline >= 0 && statusBytes("VmHWM") >= 0;
}

std::int64_t MemoryMeter::peakExtraBytes() const
{
    if (!m_available)
        return 0;
    const std::int64_t peak = statusBytes("VmHWM");
    return peak > m_baseline ? peak - m_baseline : 0;
}

} // namespace attnlab
