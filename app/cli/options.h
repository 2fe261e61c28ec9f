#pragma once
// Parses attention-lab-cli's command line into an engine Request. Kept apart from main() so
// every subcommand (trace, export, ...) takes exactly the same options.

#include "attention.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab::cli {

/// A bad command line: the message is shown as one line, and the exit code is 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct TraceOptions {
    Request request;
    std::string output = "-";                 ///< --output FILE, "-" = stdout
    std::optional<std::string> saveWeights;   ///< --save-weights FILE
    bool pretty = false;                      ///< --pretty
};

/// Parses the options that follow "trace". Loads the weights and mask files named on the line.
/// Throws UsageError for a bad option or value, attnlab::FormatError for a bad weights file.
TraceOptions parseTraceOptions(const std::vector<std::string>& args);

/// The --help text for trace's options.
std::string traceOptionsHelp();

} // namespace attnlab::cli
