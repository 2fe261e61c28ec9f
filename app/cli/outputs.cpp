#include "outputs.h"

#include <cstdio>
#include <iostream>
#include <stdexcept>

#include <unistd.h>

namespace attnlab::cli {

namespace {

volatile std::sig_atomic_t g_signal = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void onInterrupt(int sig)
{
    if (g_signal != 0) {
        // A second signal: the user does not want to wait for the cleanup.
        ::signal(sig, SIG_DFL);
        ::raise(sig); // delivered when this handler returns
        return;
    }
    g_signal = sig;
}

} // namespace

bool standardOutputWritten()
{
    std::cout.flush();
    const bool flushed = std::fflush(stdout) == 0;
    return flushed && !std::ferror(stdout) && std::cout.good();
}

void flushStandardOutput()
{
    if (!standardOutputWritten())
        throw std::runtime_error("cannot write to standard output");
}

InterruptScope::InterruptScope()
{
    for (int i = 0; i < 3; ++i) {
        ::sigaction(kSignals[i], nullptr, &m_old[i]);
        if (!(m_old[i].sa_flags & SA_SIGINFO) && m_old[i].sa_handler == SIG_IGN)
            continue;
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART; // the work's system calls go on; the loop checks the flag
        ::sigaction(kSignals[i], &action, nullptr);
    }
}

InterruptScope::~InterruptScope()
{
    for (int i = 0; i < 3; ++i)
        ::sigaction(kSignals[i], &m_old[i], nullptr);
}

int interrupted()
{
    return g_signal;
}

void raiseInterrupt()
{
    const int sig = g_signal;
    if (sig == 0)
        return;
    std::fflush(nullptr);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    ::_exit(128 + sig); // not reached: the default action of these signals ends the process
}

} // namespace attnlab::cli
