#pragma once
// Process-wide allocator tuning, called first thing in each program's main().

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attnlab {

/// A trace allocates dozens of matrices of 100 KB to a few MB, on every keystroke. By default
/// glibc serves each with its own mmap and returns it to the system on free, so every
/// recompute pays the page faults again (a third of the time for n >= 128). Keeping them on
/// the heap makes the memory reusable: measured 11.5 -> 7 ms for n = 128, d_model = 512.
inline void keepLargeAllocationsOnHeap()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

} // namespace attnlab
