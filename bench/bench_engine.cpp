// Benchmarks of the engine: a full trace (every stage kept) for the sizes a classroom uses,
// next to a plain Eigen GEMM measured in the same run, so the engine's GFLOP/s can be read
// against what this machine reaches. Run: ./build/bench/bench_engine

#include "nn/attention.h"
#include "bench_main.h"
#include "model/model.h"

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

/// Words w0 .. w{n-1} as tokens.
std::vector<std::string> tokensOf(int n, const char* prefix)
{
    std::vector<std::string> t;
    for (int i = 0; i < n; ++i)
        t.push_back(prefix + std::to_string(i));
    return t;
}

Config transformerConfig(const benchmark::State& state, Architecture architecture)
{
    Config c;
    c.model = ModelKind::Seeded;
    c.architecture = architecture;
    c.setLayers(static_cast<int>(state.range(0)));
    c.dModel = static_cast<int>(state.range(2));
    c.heads = 8;
    c.dFF = 4 * c.dModel;
    return c;
}

// A stack of encoder layers (the paper's base size: d_model 512, 8 heads, d_ff 2048), every
// stage of every layer kept, as `trace --layers 6 --sentence ...` computes it.
void BM_EncoderStack(benchmark::State& state)
{
    const Config c = transformerConfig(state, Architecture::EncoderStack);
    const auto model = std::make_shared<const Seq2SeqModel>(seededModel(c));
    const auto source = tokensOf(static_cast<int>(state.range(1)), "w");
    for (auto _ : state) {
        Trace t = computeModelTrace(model, source, {}, c);
        benchmark::DoNotOptimize(t.stages.back().main().values.data());
    }
    const double n = static_cast<double>(state.range(1));
    const double d = c.dModel;
    // Per layer: attention as traceFlops, plus the FFN's 2·n·d·d_ff twice.
    state.counters["flops"] = benchmark::Counter(c.encoderLayers * (traceFlops(n, d) + 4.0 * n * d * c.dFF),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

// Encoder and decoder (teacher forcing, target as long as the source), every stage kept.
void BM_EncoderDecoder(benchmark::State& state)
{
    const Config c = transformerConfig(state, Architecture::EncoderDecoder);
    const auto model = std::make_shared<const Seq2SeqModel>(seededModel(c));
    const int n = static_cast<int>(state.range(1));
    const auto source = tokensOf(n, "w");
    auto target = tokensOf(n - 1, "t");
    target.insert(target.begin(), "<sos>");
    for (auto _ : state) {
        Trace t = computeModelTrace(model, source, target, c);
        benchmark::DoNotOptimize(t.stages.back().main().values.data());
    }
}

void transformerSizes(benchmark::internal::Benchmark* b)
{
    b->ArgNames({"layers", "n", "d"});
    b->Args({6, 64, 512})->Args({6, 32, 512})->Args({2, 64, 512})->Args({6, 128, 512});
    b->Unit(benchmark::kMillisecond);
}

// The shipped trained model (resources/models/reversal.safetensors): greedy generation of a
// 9-character word, every step a full trace, as the studio does on every keystroke.
void BM_GenerateShipped(benchmark::State& state)
{
    std::shared_ptr<const Seq2SeqModel> model;
    try {
        model = std::make_shared<const Seq2SeqModel>(loadModel(ATTNLAB_SHIPPED_MODEL));
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
        return;
    }
    Config c;
    c.model = ModelKind::File;
    c.dModel = model->spec.dModel;
    c.heads = model->spec.heads;
    std::vector<Message> w;
    const auto source = modelTokens(*model, "attention", false, 512, w);
    for (auto _ : state) {
        Generation g = generate(model, source, c);
        benchmark::DoNotOptimize(g.tokens.data());
    }
    state.SetLabel("9 characters");
}

// The studio's keystroke with each attention kind (docs/attention-kinds.md): every stage, the
// n x n display stages and full attention's reference included, 128 tokens, d_model 512, 8 heads.
void BM_TraceKind(benchmark::State& state)
{
    Request r;
    r.sentence = sentenceOf(128);
    r.config.dModel = 512;
    r.config.heads = 8;
    r.config.attention = static_cast<AttentionKind>(state.range(0));
    r.config.attentionOptions.window = 8;
    r.config.attentionOptions.projDim = 32;
    r.config.attentionOptions.features = 128;
    r.config.attentionOptions.buckets = 8;
    r.config.attentionOptions.stride = 12;
    r.weights = std::make_shared<const AttentionWeights>(presetWeights(WeightsPreset::Seeded, r.config.dModel, r.config.seed));
    for (auto _ : state) {
        Trace t = computeTrace(r);
        benchmark::DoNotOptimize(t.stages.back().main().values.data());
    }
    state.SetLabel(std::string(toString(r.config.attention)));
}

/// One block of 128 tokens, d_model 512, 8 heads with each position scheme (issue 14): what a
/// keystroke costs with RoPE, ALiBi, relative positions (K = 16) or Transformer-XL (L = 32, M = 32).
void BM_TracePosition(benchmark::State& state)
{
    Request r;
    r.sentence = sentenceOf(128);
    r.config.dModel = 512;
    r.config.heads = 8;
    r.config.positional = static_cast<PositionalEncoding>(state.range(0));
    r.config.positionOptions.maxDistance = 16;
    r.config.positionOptions.segment = 32;
    r.config.positionOptions.memory = 32;
    r.weights = std::make_shared<const AttentionWeights>(presetWeights(WeightsPreset::Seeded, r.config.dModel, r.config.seed));
    for (auto _ : state) {
        Trace t = computeTrace(r);
        benchmark::DoNotOptimize(t.stages.back().main().values.data());
    }
    state.SetLabel(std::string(toString(r.config.positional)));
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
BENCHMARK(BM_TraceKind)->ArgName("kind")->DenseRange(0, 7)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TracePosition)->ArgName("pe")->DenseRange(0, 6)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EncoderStack)->Apply(transformerSizes);
BENCHMARK(BM_EncoderDecoder)->Apply(transformerSizes);
BENCHMARK(BM_GenerateShipped)->Unit(benchmark::kMillisecond);
int main(int argc, char** argv)
{
    return attnlab::bench::runBenchmarks(argc, argv);
}
