#pragma once
// What a desktop application is expected to have, for the studio window: the Edit menu (undo
// and redo of the sentence and the settings, session/history.h), zoom and fit in the View menu
// (views/heatmapzoom.h), the Help menu (the getting-started page on F1, the shortcut sheet on
// Ctrl+F1, About), and the right-click
// menu of every heatmap (views/heatmapmenu.h). The window makes one and calls addTo() each time
// it makes its menus (at the start and on every language change).

#include <QObject>
#include <QPointer>

class QAction;
class QMenu;
class QMenuBar;
class QWidget;

namespace attnlab {

class AboutDialog;
class FileActions;
class GettingStarted;
class HeatmapMenu;
class History;
class MainWindow;
class Session;
class ShortcutSheet;

class DeskMenus : public QObject {
    Q_OBJECT
public:
    DeskMenus(MainWindow* window, Session* session, FileActions* files);

    /// Adds Edit (before `view`), the zoom entries (to `view`) and Help (last) to `bar`, in the
    /// interface's language. The actions are kept; the menus belong to the bar.
    void addTo(QMenuBar* bar, QMenu* view);

    History* history() const { return m_history; }
    HeatmapMenu* heatmapMenu() const { return m_heatmapMenu; }
    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    QAction* zoomInAction() const { return m_zoomIn; }
    QAction* zoomOutAction() const { return m_zoomOut; }
    QAction* fitAction() const { return m_fit; }
    QAction* gettingStartedAction() const { return m_gettingStarted; }
    QAction* shortcutsAction() const { return m_shortcuts; }
    QAction* aboutAction() const { return m_about; }
    /// Opens (or raises) the getting-started page / the shortcut sheet / the About box; null
    /// until first opened.
    GettingStarted* showGettingStarted();
    ShortcutSheet* showShortcuts();
    AboutDialog* showAbout();

protected:
    /// Ctrl+Z and its kin in the sentence box and the settings are the studio's undo, not the
    /// text field's own.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void updateUndo();
    /// Undo (−1) or redo (+1), after giving the Session what is typed in the sentence box but
    /// not committed yet.
    void step(int way);
    /// Zooms every heatmap of the view in front (`how`: +1 in, −1 out, 0 fit).
    void zoom(int how);
    bool ownsUndoKeys(const QWidget* w) const;

    MainWindow* m_window;
    Session* m_session;
    History* m_history;
    HeatmapMenu* m_heatmapMenu;
    QAction* m_undo;
    QAction* m_redo;
    QAction* m_zoomIn;
    QAction* m_zoomOut;
    QAction* m_fit;
    QAction* m_gettingStarted;
    QAction* m_shortcuts;
    QAction* m_about;
    QPointer<GettingStarted> m_start;
    QPointer<ShortcutSheet> m_sheet;
    QPointer<AboutDialog> m_aboutBox;
};

} // namespace attnlab
