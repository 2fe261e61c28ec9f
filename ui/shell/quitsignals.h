#pragma once
// Quitting on SIGTERM, SIGINT and SIGHUP as on the window's close button: a logout, a shutdown,
// `kill` or Ctrl+C in the terminal save the last session and remove the autosave, instead of
// dying mid-lesson and offering "restore after a crash" on the next start.

class QWidget;

namespace attnlab {

/// From now on, SIGTERM, SIGINT and SIGHUP close `window` (its closeEvent runs, the event loop
/// ends as after a click on ×). A second signal while the first is handled ends the program at
/// once. Returns false (and changes nothing) when the signals cannot be watched.
bool closeOnQuitSignals(QWidget* window);

} // namespace attnlab
