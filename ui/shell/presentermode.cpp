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
#include <QAbstractTextDocumentLayout>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextFrame>
#include <QTextLayout>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <optional>

namespace attnlab {

namespace {

/// `extra` pixels of blank space below `doc`'s text (its root frame's bottom margin beyond the
/// document's margin).
void setBottomSpace(QTextDocument* doc, int extra)
{
    QTextFrameFormat format = doc->rootFrame()->frameFormat();
    const qreal wanted = doc->documentMargin() + extra;
    if (format.bottomMargin() != wanted) {
        format.setBottomMargin(wanted);
        doc->rootFrame()->setFrameFormat(format);
    }
}


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

} // namespace

CaptionLayout captionLayout(const std::function<int(double)>& heightAt, double largest, double least, int preferred, int room)
{
    least = std::min(least, largest);
    // The sizes largest, largest − 0.5, … down to least; the text's height falls as the type
    // does, so the largest that fits is found by bisection (each try lays the text out).
    const int steps = static_cast<int>(std::floor((largest - least) / 0.5 + 1e-9));
    const auto size = [&](int k) { return largest - 0.5 * k; };
    if (const int h = heightAt(size(0)); h <= preferred)
        return CaptionLayout{size(0), h, false};
    int tooLarge = 0; // size(tooLarge) does not fit; find the first k that does
    int fits = steps + 1;
    while (fits - tooLarge > 1) {
        const int mid = (tooLarge + fits) / 2;
        (heightAt(size(mid)) <= preferred ? fits : tooLarge) = mid;
    }
    if (fits <= steps)
        return CaptionLayout{size(fits), heightAt(size(fits)), false};
    // Longer than the preferred strip even in the least type: the least type, as tall as the
    // text (the view gives the rest), in pages only past all the view can give.
    const int h = heightAt(least);
    if (h <= room)
        return CaptionLayout{least, h, false};
    return CaptionLayout{least, std::max(room, 0), true}; // shown in pages
}

PresenterMode::PresenterMode(Session* session, LessonPlayer* lessons, QMainWindow* window)
    : QObject(window)
    , m_session(session)
    , m_lessons(lessons)
    , m_window(window)
    , m_counter(new QLabel(window))
    , m_caption(new QTextBrowser(window))
    , m_black(new QWidget(window))
    , m_normalFont(QApplication::font())
{
    m_counter->setVisible(false);
    m_caption->setObjectName(QStringLiteral("PresenterCaption"));
    m_caption->setVisible(false);
    m_caption->setFrameShape(QFrame::NoFrame);
    m_caption->setFocusPolicy(Qt::NoFocus); // the keys stay with the stepping
    m_caption->setAutoFillBackground(true);
    m_caption->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_caption->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // pages, turned by the clicker

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
        fitCaption();
        // Again once the window has laid out the step (its banner and view change with it): the
        // room the view leaves is known only then.
        QTimer::singleShot(0, this, &PresenterMode::fitCaption);
    }
    m_caption->setVisible(shown);
}

void PresenterMode::fitCaption()
{
    if (!m_on || !m_lessons->isActive())
        return;
    const QScreen* s = m_window->screen();
    const int screenHeight = s ? s->geometry().height() : 1080;
    const double dpi = s ? s->logicalDotsPerInchY() : 96.0;
    const double largest = std::max(projectedPoints(m_window), 1.0);
    const double least = kLeastCaptionShare * screenHeight * 72.0 / dpi;
    // Measured at the width it has, or will have once shown (the window's, less the layout's
    // margins); the margins of the document and the frame on top.
    QTextDocument* doc = m_caption->document();
    setBottomSpace(doc, 0); // the last fit's pages gave it room below its text
    doc->setTextWidth(m_caption->isVisible() ? m_caption->viewport()->width() : m_window->width() - 40);
    const int frame = 2 * m_caption->frameWidth() + 8;
    QFont font = m_caption->font();
    const auto heightAt = [&](double points) {
        font.setPointSizeF(points);
        doc->setDefaultFont(font);
        return static_cast<int>(std::ceil(doc->size().height())) + frame;
    };
    // What the view can give: the screen less everything the window needs besides the caption,
    // the view at its least included (the window's minimum height, as its layout sets it for
    // this step's banner and view, less the caption's share of it).
    int room = screenHeight / 4;
    if (m_caption->isVisible()) {
        settleLayout();
        room = screenHeight - (m_window->minimumHeight() - m_caption->minimumHeight());
        // A view that needs more than its least (a comparison) keeps that much.
        if (m_view && m_viewShare) {
            const int least = std::max(m_view->minimumSizeHint().height(), m_view->minimumHeight());
            room -= std::max(0, static_cast<int>(m_viewShare() * screenHeight) - least);
        }
    }
    // A quarter of the screen in the largest type that fits; a longer text in the least type
    // takes up to a third (what the view can give) and is shown in pages beyond that: the view
    // keeps two thirds of the screen, room for a comparison's three heatmaps.
    const int most = std::min(screenHeight / 3, room);
    const CaptionLayout fit = captionLayout(heightAt, largest, least, std::min(screenHeight / 4, most), most);
    font.setPointSizeF(fit.points);
    m_caption->setFont(font);
    doc->setDefaultFont(font);
    m_caption->setFixedHeight(fit.height);
    m_caption->updateGeometry();
    paginateCaption();
    // The window back to the screen's size if a taller caption had pushed it past (a window is
    // made as large as its layout's minimum, never smaller again by itself).
    if (s && m_window->height() > screenHeight) {
        settleLayout();
        m_window->setGeometry(s->geometry());
    }
}

