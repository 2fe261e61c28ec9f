#include "shell/stepkeys.h"

#include "views/sessionview.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFocusEvent>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace attnlab {

namespace {

struct Binding {
    Qt::Key key;
    StepKey action;
};

/// Every stepping key, in the order the menus list them.
constexpr Binding kBindings[] = {
    {Qt::Key_Right, StepKey::Next},
    {Qt::Key_Space, StepKey::Next},
    {Qt::Key_PageDown, StepKey::Next},
    {Qt::Key_Left, StepKey::Previous},
    {Qt::Key_PageUp, StepKey::Previous},
    {Qt::Key_Home, StepKey::First},
    {Qt::Key_End, StepKey::Last},
    {Qt::Key_Down, StepKey::NextHead},
    {Qt::Key_Up, StepKey::PreviousHead},
    {Qt::Key_B, StepKey::Blackout},
    {Qt::Key_Period, StepKey::Blackout},
    {Qt::Key_Escape, StepKey::Escape},
};

/// The clicker's keys: they step even while the user types (a one-line field has no use for them).
bool isClickerKey(int key)
{
    return key == Qt::Key_PageDown || key == Qt::Key_PageUp;
}

/// A key that puts text into a field (or takes it out): the user is typing there.
bool editsText(const QKeyEvent* e)
{
    if (e->key() == Qt::Key_Backspace || e->key() == Qt::Key_Delete)
        return true;
    const auto key = StepKeys::stepKeyFor(e->key(), e->modifiers());
    if (key && *key != StepKey::Blackout)
        return false; // B and the period are letters in a field
    return !e->text().isEmpty() && !e->text().at(0).isSpace(); // Tab, Enter: not typing
}

/// An arrow key for a widget that takes them while it has the focus (views/sessionview.h's
/// kOwnsArrowKeys: the model view's grid, the head view's tokens).
bool ownedArrow(const QWidget* owner, const QKeyEvent* e)
{
    const int k = e->key();
    const bool arrow = k == Qt::Key_Left || k == Qt::Key_Right || k == Qt::Key_Up || k == Qt::Key_Down;
    return arrow && owner && owner->property(kOwnsArrowKeys).toBool();
}

} // namespace

StepKeys::StepKeys(QWidget* window, std::function<bool(StepKey)> handler)
    : QObject(window)
    , m_window(window)
    , m_handler(std::move(handler))
{
    qApp->installEventFilter(this);
    // Leaving the field by any means (a click elsewhere, Tab) gives the keys back to stepping;
    // a window losing the focus keeps its field.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (m_typing && now && now != m_typing && !m_typing->isAncestorOf(now))
            m_typing = nullptr;
    });
}

StepKeys::~StepKeys()
{
    qApp->removeEventFilter(this);
}

std::optional<StepKey> StepKeys::stepKeyFor(int key, Qt::KeyboardModifiers modifiers)
{
    if ((modifiers & ~Qt::KeypadModifier) != Qt::NoModifier)
        return std::nullopt; // Shift+←, Ctrl+End … belong to the widgets
    for (const Binding& b : kBindings) {
        if (b.key == key)
            return b.action;
    }
    return std::nullopt;
}

QString StepKeys::keysText(StepKey key)
{
    QStringList names;
    for (const Binding& b : kBindings) {
        if (b.action != key)
            continue;
        switch (b.key) {
        case Qt::Key_Right: names << QStringLiteral("\u2192"); break;
        case Qt::Key_Left: names << QStringLiteral("\u2190"); break;
        case Qt::Key_Down: names << QStringLiteral("\u2193"); break;
        case Qt::Key_Up: names << QStringLiteral("\u2191"); break;
        default: names << QKeySequence(b.key).toString(QKeySequence::NativeText); break;
        }
    }
    return names.join(QStringLiteral(", "));
}

