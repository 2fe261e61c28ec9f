#pragma once
// Lessons that need a pretrained model (docs/lesson-format.md, "Lessons that need a model"):
// finding the folder its header `requires` in the Models folder, opening it in a Session, and
// saying what to download, and where to put it, when it is not there.

#include "lesson/lesson.h"

#include <QCoreApplication>
#include <QString>

namespace attnlab {

class Session;

/// Whether a lesson's model is open.
struct LessonModel {
    enum class State {
        NotNeeded, ///< the lesson has no `requires:`
        Opened,    ///< the folder is the Session's model
        Missing,   ///< no folder of the Models folder fits
        Failed,    ///< a folder fits but could not be opened
    };
    State state = State::NotNeeded;
    QString folder;   ///< the folder opened, or the one that could not be opened
    /// Why the folder with the required name does not fit (another family, too few layers or
    /// heads), or why opening failed; in the interface's language where the engine's message has
    /// a translation, else English. Empty otherwise.
    QString problem;

    /// True when every step can be shown.
    bool ready() const { return state == State::NotNeeded || state == State::Opened; }
};

class LessonModels {
    Q_DECLARE_TR_FUNCTIONS(attnlab::LessonModels)
public:
    /// Finds `lesson`'s model in the Models folder (findRequiredModel) and opens it in `session`,
    /// unless it is the Session's model already. Once open, every step that runs it (and the
    /// header's settings) gets the model's d_model and heads, as a trained model's steps do.
    /// Nothing changes in the Session when the model is missing or cannot be opened.
    static LessonModel open(Session& session, Lesson& lesson);
    /// What the lesson needs, for the banner (Markdown): the model, where to download it, the
    /// files, the folder to put them in, why a folder there did not do, and that the steps that
    /// need it show their text only.
    static QString bannerMarkdown(const Lesson& lesson, const LessonModel& model);
    /// The same in one line of plain text (a slide deck's first note): the model, that its steps
    /// are left out, and how to get it (attention-lab-cli download, or where to put its files).
    static QString missingText(const Lesson& lesson, const LessonModel& model);
    /// The title of a deck's page that stands for the steps the missing model would show.
    static QString deckPageTitle(const Lesson& lesson, const LessonModel& model);
    /// Its text (Markdown): which steps are left out, how to get the model — on the command line
    /// and in the studio — or where to put its files, and to render the deck again then.
    static QString deckPageMarkdown(const Lesson& lesson, const LessonModel& model);
};

} // namespace attnlab
