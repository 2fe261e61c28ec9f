#pragma once
// The stepping keys of the studio window, whatever widget has the keyboard focus: ←/→, Space and
// PageUp/PageDown (what presentation clickers send) step the lesson or the stages, Home/End go to
// the first or last, ↑/↓ change the head, B (or the period, as in presentation software) blacks
// the projector out, Esc leaves. A table, a heatmap, a list, a button, a tab or a spin box never
// swallows them. Only a text field the user is typing in keeps its keys (the clicker's
// PageUp/PageDown still step); Enter or Esc gives them back. A widget marked with the property
// kOwnsArrowKeys (views/sessionview.h: the model view's grid, the head view's tokens) keeps the
// four arrows while it has the focus; the clicker's keys, Space, Home and End still step.
//
// A field counts as typed in once the user clicked into its text, typed or pasted in it, or put
// the focus there on purpose (Ctrl+L, its label's Alt shortcut, the Tab key) — not when Qt moved
// the focus there because the page the focus was on got hidden.

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

class QKeyEvent;
class QMenuBar;
class QWidget;

namespace attnlab {

enum class StepKey {
    Next,         ///< →, Space, PageDown
    Previous,     ///< ←, PageUp
    First,        ///< Home
    Last,         ///< End
    NextHead,     ///< ↓
    PreviousHead, ///< ↑
    Blackout,     ///< B or the period
    Escape,       ///< Esc
};

class StepKeys : public QObject {
    Q_OBJECT
public:
    /// Acts on the key events of `window` and of its floating docks. `handler` does what a key
    /// asks and says whether it did: a key it leaves goes on to the focused widget.
    StepKeys(QWidget* window, std::function<bool(StepKey)> handler);
    ~StepKeys() override;

    /// The stepping key a key press means (no modifier but the keypad's), if any.
    static std::optional<StepKey> stepKeyFor(int key, Qt::KeyboardModifiers modifiers);
    /// The keys of `key` as the menus show them: "→, Space, PgDown".
    static QString keysText(StepKey key);
    /// The text field `w` belongs to (a line edit, an editable combo box, a spin box that can be
    /// typed in, an editable text area), or null.
    static QWidget* textField(QWidget* w);

    /// The field the user is typing in, or null when the keys step.
    QWidget* typingIn() const { return m_typing; }
    /// Marks `field` (a text field) as typed in, as Ctrl+L does for the sentence box.
    void startTyping(QWidget* field);

signals:
    /// Esc in a text field gave the keys back; the window moves the focus to the view.
    void fieldLeft();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool inWindow(const QObject* receiver) const;
    /// True for a key with Ctrl or Alt that is a shortcut of one of the window's actions and
    /// not a text-editing key (copy, paste, undo, …).
    bool isWindowShortcut(const QKeyEvent* e) const;
    /// The widget a key is for: the focused one, or the receiver when nothing has the focus.
    QWidget* keyOwner(QObject* receiver) const;
    /// The text field of `owner`, if any.
    QWidget* fieldOf(QWidget* owner) const;
    /// A key press in the window: steps, or leaves it to the field the user types in.
    bool keyPress(QObject* receiver, QKeyEvent* event);
    /// Notes the events that start typing in a field (a click in its text, a typed key).
    void noteTyping(QObject* receiver, QEvent* event);
    /// The menu bar when it has the focus in keyboard mode (its title lit, no menu open), or
    /// null. A menu opened by a click and closed with Esc leaves it so.
    QMenuBar* menuBarInKeyboardMode() const;
    /// Ends that mode as the bar's own Esc does: the focus goes back where it was.
    static void leaveMenuBar(QMenuBar* bar);
    /// Whether `key` (a stepping key) is for the menu bar in keyboard mode: the arrows, after
    /// Alt (the user walks the menus); never the clicker's keys, never after a click's menu.
    bool menuBarTakes(int key) const;

    QWidget* m_window;
    std::function<bool(StepKey)> m_handler;
    QPointer<QWidget> m_typing;
    bool m_tabPressed = false; ///< the last key was Tab or Backtab: the focus it moves is on purpose
    bool m_altMenus = false;   ///< Alt was pressed since the last click: menus by keyboard
};

} // namespace attnlab