QWidget* StepKeys::textField(QWidget* w)
{
    if (!w)
        return nullptr;
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(w))
        return spin->isReadOnly() ? nullptr : spin;
    if (auto* combo = qobject_cast<QComboBox*>(w))
        return combo->isEditable() ? combo : nullptr;
    if (auto* edit = qobject_cast<QLineEdit*>(w)) {
        if (edit->isReadOnly())
            return nullptr;
        // The line edit inside a spin box or an editable combo box: the box is the field.
        QWidget* box = edit->parentWidget();
        return qobject_cast<QAbstractSpinBox*>(box) || qobject_cast<QComboBox*>(box) ? textField(box) : edit;
    }
    // A text area, or its viewport (which receives the mouse).
    for (QWidget* area : {w, w->parentWidget()}) {
        if (auto* text = qobject_cast<QTextEdit*>(area))
            return text->isReadOnly() ? nullptr : text;
        if (auto* plain = qobject_cast<QPlainTextEdit*>(area))
            return plain->isReadOnly() ? nullptr : plain;
    }
    return nullptr;
}

void StepKeys::startTyping(QWidget* field)
{
    m_typing = textField(field);
}

bool StepKeys::inWindow(const QObject* receiver) const
{
    // The window and its floating docks; not its menus, dialogs or popups (windows of their own).
    for (auto* w = qobject_cast<const QWidget*>(receiver); w; w = w->parentWidget()) {
        if (w == m_window)
            return true;
        if (w->isWindow() && !qobject_cast<const QDockWidget*>(w))
            return false;
    }
    return false;
}

bool StepKeys::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::ShortcutOverride:
    case QEvent::KeyPress:
    case QEvent::FocusIn:
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
    case QEvent::InputMethod:
        break;
    default:
        return false;
    }
    if (!inWindow(watched))
        return false;
    if (event->type() == QEvent::KeyPress) {
        auto* e = static_cast<QKeyEvent*>(event);
        if (e->key() == Qt::Key_Alt || (e->modifiers() & Qt::AltModifier))
            m_altMenus = true; // the user walks the menus by keyboard
        return keyPress(watched, e);
    }
    if (event->type() == QEvent::ShortcutOverride) {
        // Claim the stepping keys before any shortcut or widget does (a table, a spin box and a
        // line edit all ask for ← and →); the key press that follows comes to keyPress().
        auto* e = static_cast<QKeyEvent*>(event);
        if (isWindowShortcut(e))
            return true; // left unaccepted: the shortcut fires, the field never sees the key
        const auto key = stepKeyFor(e->key(), e->modifiers());
        // A menu bar left in keyboard mode (a menu clicked open and closed with Esc) would take
        // the clicker's keys, and → and Space would open menus: a stepping key ends that mode
        // first, and the key press that follows goes where the focus was before.
        if (QMenuBar* bar = menuBarInKeyboardMode(); bar && key && *key != StepKey::Escape && !menuBarTakes(e->key()))
            leaveMenuBar(bar);
        QWidget* owner = keyOwner(watched);
        if (!key || *key == StepKey::Blackout || qobject_cast<QMenuBar*>(owner) || ownedArrow(owner, e))
            return false;
        if (m_typing && fieldOf(owner) == m_typing && !isClickerKey(e->key()) && *key != StepKey::Escape)
            return false;
        e->accept();
        return true;
    }
    noteTyping(watched, event);
    return false;
}

