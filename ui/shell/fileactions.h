#pragma once
// The studio's File menu: sessions (open, save, recent files, the session kept between runs),
// weights, models and masks, and export (the view in front as PNG/SVG/PDF, its matrix as CSV,
// every stage at once, the lesson as a deck, the image on the clipboard). Each action exists
// twice: a dialog that asks for the path, and a function that takes it (tests, scripts).
// Problems are reported through statusReported, never thrown; a failed action changes nothing.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QAction;
class QMenu;
class QWidget;

namespace attnlab {

class Autosave;
class LessonPlayer;
class ModelsMenu;
class Session;
struct LessonPlace;
class ViewStack;

class FileActions : public QObject {
    Q_OBJECT
public:
    /// Dialogs open over `window`, which also owns the FileActions.
    FileActions(Session* session, ViewStack* views, LessonPlayer* lessons, QWidget* window);

    /// Adds the actions to the File menu, with their shortcuts and the "Open recent" submenu.
    void addTo(QMenu* file);
    /// Adds File ▸ Models (shell/modelsmenu.h) below "Open model folder" of a menu made by addTo.
    void addModelsMenu(QMenu* file);

    // Each returns false after reporting the problem; nothing else changes on failure.
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool importWeights(const QString& path);
    bool saveWeights(const QString& path);
    bool importModel(const QString& path);
    bool saveModel(const QString& path);
    bool openMask(const QString& path);
    /// The view in front as PNG (at `dpi`), SVG or PDF, by the file's suffix; a single heatmap
    /// exports as a vector plot with its title and colour bar, other views as drawn.
    bool exportCurrentView(const QString& path, int dpi = 150);
    /// The current stage's matrix as CSV.
    bool exportCurrentCsv(const QString& path);
    /// Every stage of the full trace (every head) into `dir`, with a progress dialog.
    bool exportAllStagesTo(const QString& dir, const QString& format);
    /// The current lesson as a PDF deck (a .pdf path) or PNG pages (a folder).
    bool exportLesson(const QString& path, bool png);
    /// Puts an image of the view in front on the clipboard.
    void copyImage();

    /// The file name the export dialogs suggest for what is on screen (export/exportname.h):
    /// "weights-head1-狗咬了人.png", "concat-layer1-self-the_dog.csv", "weights-heads-….png" for
    /// the all-heads grid, "compare-…" while comparing.
    QString suggestedName(const QString& suffix) const;
    /// The name the lesson export suggests: "lesson-<its title>.pdf".
    QString suggestedLessonName() const;

    /// The sessions opened or saved last, newest first (at most 8), kept in QSettings.
    QStringList recentFiles() const;
    /// After a run that did not quit cleanly (a crash, a kill), offers the session its autosave
    /// kept (Restore / Discard); otherwise, or after Discard, reopens the session saved when the
    /// app last closed. A broken one is reported and ignored.
    bool restoreLastSession();
    /// Saves the session (and the lesson playing) for restoreLastSession, best effort (closing
    /// is never blocked).
    void saveLastSession() const;
    /// The autosave of this window's session: it saves the lesson's place too, its failures are
    /// reported, and restoreLastSession looks in its folder. Null: none.
    void setAutosave(Autosave* autosave);

    // The dialogs: each asks for what its action needs; cancelling does nothing.
    void openSessionDialog();
    /// Saves to the session's file, asking for one when there is none yet.
    void saveSessionDialog();
    void saveSessionAsDialog();
    void openWeightsDialog();
    void saveWeightsDialog();
    void openMaskDialog();
    void openModelDialog();
    void openModelFolderDialog();
    void saveModelDialog();
    /// Asks for the file (its name suggested from the stage, head and sentence), then for the
    /// resolution when it is a PNG.
    void exportViewDialog();
    void exportCsvDialog();
    /// Asks for a folder and an image format.
    void exportAllDialog();
    void exportLessonDialog();
    void openLessonDialog();

signals:
    /// A message for the status line: what was done, or (isError) why it could not be done.
    void statusReported(const QString& message, bool isError);

private:
    enum class Ask {
        Open,
        Save,
    };
    using Progress = std::function<bool(int done, int total)>;

    /// A path from a file dialog (an empty string when cancelled); `chosenFilter` receives the
    /// filter picked in a save dialog.
    QString askPath(Ask ask, const QString& title, const QString& suggested, const QString& filter,
                    QString* chosenFilter = nullptr) const;
    /// Asks for a path and, unless the user cancels, runs `action` on it.
    void askThen(Ask ask, const QString& title, const QString& suggested, const QString& filter,
                 bool (FileActions::*action)(const QString&));
    /// Reports `failure` as an error unless `ok`, else `success` (when not empty); returns ok.
    bool report(bool ok, const QString& failure, const QString& success);
    /// Runs `work` with a window-modal progress dialog of `maximum` steps and its callback.
    void withProgress(const QString& label, int maximum, const std::function<void(const Progress&)>& work);
    /// The session's file from now on, and first in the recent files.
    void remember(const QString& sessionPath);
    /// The lesson playing and its step, for session files; nullopt when none plays.
    std::optional<LessonPlace> lessonPlace() const;
    /// Opens a session file and the lesson it names at its step (the lesson first, so the
    /// file's sentence and settings show over the step's).
    bool loadWithLesson(const QString& path, QString* error);
    /// Asks whether to restore the newest session a crashed run left; true when it was restored.
    bool offerOrphan();
    void rebuildRecentMenu();

    Session* m_session;
    ViewStack* m_views;
    LessonPlayer* m_lessons;
    QWidget* m_window;
    QMenu* m_recentMenu = nullptr;
    ModelsMenu* m_models; ///< File ▸ Models: the Models folder's model folders
    QPointer<QAction> m_openFolder; ///< "Open model folder", which File ▸ Models follows
    QString m_sessionPath; ///< where Save writes without asking; empty until opened or saved
    QPointer<Autosave> m_autosave;
};

} // namespace attnlab
