#include "shell/presentermode.h"

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/screenfit.h"
#include "widgets/markdowntext.h"
#include "widgets/projectiontype.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QGuiApplication>
#include <QLabel>
#include <QLayout>
#include <QMainWindow>
#include <QMenu>
#include <QPalette>
#include <QScreen>
#include <QTextBrowser>

#include <algorithm>

namespace attnlab {

namespace {

/// Black on white with a light-yellow alternate row and a strong blue highlight: readable from
/// the back row of a classroom on a washed-out projector.
QPalette highContrast(QPalette p)
{
    p.setColor(QPalette::Window, Qt::white);
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::AlternateBase, QColor(255, 244, 200));
    p.setColor(QPalette::Highlight, QColor(0, 90, 200));
    return p;
}

/// The caption strip: as tall as its text when there is room (its size hint), down to three
/// lines (scrolling) on a small projector.
class CaptionBrowser : public QTextBrowser {
public:
    using QTextBrowser::QTextBrowser;
    int wanted = 0;
    QSize sizeHint() const override { return {QTextBrowser::sizeHint().width(), wanted}; }
};

} // namespace

PresenterMode::PresenterMode(Session* session, LessonPlayer* lessons, QMainWindow* window)
    : QObject(window)
    , m_session(session)
    , m_lessons(lessons)
    , m_window(window)
    , m_counter(new QLabel(window))
    , m_caption(new CaptionBrowser(window))
    , m_black(new QWidget(window))
    , m_normalFont(QApplication::font())
{
    m_counter->setVisible(false);
    m_caption->setObjectName(QStringLiteral("PresenterCaption"));
    m_caption->setVisible(false);
    m_caption->setFrameShape(QFrame::NoFrame);
    m_caption->setFocusPolicy(Qt::NoFocus); // the keys stay with the stepping
    m_caption->setAutoFillBackground(true);
    m_caption->setBackgroundRole(QPalette::AlternateBase);
    // The black screen covers the whole window, menus and docks included, and hides the pointer.
    m_black->setObjectName(QStringLiteral("BlackScreen"));
    m_black->setAutoFillBackground(true);
    QPalette black = m_black->palette();
    black.setColor(QPalette::Window, Qt::black);
    m_black->setPalette(black);
    m_black->setCursor(Qt::BlankCursor);
    m_black->hide();
    m_window->installEventFilter(this);
    // The projector unplugged while presenting: back to the normal window on the screen left.
    connect(qApp, &QGuiApplication::screenRemoved, this, [this](QScreen* gone) {
        if (m_on && (gone == m_window->screen() || gone == m_controlScreen))
            setOn(false);
    });
}

void PresenterMode::setOn(bool on)
{
    if (on == m_on)
        return;
    m_on = on;
    if (on)
        enter();
    else
        leave();
    emit toggled(on);
}

void PresenterMode::setScreenChoice(const QString& name)
{
    m_screenChoice = name;
    if (m_on) {
        leave();
        enter();
    }
}

QScreen* PresenterMode::targetScreen() const
{
    const QList<QScreen*> screens = QGuiApplication::screens();
    for (QScreen* s : screens) {
        if (!m_screenChoice.isEmpty() && s->name() == m_screenChoice)
            return s;
    }
    // Automatic: the projector is the screen the controls are not on.
    QScreen* here = m_on && m_controlScreen ? m_controlScreen.data() : m_window->screen();
    for (QScreen* s : screens) {
        if (s != here)
            return s;
    }
    return here;
}

