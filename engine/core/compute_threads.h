#pragma once
/// The threads the engine's largest products run on: a pretrained model's linear layers and its
/// output head (issue 31, "the same with all cores") split their output columns among them. One
/// thread unless a program asks for more (the studio and the command line ask for every core;
/// the benchmarks' floors are one thread's). Each output column is the same GEMM over the same
/// depth on every thread count, so the numbers do not depend on it.
///
/// One pool serves the process: a product that finds it busy (a second computation on another
/// thread: the studio's trace beside its generation stepper) computes on its own thread instead
/// of waiting.

#include <Eigen/Core>

#include <functional>

namespace attnlab {

/// The most threads setComputeThreads takes.
inline constexpr int kMaxComputeThreads = 64;
/// Below this many multiply-adds a product stays on the calling thread: handing it out would
/// cost more than it saves.
inline constexpr double kMinParallelMultiplyAdds = 1 << 16;

/// Sets the threads (clamped to 1 … kMaxComputeThreads; the calling thread is one of them). Safe
/// to call while products run: they finish on the old threads.
void setComputeThreads(int threads);
int computeThreads();
/// Every core the machine reports (at least 1).
int availableCores();

/// Runs job(begin, count) over chunks of the `columns` columns (0 … columns − 1, each once): on
/// the compute threads when `multiplyAdds` reaches kMinParallelMultiplyAdds and the pool is free,
/// else job(0, columns) here. Chunks start at multiples of 16 columns. The first exception a job
/// throws is thrown here once every chunk is done.
void forColumnChunks(Eigen::Index columns, double multiplyAdds, const std::function<void(Eigen::Index, Eigen::Index)>& job);

} // namespace attnlab
