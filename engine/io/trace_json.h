#pragma once
/// The trace as JSON (docs/trace-format.md): {"format": "attention-lab.trace", "version": 1,
/// "tokens", "config", "warnings", "stages"}. Floats are written in their shortest form that
/// reads back to the same float32; non-finite values as the strings "-inf", "inf", "nan".

#include "core/trace.h"
#include "io/fileio.h"

#include <string>
#include <vector>

namespace attnlab {

inline constexpr int kTraceFormatVersion = 1;

/// The trace as JSON text: compact, or indented by `indent` spaces when indent >= 0; with `only`,
/// just the stages with those ids.
std::string traceToJson(const Trace& trace, int indent = -1, const std::vector<std::string>& only = {});

/// The same, handed to `sink` piece by piece (a stage at a time), never held whole.
void writeTraceJson(const Trace& trace, int indent, const std::vector<std::string>& only, const ByteSink& sink);

} // namespace attnlab
