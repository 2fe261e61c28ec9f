#include "core/compute_threads.h"

#include "train/pool.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

namespace attnlab {

namespace {

struct ComputePool {
    std::mutex busy; ///< held while a product uses the pool (or while it is replaced)
    std::unique_ptr<train::WorkerPool> pool; ///< null: one thread
    std::atomic<int> threads = 1;
};

ComputePool& computePool()
{
    // Never destroyed: a computation still running on another thread at exit (the studio's
    // background trace) must not find its pool gone; the workers end with the process.
    static ComputePool* p = new ComputePool;
    return *p;
}

} // namespace

void setComputeThreads(int threads)
{
    threads = std::clamp(threads, 1, kMaxComputeThreads);
    ComputePool& p = computePool();
    const std::lock_guard lock(p.busy); // a product running now keeps the old pool until it is done
    if (threads == p.threads)
        return;
    p.pool.reset();
    if (threads > 1) {
        Eigen::initParallel(); // Eigen's cache sizes set before two threads multiply at once
        p.pool = std::make_unique<train::WorkerPool>(threads);
    }
    p.threads = threads;
}

int computeThreads()
{
    return computePool().threads;
}

int availableCores()
{
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void forColumnChunks(Eigen::Index columns, double multiplyAdds, const std::function<void(Eigen::Index, Eigen::Index)>& job)
{
    constexpr Eigen::Index kAlign = 16;
    ComputePool& p = computePool();
    std::unique_lock lock(p.busy, std::defer_lock);
    // Small, or one thread, or the pool busy with another computation: here, whole.
    if (multiplyAdds < kMinParallelMultiplyAdds || columns < 2 * kAlign || !lock.try_lock() || !p.pool) {
        job(0, columns);
        return;
    }
    const auto threads = static_cast<Eigen::Index>(p.pool->threads());
    // Equal shares, rounded up to whole 16-column blocks; the last thread takes what is left.
    const Eigen::Index share = ((columns + threads - 1) / threads + kAlign - 1) / kAlign * kAlign;
    p.pool->run([&](std::size_t t) {
        const Eigen::Index begin = std::min(columns, static_cast<Eigen::Index>(t) * share);
        const Eigen::Index count = std::min(columns - begin, share);
        if (count > 0)
            job(begin, count);
    });
}

} // namespace attnlab
