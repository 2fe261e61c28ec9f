#include "lessons/stepnotes.h"

#include "session/session.h"
#include "session/stages.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

struct LessonNotes {
    Q_DECLARE_TR_FUNCTIONS(attnlab::LessonNotes)
};

/// One miss in words, 1-based as the teacher wrote it, with the size of the matrix.
QString missText(const HighlightMiss& m, int rows, int columns)
{
    switch (m.kind) {
    case HighlightMiss::Kind::Cell:
        return LessonNotes::tr("cell %1,%2 (the matrix is %3 \u00D7 %4)").arg(m.row + 1).arg(m.column + 1).arg(rows).arg(columns);
    case HighlightMiss::Kind::Row:
        return LessonNotes::tr("row %1 (the matrix is %2 \u00D7 %3)").arg(m.row + 1).arg(rows).arg(columns);
    case HighlightMiss::Kind::Column:
        return LessonNotes::tr("column %1 (the matrix is %2 \u00D7 %3)").arg(m.column + 1).arg(rows).arg(columns);
    }
    return {};
}

} // namespace

QStringList highlightMissTexts(const Session& session, const LessonStep& step)
{
    if (step.highlight.empty() || step.view == "kernel-regression" || step.view == "softmax-scaling")
        return {};
    // No trace (the input was refused, or the step's model is missing): nothing is drawn.
    if (!session.trace())
        return {};
    // The matrix the step draws: its stage (this head for per-head stages); a stage the
    // trace lacks is drawn as the tokens.
    const Trace& trace = *session.trace();
    const Stage* stage = stageForHead(trace, step.stage, isPerHeadStage(step.stage) ? std::optional<int>(session.head()) : std::nullopt);
    const int rows = stage ? static_cast<int>(stage->main().values.rows()) : static_cast<int>(trace.tokens.size());
    const int columns = stage ? static_cast<int>(stage->main().values.cols()) : 1;
    QStringList out;
    for (const HighlightMiss& m : highlightMisses(step.highlight, rows, columns))
        out << missText(m, rows, columns);
    return out;
}

QString highlightNote(const Session& session, const LessonStep& step)
{
    const QStringList misses = highlightMissTexts(session, step);
    return misses.isEmpty() ? QString() : LessonNotes::tr("With this sentence the step cannot highlight: %1").arg(misses.join(LessonNotes::tr("; ", "separates the highlights of a list")));
}

} // namespace attnlab
