#pragma once
// Lessons as slide decks: one page per step with the step's figure (the same view the studio
// shows), the lesson and step titles, the formula and the explanation. PDF (one file) or PNG
// (one image per step). Works without a display (offscreen platform).

#include "lesson/lesson.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace attnlab {

class Session;
class SessionView;

struct DeckOptions {
    enum class Format {
        Pdf,
        Png,
    };
    Format format = Format::Pdf;
    int dpi = 150;              ///< PNG pixel density (the page is 1600 × 900 logical pixels)
};

struct DeckResult {
    bool ok = false;
    QString error;              ///< why it failed; files already written are listed anyway
    QStringList files;          ///< the PDF, or the PNGs in step order
    int pages = 0;
    /// What the pages say about themselves, also printed on them: "step 2 (line 14): With this
    /// sentence the step cannot highlight: row 5 (the matrix is 3 × 3)".
    QStringList notes;
};

/// Renders `lesson` to `output`: a .pdf file for Format::Pdf, a folder for Format::Png (made if
/// missing; files "01-step-title.png" ...). `progress(done, total)` returning false cancels.
/// An earlier file at a PDF path survives a failed or cancelled export. A step that cannot be
/// drawn as written (the engine refuses its input, e.g. too many attention cells, or the model
/// lacks its stage) fails the deck with "step N (line L): reason", never an empty figure.
/// A lesson that needs a pretrained model (`requires:`) is drawn with the folder of the Models
/// folder (lessons/lessonmodel.h); without it the deck has the steps that need no model and, in
/// place of the others, one page saying which model to get and how (the first note says so too).
DeckResult renderLessonDeck(const Lesson& lesson, const QString& output, const DeckOptions& options,
                            const std::function<bool(int, int)>& progress = {});

/// The figure of the step `session` shows, as a slide draws it (offscreen, at the figure's size):
/// type from the page's height (projectiontype.h), nothing interactive, no plot title.
std::unique_ptr<SessionView> makeSlideView(Session* session);
/// The point size the text column draws `markdown` in: 3.5 % of the page's height when it fits,
/// smaller down to 2 % when it does not (and cut off below that).
double slideTextPoints(const QString& markdown);
/// The page's height in points (a PDF page is 1200 × 675 points).
double slidePagePoints();
/// The right column of a page in Markdown: the stage's place, name, formula (a pretrained
/// model's as the studio's banner gives it) and shapes for views of a stage, `note`, then the
/// step's explanation.
QString pageMarkdown(const Session& session, const LessonStep& step, const QString& note);

/// Reads a lesson from a file path or a Qt resource path (":/lessons/en/..."). Throws LessonError.
Lesson readLessonFile(const QString& path);

} // namespace attnlab
