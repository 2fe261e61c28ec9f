#pragma once
// Presenter mode (F11) for a classroom projector: large type, a high-contrast palette, a big
// step counter ("Step 3 / 9"), the right-hand docks (settings, inspector) out of the way, and
// the window over the whole screen, also where no window manager makes it full screen.

#include <QFont>
#include <QList>
#include <QObject>

class QDockWidget;
class QLabel;
class QMainWindow;

namespace attnlab {

class LessonPlayer;
class Session;

class PresenterMode : public QObject {
    Q_OBJECT
public:
    /// Acts on `window`; the type size it returns to is the application's font now.
    PresenterMode(Session* session, LessonPlayer* lessons, QMainWindow* window);

    /// The step counter, hidden outside presenter mode; the window places it.
    QLabel* counter() const { return m_counter; }
    bool isOn() const { return m_on; }
    /// Enters or leaves presenter mode; the same state again does nothing.
    void setOn(bool on);
    /// The counter's text: the lesson's step while a lesson plays, else the stage.
    void updateCounter();

private:
    void enter();
    void leave();

    Session* m_session;
    LessonPlayer* m_lessons;
    QMainWindow* m_window;
    QLabel* m_counter;
    QFont m_normalFont;
    QList<QDockWidget*> m_hiddenDocks; ///< the docks presenter mode hid, shown again on leaving
    bool m_on = false;
};

} // namespace attnlab
