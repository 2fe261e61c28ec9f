#include "session/history.h"

#include "session/session.h"

#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

namespace attnlab {

int finishedWords(const QString& text)
{
    int words = 0;
    bool inWord = false;
    for (const QChar c : text) {
        if (c.isSpace()) {
            words += inWord ? 1 : 0;
            inWord = false;
        } else {
            inWord = true;
        }
    }
    return words;
}

namespace {

/// Sentence-only changes share this id, so QUndoStack offers them to mergeWith.
constexpr int kSentenceEdit = 1;

/// What an edit of the sentence did: typed (also over a selection) or only deleted.
enum class EditKind {
    Typed,
    Deleted,
    Same,
};

EditKind editKind(const QString& before, const QString& after)
{
    // The changed middle: what is left between the common start and the common end.
    const qsizetype shorter = std::min(before.size(), after.size());
    qsizetype start = 0;
    while (start < shorter && before[start] == after[start])
        ++start;
    qsizetype end = 0;
    while (end < shorter - start && before[before.size() - 1 - end] == after[after.size() - 1 - end])
        ++end;
    const qsizetype inserted = after.size() - start - end;
    const qsizetype removed = before.size() - start - end;
    return inserted > 0 ? EditKind::Typed : removed > 0 ? EditKind::Deleted : EditKind::Same;
}

/// One step: the input before and after a change. Recorded once the change happened, so the
/// first redo (QUndoStack::push calls it) does nothing.
class InputChange : public QUndoCommand {
public:
    InputChange(History* history, History::State before, History::State after, bool mergeable)
        : m_history(history)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeable(mergeable)
        , m_kind(editKind(m_before.sentence, m_after.sentence))
    {
    }

    int id() const override
    {
        return m_before.config == m_after.config ? kSentenceEdit : -1;
    }

    bool mergeWith(const QUndoCommand* other) override
    {
        // One step while the edits go on the same way (typing, or deleting) within one word.
        const auto* next = static_cast<const InputChange*>(other);
        if (!next->m_mergeable || m_kind == EditKind::Same || next->m_kind != m_kind
            || finishedWords(next->m_after.sentence) != finishedWords(m_after.sentence))
            return false;
        m_after = next->m_after;
        return true;
    }

    void undo() override
    {
        m_history->apply(m_before);
    }

    void redo() override
    {
        if (m_done)
            m_history->apply(m_after);
        m_done = true;
    }

private:
    History* m_history;
    History::State m_before;
    History::State m_after;
    bool m_mergeable;
    EditKind m_kind; ///< of the first edit
    bool m_done = false;
};

} // namespace

History::History(Session* session, QObject* parent)
    : QObject(parent)
    , m_session(session)
    , m_stack(new QUndoStack(this))
    , m_last(current())
    , m_files(files())
{
    connect(session, &Session::inputChanged, this, &History::noteChange);
    connect(session, &Session::sessionLoaded, this, &History::clear);
}

History::State History::current() const
{
    return {m_session->sentence(), m_session->config()};
}

History::Files History::files() const
{
    return {m_session->importedWeights().get(), m_session->customMask(), m_session->modelPath()};
}

bool History::sameFiles(const Files& a, const Files& b)
{
    const bool sameMask = a.mask.has_value() == b.mask.has_value()
        && (!a.mask || (a.mask->rows() == b.mask->rows() && a.mask->cols() == b.mask->cols() && *a.mask == *b.mask));
    return a.weights == b.weights && sameMask && a.model == b.model;
}

bool History::canUndo() const
{
    return m_pending || m_stack->canUndo();
}

bool History::canRedo() const
{
    return !m_pending && m_stack->canRedo();
}

void History::noteChange()
{
    if (m_applying || m_pending)
        return;
    // Recorded once the event loop turns: what changes together is one step.
    m_pending = true;
    QTimer::singleShot(0, this, &History::commitPending);
}

void History::commitPending()
{
    if (!m_pending)
        return;
    m_pending = false;
    if (!sameFiles(files(), m_files)) {
        clear(); // a file replaced part of the setup: undo starts again from here
        return;
    }
    State now = current();
    if (now == m_last)
        return;
    m_stack->push(new InputChange(this, m_last, now, m_mergeNext));
    m_last = std::move(now);
    m_mergeNext = true;
}

void History::undo()
{
    commitPending();
    m_stack->undo();
}

void History::redo()
{
    commitPending();
    m_stack->redo();
}

void History::clear()
{
    m_pending = false;
    m_stack->clear();
    m_last = current();
    m_files = files();
    m_mergeNext = true;
}

void History::apply(const State& state)
{
    m_applying = true;
    if (state.config != m_session->config())
        m_session->setConfig(state.config);
    if (state.sentence != m_session->sentence())
        m_session->setSentence(state.sentence);
    m_applying = false;
    m_pending = false;
    m_last = current();
    m_mergeNext = false; // the next edit starts a step of its own
}

} // namespace attnlab
