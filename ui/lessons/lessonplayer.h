#pragma once
// The lesson player: the lesson list (shipped lessons in the interface language, plus the
// teacher's own files), the steps, Previous/Next, and the step's explanation beside the live
// view. A step sets the sentence, settings, stage, head, view and highlights through the
// Session; a student may still type their own sentence, and the player says which highlights
// no longer fit.

#include "io/session_json.h"
#include "lesson/lesson.h"
#include "lessons/lessonmodel.h"

#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace attnlab {

class ModelBanner;
class Session;

class LessonPlayer : public QWidget {
    Q_OBJECT
public:
    explicit LessonPlayer(Session* session, QWidget* parent = nullptr);

    /// Lists the shipped lessons of `language` ("en" or "zh"), then the teacher's own files.
    void setLanguage(const QString& language);
    /// The language of the lesson list ("en" or "zh").
    const QString& language() const { return m_language; }
    /// Opens a lesson file and starts it. A malformed file shows file, line and reason in the
    /// panel and returns false; the current lesson keeps playing.
    bool openLessonFile(const QString& path);
    /// Opens a lesson at a given step (0-based); used to carry a lesson across a language switch
    /// and to open the lesson of a session file. Without `keepSetup`, the teacher's setup kept
    /// aside is dropped (a session file brings its own).
    bool openLessonAt(const QString& path, int step, bool keepSetup = true);
    /// The file of the lesson playing (a path, or ":/lessons/<lang>/..." for shipped ones).
    const QString& currentPath() const { return m_lessonPath; }
    /// The same shipped lesson in `language` ("en"/"zh"), or `path` itself when it is not shipped.
    static QString shippedTwin(const QString& path, const QString& language);
    /// Reads the current lesson's file again (after the teacher edited it) and stays on the step.
    bool reload();
    /// Starts the lesson at `row` of the list.
    bool startLesson(int row);
    /// Leaves the lesson: the studio is free again (the keys step through stages), with the
    /// teacher's own sentence, settings, model and place as they were before the lesson started.
    void stop();
    /// True while the teacher's setup from before the lesson is kept aside for stop().
    bool keepsSetup() const { return m_setup.has_value(); }

    bool isActive() const { return m_lesson.has_value(); }
    const std::optional<Lesson>& lesson() const { return m_lesson; }
    int stepIndex() const { return m_step; }
    /// The model the current step needs and the Models folder lacks (its name), or empty: the
    /// step then shows its text only, and the view a placeholder saying so, never the picture of
    /// an earlier step or lesson.
    QString missingModel() const;
    void goToStep(int index);
    void next();
    void previous();

    /// Presenter mode: only the steps, the explanation, Previous and Next (the file buttons, the
    /// lesson list and Stop hide); false shows everything again.
    void setPresenting(bool on);

    /// The step's title and explanation as Markdown (empty without a lesson).
    QString stepMarkdown() const;
    /// What the player could not show at this step ("row 5 (the sentence has 3 tokens)"); empty when all fits.
    QString notes() const;
    /// Whether the lesson's pretrained model (its header's `requires:`) is open. While it is not,
    /// the banner says what to download, and the steps that need it show their text only: the
    /// Session keeps what it shows (the lesson's sentence under the settings in use at the
    /// start); the steps that do not need it play as usual.
    const LessonModel& lessonModel() const { return m_model; }
    ModelBanner* modelBanner() const { return m_banner; }
    /// Looks for the lesson's model in the Models folder again (after a download) and, when it
    /// is there now, shows the current step with it.
    void lookForModel();

    /// The message of the last lesson that could not be read; empty otherwise.
    QString lastError() const { return m_error; }

    QListWidget* lessonList() const { return m_lessons; }
    QListWidget* stepList() const { return m_steps; }
    QTextBrowser* explanation() const { return m_text; }
    QLabel* counter() const { return m_counter; }

signals:
    /// The teacher asked to export the current lesson (the main window owns the dialog).
    void exportRequested();
    void openRequested();
    /// A lesson started, stopped, or moved to another step.
    void stateChanged();

protected:
    /// A language change writes the buttons and the step's counter and notes again.
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    struct Entry {
        QString path;
        QString title;
        QString error;
    };

    void rebuildList();
    void showStep();
    void updateNotes();
    void showError(const QString& message);
    /// Greys the steps that need a model that is not open, and says why in their tooltips.
    void markSteps();
    bool start(const QString& path, int step);

    Session* m_session;
    QString m_language = QStringLiteral("en");
    QStringList m_userFiles;
    QList<Entry> m_entries;
    std::optional<Lesson> m_lesson;
    QString m_lessonPath;
    int m_step = 0;
    QString m_error;
    /// The teacher's setup from before the lesson (a session in memory), given back by stop().
    std::optional<SessionFile> m_setup;
    LessonModel m_model;

    QListWidget* m_lessons;
    QListWidget* m_steps;
    QTextBrowser* m_text;
    QLabel* m_counter;
    QLabel* m_notes;
    ModelBanner* m_banner;
    QPushButton* m_previous;
    QPushButton* m_next;
    QPushButton* m_stop;
    QPushButton* m_open;
    QPushButton* m_reload;
    QPushButton* m_export;
    QWidget* m_fileRow = nullptr;
};

} // namespace attnlab
