// parseLesson (lesson/lesson.h) on arbitrary bytes. It throws LessonError for bad text and
// nothing else; a lesson it accepts keeps the promises of lesson.h in every step.

#include "fuzz.h"

#include "lesson/lesson.h"

#include <algorithm>

using namespace attnlab;

namespace {

bool listed(const std::vector<std::string>& list, const std::string& s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

void checkStep(const LessonStep& s)
{
    FUZZ_CHECK(!s.title.empty() && s.line >= 1);
    FUZZ_CHECK(s.config.problems().empty());
    FUZZ_CHECK(s.head >= 0 && s.head < s.config.heads);
    FUZZ_CHECK(s.layer >= 0 && s.layer < ConfigLimits::maxLayers);
    FUZZ_CHECK(s.config.model != ModelKind::File && s.config.mask != MaskKind::Custom);
    FUZZ_CHECK(listed(lessonStageIds(), s.stage) && listed(lessonViews(), s.view));
    FUZZ_CHECK(!s.generate || *s.generate >= LessonStep::kLastGenerationStep);
    FUZZ_CHECK(!(s.target && s.generate));
    for (const auto& [row, column] : s.highlight.cells)
        FUZZ_CHECK(row >= 0 && column >= 0);
    for (const int row : s.highlight.rows)
        FUZZ_CHECK(row >= 0);
    for (const int column : s.highlight.columns)
        FUZZ_CHECK(column >= 0);
    // Checked against a small matrix, as the player does for the step's stage.
    FUZZ_CHECK(highlightProblems(s.highlight, 3, 4).size() == highlightMisses(s.highlight, 3, 4).size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto parsed = fuzz::attempt<LessonError>([&] { return parseLesson(fuzz::text(data, size), "fuzz.md"); });
    if (!parsed)
        return 0;
    const Lesson& lesson = *parsed;
    FUZZ_CHECK(!lesson.title.empty() && (lesson.language == "en" || lesson.language == "zh"));
    FUZZ_CHECK(lesson.config.problems().empty());
    FUZZ_CHECK(!lesson.steps.empty());
    for (const LessonStep& step : lesson.steps)
        checkStep(step);
    return 0;
}
