#include "train/pool.h"

namespace attnlab::train {

WorkerPool::WorkerPool(int threads)
{
    for (int t = 1; t < threads; ++t)
        m_workers.emplace_back([this, t] { work(static_cast<std::size_t>(t)); });
}

WorkerPool::~WorkerPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_start.notify_all();
    for (std::thread& w : m_workers)
        w.join();
}

void WorkerPool::work(std::size_t t)
{
    std::size_t seen = 0;
    for (;;) {
        const std::function<void(std::size_t)>* job = nullptr;
        {
            std::unique_lock lock(m_mutex);
            m_start.wait(lock, [&] { return m_quit || m_generation != seen; });
            if (m_quit)
                return;
            seen = m_generation;
            job = m_job;
        }
        std::exception_ptr error;
        try {
            (*job)(t);
        } catch (...) {
            error = std::current_exception();
        }
        const std::lock_guard lock(m_mutex);
        if (error && !m_error)
            m_error = error;
        if (--m_pending == 0)
            m_done.notify_one();
    }
}

void WorkerPool::run(const std::function<void(std::size_t)>& job)
{
    {
        const std::lock_guard lock(m_mutex);
        m_job = &job;
        m_pending = m_workers.size();
        m_error = nullptr;
        ++m_generation;
    }
    m_start.notify_all();
    std::exception_ptr error;
    try {
        job(0);
    } catch (...) {
        error = std::current_exception();
    }
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_pending == 0; });
    if (!error)
        error = m_error;
    if (error)
        std::rethrow_exception(error);
}

} // namespace attnlab::train
