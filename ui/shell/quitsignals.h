#pragma once
// Quitting on SIGTERM, SIGINT and SIGHUP as on the window's close button: a logout, a shutdown,
// `kill` or Ctrl+C in the terminal save the last session and remove the autosave, instead of
// dying mid-lesson and offering "restore after a crash" on the next start.
//
// A signal may come while a modal dialog is open (a file dialog, the Restore prompt): its exec()
// runs an event loop nested in the window's. The dialogs are closed first, as with Cancel; the
// window is closed once their event loops have returned, never under them.

class QWidget;

namespace attnlab {

/// From now on, SIGTERM, SIGINT and SIGHUP close every modal dialog as Cancel does, then `window`
/// (its closeEvent runs, the event loop ends as after a click on ×) once no dialog's event loop
/// is left on the stack. A second signal while the first is handled ends the program at once.
/// Returns false (and changes nothing) when the signals cannot be watched.
bool closeOnQuitSignals(QWidget* window);

/// True once a quit signal has arrived: start-up work still to do is skipped, the window closes.
bool quitSignalled();

} // namespace attnlab
