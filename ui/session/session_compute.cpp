// The trace off the GUI thread (Session::setBackgroundTrace): GPT-2 small takes a tenth of a
// second a keystroke at 15 tokens and a third at 64, a larger model seconds; the studio's window
// must answer meanwhile. The request is made on the GUI thread (the caches are the GUI thread's),
// the engine's run() of A and B runs in a QtConcurrent task in the Session's own thread pool, and
// a QFutureWatcher brings the result back. The studio's one idiom for long work (generation,
// session_generation.cpp, is the other half of it): QtConcurrent::run and a watcher, the result
// of an older input dropped.
//
// A serial number names the input: every change increments it, and a result is shown only when
// it was computed for the newest serial. One computation runs at a time: changes made while it
// runs replace each other (keystrokes coalesce), and the newest is computed when it ends.

#include "session/session.h"

#include <QFutureWatcher>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace attnlab {

/// One computation off the GUI thread: A's request (and B's, while comparing), made on the GUI
/// thread; what run() made of them, written by the worker and read once it has finished.
struct Session::TraceJob {
    quint64 serial = 0;      ///< the input it is for
    bool background = false; ///< a generation stops after its first step (setBackgroundGeneration)
    RunRequest a;
    std::optional<RunRequest> b;      ///< none: not comparing, or B cannot be computed (bProblem)
    std::optional<Message> bProblem;  ///< why B cannot be computed, found on the GUI thread

    RunResult resultA;
    RunResult resultB;
    std::unique_ptr<GenerationRun> restA; ///< a generation's steps after the first
    std::unique_ptr<GenerationRun> restB;
    std::optional<Message> errorA; ///< why A failed: the previous trace stays
    std::optional<Message> errorB;

    /// The worker: A, then B (B is not computed when A fails, as on the GUI thread).
    void work()
    {
        errorA = failureOf([this] { resultA = computeRun(a, background, &restA); });
        if (!errorA && b)
            errorB = failureOf([this] { resultB = computeRun(*b, background, &restB); });
    }
};

void Session::setBackgroundTrace(bool on)
{
    if (!on)
        finishComputing();
    m_backgroundTrace = on;
}

QThreadPool* Session::pool()
{
    if (!m_pool) {
        // Three threads: the trace, a generation, and a dropped generation finishing its step.
        m_pool = new QThreadPool(this);
        m_pool->setMaxThreadCount(3);
    }
    return m_pool;
}

void Session::recompute(bool here)
{
    // The older input's generation, if one still runs: what it would still make is dropped.
    const bool wasRunning = isGenerationRunning();
    dropGeneration();
    ++m_inputSerial; // a trace being computed off the GUI thread is for an older input now
    if (m_backgroundTrace && !here) {
        if (m_traceJob) {
            m_tracePending = true; // computed when the running one ends
            setComputing(true);
        } else {
            startTraceJob();
        }
    } else {
        m_tracePending = false;
        setComputing(false);
        computeHere();
    }
    if (wasRunning && !isGenerationRunning())
        emit generationRunningChanged(false);
}

std::optional<Message> Session::failureOf(const std::function<void()>& work)
{
    try {
        work();
        return std::nullopt;
    } catch (const Error& e) {
        return e.message();
    } catch (const std::exception& e) {
        return Message{{}, {}, e.what()}; // no code: shown as the engine wrote it
    }
}

void Session::computeHere()
{
    const auto failure = failureOf([&] {
        std::unique_ptr<GenerationRun> restA, restB;
        RunResult a = compute(requestFor(m_sentence, m_config, m_target, m_imported, m_customMask, m_fileModel, m_generationStep),
                              &restA);
        computeComparison(&restB); // B with A, so the views draw both at once
        install(std::move(a));
        startGeneration(std::move(restA), std::move(restB));
    });
    if (failure)
        failed(*failure);
}

void Session::failed(const Message& why)
{
    m_error = why; // the previous trace stays
    setComputing(false);
    emit errorOccurred(error());
}

void Session::startTraceJob()
{
    m_tracePending = false;
    auto job = std::make_shared<TraceJob>();
    job->serial = m_inputSerial;
    job->background = m_background;
    // Invalid settings, a missing model: said at once, and the trace on screen stays.
    if (const auto problem = failureOf([&] {
            job->a = requestFor(m_sentence, m_config, m_target, m_imported, m_customMask, m_fileModel, m_generationStep);
        })) {
        failed(*problem);
        return;
    }
    if (m_comparing)
        job->bProblem = failureOf([&] { job->b = comparisonRequest(); });
    m_traceJob = job;
    auto* watcher = new QFutureWatcher<void>(this);
    m_traceWatcher = watcher;
    connect(watcher, &QFutureWatcherBase::finished, watcher, &QObject::deleteLater);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, job] { traceJobDone(job); });
    watcher->setFuture(QtConcurrent::run(pool(), [job] { job->work(); }));
    setComputing(true);
}

void Session::traceJobDone(const std::shared_ptr<TraceJob>& job)
{
    if (job != m_traceJob)
        return; // finishComputing() took it, or a computation here replaced it
    m_traceJob.reset();
    m_traceWatcher = nullptr;
    if (job->serial == m_inputSerial)
        installTraceJob(*job);
    // else: an older input's, dropped without a word (its errors too)
    if (m_tracePending)
        startTraceJob();
    else
        setComputing(false);
}

void Session::installTraceJob(TraceJob& job)
{
    if (job.errorA) {
        failed(*job.errorA);
        return;
    }
    setComputing(false);
    const auto failure = failureOf([&] {
        // B first, as computeHere() does, so the views draw both at once.
        takeComparison(std::move(job.resultB), job.bProblem ? job.bProblem : job.errorB);
        install(std::move(job.resultA));
        startGeneration(std::move(job.restA), std::move(job.restB));
    });
    if (failure)
        failed(*failure);
}

void Session::cancelTraceJob()
{
    ++m_inputSerial; // the running computation's result is dropped when it comes
    m_tracePending = false;
    setComputing(false);
}

void Session::finishComputing()
{
    if (!m_computing)
        return;
    const std::shared_ptr<TraceJob> job = std::exchange(m_traceJob, nullptr);
    QFutureWatcherBase* watcher = std::exchange(m_traceWatcher, nullptr);
    if (job && job->serial == m_inputSerial) {
        // The current input's computation runs: its end is waited for (a part of one computation).
        watcher->waitForFinished();
        m_tracePending = false;
        installTraceJob(*job);
        return;
    }
    // The newest input has not started (an older one's runs, dropped when it ends): computed here.
    const bool wasRunning = isGenerationRunning();
    cancelTraceJob();
    computeHere();
    if (wasRunning && !isGenerationRunning())
        emit generationRunningChanged(false);
}

void Session::setComputing(bool on)
{
    if (on == m_computing)
        return;
    m_computing = on;
    emit computingChanged(on);
}

} // namespace attnlab