namespace {

/// Where the page after the one starting at `top` (`height` pixels of `doc`) starts: at the
/// first line that does not show whole on it; -1 when every line does.
int nextPageTop(const QTextDocument* doc, int top, int height)
{
    int next = -1;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        const QRectF box = doc->documentLayout()->blockBoundingRect(b);
        const QTextLayout* layout = b.layout();
        for (int i = 0; layout && i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const double y = box.top() + line.y();
            if (y + line.height() > top + height + 0.5 && y > top + 0.5) {
                const int start = static_cast<int>(std::floor(y));
                next = next < 0 ? start : std::min(next, start);
            }
        }
    }
    return next;
}

} // namespace

void PresenterMode::paginateCaption()
{
    m_pageTops = {0};
    const int height = m_caption->height() - 2 * m_caption->frameWidth();
    QTextDocument* doc = m_caption->document();
    setBottomSpace(doc, 0);
    // A line taller than the strip can only be cut: it starts its own page and the next follows.
    for (int top = nextPageTop(doc, 0, height); top > m_pageTops.back(); top = nextPageTop(doc, top, height))
        m_pageTops << top;
    // Room below the text for the last page to start at its first line too (not at the end of
    // the text less a strip, half a line of the page before on top).
    if (m_pageTops.size() > 1)
        setBottomSpace(doc, std::max(0, m_pageTops.back() + height - static_cast<int>(std::ceil(doc->size().height()))));
    showCaptionPage(0);
}

void PresenterMode::showCaptionPage(int page)
{
    m_page = std::clamp(page, 0, static_cast<int>(m_pageTops.size()) - 1);
    m_caption->verticalScrollBar()->setValue(m_pageTops[m_page]);
    updateCounterText();
}

bool PresenterMode::turnCaptionPage(int direction)
{
    if (!m_on || !m_caption->isVisible() || m_pageTops.size() < 2)
        return false;
    const int page = m_page + (direction > 0 ? 1 : -1);
    if (page < 0 || page >= m_pageTops.size())
        return false;
    showCaptionPage(page);
    return true;
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

void PresenterMode::setClutter(const QList<QWidget*>& widgets)
{
    m_clutter = widgets;
    for (QWidget* w : widgets)
        w->installEventFilter(this);
}

bool PresenterMode::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Resize)
        m_black->setGeometry(m_window->rect()); // the black screen follows the window
    // Clutter shown while presenting (a lesson step opening an encoder–decoder shows the
    // decoder's panel): hidden again at once, and shown on leaving.
    if (m_on && event->type() == QEvent::ShowToParent) {
        auto* w = qobject_cast<QWidget*>(watched);
        if (w && m_clutter.contains(w)) {
            if (!m_clutterHidden.contains(w))
                m_clutterHidden << w;
            w->hide();
        }
    }
    return false;
}

void PresenterMode::updateCounter()
{
    updateCaption();
    updateCounterText();
}

void PresenterMode::updateCounterText()
{
    // The lesson's step while a lesson plays, else the stage: big enough for the back row. A
    // caption in pages says which page shows: ▼ while another follows, ▲ on the last.
    if (m_lessons->isActive()) {
        QString text = tr("Step %1 / %2").arg(m_lessons->stepIndex() + 1).arg(m_lessons->lesson()->steps.size());
        const int pages = captionPages();
        if (m_on && pages > 1)
            text += QStringLiteral("   %1 %2 / %3").arg(m_page + 1 < pages ? QChar(0x25BC) : QChar(0x25B2)).arg(m_page + 1).arg(pages);
        m_counter->setText(text);
    } else {
        m_counter->setText(tr("Stage %1 / %2").arg(m_session->step() + 1).arg(m_session->steps().size()));
    }
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
