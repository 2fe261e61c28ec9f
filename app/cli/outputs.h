#pragma once
// What every command of attention-lab-cli does about its outputs beyond the files themselves:
// standard output checked (a full disk, /dev/full, a closed descriptor is an error, exit 1), and
// SIGINT, SIGTERM and SIGHUP turned into a clean stop while a staged folder is being written.
//
// Signals, and why this design: removing a hidden ".DIR.part-PID" folder takes opendir, malloc
// and unlink of many files, none of which a signal handler may call. So inside an InterruptScope
// the handler only records the signal (a sig_atomic_t: async-signal-safe); the work loops see
// interrupted() through their progress callbacks (a file or a page at a time) and return as on
// any failure, so that StagedFolder's destructor removes what was written; main() then ends the
// process by the same signal (raiseInterrupt), and the shell reports 128 + its number as for any
// program killed by it. Outside a scope the signals keep their default action: nothing of ours
// is left to clean (a file's ".part" temporary is taken over by the next write). A second signal
// ends the process at once; what it leaves, the next run into the same folder removes
// (StagedFolder::removeStale).

#include <csignal>

namespace attnlab::cli {

/// Flushes standard output and says whether everything printed was written.
bool standardOutputWritten();
/// Flushes standard output; throws std::runtime_error("cannot write to standard output") when
/// it could not be written, for commands that print as they go (train) and should stop at once.
void flushStandardOutput();

/// While alive, SIGINT, SIGTERM and SIGHUP only set the flag interrupted() reads. A signal the
/// program was started ignoring (nohup's SIGHUP) stays ignored. Not nested.
class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    struct sigaction m_old[3];
};

/// The signal received inside an InterruptScope, 0 when none.
int interrupted();

/// Ends the process by the signal received, if any (its action reset to the default): called by
/// main() once the command's destructors have run. Returns when there was none.
void raiseInterrupt();

} // namespace attnlab::cli
