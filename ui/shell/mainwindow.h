#pragma once
// The studio window: the sentence box, the formula banner, the current stage's view, the stage
// navigator, the settings and the cell inspector; menus for sessions, weights, masks and export;
// keyboard and presentation-clicker navigation; presenter mode (F11). The window builds and
// wires its parts: the views (ViewStack), the File menu's actions (FileActions), presenter
// mode (PresenterMode), the stepping keys (StepKeys), and the Edit and Help menus, zoom and the
// heatmaps' right-click menu (DeskMenus) live in their own files; the methods
// below forward to them. It opens within its screen and lays its docks out for the room there.

#include <QMainWindow>
#include <QStringList>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QScreen;
class QTabWidget;
class QTimer;
class QMenu;

namespace attnlab {

class Autosave;
class CellInspector;
class CompareBar;
class DecoderPanel;
class DeskMenus;
class FocusRing;
class WarningLine;
class FileActions;
class ErrorBanner;
class FormulaBanner;
class LessonPlayer;
class MultiHeadView;
class PresenterMode;
class Session;
class SettingsPanel;
class StageNavigator;
class StageView;
class StepKeys;
class ViewStack;
enum class StepKey;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(Session* session, QWidget* parent = nullptr);

    QLineEdit* sentenceEdit() const { return m_sentence; }
    /// The label saying why the views do not show what was asked (the error banner's); empty
    /// when nothing failed.
    QLabel* messageLabel() const;
    StageView* stageView() const;
    StageNavigator* navigator() const { return m_navigator; }
    SettingsPanel* settingsPanel() const { return m_settings; }
    /// Comparing two inputs: the switch (View ▸ Compare two inputs, Ctrl+D) and what B is.
    CompareBar* compareBar() const { return m_compare; }
    LessonPlayer* lessonPlayer() const { return m_lessons; }
    FileActions* fileActions() const { return m_files; }
    FormulaBanner* banner() const { return m_banner; }
    /// Why the views do not show what was asked: the last error of a computation or a file.
    ErrorBanner* errorBanner() const { return m_errors; }
    CellInspector* inspector() const { return m_inspector; }
    /// The widget showing the current step (tokens table, heatmap, PE plots, concat, or a
    /// lesson's kernel-regression / softmax-scaling view).
    QWidget* currentStageWidget() const;
    /// The widget in front: the current stage widget, or the all-heads grid.
    QWidget* visibleView() const;
    MultiHeadView* headsView() const;
    QTabWidget* tabs() const;
    bool isPresenterMode() const;
    PresenterMode* presenter() const { return m_presenter; }
    /// View ▸ Presenter mode (ticked while it is on).
    QAction* presenterAction() const { return m_presenterAction; }
    /// The Go menu: every stepping key is listed there.
    /// The computation's warnings, in the status bar.
    WarningLine* warningLine() const { return m_warnings; }
    QMenu* goMenu() const { return m_goMenu; }
    /// View ▸ Presenter screen: one entry per screen and "automatic"; shown with several screens.
    QMenu* screenMenu() const { return m_screenMenu; }
    /// The stepping keys (which text field, if any, the user is typing in).
    StepKeys* stepKeys() const { return m_keys; }
    /// Does what a stepping key asks (the Go menu does the same); false when the key does not
    /// apply now (B outside presenter mode).
    bool stepKey(StepKey key);
    /// Sizes and places the window within `screen`'s available area and lays the docks out for
    /// it: on a small screen the right-hand panels share one column as tabs.
    void fitToScreen(QScreen* screen);
    /// Shows the window within its screen (also a layout saved on a larger one) and active, so
    /// that the keys work at once, without a click first.
    void showWithinScreen();
    /// True when the settings and the inspector are tabs beside the lessons (a small screen).
    bool docksInOneColumn() const;
    /// View ▸ Panels ▸ Reset layout: every panel back where the first start puts it (docked,
    /// shown, at its first size, in one column or two as the screen allows); the window keeps
    /// its size and place. Leaves presenter mode first.
    void resetLayout();
    /// The step counter shown in presenter mode ("Step 3 / 9").
    QLabel* counterLabel() const;

