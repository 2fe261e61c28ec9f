#pragma once
// The main() of the engine's benchmarks: the programs' allocator settings (the figures are what
// a user gets), then Google Benchmark with its command-line flags.

#include "common/allocator.h"

#include <benchmark/benchmark.h>

namespace attnlab::bench {

inline int runBenchmarks(int argc, char** argv)
{
    keepLargeAllocationsOnHeap();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace attnlab::bench
