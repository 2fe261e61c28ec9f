#pragma once
// A training run of the Training view (issue 15 §3): the engine's Trainer (train/trainer.h)
// stepping in a thread of its own, so that the window stays responsive. The thread records every
// step (loss, rate, gradient norm), evaluates the held-out pairs every few steps (loss and exact
// match on up to 64 of them), and computes the trace of a fixed probe pair (teacher forcing) at
// most every 150 ms for the live heatmap, and at every snapshot step (0, 50, 100, … — wider apart
// for long runs, at most 40) for the snapshot strip. The view reads what is there with frame():
// a copy taken under a lock, the traces shared. Pause, resume and stop take effect between steps.

#include "core/message.h"
#include "core/trace.h"
#include "model/model.h"
#include "train/trainer.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace attnlab {

class TrainingRun : public QObject {
    Q_OBJECT
public:
    enum class State {
        Idle,     ///< nothing started
        Running,
        Paused,
        Finished, ///< every step done
        Stopped,  ///< stopped before the last step; the model is the one of the last step
        Failed,   ///< the thread ran into an error (Frame::error), or training diverged (a loss, a
                  ///< gradient or weights not finite: the model stays the one of the last good step)
    };

    struct Snapshot {
        int step = 0;
        std::shared_ptr<const Trace> trace; ///< the probe pair's pass at that step
    };

    /// What the view draws, copied at one moment.
    struct Frame {
        State state = State::Idle;
        int totalSteps = 0;
        std::vector<train::StepRecord> steps;
        std::vector<std::pair<int, train::Evaluation>> evaluations; ///< (step, held-out result)
        train::Pair probePair;              ///< the held-out pair the probe passes read
        std::shared_ptr<const Trace> probe; ///< the latest probe pass
        int probeStep = 0;
        std::vector<Snapshot> snapshots;
        double seconds = 0; ///< training time so far (pauses not counted)
        QString error;                       ///< the error in English
        std::optional<Message> errorMessage; ///< the same as a Message when the engine gave one (training_diverged)
    };

    explicit TrainingRun(QObject* parent = nullptr);
    /// Stops the thread and waits for it.
    ~TrainingRun() override;

    /// Starts training `trainer` in the thread (a run in progress is stopped first).
    void start(std::unique_ptr<train::Trainer> trainer);
    /// Shows a run that has ended (a slide's, made once per process): `frame` as it stands, `model` its model.
    void restore(Frame frame, std::shared_ptr<const Seq2SeqModel> model);
    void pause();
    void resume();
    /// Stops after the step in progress; the model stays usable.
    void stop();
    /// Waits until the thread has ended (finished, stopped or failed), at most `timeoutMs`;
    /// true when it has.
    bool wait(int timeoutMs);

    State state() const { return m_state.load(); }
    bool isActive() const { return state() == State::Running || state() == State::Paused; }
    Frame frame() const;
    /// The model at the latest snapshot, probe or pause (null before the first).
    std::shared_ptr<const Seq2SeqModel> model() const;
    /// The steps between two snapshots for a run of `steps`: 50, or more for long runs (at most 40 snapshots).
    static int snapshotInterval(int steps);
    /// The pass of `model` on `pair` (teacher forcing), as the studio computes it; null when it fails.
    static std::shared_ptr<const Trace> probeTrace(const std::shared_ptr<const Seq2SeqModel>& model, const train::Pair& pair);

signals:
    /// The thread has ended (queued to the run's thread).
    void ended();

private:
    void loop(train::Trainer& trainer);
    void join();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    Frame m_frame;
    std::shared_ptr<const Seq2SeqModel> m_model;
    std::atomic<State> m_state{State::Idle};
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_paused{false};
    std::unique_ptr<train::Trainer> m_trainer;
    std::thread m_thread;
};

} // namespace attnlab
