#pragma once
// The studio's GPT-2 generation stepper (issue 12 §5): "Next token" and "Generate N" append what
// GPT-2 writes to the sentence (Session::setSentence with the decoded text), so every view shows
// the longer text; "Back" removes the last generated token. One stepper per Session (of()).
//
// It keeps a Gpt2Stepper (a key/value cache, so a step costs one position) while the sentence is
// the prompt + what was generated; editing the sentence or opening another model starts again
// from the new text (an edit that only removes generated tokens from the end, Undo for one,
// keeps the rest). The generated ids are the stepper's: the views show the Session's trace of
// the decoded text, which GPT-2's tokenizer may split otherwise (readsBackDifferently()); the
// next step continues from the generated ids, as `attention-lab-cli generate` would.
//
// Steps run off the GUI thread (QtConcurrent), with progress and cancel; the sentence changes
// once, when they are done. Sampling: the same seed and options as `generate --seed` give the
// same tokens.

#include "pretrained/generate.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace attnlab {

class Gpt2Stepper;
class Session;
struct PretrainedModel;

class GenerationStepper : public QObject {
    Q_OBJECT
public:
    /// The stepper of `session` (made the first time, a child of the session).
    static GenerationStepper* of(Session* session);
    ~GenerationStepper() override;

    /// True when the Session's model is a GPT-2 with its language-model head.
    bool isAvailable() const;
    bool isRunning() const { return m_running; }
    // The stepper's tokens, between runs (a run owns them: while isRunning() these are empty and
    // progress() tells what is written).
    /// The tokens generated after the prompt (empty when none, or after a new prompt), and the
    /// probability the model gave each.
    std::vector<int> generated() const;
    std::vector<float> probabilities() const;
    /// Prompt and generated ids (the stepper's; the Session's trace may split the text otherwise).
    std::vector<int> ids() const;
    /// Positions the key/value cache holds (a step computes one more, the first the prompt's).
    int cachedPositions() const;
    /// True when the Session's trace of the sentence has other token ids than ids().
    bool readsBackDifferently() const;
    /// The most tokens the text may have: the model's positions, or the Session's max_tokens.
    int tokenLimit() const;

    /// Starts writing `count` tokens with `options` (valid: SamplingOptions' ranges). Returns
    /// false, with the reason in `why` (translated), when no step can be taken: not GPT-2, no
    /// prompt, the text ended with <|endoftext|>, no position left, already running.
    bool start(int count, const SamplingOptions& options, QString* why = nullptr);
    /// Stops a run after the token being computed; the tokens written so far are kept.
    void cancel();
    /// Removes the last generated token from the sentence; false when there is none.
    bool back();
    /// What the last run ended on (the end of text, the last position), or empty.
    QString stopMessage() const { return m_stopMessage; }
    /// Why no token can follow the text now, or empty (isRunning() aside).
    QString whyNoStep() const;

signals:
    /// After each token of a run: `done` of `total`, and the generated text so far.
    void progress(int done, int total, const QString& text);
    void runningChanged(bool running);
    /// The generated tokens changed (a run, Back, a new prompt, another model).
    void changed();

private:
    explicit GenerationStepper(Session* session);
    const PretrainedModel* pretrained() const;
    /// Follows the Session: keeps the generated tokens while the sentence is prompt + some of them.
    void sync();
    /// Forgets the prompt and the generated tokens.
    void reset();
    /// Makes the stepper for the Session's sentence; false with the reason when it cannot.
    bool prepare(QString* why);
    /// The prompt's text followed by the first `count` generated tokens, decoded.
    QString textWith(std::size_t count) const;
    void finishRun();

    struct Outcome {
        int made = 0;
        QString error; ///< the engine's message when a step failed
    };

    Session* m_session;
    std::unique_ptr<Gpt2Stepper> m_core;
    QString m_prompt;   ///< the sentence the generated tokens follow
    QString m_expected; ///< the sentence the stepper last set (prompt + generated, decoded)
    QString m_stopMessage;
    bool m_running = false;
    bool m_discard = false; ///< the input changed during a run: its tokens are dropped
    std::atomic<bool> m_cancel{false};
    QFutureWatcher<Outcome> m_watcher;
};

} // namespace attnlab
