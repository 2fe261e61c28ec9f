#include "shell/shortcutsheet.h"

#include "shell/stepkeys.h"
#include "views/sessionview.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QShortcut>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

/// A menu text as people read it: "Save session &as…" → "Save session as…", "编辑(&E)" → "编辑"
/// ("&&" is a real &).
QString withoutMnemonics(QString text)
{
    static const QRegularExpression chineseStyle(QStringLiteral("\\(&[^&]\\)"));
    text.remove(chineseStyle);
    text.replace(QStringLiteral("&&"), QStringLiteral("\u0001"));
    text.remove(QLatin1Char('&'));
    text.replace(QChar(0x0001), QLatin1Char('&'));
    return text;
}

QString keysOf(const QList<QKeySequence>& sequences)
{
    QStringList keys;
    for (const QKeySequence& k : sequences) {
        if (!k.isEmpty())
            keys << k.toString(QKeySequence::NativeText);
    }
    return keys.join(QStringLiteral(", "));
}

/// What each stepping key does (the Go menu lists most of them; Esc is only here).
QString stepKeyText(StepKey key)
{
    switch (key) {
    case StepKey::Next:
        return ShortcutSheet::tr("Next step");
    case StepKey::Previous:
        return ShortcutSheet::tr("Previous step");
    case StepKey::First:
        return ShortcutSheet::tr("First stage");
    case StepKey::Last:
        return ShortcutSheet::tr("Last stage");
    case StepKey::NextHead:
        return ShortcutSheet::tr("Next head");
    case StepKey::PreviousHead:
        return ShortcutSheet::tr("Previous head");
    case StepKey::Blackout:
        return ShortcutSheet::tr("Black screen (presenter mode)");
    case StepKey::Escape:
        return ShortcutSheet::tr("Leave presenter mode, or give the keys back from a text field");
    }
    return {};
}

class Collector {
public:
    void menu(const QString& group, const QMenu* menu)
    {
        for (QAction* a : menu->actions()) {
            if (a->isSeparator())
                continue;
            if (a->menu()) {
                this->menu(group, a->menu());
                continue;
            }
            m_seen.insert(a);
            const QString text = a->text();
            const qsizetype tab = text.indexOf(QLatin1Char('\t'));
            // A shortcut of its own, or the keys the entry lists after its tab (the Go menu's).
            const QString keys = !a->shortcuts().isEmpty() ? keysOf(a->shortcuts()) : tab >= 0 ? text.mid(tab + 1) : QString();
            add(group, withoutMnemonics(tab >= 0 ? text.left(tab) : text), keys);
        }
    }

    void action(const QString& group, QAction* a)
    {
        if (m_seen.contains(a) || a->shortcuts().isEmpty())
            return;
        m_seen.insert(a);
        add(group, withoutMnemonics(a->text().section(QLatin1Char('\t'), 0, 0)), keysOf(a->shortcuts()));
    }

    void add(const QString& group, const QString& action, const QString& keys)
    {
        if (keys.isEmpty() || m_keys.contains(keys + QLatin1Char('\n') + action))
            return;
        m_keys.insert(keys + QLatin1Char('\n') + action);
        m_listedKeys.insert(keys);
        m_entries.append({group, action, keys});
    }

    bool listed(const QString& keys) const { return m_listedKeys.contains(keys); }
    QList<ShortcutEntry> entries() const { return m_entries; }

private:
    QSet<const QAction*> m_seen;
    QSet<QString> m_keys;
    QSet<QString> m_listedKeys;
    QList<ShortcutEntry> m_entries;
};

} // namespace

QList<ShortcutEntry> collectShortcuts(QMainWindow* window)
{
    Collector c;
    if (!window)
        return {};
    for (QAction* top : window->menuBar()->actions()) {
        if (top->menu())
            c.menu(withoutMnemonics(top->text()), top->menu());
    }
    // Shortcuts outside the menus: the window's own actions, any other action inside it, and
    // its QShortcuts (described by their What's This text).
    const QString other = ShortcutSheet::tr("Window");
    const auto grouped = [](const QAction* a) { return !a->property(kShortcutGroup).toString().isEmpty(); };
    for (QAction* a : window->actions())
        c.action(other, a);
    for (QAction* a : window->findChildren<QAction*>()) {
        if (!grouped(a))
            c.action(other, a);
    }
    for (const QShortcut* s : window->findChildren<QShortcut*>()) {
        const QString what = s->whatsThis().isEmpty() ? ShortcutSheet::tr("(no description)") : s->whatsThis();
        c.add(other, what, keysOf(s->keys()));
    }
    // Actions that name a group of their own (views/sessionview.h's kShortcutGroup): the
    // generation stepper's Next token, Generate and Back.
    for (QAction* a : window->findChildren<QAction*>()) {
        if (grouped(a))
            c.action(a->property(kShortcutGroup).toString(), a);
    }
    // The stepping keys work wherever the focus is; those the Go menu did not list come here.
    for (const StepKey key : {StepKey::Next, StepKey::Previous, StepKey::First, StepKey::Last, StepKey::NextHead,
                              StepKey::PreviousHead, StepKey::Blackout, StepKey::Escape}) {
        if (!c.listed(StepKeys::keysText(key)))
            c.add(ShortcutSheet::tr("Stepping keys"), stepKeyText(key), StepKeys::keysText(key));
    }
    // The mouse on a heatmap (views/heatmapzoom.h, views/heatmapmenu.h).
    const QString mouse = ShortcutSheet::tr("Mouse on a heatmap");
    c.add(mouse, ShortcutSheet::tr("Zoom in or out at the pointer"), ShortcutSheet::tr("Ctrl + wheel"));
    c.add(mouse, ShortcutSheet::tr("Scroll a zoomed heatmap (Shift: sideways)"), ShortcutSheet::tr("Wheel"));
    c.add(mouse, ShortcutSheet::tr("Copy image, copy value, export"), ShortcutSheet::tr("Right click"));
    return c.entries();
}

ShortcutSheet::ShortcutSheet(QMainWindow* window)
    : QDialog(window)
    , m_window(window)
    , m_tree(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("ShortcutSheet"));
    auto* layout = new QVBoxLayout(this);
    m_tree->setColumnCount(2);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    layout->addWidget(m_tree);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, 620);
    refresh();
}

void ShortcutSheet::refresh()
{
    setWindowTitle(tr("Keyboard shortcuts"));
    m_tree->setHeaderLabels({tr("Action"), tr("Keys")});
    m_entries = collectShortcuts(m_window);
    m_tree->clear();
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : m_entries) {
        if (!group || group->text(0) != e.group) {
            group = new QTreeWidgetItem(m_tree, {e.group});
            QFont bold = font();
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
            group->setFlags(Qt::ItemIsEnabled);
        }
        new QTreeWidgetItem(group, {e.action, e.keys});
    }
    m_tree->expandAll();
    // Tall enough for every row without scrolling, within the screen.
    const int rows = static_cast<int>(m_entries.size()) + m_tree->topLevelItemCount();
    const int rowHeight = std::max(m_tree->sizeHintForRow(0), fontMetrics().height() + 2);
    const int chrome = height() - m_tree->viewport()->height();
    const QScreen* s = screen();
    const int room = s ? s->availableGeometry().height() - 60 : 900;
    resize(width(), std::min(room, chrome + rows * rowHeight + 8));
}

void ShortcutSheet::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        QTimer::singleShot(0, this, &ShortcutSheet::refresh); // once the window made its menus again
}

} // namespace attnlab
