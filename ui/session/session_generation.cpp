// Greedy generation off the GUI thread (Session::setBackgroundGeneration): a model that never
// writes <eos> makes up to 1024 decoder passes, each on all the tokens so far, a minute and more
// of work. The first step is computed at once (it checks the input and gives the views their
// stages); the others run in a QtConcurrent task (in a thread pool of the Session's own: Qt's
// painting uses the global one) that a newer input stops, and the views show the steps done so
// far as they come. One idiom with the studio's other long work: QtConcurrent::run
// and a QFutureWatcher, the results of an older input dropped, cancellable, with progress.

#include "session/session.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <mutex>

namespace attnlab {

namespace {

/// How long the views keep a step before they get a newer one while a generation runs: 0.4 s,
/// and longer as the steps grow, since a step's heatmaps (k × k) take longer to draw. Drawing a
/// 1000 × 1000 heatmap 25 times a second would take the GUI thread from the user; this way the
/// drawing takes a bounded share of it, and a keystroke waits for one drawing at most.
qint64 showEveryMs(std::size_t steps)
{
    const auto k = static_cast<qint64>(steps);
    return 400 + k * k / 250;
}

} // namespace

/// A generation's steps after the first, run off the GUI thread. The runs belong to the worker
/// while it works; the GUI thread reads what it has done through the copies below.
struct Session::GenerationJob {
    std::unique_ptr<GenerationRun> a; ///< A's generation (null: only B's goes on)
    std::unique_ptr<GenerationRun> b; ///< B's while comparing (null: none)
    std::atomic<bool> stop{false};    ///< set by the GUI thread: end after the step being computed

    std::mutex mutex; ///< guards what follows
    Generation aSoFar;
    Generation bSoFar;
    int done = 0;
    int limit = 0;
    std::string error; ///< why a step failed (out of memory), or empty

    /// Copies what the runs have done (the worker, after each step; the GUI thread, at the start).
    void publish()
    {
        int d = 0, l = 0;
        for (const auto* r : {a.get(), b.get()}) {
            if (r) {
                d += r->done();
                l += r->finished() ? r->done() : r->limit();
            }
        }
        // The copies are made, and the ones they replace let go of (the step before's trace,
        // hundreds of MB at 1000 tokens), outside the lock the GUI thread waits for.
        Generation newA = a ? a->generation() : Generation{};
        Generation newB = b ? b->generation() : Generation{};
        {
            const std::lock_guard lock(mutex);
            std::swap(aSoFar, newA);
            std::swap(bSoFar, newB);
            done = d;
            limit = l;
        }
    }

    /// The worker: A and B a step each in turn until both are done or the GUI thread says stop.
    void work(QPromise<void>& promise)
    {
        const auto busy = [](const std::unique_ptr<GenerationRun>& r) { return r && !r->finished(); };
        int range = -1;
        try {
            while (!stop && (busy(a) || busy(b))) {
                if (busy(a))
                    a->step();
                if (!stop && busy(b))
                    b->step();
                publish();
                int d, l;
                {
                    const std::lock_guard lock(mutex);
                    d = done;
                    l = limit;
                }
                if (l != range) // each change of the range is an event for the GUI thread
                    promise.setProgressRange(0, range = l);
                promise.setProgressValue(d);
            }
        } catch (const std::exception& e) {
            const std::lock_guard lock(mutex);
            error = e.what();
        }
    }
};

Session::~Session()
{
    // The worker holds only its job and the model (shared), but it must not outlive the program's
    // statics (the shipped model): its step ends, then the Session goes.
    if (m_job)
        m_job->stop = true;
    for (QFutureWatcherBase* w : findChildren<QFutureWatcherBase*>(QString(), Qt::FindDirectChildrenOnly))
        w->waitForFinished();
}

void Session::setBackgroundGeneration(bool on)
{
    m_background = on;
}

RunResult Session::computeRun(const RunRequest& request, bool background, std::unique_ptr<GenerationRun>* rest)
{
    if (!background || !rest || !generates(request))
        return run(request);
    auto g = std::make_unique<GenerationRun>(request);
    g->step();
    RunResult first = g->result();
    if (!g->finished())
        *rest = std::move(g);
    return first;
}

void Session::startGeneration(std::unique_ptr<GenerationRun> a, std::unique_ptr<GenerationRun> b)
{
    if (!a && !b)
        return;
    dropGeneration();
    auto job = std::make_shared<GenerationJob>();
    job->a = std::move(a);
    job->b = std::move(b);
    job->publish();
    m_job = job;
    m_jobDone = job->done;
    m_jobLimit = job->limit;
    m_shownAt.start();
    // One watcher per run: it deletes itself when its run ends; a dropped run's is disconnected
    // from the Session, so nothing it still makes reaches the views.
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, job] {
        if (job == m_job)
            showGenerationSoFar(false);
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, job] {
        if (job == m_job)
            finishGeneration();
    });
    watcher->setFuture(QtConcurrent::run(pool(), [job](QPromise<void>& promise) { job->work(promise); }));
    emit generationRunningChanged(true);
    emit generationProgress(m_jobDone, m_jobLimit);
}

