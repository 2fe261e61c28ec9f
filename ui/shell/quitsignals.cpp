#include "shell/quitsignals.h"

#include <QPointer>
#include <QSocketNotifier>
#include <QWidget>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace attnlab {

namespace {

/// The write end of the pair: a signal handler may only write(2); Qt's event loop reads the
/// other end (the self-pipe trick).
int g_signalFd[2] = {-1, -1};
volatile std::sig_atomic_t g_pending = 0;

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
        g_pending = 0;
        if (target)
            target->close();
    });
    struct sigaction action {};
    action.sa_handler = onQuitSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int s : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(s, &action, nullptr);
    return true;
}

} // namespace attnlab
