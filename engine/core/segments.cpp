#include "core/segments.h"

#include <algorithm>

namespace attnlab {

int segmentCount(const StageList& stages)
{
    int count = 0;
    for (const Stage& s : stages) {
        if (s.segment)
            count = std::max(count, *s.segment + 1);
    }
    return count;
}

Trace segmentView(const Trace& t, int segment)
{
    Trace out = t; // the stages are shared pointers: copying the list is cheap
    out.stages = StageList();
    out.stages.reserve(t.stages.size());
    for (std::size_t i = 0; i < t.stages.size(); ++i) {
        const Stage& s = t.stages[i];
        if (!s.segment || *s.segment == segment)
            out.stages.share(t.stages.pointer(i));
    }
    return out;
}

} // namespace attnlab