void Session::dropGeneration()
{
    if (!m_job)
        return;
    m_job->stop = true;
    for (QFutureWatcherBase* w : findChildren<QFutureWatcherBase*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (w != m_traceWatcher) // the trace's computation goes on
            w->disconnect(this); // its last step, and its end, are no news for the Session
    }
    m_job.reset();
    m_jobDone = 0;
    m_jobLimit = 0;
}

void Session::showGenerationSoFar(bool now)
{
    Generation a, b;
    {
        const std::lock_guard lock(m_job->mutex);
        m_jobDone = m_job->done;
        m_jobLimit = m_job->limit;
        if (now || m_shownAt.elapsed() >= showEveryMs(m_generation.size())) {
            a = m_job->aSoFar;
            b = m_job->bSoFar;
        }
    }
    if (!a.empty() || !b.empty()) {
        m_shownAt.start();
        const int before = generationStep();
        const std::size_t beforeB = m_compareGeneration.size();
        if (!a.empty())
            m_generation = std::move(a);
        if (!b.empty() && m_comparing)
            m_compareGeneration = std::move(b);
        // The step shown follows the last one (the default), or reaches the one the user chose.
        const int shown = generationStep();
        const bool newA = shown != before && isGenerating();
        const bool newB = m_compareGeneration.size() != beforeB;
        if (newA || newB) {
            try {
                if (newA)
                    m_full = withWarnings(m_generation.step(static_cast<std::size_t>(shown)), m_inputWarnings);
                showComparisonStep();
            } catch (const std::exception& e) {
                emit errorOccurred(QString::fromStdString(e.what())); // out of memory remaking a step
            }
            m_projectedBlock.reset();
            project();
            emit traceChanged();
        }
    }
    emit generationProgress(m_jobDone, m_jobLimit);
}

void Session::finishGeneration()
{
    showGenerationSoFar(true);
    std::string error;
    {
        const std::lock_guard lock(m_job->mutex);
        error = m_job->error;
    }
    m_job.reset();
    m_jobDone = 0;
    m_jobLimit = 0;
    emit generationRunningChanged(false);
    if (!error.empty()) {
        // The steps done so far stay on screen; the banner says why there are no more.
        m_error = Message{{}, {}, error};
        emit errorOccurred(QString::fromStdString(error));
    }
}

void Session::stopGeneration()
{
    if (!m_job)
        return;
    showGenerationSoFar(true); // what is done now stays
    dropGeneration();
    m_generationStopped = true;
    emit generationRunningChanged(false);
}

void Session::showComparisonStep()
{
    if (m_compareGeneration.empty() || !m_comparing)
        return;
    const int last = static_cast<int>(m_compareGeneration.size()) - 1;
    const int at = m_generationStep < 0 ? last : std::min(m_generationStep, last);
    m_compareFull = withWarnings(m_compareGeneration.step(static_cast<std::size_t>(at)), m_compareInputWarnings);
}

} // namespace attnlab
