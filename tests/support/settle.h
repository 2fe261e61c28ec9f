#pragma once
// Waiting in tests without betting on the machine's speed. A fixed QTest::qWait(100) "to let
// the layout happen" passes on a fast machine and fails on a busy one; these wait for the work
// itself instead.

#include <QCoreApplication>
#include <QEventLoop>

namespace attnlab::testing {

/// Runs what the event loop has queued, and what that queues in turn, however long it takes:
/// posted events (layout requests, deferred updates) and zero-time timers (QCustomPlot's queued
/// replots, SessionView's refreshes, QTimer::singleShot(0, …)). Nothing here depends on a clock:
/// work that waits for a real interval (a debounce) needs QTRY_ on its result instead.
inline void settle(int rounds = 8)
{
    for (int i = 0; i < rounds; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    }
}

} // namespace attnlab::testing
