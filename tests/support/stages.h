#pragma once
// Looking up a trace's stages in the engine's tests.

#include "core/trace.h"

#include <QtGlobal>

#include <optional>

namespace attnlab::testing {

/// The main matrix of the stage `id` (and `head`, for per-head stages); stops the test run when
/// the stage is missing, since every check after it would read garbage.
inline const Eigen::MatrixXf& stage(const Trace& t, const char* id, std::optional<int> head = std::nullopt)
{
    const Stage* s = t.find(id, head);
    if (!s)
        qFatal("stage %s missing", id);
    return s->main().values;
}

} // namespace attnlab::testing
