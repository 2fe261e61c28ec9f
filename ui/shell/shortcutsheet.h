#pragma once
// Help ▸ Keyboard shortcuts (F1): every shortcut of the window, read from the window itself when
// the sheet opens — its menus' actions (with their shortcuts, or the keys a menu entry lists
// after its tab, as the Go menu does for the stepping keys), any other action or QShortcut of
// the window (under their own group when they name one: kShortcutGroup, the generation
// stepper's keys), and the stepping keys of shell/stepkeys.h — so the sheet cannot go stale. Last,
// what the mouse does on a heatmap (zoom, scroll, the right-click menu).

#include <QDialog>
#include <QList>
#include <QPointer>
#include <QString>

class QMainWindow;
class QTreeWidget;

namespace attnlab {

struct ShortcutEntry {
    QString group;  ///< the menu ("File"), or "Stepping keys" / "Window"
    QString action; ///< what it does, without the menu's & mnemonics
    QString keys;   ///< "Ctrl+S", "→, Space, PgDown"
};

/// Every shortcut of `window`, its menus first in menu order.
QList<ShortcutEntry> collectShortcuts(QMainWindow* window);

class ShortcutSheet : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutSheet(QMainWindow* window);

    /// The entries shown (collected when the sheet opened or the language changed).
    const QList<ShortcutEntry>& entries() const { return m_entries; }
    QTreeWidget* tree() const { return m_tree; }
    /// Reads the window's shortcuts again and shows them.
    void refresh();

protected:
    void changeEvent(QEvent* event) override;

private:
    QPointer<QMainWindow> m_window;
    QTreeWidget* m_tree;
    QList<ShortcutEntry> m_entries;
};

} // namespace attnlab
