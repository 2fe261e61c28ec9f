#include "shell/deskmenus.h"

#include "lessons/lessonplayer.h"
#include "session/history.h"
#include "session/session.h"
#include "shell/aboutdialog.h"
#include "shell/fileactions.h"
#include "shell/gettingstarted.h"
#include "shell/mainwindow.h"
#include "shell/shortcutsheet.h"
#include "views/heatmapmenu.h"
#include "views/heatmapzoom.h"
#include "widgets/settingspanel.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QUndoStack>

namespace attnlab {

namespace {

const QKeySequence kTypeInSentence(Qt::CTRL | Qt::Key_L); // MainWindow's shortcut into the sentence box

/// Shows a dialog that may be open already, in front and active.
template <typename Dialog>
Dialog* inFront(Dialog* dialog)
{
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

bool isRedo(const QKeyEvent* e)
{
    return e->matches(QKeySequence::Redo) || e->keyCombination() == QKeyCombination(Qt::CTRL | Qt::SHIFT, Qt::Key_Z)
        || e->keyCombination() == QKeyCombination(Qt::CTRL, Qt::Key_Y);
}

} // namespace

DeskMenus::DeskMenus(MainWindow* window, Session* session, FileActions* files)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_history(new History(session, this))
    , m_heatmapMenu(new HeatmapMenu(window, [files] { files->exportViewDialog(); }))
    , m_undo(new QAction(this))
    , m_redo(new QAction(this))
    , m_zoomIn(new QAction(this))
    , m_zoomOut(new QAction(this))
    , m_fit(new QAction(this))
    , m_gettingStarted(new QAction(this))
    , m_shortcuts(new QAction(this))
    , m_about(new QAction(this))
{
    setObjectName(QStringLiteral("DeskMenus"));
    m_undo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z)); // (QKeySequence::Undo adds F14 on X11)
    m_redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    // Ctrl+= as well as Ctrl++ (which needs Shift on most keyboards), and the keypad's.
    m_zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    m_zoomOut->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Minus)});
    m_fit->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_0)});
    // F1, the help key, opens the short page a newcomer needs; the full sheet is one key away.
    m_gettingStarted->setShortcut(QKeySequence(Qt::Key_F1));
    m_gettingStarted->setShortcutContext(Qt::ApplicationShortcut); // also over the page and the sheet
    m_shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F1));
    m_shortcuts->setShortcutContext(Qt::ApplicationShortcut);
    connect(m_undo, &QAction::triggered, this, [this] { step(-1); });
    connect(m_redo, &QAction::triggered, this, [this] { step(1); });
    connect(m_zoomIn, &QAction::triggered, this, [this] { zoom(1); });
    connect(m_zoomOut, &QAction::triggered, this, [this] { zoom(-1); });
    connect(m_fit, &QAction::triggered, this, [this] { zoom(0); });
    connect(m_gettingStarted, &QAction::triggered, this, &DeskMenus::showGettingStarted);
    connect(m_shortcuts, &QAction::triggered, this, &DeskMenus::showShortcuts);
    connect(m_about, &QAction::triggered, this, &DeskMenus::showAbout);
    // Undo and redo follow the stack.
    connect(m_history->stack(), &QUndoStack::indexChanged, this, &DeskMenus::updateUndo);
    connect(m_history->stack(), &QUndoStack::cleanChanged, this, &DeskMenus::updateUndo);
    connect(session, &Session::inputChanged, this, &DeskMenus::updateUndo);
    // A lesson replaces the whole setup at each step: the history starts again there.
    connect(window->lessonPlayer(), &LessonPlayer::stateChanged, m_history, &History::clear);
    connect(window->lessonPlayer(), &LessonPlayer::stateChanged, this, &DeskMenus::updateUndo);
    qApp->installEventFilter(this);
    updateUndo();
}

void DeskMenus::addTo(QMenuBar* bar, QMenu* view)
{
    retranslate();
    auto* edit = new QMenu(tr("&Edit"), bar);
    edit->setObjectName(QStringLiteral("EditMenu"));
    edit->addAction(m_undo);
    edit->addAction(m_redo);
    bar->insertMenu(view->menuAction(), edit);

    view->addSeparator();
    view->addAction(m_zoomIn);
    view->addAction(m_zoomOut);
    view->addAction(m_fit);

    QMenu* help = bar->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("HelpMenu"));
    help->addAction(m_gettingStarted);
    help->addAction(m_shortcuts);
    help->addSeparator();
    help->addAction(m_about);
}

void DeskMenus::retranslate()
{
    m_undo->setText(tr("&Undo"));
    m_redo->setText(tr("&Redo"));
    m_zoomIn->setText(tr("Zoom &in"));
    m_zoomOut->setText(tr("Zoom &out"));
    m_fit->setText(tr("&Fit to the view"));
    m_zoomIn->setToolTip(tr("Draw the heatmaps larger (scroll to see the rest); Ctrl + mouse wheel zooms at the pointer"));
    m_gettingStarted->setText(tr("&Getting started"));
    m_shortcuts->setText(tr("&Keyboard shortcuts"));
    m_about->setText(tr("&About Attention Lab"));
    // The window's shortcut into the sentence box, described for the shortcut sheet.
    for (QShortcut* s : m_window->findChildren<QShortcut*>()) {
        if (s->key() == kTypeInSentence)
            s->setWhatsThis(tr("Type in the sentence box"));
    }
}

void DeskMenus::updateUndo()
{
    m_undo->setEnabled(m_history->canUndo());
    m_redo->setEnabled(m_history->canRedo());
}

void DeskMenus::step(int way)
{
    // Ctrl+Z right after typing undoes the typing, even before the pause that commits it.
    const QLineEdit* sentence = m_window->sentenceEdit();
    if (sentence->text() != m_session->sentence())
        m_session->setSentence(sentence->text());
    if (way < 0)
        m_history->undo();
    else
        m_history->redo();
    updateUndo();
}

void DeskMenus::zoom(int how)
{
    for (HeatmapZoom* z : HeatmapZoom::shownIn(m_window->visibleView())) {
        if (how > 0)
            z->zoomIn();
        else if (how < 0)
            z->zoomOut();
        else
            z->fit();
    }
}

GettingStarted* DeskMenus::showGettingStarted()
{
    if (!m_start) {
        m_start = new GettingStarted(m_window);
        connect(m_start, &GettingStarted::shortcutsRequested, this, &DeskMenus::showShortcuts);
    }
    return inFront(m_start.data());
}

ShortcutSheet* DeskMenus::showShortcuts()
{
    if (!m_sheet)
        m_sheet = new ShortcutSheet(m_window);
    m_sheet->refresh();
    return inFront(m_sheet.data());
}

AboutDialog* DeskMenus::showAbout()
{
    if (!m_aboutBox)
        m_aboutBox = new AboutDialog(m_window);
    return inFront(m_aboutBox.data());
}

bool DeskMenus::ownsUndoKeys(const QWidget* w) const
{
    // The sentence box and the settings' fields: their text fields' own undo would undo a
    // keystroke the Session never saw; the studio's undo takes the whole step back.
    return w && (w == m_window->sentenceEdit() || m_window->settingsPanel()->isAncestorOf(w));
}

bool DeskMenus::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = !undo && isRedo(key);
    if ((!undo && !redo) || !ownsUndoKeys(qobject_cast<QWidget*>(watched)))
        return false;
    if (type == QEvent::ShortcutOverride) {
        event->accept(); // the key comes to the field as a key press, which we take
        return true;
    }
    step(undo ? -1 : 1);
    return true;
}

} // namespace attnlab
