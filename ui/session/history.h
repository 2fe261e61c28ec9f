#pragma once
// Undo and redo for what the user types and chooses: the sentence and the settings (Config).
// The History watches the Session: each committed change of the sentence or of a setting is one
// command on a QUndoStack, recorded after the fact, and undoing it gives the Session the
// previous sentence and settings back (through setSentence / setConfig, so every view follows).
//
// - Typing is merged as text editors merge it: the edits of one word are one step. An edit
//   joins the step before it while it goes the same way (typing, also over a selection, or only
//   deleting) and finishes no more and no fewer words (a word is finished by the white space
//   after it). Right after an undo or a redo a new step begins.
// - Changes that land in the same pass of the event loop are one step (the settings panel
//   changing d_model and, with it, heads).
// - Opening a session file, every change a lesson makes (starting one, each of its steps,
//   stopping it), and opening or dropping weights, a mask or a model file clear the history:
//   those replace the whole setup or a file's part of it, which undo would only half bring
//   back (weights, mask, lesson place). Undo covers the user's own changes since.

#include "core/config.h"
#include "nn/mask.h"

#include <QObject>
#include <QString>

#include <optional>

class QUndoStack;

namespace attnlab {

class Session;

class History : public QObject {
    Q_OBJECT
public:
    /// What undo brings back.
    struct State {
        QString sentence;
        Config config;
        bool operator==(const State&) const = default;
    };

    explicit History(Session* session, QObject* parent = nullptr);

    QUndoStack* stack() const { return m_stack; }
    bool canUndo() const;
    bool canRedo() const;
    void undo();
    void redo();
    /// Forgets every step; the Session's input now is where undo stops.
    void clear();
    /// Records a change the Session announced but the History has not recorded yet (changes are
    /// recorded once the event loop turns; undo and redo call this first).
    void commitPending();

    /// The Session's input, as undo would restore it.
    State current() const;
    /// Puts `state` into the Session (undo and redo); not recorded as a new step.
    void apply(const State& state);

private:
    /// What files put into the Session (outside undo).
    struct Files {
        const void* weights = nullptr;
        std::optional<BoolMatrix> mask;
        QString model;
    };
    Files files() const;
    static bool sameFiles(const Files& a, const Files& b);
    void noteChange();

    Session* m_session;
    QUndoStack* m_stack;
    State m_last;              ///< the input as last recorded
    Files m_files;             ///< the files' part as last recorded
    bool m_pending = false;    ///< a change waits to be recorded
    bool m_applying = false;   ///< undo or redo is changing the Session
    bool m_mergeNext = true;   ///< false right after an undo or redo
};

/// The number of words `text` finishes: words followed by white space ("dog bi" finishes 1).
int finishedWords(const QString& text);

} // namespace attnlab
