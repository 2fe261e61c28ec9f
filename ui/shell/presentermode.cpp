#include "shell/presentermode.h"

#include "lessons/lessonplayer.h"
#include "session/session.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QPalette>
#include <QScreen>

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

} // namespace

PresenterMode::PresenterMode(Session* session, LessonPlayer* lessons, QMainWindow* window)
    : QObject(window)
    , m_session(session)
    , m_lessons(lessons)
    , m_window(window)
    , m_counter(new QLabel(window))
    , m_normalFont(QApplication::font())
{
    m_counter->setVisible(false);
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
}

void PresenterMode::enter()
{
    // Large type and a high-contrast palette for the back row of a classroom.
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
    // The projector shows the lesson and the view; the settings and inspector docks step aside.
    m_hiddenDocks.clear();
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        if (m_window->dockWidgetArea(dock) == Qt::RightDockWidgetArea && dock->isVisible()) {
            dock->hide();
            m_hiddenDocks << dock;
        }
    }
    if (const QScreen* screen = m_window->screen())
        m_window->setGeometry(screen->geometry()); // also without a window manager (projector PCs, Xvfb)
    m_window->showFullScreen();
}

void PresenterMode::leave()
{
    m_window->setFont(m_normalFont);
    m_window->setPalette(QApplication::palette());
    m_counter->setVisible(false);
    for (QDockWidget* dock : std::as_const(m_hiddenDocks))
        dock->show();
    m_hiddenDocks.clear();
    m_window->showNormal();
}

void PresenterMode::updateCounter()
{
    // The lesson's step while a lesson plays, else the stage: big enough for the back row.
    if (m_lessons->isActive())
        m_counter->setText(tr("Step %1 / %2").arg(m_lessons->stepIndex() + 1).arg(m_lessons->lesson()->steps.size()));
    else
        m_counter->setText(tr("Stage %1 / %2").arg(m_session->step() + 1).arg(m_session->steps().size()));
}

} // namespace attnlab