void StepKeys::noteTyping(QObject* receiver, QEvent* event)
{
    auto* w = qobject_cast<QWidget*>(receiver);
    switch (event->type()) {
    case QEvent::FocusIn: {
        // On purpose: the label's Alt shortcut, or the Tab key (Qt also moves the focus "by Tab"
        // when the focused page is hidden; that is not the user's choice).
        const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
        const bool tab = reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason;
        if (reason == Qt::ShortcutFocusReason || (tab && m_tabPressed))
            m_typing = textField(w);
        break;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
        m_tabPressed = false;
        m_altMenus = false;
        // A click elsewhere (also on a part that takes no focus) ends the menu bar's keyboard mode.
        if (QMenuBar* bar = menuBarInKeyboardMode(); bar && w && w != bar && !bar->isAncestorOf(w))
            leaveMenuBar(bar);
        // A click anywhere else (a button that takes no focus, a heatmap) ends the typing: the
        // keys step again even though the field keeps the focus.
        if (m_typing && w && w != m_typing && !m_typing->isAncestorOf(w))
            m_typing = nullptr;
        // A click into a field's text (not on a spin box's arrows or a combo box's button).
        if (qobject_cast<QLineEdit*>(w) || qobject_cast<QTextEdit*>(w ? w->parentWidget() : nullptr)
            || qobject_cast<QPlainTextEdit*>(w ? w->parentWidget() : nullptr)) {
            if (QWidget* field = textField(w))
                m_typing = field;
        }
        break;
    case QEvent::InputMethod:
        if (!static_cast<QInputMethodEvent*>(event)->commitString().isEmpty() || !static_cast<QInputMethodEvent*>(event)->preeditString().isEmpty()) {
            if (QWidget* field = textField(w))
                m_typing = field;
        }
        break;
    default:
        break;
    }
}

QMenuBar* StepKeys::menuBarInKeyboardMode() const
{
    auto* bar = qobject_cast<QMenuBar*>(QApplication::focusWidget());
    return bar && inWindow(bar) && !QApplication::activePopupWidget() ? bar : nullptr;
}

void StepKeys::leaveMenuBar(QMenuBar* bar)
{
    QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
    QCoreApplication::sendEvent(bar, &escape);
}

bool StepKeys::menuBarTakes(int key) const
{
    const bool arrow = key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Up || key == Qt::Key_Down;
    return m_altMenus && arrow;
}

bool StepKeys::isWindowShortcut(const QKeyEvent* e) const
{
    // A text field claims the emacs keys of X11 (Ctrl+E: end of line, Ctrl+D: delete), which
    // would swallow the window's Ctrl+E (export) and Ctrl+D (compare) whenever the sentence box
    // has the focus — after a file dialog, for one. The editing keys stay the field's.
    if (!(e->modifiers() & (Qt::ControlModifier | Qt::AltModifier)))
        return false;
    for (const auto editing : {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo, QKeySequence::Redo,
                               QKeySequence::SelectAll})
        if (e->matches(editing))
            return false;
    const QKeySequence pressed(e->keyCombination());
    for (const QAction* action : m_window->findChildren<QAction*>()) {
        if (action->isEnabled() && action->shortcuts().contains(pressed))
            return true;
    }
    return false;
}

QWidget* StepKeys::keyOwner(QObject* receiver) const
{
    // The focused widget; with no focus (an inactive window) the receiver.
    QWidget* focus = QApplication::focusWidget();
    return focus && inWindow(focus) ? focus : qobject_cast<QWidget*>(receiver);
}

QWidget* StepKeys::fieldOf(QWidget* owner) const
{
    if (QWidget* field = textField(owner))
        return field;
    // Without a focus widget, a key the field passed on to its parents is still the field's.
    return m_typing && owner && owner->isAncestorOf(m_typing) ? m_typing.data() : nullptr;
}

bool StepKeys::keyPress(QObject* receiver, QKeyEvent* e)
{
    m_tabPressed = e->key() == Qt::Key_Tab || e->key() == Qt::Key_Backtab;
    QWidget* owner = keyOwner(receiver);
    if (qobject_cast<QMenuBar*>(owner) || ownedArrow(owner, e))
        return false; // the menus, opened with Alt, take the arrows; so does a grid that owns them
    QWidget* field = fieldOf(owner);
    const auto key = stepKeyFor(e->key(), e->modifiers());
    if (m_typing && field == m_typing) {
        // The field's keys, except Esc (leave it) and the clicker's.
        if (e->key() == Qt::Key_Escape) {
            m_typing = nullptr;
            emit fieldLeft();
            return true;
        }
        if (e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter)
            m_typing = nullptr; // the field takes Enter; the keys step again after it
        return key && isClickerKey(e->key()) ? m_handler(*key) : false;
    }
    if (field && editsText(e)) {
        m_typing = field; // the first letter typed into a field that has the focus
        return false;
    }
    return key ? m_handler(*key) : false;
}

} // namespace attnlab
