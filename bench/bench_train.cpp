// Benchmarks of training (issue 15 §5), run: ./build/bench/bench_train
//
//   BM_TrainStep/preset/threads   one Adam update on 64 reversal pairs: forward + backward +
//                                 Adam; tokens/s (source + decoder tokens) and GFLOP/s (the
//                                 matrix products of forward and backward: 3 × the forward's)
//   BM_Gemm/rows/k/n              a plain Eigen GEMM of a layer's shape, same run, for scale
//   BM_StandardReversalTo95       the standard preset (2 + 2 layers, d 64, 4 heads, d_ff 128)
//                                 on reversal, from the seed to ≥ 95 % held-out exact match
//                                 (all 256 held-out strings, checked every 100 steps): seconds
//                                 and steps, wall time, 2 threads
//   BM_ClassroomAntiDiagonal      the classroom preset (1 + 1 layers, d 32) on reversal until the
//                                 mean cross-attention weight on the anti-diagonal (last decoder
//                                 layer, 32 held-out strings, every 50 steps) passes 0.5
//   BM_Standard5000Steps          the shipped model's training length, 5000 steps of 64, for the
//                                 ratio to PyTorch (bench/train_vs_pytorch.sh runs both)

#include "bench_main.h"
#include "train/probe.h"
#include "train/trainer.h"

#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <chrono>
#include <memory>

namespace {

using namespace attnlab;
using namespace attnlab::train;

ModelSpec specOf(int preset)
{
    ModelSpec s = presetSpec(preset == 0 ? Preset::Classroom : Preset::Standard);
    s.seed = 1;
    return s;
}

std::unique_ptr<Trainer> trainer(int preset, int threads, std::uint64_t seed = 1)
{
    const Task task = builtInTask(TaskKind::Reverse, 12);
    ModelSpec spec = specOf(preset);
    spec.seed = seed;
    TrainOptions o;
    o.threads = threads;
    o.seed = seed;
    o.steps = 100000;
    o.schedule.rate = defaultRate(spec.dModel);
    return std::make_unique<Trainer>(freshModel(spec, task), task, o);
}

/// The multiply-adds (×2) of one forward pass over `src` source and `dec` decoder tokens, whose
/// sequences have mean lengths `n` and `m`: every linear layer, the scores and weights·V.
double forwardFlops(const ModelSpec& s, double src, double dec, double n, double m, double vocab)
{
    const double d = s.dModel, f = s.feedForwardWidth();
    const double enc = src * (8 * d * d + 4 * d * f) + 4 * src * n * d;                 // QKV+O, FFN, attention
    const double decSelf = dec * (8 * d * d) + 4 * dec * m * d / 2;                    // causal: half the cells
    const double cross = dec * (4 * d * d) + src * (4 * d * d) + 4 * dec * n * d;      // Q, O on the decoder; K, V on the memory
    const double ffn = dec * 4 * d * f;
    return s.encoderLayers * enc + s.decoderLayers * (decSelf + cross + ffn) + 2 * dec * d * vocab;
}

void BM_TrainStep(benchmark::State& state)
{
    const int preset = static_cast<int>(state.range(0));
    auto t = trainer(preset, static_cast<int>(state.range(1)));
    double tokens = 0, flops = 0;
    const ModelSpec s = specOf(preset);
    for (auto _ : state) {
        const StepRecord r = t->step();
        tokens += static_cast<double>(r.tokens);
        // About 64·6.5 source and 64·7.5 decoder tokens a step: the mean lengths of 1…12 characters.
        const double src = static_cast<double>(r.tokens) * 6.5 / 14.0, dec = static_cast<double>(r.tokens) - src;
        flops += 3.0 * forwardFlops(s, src, dec, 6.5, 7.5, 79);
    }
    state.counters["tokens/s"] = benchmark::Counter(tokens, benchmark::Counter::kIsRate);
    state.counters["GFLOP/s"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrainStep)->ArgNames({"standard", "threads"})->Args({0, 1})->Args({0, 2})->Args({1, 1})->Args({1, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Gemm(benchmark::State& state)
{
    const Eigen::Index rows = state.range(0), k = state.range(1), n = state.range(2);
    const Eigen::MatrixXf a = Eigen::MatrixXf::Random(rows, k), b = Eigen::MatrixXf::Random(n, k);
    Eigen::MatrixXf c(rows, n);
    for (auto _ : state) {
        c.noalias() = a * b.transpose();
        benchmark::DoNotOptimize(c.data());
    }
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(rows) * double(k) * double(n) / 1e9,
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
// A batch's decoder rows × d_model × d_ff, and × d_model × 3·d_model (in_proj).
BENCHMARK(BM_Gemm)->Args({480, 64, 128})->Args({480, 64, 192})->Args({480, 32, 64})->Unit(benchmark::kMicrosecond);

void BM_StandardReversalTo95(benchmark::State& state)
{
    for (auto _ : state) {
        auto t = trainer(1, 2);
        const auto start = std::chrono::steady_clock::now();
        int steps = 0;
        double exact = 0;
        while (exact < 0.95 && steps < 10000) {
            for (int i = 0; i < 100; ++i, ++steps)
                t->step();
            exact = t->evaluate().exactMatch;
        }
        state.counters["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.counters["steps"] = steps;
        state.counters["exact_match"] = exact;
    }
}
BENCHMARK(BM_StandardReversalTo95)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

void BM_ClassroomAntiDiagonal(benchmark::State& state)
{
    for (auto _ : state) {
        auto t = trainer(0, 2);
        const std::vector<Pair> probes(t->task().heldOut.begin(), t->task().heldOut.begin() + 32);
        const auto start = std::chrono::steady_clock::now();
        int steps = 0;
        double weight = 0;
        while (weight <= 0.5 && steps < 20000) {
            for (int i = 0; i < 50; ++i, ++steps)
                t->step();
            weight = antiDiagonalWeight(std::make_shared<const Seq2SeqModel>(t->model()), probes);
        }
        state.counters["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.counters["steps"] = steps;
        state.counters["anti_diagonal"] = weight;
    }
}
BENCHMARK(BM_ClassroomAntiDiagonal)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

void BM_Standard5000Steps(benchmark::State& state)
{
    for (auto _ : state) {
        auto t = trainer(1, 2);
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < 5000; ++i)
            t->step();
        state.counters["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.counters["exact_match"] = t->evaluate().exactMatch;
    }
}
BENCHMARK(BM_Standard5000Steps)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

} // namespace

int main(int argc, char** argv)
{
    return attnlab::bench::runBenchmarks(argc, argv);
}
