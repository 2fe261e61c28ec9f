// Transformer-XL's segments in the Session: the views show one segment at a time (its memory,
// its q, k, v, scores, weights and outputs); the rest of the trace is the same for every segment.

#include "session/session.h"

#include "core/segments.h"

#include <algorithm>

namespace attnlab {

int Session::segmentCount() const
{
    return m_full ? attnlab::segmentCount(m_full->stages) : 0;
}

void Session::showSegment()
{
    if (!m_trace)
        return;
    const int count = attnlab::segmentCount(m_trace->stages);
    if (count == 0)
        return;
    // A shorter input has fewer segments: the last one stands in for a segment that is gone.
    m_segment = std::clamp(m_segment, 0, count - 1);
    m_trace = std::make_shared<const Trace>(segmentView(*m_trace, m_segment));
}

void Session::setSegment(int segment)
{
    segment = std::clamp(segment, 0, std::max(0, segmentCount() - 1));
    if (segment == m_segment)
        return;
    m_segment = segment;
    m_projectedBlock.reset(); // a model's block view is made again, for this segment
    project();
    emit segmentChanged(m_segment);
    emit traceChanged();
}

} // namespace attnlab
