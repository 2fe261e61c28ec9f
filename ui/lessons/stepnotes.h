#pragma once
// What a lesson step says about itself on screen and on a slide: the highlights that the
// matrix shown cannot draw (a student's shorter sentence), in the interface's language.

#include "lesson/lesson.h"

#include <QString>
#include <QStringList>

namespace attnlab {

class Session;

/// The highlights of `step` that the matrix `session` shows cannot draw, one item each
/// ("row 5 (the matrix has 3 rows)"). Empty when they all fit, when the step highlights
/// nothing, or when its view draws no stage (kernel regression, softmax scaling).
QStringList highlightMissTexts(const Session& session, const LessonStep& step);

/// "With this sentence the step cannot highlight: row 5 (…); column 9 (…)", or empty.
QString highlightNote(const Session& session, const LessonStep& step);

} // namespace attnlab
