// attention-lab-cli: computes attention traces without a window.
// Exit codes: 0 success, 1 an output could not be written, 2 bad input (one line on stderr).

#include "options.h"

#include "common/allocator.h"

#include "fileio.h"
#include "trace_json.h"
#include "weights.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(Usage: attention-lab-cli COMMAND [OPTIONS]

Attention Lab computes every stage of Transformer multi-head self-attention for a sentence.

Commands:
  trace      compute every stage and write them as JSON (docs/trace-format.md)
  help       show this help
  --version  print the version

The trace JSON is {"format": "attention-lab.trace", "version": 1, "tokens", "config",
"warnings", "stages"}; each stage is {"id", "head", "title", "formula", "matrices"} with
matrices {"name", "rows", "cols", "row_labels", "col_labels", "data"}; non-finite values are
the strings "-inf", "inf", "nan". Stage ids, in order: embedding, positional_encoding, input,
q, k, v, scores, scaled, mask, masked_scores, weights, head_output, concat, output.

Options of trace:
)";

int fail(int code, const std::string& message)
{
    std::cerr << "attention-lab-cli: error: " << message << '\n';
    return code;
}

int runTrace(const std::vector<std::string>& args)
{
    using namespace attnlab;
    cli::TraceOptions o;
    Trace trace;
    try {
        o = cli::parseTraceOptions(args);
        trace = computeTrace(o.request);
    } catch (const std::exception& e) {
        return fail(2, e.what());
    }
    for (const auto& w : trace.warnings)
        std::cerr << "attention-lab-cli: warning: " << w << '\n';

    try {
        if (o.saveWeights)
            saveAttentionWeights(*trace.weights, trace.config.heads, *o.saveWeights);
        const std::string json = traceToJson(trace, o.pretty ? 1 : -1) + "\n";
        if (o.output == "-") {
            std::cout << json << std::flush;
            if (!std::cout)
                return fail(1, "cannot write to standard output");
        } else {
            writeFileAtomically(o.output, json);
        }
    } catch (const std::exception& e) {
        return fail(1, e.what());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        return fail(2, "no command given; try 'attention-lab-cli help'");
    const std::string& command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const bool wantsHelp = !rest.empty() && (rest.front() == "--help" || rest.front() == "-h");
    if (command == "help" || command == "--help" || command == "-h" || (command == "trace" && wantsHelp)) {
        std::cout << kUsage << attnlab::cli::traceOptionsHelp();
        return 0;
    }
    if (command == "--version") {
        std::cout << "attention-lab-cli " << ATTNLAB_VERSION << '\n';
        return 0;
    }
    if (command == "trace")
        return runTrace(rest);
    return fail(2, "unknown command '" + command + "'; try 'attention-lab-cli help'");
}