void PresenterMode::enter()
{
    // The window as the user arranged it, before anything changes: the big type below lays the
    // docks out again at once (a panel twice as wide), and that must not be what comes back.
    m_normalGeometry = m_window->geometry();
    m_savedGeometry = m_window->saveGeometry();
    m_dockState = m_window->saveState();
    QScreen* target = targetScreen();
    m_controlScreen = m_window->screen();
    // Large type and a high-contrast palette for the back row of a classroom; the stage
    // heatmap's token labels and cell numbers in type sized from the screen's height
    // (projectiontype.h: at least 3.5 % of it), marked before the window's type changes (the
    // heatmap takes it on that change).
    QScreen* typeScreen = target ? target : m_window->screen();
    const double projected = typeScreen ? projectedPointSize(typeScreen->geometry().height(), typeScreen->logicalDotsPerInchY()) : 16.0;
    setProjected(m_window, true, projected);
    QFont big = m_normalFont;
    big.setPointSizeF(std::max(16.0, m_normalFont.pointSizeF() * 1.6));
    m_window->setFont(big);
    m_window->setPalette(highContrast(m_window->palette()));
    QFont counter = big;
    counter.setBold(true);
    counter.setPointSizeF(big.pointSizeF() * 1.4);
    m_counter->setFont(counter);
    m_counter->setStyleSheet(QStringLiteral("color: white; background: #0050c8; padding: 4px 14px; border-radius: 6px;"));
    updateCounter();
    m_counter->setVisible(true);
    m_controlsApart = target && target != m_controlScreen;
    if (m_controlsApart)
        moveDocksTo(m_controlScreen);
    else
        stepAside();
    m_lessons->setPresenting(true);
    declutter(true);
    settleLayout();
    if (target) {
        m_window->setScreen(target);
        m_window->setGeometry(target->geometry()); // also without a window manager (projector PCs, Xvfb)
    }
    m_window->showFullScreen();
    updateCaption();
}

void PresenterMode::declutter(bool on)
{
    // The menu bar keeps its place in the window (its shortcuts work while it is shown) but
    // takes no room.
    if (QWidget* menu = m_window->menuWidget())
        menu->setMaximumHeight(on ? 0 : QWIDGETSIZE_MAX);
    if (on) {
        m_clutterHidden.clear();
        for (QWidget* w : std::as_const(m_clutter)) {
            if (w->isVisibleTo(m_window)) {
                m_clutterHidden << w;
                w->hide();
            }
        }
    } else {
        for (QWidget* w : std::as_const(m_clutterHidden))
            w->show();
        m_clutterHidden.clear();
    }
}

void PresenterMode::updateCaption()
{
    const bool shown = m_on && m_lessons->isActive();
    if (shown) {
        setMarkdownText(m_caption, m_lessons->stepMarkdown());
        flattenHeadings(m_caption->document()); // the step's title one line of the caption's type
        // At most a third of the screen: the view keeps the rest.
        const QScreen* s = m_window->screen();
        // At most a third of the screen, and less on a small projector: the view needs 620 pixels.
        const int height = s ? s->geometry().height() : 1080;
        const int most = std::max(3 * m_caption->fontMetrics().lineSpacing() + 8, std::min(height / 3, height - 620));
        // Measured at the width it will have (the window's, less the layout's margins), also
        // before the layout has given it that width.
        m_caption->document()->setTextWidth(std::max(m_caption->viewport()->width(), m_window->width() - 40));
        const int wanted = std::min(static_cast<int>(m_caption->document()->size().height()) + 8, most);
        // As tall as its text where there is room (the view keeps the rest), three lines at least.
        static_cast<CaptionBrowser*>(m_caption)->wanted = wanted;
        m_caption->setMaximumHeight(wanted);
        m_caption->setMinimumHeight(std::min(wanted, 3 * m_caption->fontMetrics().lineSpacing() + 8));
        m_caption->updateGeometry();
    }
    m_caption->setVisible(shown);
}

void PresenterMode::stepAside()
{
    // One screen: the projector shows the view, the caption and the counter; every panel steps
    // aside (the lesson's text is in the caption, the keys step).
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        if (dock->toggleViewAction()->isChecked())
            dock->hide();
    }
}

QList<QDockWidget*> PresenterMode::openDocks() const
{
    // Open docks, also those behind another dock's tab; not those the user closed. The left
    // column first, as on the window.
    QList<QDockWidget*> open;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        if (dock->toggleViewAction()->isChecked())
            open << dock;
    }
    std::stable_sort(open.begin(), open.end(), [this](QDockWidget* a, QDockWidget* b) {
        return (m_window->dockWidgetArea(a) == Qt::LeftDockWidgetArea) > (m_window->dockWidgetArea(b) == Qt::LeftDockWidgetArea);
    });
    return open;
}

