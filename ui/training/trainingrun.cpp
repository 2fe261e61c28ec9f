#include "training/trainingrun.h"

#include "train/probe.h"

#include <QMetaObject>

#include <chrono>

namespace attnlab {

namespace {

/// Held-out pairs evaluated at each evaluation: enough for a curve, quick enough to repeat.
constexpr std::size_t kEvaluationPairs = 64;
constexpr auto kProbeInterval = std::chrono::milliseconds(150);
constexpr int kMaxSnapshots = 40;

} // namespace

TrainingRun::TrainingRun(QObject* parent)
    : QObject(parent)
{
}

TrainingRun::~TrainingRun()
{
    m_stop = true;
    m_wake.notify_all();
    join();
}

int TrainingRun::snapshotInterval(int steps)
{
    int every = 50;
    while (steps / every > kMaxSnapshots)
        every += 50;
    return every;
}

std::shared_ptr<const Trace> TrainingRun::probeTrace(const std::shared_ptr<const Seq2SeqModel>& model, const train::Pair& pair)
{
    try {
        return std::make_shared<const Trace>(train::teacherForcedTrace(model, pair));
    } catch (const std::exception&) {
        return nullptr; // a probe the model cannot read: the view keeps the last one
    }
}

void TrainingRun::start(std::unique_ptr<train::Trainer> trainer)
{
    m_stop = true;
    m_wake.notify_all();
    join();
    m_trainer = std::move(trainer);
    {
        const std::lock_guard lock(m_mutex);
        m_frame = Frame{};
        m_frame.totalSteps = m_trainer->options().steps;
        m_frame.state = State::Running;
        m_model.reset();
    }
    m_stop = false;
    m_paused = false;
    m_state = State::Running;
    m_thread = std::thread([this] {
        try {
            loop(*m_trainer);
        } catch (const std::exception& e) {
            const std::lock_guard lock(m_mutex);
            m_frame.error = QString::fromUtf8(e.what());
            if (const auto* carrier = dynamic_cast<const CarriesMessage*>(&e))
                m_frame.errorMessage = carrier->message(); // the view says it in its language
            m_frame.state = State::Failed;
            m_state = State::Failed;
        }
        QMetaObject::invokeMethod(this, [this] { emit ended(); }, Qt::QueuedConnection);
    });
}

void TrainingRun::loop(train::Trainer& trainer)
{
    using Clock = std::chrono::steady_clock;
    const train::Pair probePair = trainer.probe();
    {
        const std::lock_guard lock(m_mutex);
        m_frame.probePair = probePair;
    }
    const int total = trainer.options().steps;
    const int every = snapshotInterval(total);
    const int evaluateEvery = std::max(10, every / 5);
    // The model and its probe pass now, kept for the view (and, at a snapshot step, in the strip).
    auto capture = [&](int step, bool snapshot) {
        auto model = std::make_shared<const Seq2SeqModel>(trainer.model());
        auto trace = probeTrace(model, probePair);
        const std::lock_guard lock(m_mutex);
        m_model = std::move(model);
        if (!trace)
            return;
        m_frame.probe = trace;
        m_frame.probeStep = step;
        if (snapshot)
            m_frame.snapshots.push_back({step, std::move(trace)});
    };
    capture(0, true);
    auto lastProbe = Clock::now();
    double seconds = 0;
    for (int s = 1; s <= total && !m_stop; ++s) {
        if (m_paused) {
            capture(trainer.steps(), false); // "Use this model" while paused takes this step's model
            std::unique_lock lock(m_mutex);
            m_frame.state = State::Paused;
            m_state = State::Paused;
            m_wake.wait(lock, [this] { return !m_paused || m_stop; });
            m_frame.state = State::Running;
            m_state = State::Running;
            if (m_stop)
                break;
        }
        const auto begin = Clock::now();
        const train::StepRecord r = trainer.step();
        std::optional<train::Evaluation> e;
        if (s % evaluateEvery == 0 || s == total || s == 1)
            e = trainer.evaluate(kEvaluationPairs);
        seconds += std::chrono::duration<double>(Clock::now() - begin).count();
        {
            const std::lock_guard lock(m_mutex);
            m_frame.steps.push_back(r);
            if (e)
                m_frame.evaluations.emplace_back(s, *e);
            m_frame.seconds = seconds;
        }
        const bool snapshot = s % every == 0;
        if (snapshot || s == total || Clock::now() - lastProbe > kProbeInterval) {
            capture(s, snapshot);
            lastProbe = Clock::now();
        }
    }
    const std::lock_guard lock(m_mutex);
    const bool finished = !m_frame.steps.empty() && m_frame.steps.back().step == total;
    m_frame.state = finished ? State::Finished : State::Stopped;
    m_state = m_frame.state;
}

void TrainingRun::restore(Frame frame, std::shared_ptr<const Seq2SeqModel> model)
{
    stop();
    join();
    const std::lock_guard lock(m_mutex);
    m_frame = std::move(frame);
    m_model = std::move(model);
    m_state = m_frame.state;
}

void TrainingRun::pause()
{
    if (state() == State::Running)
        m_paused = true;
}

void TrainingRun::resume()
{
    m_paused = false;
    m_wake.notify_all();
}

void TrainingRun::stop()
{
    m_stop = true;
    m_paused = false;
    m_wake.notify_all();
}

bool TrainingRun::wait(int timeoutMs)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (isActive() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return !isActive();
}

void TrainingRun::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

TrainingRun::Frame TrainingRun::frame() const
{
    const std::lock_guard lock(m_mutex);
    return m_frame;
}

std::shared_ptr<const Seq2SeqModel> TrainingRun::model() const
{
    const std::lock_guard lock(m_mutex);
    return m_model;
}

} // namespace attnlab
