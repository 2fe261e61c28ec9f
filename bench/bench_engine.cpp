// Benchmarks of the engine: a full trace (every stage kept) for the sizes a classroom uses,
// next to a plain Eigen GEMM measured in the same run, so the engine's GFLOP/s can be read
// against what this machine reaches. Run: ./build/bench/bench_engine

#include "attention.h"
#include "common/allocator.h"

#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <memory>
#include <string>

namespace {

using namespace attnlab;

/// n distinct words: "w0 w1 ... w{n-1}".
std::string sentenceOf(int n)
{
    std::string s;
    for (int i = 0; i < n; ++i)
        s.append("w").append(std::to_string(i)).append(" ");
    return s;
}

/// Multiply-adds counted as 2 flops: projections 2·n·d·3d + 2·n·d·d, scores and A·V 2·n²·d each.
double traceFlops(double n, double d)
{
    return 8.0 * n * d * d + 4.0 * n * n * d;
}

Request requestFor(const benchmark::State& state)
{
    Request r;
    r.sentence = sentenceOf(static_cast<int>(state.range(0)));
    r.config.dModel = static_cast<int>(state.range(1));
    r.config.heads = static_cast<int>(state.range(2));
    r.config.mask = MaskKind::Causal;
    return r;
}

// What the studio does on every keystroke: the weights are made once and kept by the Session.
void BM_Trace(benchmark::State& state)
{
    Request r = requestFor(state);
    r.weights = std::make_shared<const AttentionWeights>(presetWeights(WeightsPreset::Seeded, r.config.dModel, r.config.seed));
    for (auto _ : state) {
        Trace t = computeTrace(r);
        benchmark::DoNotOptimize(t.stages.back().main().values.data());
    }
    state.counters["flops"] = benchmark::Counter(traceFlops(state.range(0), state.range(1)), benchmark::Counter::kIsIterationInvariantRate);
}

// The same with the seeded weights made inside the call (what the command line does once).
void BM_TraceWithWeights(benchmark::State& state)
{
    const Request r = requestFor(state);
    for (auto _ : state) {
        Trace t = computeTrace(r);
        benchmark::DoNotOptimize(t.stages.back().main().values.data());
    }
}

// A plain Eigen GEMM doing the same number of flops as the trace's projections:
// (n x d) · (d x 4d), the shape of X·[W_Q W_K W_V W_O]ᵀ.
void BM_Gemm(benchmark::State& state)
{
    const auto n = state.range(0);
    const auto d = state.range(1);
    const Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, d);
    const Eigen::MatrixXf b = Eigen::MatrixXf::Random(d, 4 * d);
    Eigen::MatrixXf c(n, 4 * d);
    for (auto _ : state) {
        c.noalias() = a * b;
        benchmark::DoNotOptimize(c.data());
    }
    state.counters["flops"] = benchmark::Counter(2.0 * n * d * 4 * d, benchmark::Counter::kIsIterationInvariantRate);
}

void sizes(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"n", "d", "h"});
    b->Args({8, 64, 2})->Args({32, 512, 8})->Args({64, 512, 8})->Args({128, 512, 8})->Args({512, 512, 8});
    b->Unit(benchmark::kMillisecond);
}

} // namespace

BENCHMARK(BM_Trace)->Apply(sizes);
BENCHMARK(BM_TraceWithWeights)->Apply(sizes);
BENCHMARK(BM_Gemm)->Apply(sizes);
int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