void PresenterMode::moveDocksTo(const QScreen* screen)
{
    const QList<QDockWidget*> docks = openDocks();
    const QRect room = screen->availableGeometry();
    const int width = room.width() / std::max<qsizetype>(1, docks.size());
    QFont normal = m_normalFont;
    normal.setPointSizeF(m_normalFont.pointSizeF()); // set explicitly, or the window's big type wins
    for (int i = 0; i < docks.size(); ++i) {
        QDockWidget* dock = docks[i];
        dock->setFloating(true);
        dock->setFont(normal);
        dock->show();
        // Its frame (title bar, borders) within the column too.
        const QRect column(room.x() + i * width, room.y(), width, room.height());
        dock->setGeometry(column.marginsRemoved(frameMargins(dock->frameGeometry(), dock->geometry())));
    }
}

void PresenterMode::leave()
{
    setBlackout(false);
    setProjected(m_window, false);
    m_window->setFont(m_normalFont);
    m_window->setPalette(QApplication::palette());
    m_counter->setVisible(false);
    m_caption->setVisible(false);
    declutter(false);
    if (m_controlsApart) {
        for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
            dock->setFont(QFont()); // the window's type again
    }
    m_controlsApart = false;
    m_lessons->setPresenting(false);
    // The window at its place and size first, laid out in the normal type: the docks' sizes are
    // restored into a window of the size they were saved in, with the minimum sizes of the
    // normal type (restored into the full-screen window with the big type's minimums, a panel
    // came back twice as wide and stayed so).
    m_window->showNormal();
    if (m_controlScreen)
        m_window->setScreen(m_controlScreen); // back on the controls' screen
    if (m_normalGeometry.isValid())
        m_window->setGeometry(m_normalGeometry);
    m_controlScreen = nullptr;
    settleLayout();
    // The docks as they were: in place, shown, closed by the user, at their sizes.
    m_window->restoreState(m_dockState);
    m_dockState.clear();
    settleLayout();
}

void PresenterMode::settleLayout()
{
    // The layouts inside (a dock's widgets hidden, new type) first, then the window's. Twice:
    // a new type changes the size hints the outer layouts read, which posts more requests.
    for (int round = 0; round < 2; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (QLayout* layout = m_window->layout()) {
            layout->invalidate();
            layout->activate();
        }
    }
}

bool PresenterMode::isBlackedOut() const
{
    return !m_black->isHidden();
}

void PresenterMode::setBlackout(bool on)
{
    on = on && m_on;
    if (on == isBlackedOut())
        return;
    if (on) {
        m_black->setGeometry(m_window->rect());
        m_black->raise();
        m_black->show();
    } else {
        m_black->hide();
    }
    emit blackoutChanged(on);
}

bool PresenterMode::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Resize)
        m_black->setGeometry(m_window->rect()); // the black screen follows the window
    return false;
}

void PresenterMode::updateCounter()
{
    updateCaption();
    // The lesson's step while a lesson plays, else the stage: big enough for the back row.
    if (m_lessons->isActive())
        m_counter->setText(tr("Step %1 / %2").arg(m_lessons->stepIndex() + 1).arg(m_lessons->lesson()->steps.size()));
    else
        m_counter->setText(tr("Stage %1 / %2").arg(m_session->step() + 1).arg(m_session->steps().size()));
}

void PresenterMode::listScreens(QMenu* menu)
{
    // A projector plugged in or out changes the list.
    menu->clear();
    menu->menuAction()->setVisible(QGuiApplication::screens().size() > 1);
    auto* group = new QActionGroup(menu);
    const auto add = [&](const QString& text, const QString& name) {
        QAction* a = menu->addAction(text);
        a->setCheckable(true);
        a->setChecked(m_screenChoice == name);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, name] { setScreenChoice(name); });
    };
    add(tr("Automatic (another screen than the controls')"), QString());
    const QList<QScreen*> screens = QGuiApplication::screens();
    for (int i = 0; i < screens.size(); ++i) {
        const QScreen* s = screens[i];
        add(tr("Screen %1: %2 (%3 \u00D7 %4)").arg(i + 1).arg(s->name()).arg(s->size().width()).arg(s->size().height()), s->name());
    }
}

} // namespace attnlab
