#pragma once
/// Transformer-XL's per-segment stages (position/inside.h, nn/xl_heads.cpp) in a trace: how many
/// segments there are, and one segment's view of the trace, in which the generic lookups
/// (find(id, head)) meet that segment's stages.

#include "core/trace.h"

namespace attnlab {

/// How many segments the stages have: 1 + the largest StageKey::segment; 0 when no stage has one.
int segmentCount(const StageList& stages);

/// `t` with only segment `segment`'s per-segment stages, and every stage without a segment, in
/// the trace's order (shared, not copied); the rest of the trace as it is.
Trace segmentView(const Trace& t, int segment);

} // namespace attnlab