    // File actions, callable without dialogs (tests, scripts). Each reports problems in the
    // message line and returns false; nothing else changes on failure.
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool importWeights(const QString& path);
    bool saveWeights(const QString& path);
    /// Opens a model file (docs/model-format.md); a bad file leaves everything as it was.
    bool importModel(const QString& path);
    bool saveModel(const QString& path);
    bool openMask(const QString& path);
    /// Exports the view in front (the current heatmap, PE plots, heads grid ...) as PNG, SVG or
    /// PDF, by the file's suffix, at `dpi` for PNG.
    bool exportCurrentView(const QString& path, int dpi = 150);
    /// The current stage's matrix as CSV.
    bool exportCurrentCsv(const QString& path);
    /// Every stage of the current trace (every head) into `dir`, with a progress dialog.
    bool exportAllStagesTo(const QString& dir, const QString& format);
    /// Puts an image of the view in front on the clipboard.
    void copyImage();
    /// Renders the current lesson to a PDF deck (a .pdf path) or PNG pages (a folder).
    bool exportLesson(const QString& path, bool png);
    QStringList recentFiles() const;

    /// Window geometry and dock layout, kept in QSettings.
    void saveLayout() const;
    void restoreLayout();
    /// Offers the work a crashed run left (when an autosave is set), else reopens the session
    /// saved when the app last closed; a broken one is reported and ignored.
    bool restoreLastSession();
    /// A fresh start (no session to restore): the first stage, and a one-line hint in the
    /// status bar on how to step on, until the first step is taken.
    void startAtFirstStage();
    /// The start of a run: `sentence` (the command line's) when not empty; else the work a crash
    /// left or the last session (restoreLastSession); else the default sentence of the
    /// interface's language (LanguageManager::defaultSentence: a Chinese one in Chinese). A
    /// fresh start then begins at the first stage (startAtFirstStage).
    void start(const QString& sentence);
    /// Shows the status bar while it holds a message or a warning (not in presenter mode): a
    /// message (a few seconds) hides the warnings; the start's hint gives way to a warning.
    void updateStatusBar();
    /// The autosave of this window's session (it outlives the window): it keeps the lesson's
    /// place too, and restoreLastSession offers what it finds after a crash.
    void setAutosave(Autosave* autosave);
    /// The interface language now in force: ticks it in the Language menu and moves a shipped
    /// lesson in progress to its twin in that language, at the same step. (The texts change on
    /// QEvent::LanguageChange, which LanguageManager::setLanguage sends.)
    void setCurrentLanguage(const QString& code);

signals:
    /// The user picked a language in the menu (the application installs it; the window and
    /// everything in it write their texts again in place).
    void languageRequested(const QString& code);

public slots:
    void setPresenterMode(bool on);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildCentralWidget();
    void buildDocks();
    void connectInput();
    void buildMenus();
    /// Docks every panel where the first start has it: stages and lessons as tabs on the left,
    /// the settings over the inspector on the right (placeRightDocks).
    void placeDocks();
    void placeRightDocks();
    void arrangeDocks(const QSize& available);
    void buildPresenterMenu(QMenu* view);
    void listScreens();
    /// Gives the focus to the view in front (Esc, Enter in the sentence box).
    void focusView();
    void next();
    void previous();
    void labelSentence();
    void retranslate();
    void tickLanguage();
    void showMessages();
    void showError(const QString& message);
    void showStatus(const QString& message, bool isError);

    Session* m_session;
    QLineEdit* m_sentence;
    WarningLine* m_warnings;
    FormulaBanner* m_banner;
    ErrorBanner* m_errors;
    ViewStack* m_views;
    DecoderPanel* m_decoder;
    CompareBar* m_compare;
    QLabel* m_sentenceLabel = nullptr;
    StageNavigator* m_navigator;
    SettingsPanel* m_settings;
    CellInspector* m_inspector;
    LessonPlayer* m_lessons;
    QTimer* m_debounce;
    FileActions* m_files;
    PresenterMode* m_presenter;
    StepKeys* m_keys;
    DeskMenus* m_desk;
    FocusRing* m_focusRing;
    QDockWidget* m_navDock = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    QDockWidget* m_settingsDock = nullptr;
    QDockWidget* m_inspectorDock = nullptr;
    QMenu* m_languageMenu = nullptr;
    QMenu* m_goMenu = nullptr;
    QMenu* m_screenMenu = nullptr;
    QAction* m_presenterAction = nullptr;
    QString m_language = QStringLiteral("en");
    QString m_hint; ///< the status bar's hint on how to step on (startAtFirstStage)
    QString m_errorStatus; ///< the last input error the status bar repeats, cleared once the input computes
};

} // namespace attnlab
