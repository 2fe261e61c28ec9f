#include "shell/quitsignals.h"

#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QPointer>
#include <QSocketNotifier>
#include <QThread>
#include <QTimer>
#include <QWidget>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace attnlab {

namespace {

/// The write end of the pair: a signal handler may only write(2); Qt's event loop reads the
/// other end (the self-pipe trick).
int g_signalFd[2] = {-1, -1};
/// Set by the handler; cleared once the window is closed. A signal while it is set ends the program.
volatile std::sig_atomic_t g_pending = 0;
bool g_signalled = false;

extern "C" void onQuitSignal(int signal)
{
    if (g_pending) {
        // Asked twice: the first one is stuck (a long computation); go now.
        std::signal(signal, SIG_DFL);
        std::raise(signal);
        return;
    }
    g_pending = 1;
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalFd[0], &byte, 1);
}

/// Closes the modal dialogs, innermost first, as their Cancel would: a file dialog returns no
/// path, the Restore prompt no choice (the work is offered again at the next start).
void cancelModalDialogs()
{
    for (int left = 16; left > 0; --left) {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal)
            break;
        if (auto* dialog = qobject_cast<QDialog*>(modal))
            dialog->reject();
        else
            modal->close();
        if (QApplication::activeModalWidget() == modal)
            break; // it refuses: the window waits for it
    }
    // A file dialog of the desktop's own (a native one) is not a modal widget of ours, but its
    // QFileDialog's exec() runs all the same.
    for (QWidget* w : QApplication::topLevelWidgets()) {
        if (auto* files = qobject_cast<QFileDialog*>(w); files && files->isModal())
            files->reject();
    }
}

/// Closes `window` once no dialog is open and no dialog's exec() is on the stack: closing it
/// inside one would end the window's event loop (and its children) under the dialog.
void closeWhenUnnested(const QPointer<QWidget>& window)
{
    if (!window) {
        g_pending = 0;
        return;
    }
    cancelModalDialogs();
    // The window's own event loop is level 1 (0 in a test that processes events by hand).
    if (QApplication::activeModalWidget() || QThread::currentThread()->loopLevel() > 1) {
        QTimer::singleShot(10, window, [window] { closeWhenUnnested(window); });
        return;
    }
    window->close();
    g_pending = 0;
}

} // namespace

bool closeOnQuitSignals(QWidget* window)
{
    if (g_signalFd[0] < 0 && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalFd) != 0)
        return false;
    auto* notifier = new QSocketNotifier(g_signalFd[1], QSocketNotifier::Read, window);
    QPointer<QWidget> target(window);
    QObject::connect(notifier, &QSocketNotifier::activated, window, [target] {
        char byte = 0;
        [[maybe_unused]] const auto got = ::read(g_signalFd[1], &byte, 1);
        g_signalled = true;
        closeWhenUnnested(target);
    });
    struct sigaction action {};
    action.sa_handler = onQuitSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int s : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(s, &action, nullptr);
    return true;
}

bool quitSignalled()
{
    return g_signalled;
}

} // namespace attnlab
