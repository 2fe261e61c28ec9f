#pragma once
// What a benchmark needs to measure memory honestly: this process's resident memory as the
// kernel counts it (/proc/self/status), and a fresh copy of this program to run a measurement
// in, so that nothing measured before (a heap that keeps freed memory, mapped files) blurs it.

#include <map>
#include <string>
#include <vector>

namespace attnlab::bench {

/// Resident memory in MB (1 MB = 2^20 bytes) from /proc/self/status.
struct MemoryStatus {
    double rss = 0;  ///< VmRSS: resident now
    double peak = 0; ///< VmHWM: the most resident since the process started
    double anon = 0; ///< RssAnon: the heap and anonymous mappings
    double file = 0; ///< RssFile: pages of mapped files (the weights), shared with the page cache
};

/// Reads /proc/self/status (zeros on a system without it).
MemoryStatus memoryStatus();

/// Runs this program again (/proc/self/exe) with `args` and returns what it wrote on its
/// standard output; its standard error goes to ours. Throws std::runtime_error when it cannot
/// start or does not exit with 0.
std::string runSelf(const std::vector<std::string>& args);

/// Lines "key value" of a child's output as a map (other lines are ignored).
std::map<std::string, double> parseFigures(const std::string& output);

} // namespace attnlab::bench
