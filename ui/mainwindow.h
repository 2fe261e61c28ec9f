#pragma once
// The studio window: the sentence box, the formula banner, the current stage's view, the stage
// navigator, the settings and the cell inspector; menus for sessions, weights, masks and export;
// keyboard and presentation-clicker navigation; presenter mode (F11).

#include <QMainWindow>
#include <QStringList>

class QLabel;
class QLineEdit;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QMenu;

namespace attnlab {

class CellInspector;
class FormulaBanner;
class Session;
class SettingsPanel;
class StageNavigator;
class StageView;
class TokensView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(Session* session, QWidget* parent = nullptr);

    QLineEdit* sentenceEdit() const { return m_sentence; }
    QLabel* messageLabel() const { return m_message; }
    StageView* stageView() const { return m_stageView; }
    StageNavigator* navigator() const { return m_navigator; }
    SettingsPanel* settingsPanel() const { return m_settings; }
    FormulaBanner* banner() const { return m_banner; }
    CellInspector* inspector() const { return m_inspector; }
    /// The widget showing the current step (tokens table, heatmap, PE plots, concat).
    QWidget* currentStageWidget() const;
    bool isPresenterMode() const { return m_presenter; }

    // File actions, callable without dialogs (tests, scripts). Each reports problems in the
    // message line and returns false; nothing else changes on failure.
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool importWeights(const QString& path);
    bool saveWeights(const QString& path);
    bool openMask(const QString& path);
    QStringList recentFiles() const;

    /// Restores geometry and the last session from QSettings (call once after construction).
    void restoreState();

public slots:
    void setPresenterMode(bool on);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildShortcuts();
    void showStep();
    void showMessages();
    void showError(const QString& message);
    void showStatus(const QString& message, bool isError);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    QString lastSessionPath() const;

    Session* m_session;
    QLineEdit* m_sentence;
    QLabel* m_message;
    FormulaBanner* m_banner;
    QTabWidget* m_tabs;
    QStackedWidget* m_stack;
    TokensView* m_tokensView;
    StageView* m_stageView;
    StageNavigator* m_navigator;
    SettingsPanel* m_settings;
    CellInspector* m_inspector;
    QTimer* m_debounce;
    QMenu* m_recentMenu = nullptr;
    QString m_sessionPath;
    bool m_presenter = false;
    QFont m_normalFont;
};

} // namespace attnlab
