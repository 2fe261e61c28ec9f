// Benchmarks of pretrained models at their real sizes (issue 12, section 4; issue 31, section 4):
// random-weight folders of GPT-2 small's shape (124 M parameters), BERT-base's, SmolLM2-135M's
// and Qwen2.5-0.5B's (BF16, tied embeddings) are written to a temporary folder when first needed
// (bench/pretrained_folders.h) and opened as a user opens a downloaded one.
//   BM_*Trace                    a full trace through run(), every stage kept
//   BM_*Gemm                     the same pass's matrix products alone, plain Eigen: what this
//                                machine reaches on the same floating-point work
//   BM_*Open                     openModel on the folder from a warm page cache (map, tokenizer,
//                                BF16 widened to float32), and the resident memory it adds and
//                                the time of a first open (measured in a fresh process)
//   BM_*TraceMemory              the peak resident memory of a trace (GPT-2: n = 1024, the
//                                gated decoders: n = 512), in a fresh process, with the trace's
//                                bytes by stage id: the trace the studio and run() keep (compact
//                                at that size), and for GPT-2 `trace --stages weights` (only those
//                                kept, the JSON written as it goes)
//   BM_*Generate                 tokens per second of generateTokens with its key/value cache
//   BM_*TraceThreads,            the trace and the generation on one thread and on every core
//   BM_*GenerateThreads          (core/compute_threads.h), by the clock: the speed-up
// One thread unless the name says threads. Run: scripts/bench_pretrained.sh (about eight minutes, --benchmark_filter=Gpt2 for
// GPT-2's cases alone).

#include "bench_main.h"
#include "common/allocator.h"
#include "core/compute_threads.h"
#include "families/family.h"
#include "io/trace_json.h"
#include "model/open.h"
#include "model/run.h"
#include "pretrained/generate.h"
#include "pretrained/model_folder.h"
#include "pretrained_folders.h"
#include "process_memory.h"

#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace attnlab;
namespace fs = std::filesystem;

const fs::path kTokenizers = ATTNLAB_TOKENIZER_DATA;
const fs::path kQwenTokenizer = ATTNLAB_QWEN_TOKENIZER; // the unpacked tests/reference/tokenizers/hf/qwen3
constexpr std::uint64_t kSeed = 12;

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// 114 words, repeated as often as a length needs (tokensOf checks that they give n tokens).
const char* const kParagraph =
    "Attention is the part of a Transformer that lets every token look at every other token. Each token "
    "is turned into three vectors: a query, a key and a value. The query of one token is compared with "
    "the keys of all tokens, the scores are scaled by the square root of the key's width, and a softmax "
    "turns them into weights that add up to one. The output for the token is the weighted sum of the "
    "values. In a decoder a causal mask hides the tokens that come later, so that the model cannot read "
    "the answer it is asked to predict. Teachers like to show what a trained model attends to. ";

/// A text of at least n tokens for either model (cut to n by maxTokens).
std::string textOf(int n)
{
    std::string s;
    for (int i = 0; i <= n / 100; ++i)
        s += kParagraph;
    return s;
}

/// The temporary folder of both models, removed at exit.
const fs::path& rootFolder()
{
    static const bench::TemporaryFolder root;
    return root.path();
}

/// Writes a model folder once (its tokenizer files from `tokenizers`), saying how long it took.
fs::path writtenFolder(const char* name, std::int64_t (*write)(const fs::path&, const fs::path&, std::uint64_t),
                       const fs::path& tokenizers = kTokenizers)
{
    const fs::path folder = rootFolder() / name;
    const auto start = std::chrono::steady_clock::now();
    const std::int64_t parameters = write(folder, tokenizers, kSeed);
    std::fprintf(stderr, "wrote %s: %lld parameters, %.0f MB, in %.1f s (%s)\n", name, static_cast<long long>(parameters),
                 static_cast<double>(fs::file_size(folder / "model.safetensors")) / (1 << 20), secondsSince(start),
                 folder.c_str());
    return folder;
}

const fs::path& gpt2Folder()
{
    static const fs::path folder = writtenFolder("gpt2-small", bench::writeGpt2Small);
    return folder;
}

const fs::path& bertFolder()
{
    static const fs::path folder = writtenFolder("bert-base-uncased", bench::writeBertBase);
    return folder;
}

const fs::path& smolFolder()
{
    static const fs::path folder = writtenFolder("SmolLM2-135M", bench::writeSmolLm2_135M);
    return folder;
}

const fs::path& qwenFolder()
{
    static const fs::path folder = writtenFolder("Qwen2.5-0.5B", bench::writeQwen25_05B, kQwenTokenizer);
    return folder;
}

/// The models, opened once for the cases that run them.
std::shared_ptr<const Seq2SeqModel> gpt2Model()
{
    static const auto model = std::make_shared<const Seq2SeqModel>(openModel(gpt2Folder().string()));
    return model;
}

std::shared_ptr<const Seq2SeqModel> bertModel()
{
    static const auto model = std::make_shared<const Seq2SeqModel>(openModel(bertFolder().string()));
    return model;
}

std::shared_ptr<const Seq2SeqModel> smolModel()
{
    static const auto model = std::make_shared<const Seq2SeqModel>(openModel(smolFolder().string()));
    return model;
}

std::shared_ptr<const Seq2SeqModel> qwenModel()
{
    static const auto model = std::make_shared<const Seq2SeqModel>(openModel(qwenFolder().string()));
    return model;
}

/// The model's settings for a run of n tokens, as the command line makes them.
Config configFor(const Seq2SeqModel& m, int n)
{
    Config c;
    adoptModel(c, m);
    c.model = ModelKind::File;
    c.maxTokens = n;
    return c;
}

/// n tokens of the paragraph, as the model reads it (BERT's [CLS] and [SEP] included).
PretrainedTokens tokensOf(const Seq2SeqModel& m, int n)
{
    PretrainedTokens t = pretrainedTokens(*m.pretrained, textOf(n), std::nullopt, n);
    if (static_cast<int>(t.ids.size()) != n)
        throw std::logic_error("the paragraph is too short for " + std::to_string(n) + " tokens");
    return t;
}

/// One pass's floating-point work, a multiply-add counted as 2. Per layer: the projections
/// Q, K, V and W_O (8·n·d²), Q·Kᵀ and A·V over all heads (4·n²·d; the engine computes every
/// score, the causal ones too), the MLP (4·n·d·d_ff). The head: BERT's transform (2·n·d²) and
/// the logits (2·n·d·V). A gated decoder (h query heads, g key/value heads of width d_h): Q and
/// W_O 4·n·d·h·d_h, K and V 4·n·d·g·d_h, Q·Kᵀ and A·V 4·n²·h·d_h, gate, up and down 6·n·d·d_ff.
double passFlops(const HfConfig& c, double n)
{
    const double d = c.dModel, ff = c.dFF, v = c.vocabulary;
    const double q = static_cast<double>(c.heads) * c.headDim, kv = static_cast<double>(c.kvHeads) * c.headDim;
    const bool gated = modelFamily(c.family).layerKind == FamilyLayer::Gated;
    const double layer = gated ? 4 * n * d * q + 4 * n * d * kv + 4 * n * n * q + 6 * n * d * ff
                               : 8 * n * d * d + 4 * n * n * d + 4 * n * d * ff;
    const double head = (modelFamily(c.family).task == FamilyTask::FillMask ? 2 * n * d * d : 0) + 2 * n * d * v;
    return c.layers * layer + head;
}

// A full trace through the engine's one entry point, every stage kept, as the command line's
// `trace --model DIR` and the studio compute it.
void traceCase(benchmark::State& state, const std::shared_ptr<const Seq2SeqModel>& model)
{
    const int n = static_cast<int>(state.range(0));
    RunRequest r;
    r.text = textOf(n);
    r.config = configFor(*model, n);
    r.model = model;
    if (run(r).trace->tokens.size() != static_cast<std::size_t>(n)) {
        state.SkipWithError("the text does not give n tokens");
        return;
    }
    for (auto _ : state) {
        RunResult out = run(r);
        benchmark::DoNotOptimize(out.trace->stages.back().main().values.data());
    }
    state.counters["FLOPS"] = benchmark::Counter(passFlops(model->pretrained->config(), n), benchmark::Counter::kIsIterationInvariantRate);
}

/// Runs `body` on state.range(index) compute threads (core/compute_threads.h), then one again.
template <typename Body>
void onThreads(benchmark::State& state, int index, Body body)
{
    setComputeThreads(static_cast<int>(state.range(index)));
    body();
    setComputeThreads(1);
    state.counters["threads"] = static_cast<double>(state.range(index));
}

void BM_Gpt2Trace(benchmark::State& state) { traceCase(state, gpt2Model()); }
void BM_BertTrace(benchmark::State& state) { traceCase(state, bertModel()); }
void BM_SmolLm2Trace(benchmark::State& state) { traceCase(state, smolModel()); }
void BM_Qwen25Trace(benchmark::State& state) { traceCase(state, qwenModel()); }
// The same on 1 and on every core, by the clock (the speed-up of "all cores").
void BM_SmolLm2TraceThreads(benchmark::State& state) { onThreads(state, 1, [&] { traceCase(state, smolModel()); }); }
void BM_Qwen25TraceThreads(benchmark::State& state) { onThreads(state, 1, [&] { traceCase(state, qwenModel()); }); }

/// out = x · Wᵀ for a linear layer as it lies in the file (nn.Linear [out, in]; Conv1D [in, out]).
void product(Eigen::MatrixXf& out, const Eigen::MatrixXf& x, const LinearLayer& l)
{
    if (l.inOut)
        out.noalias() = x * l.stored();
    else
        out.noalias() = x * l.stored().transpose();
}

/// The matrix products of one pass and nothing else, with the pass's shapes, on the model's own
/// mapped weights: no bias, softmax, norm, GELU or SiLU, no RoPE, no stage kept. The inputs are
/// fixed random matrices (not the last product's output) so that no value drifts towards a
/// denormal.
class PassGemms {
public:
    PassGemms(const PretrainedWeights& w, Eigen::Index n)
        : m_w(w), m_x(Eigen::MatrixXf::Random(n, w.config.dModel)), m_h(Eigen::MatrixXf::Random(n, w.config.dFF))
    {
    }

    void run()
    {
        for (const PretrainedLayer& l : m_w.layers) {
            if (l.attention.qkv) {
                product(m_qkv, m_x, *l.attention.qkv); // (n x 3d) = X · c_attn
                const Eigen::Index d = m_x.cols();
                attention(m_qkv.leftCols(d), m_qkv.middleCols(d, d), m_qkv.rightCols(d));
            } else {
                product(m_q, m_x, l.attention.q);
                product(m_k, m_x, l.attention.k);
                product(m_v, m_x, l.attention.v);
                attention(m_q, m_k, m_v);
            }
            if (l.gate.weight.data)
                product(m_gate, m_x, l.gate); // SwiGLU's gate: (n x d_ff) = X · W_gateᵀ
            mlp(l.attention.output, l.up, l.down);
        }
        if (m_w.mlm)
            product(m_out, m_x, m_w.mlm->dense);
        const EmbeddingTable& table = *m_w.outputTable();
        m_logits.noalias() = m_x * table.map().transpose(); // (n x V) = X · Tᵀ
        benchmark::DoNotOptimize(m_logits.data());
        benchmark::ClobberMemory();
    }

private:
    /// A head's width: head_dim for a gated decoder, d / heads otherwise.
    static Eigen::Index headDim(const HfConfig& c) { return c.headDim > 0 ? c.headDim : c.dModel / c.heads; }

    /// Per query head h: S = Q_h·K_gᵀ (n x n), O_h = S·V_g (n x d_k), g the key/value head it
    /// shares (g = h without grouped-query attention).
    template <typename Q, typename K, typename V>
    void attention(const Q& q, const K& k, const V& v)
    {
        const Eigen::Index dk = headDim(m_w.config), heads = m_w.config.heads;
        const Eigen::Index group = m_w.config.kvHeads > 0 ? heads / m_w.config.kvHeads : 1;
        m_concat.resize(m_x.rows(), heads * dk);
        for (Eigen::Index h = 0; h < heads; ++h) {
            const Eigen::Index g = h / group;
            m_scores.noalias() = q.middleCols(h * dk, dk) * k.middleCols(g * dk, dk).transpose();
            m_concat.middleCols(h * dk, dk).noalias() = m_scores * v.middleCols(g * dk, dk);
        }
    }

    /// W_O on the heads' concatenation, then the MLP's layers (a gated decoder's gate is above).
    void mlp(const LinearLayer& wo, const LinearLayer& up, const LinearLayer& down)
    {
        product(m_out, m_concat, wo);
        product(m_hidden, m_x, up);
        product(m_out, m_h, down);
    }

    const PretrainedWeights& m_w;
    const Eigen::MatrixXf m_x, m_h;
    Eigen::MatrixXf m_qkv, m_q, m_k, m_v, m_scores, m_concat, m_out, m_hidden, m_gate, m_logits;
};

void gemmCase(benchmark::State& state, const std::shared_ptr<const Seq2SeqModel>& model)
{
    const auto n = state.range(0);
    PassGemms gemms(model->pretrained->weights, n);
    for (auto _ : state)
        gemms.run();
    state.counters["FLOPS"] = benchmark::Counter(passFlops(model->pretrained->config(), static_cast<double>(n)),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Gpt2Gemm(benchmark::State& state) { gemmCase(state, gpt2Model()); }
void BM_BertGemm(benchmark::State& state) { gemmCase(state, bertModel()); }
void BM_SmolLm2Gemm(benchmark::State& state) { gemmCase(state, smolModel()); }
void BM_Qwen25Gemm(benchmark::State& state) { gemmCase(state, qwenModel()); }

/// Reads every file of `folder` once, so that the page cache holds them.
void warmPageCache(const fs::path& folder)
{
    std::vector<char> buffer(1 << 20);
    for (const auto& entry : fs::directory_iterator(folder)) {
        std::ifstream in(entry.path(), std::ios::binary);
        while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
        }
    }
}

// Opening GPT-2 small as `--model DIR` does: config.json, the mapped model.safetensors, the
// tokenizer (50257 tokens, 50000 merges) and the vocabulary's labels. The time is the median of
// opens in this process; the memory, and the time of a process's first open, come from a fresh
// process (a heap that kept earlier frees would hide what the open allocates).
void openCase(benchmark::State& state, const fs::path& folderPath)
{
    const std::string folder = folderPath.string();
    warmPageCache(folder);
    for (auto _ : state) {
        Seq2SeqModel m = openModel(folder);
        benchmark::DoNotOptimize(&m);
    }
    const auto f = bench::parseFigures(bench::runSelf({"--child", "open", folder}));
    state.counters["first_open_ms"] = 1000 * f.at("seconds");
    state.counters["RSS_MB"] = f.at("rss_after") - f.at("rss_before");
    state.counters["anon_MB"] = f.at("anon_after") - f.at("anon_before");
    state.counters["file_MB"] = f.at("file_after") - f.at("file_before");
}

void BM_Gpt2Open(benchmark::State& state) { openCase(state, gpt2Folder()); }
// SmolLM2-135M and Qwen2.5-0.5B as `--model DIR` opens them: config.json, the mapped BF16
// model.safetensors widened to float32 (the heap's share of RSS_MB), the tokenizer.json (49152
// and 151665 tokens) and the vocabulary's labels.
void BM_SmolLm2Open(benchmark::State& state) { openCase(state, smolFolder()); }
void BM_Qwen25Open(benchmark::State& state) { openCase(state, qwenFolder()); }

/// The trace's stages by id, largest first, on standard error.
void printBreakdown(const std::map<std::string, double>& f, const std::string& title)
{
    std::vector<std::pair<double, std::string>> rows;
    for (const auto& [key, mb] : f) {
        if (key.starts_with("stage."))
            rows.emplace_back(mb, key.substr(6));
    }
    std::sort(rows.rbegin(), rows.rend());
    std::fprintf(stderr, "%s: the trace's matrices by stage id, all layers and heads (MB)\n", title.c_str());
    for (const auto& [mb, id] : rows)
        std::fprintf(stderr, "  %-22s %9.1f\n", id.c_str(), mb);
    std::fprintf(stderr, "  %-22s %9.1f\n", "(all stages)", f.at("trace_stages"));
}

// The peak resident memory of a process that opens GPT-2 small and traces n tokens: with arg 0
// the trace run() keeps (TraceDetail::Auto: compact above 512 MB, pretrained/trace_detail.h);
// with arg 1 what `trace --stages weights` does: the engine keeps the weights stages alone, and
// their JSON is written a stage at a time (here counted, not stored).
void traceMemoryCase(benchmark::State& state, const fs::path& folder, const std::string& title)
{
    const std::string n = std::to_string(state.range(0));
    const bool weightsOnly = state.range(1) != 0;
    std::map<std::string, double> f;
    for (auto _ : state) {
        f = bench::parseFigures(bench::runSelf({"--child", "trace", folder.string(), n, weightsOnly ? "weights" : "auto"}));
        state.SetIterationTime(f.at("seconds"));
    }
    state.counters["peak_MB"] = f.at("peak");
    state.counters["start_MB"] = f.at("rss_start");
    state.counters["opened_MB"] = f.at("rss_opened");
    state.counters["stages_MB"] = f.at("trace_stages");
    state.counters["weights_file_MB"] = f.at("file_after");
    if (weightsOnly)
        state.counters["json_MB"] = f.at("json");
    state.counters["weights_f32_MB"] = f.at("weights_f32");
    printBreakdown(f, title + ", n = " + n + (weightsOnly ? ", --stages weights" : ", the trace run() keeps"));
}

void BM_Gpt2TraceMemory(benchmark::State& state) { traceMemoryCase(state, gpt2Folder(), "GPT-2 small"); }
// The floor of issue 31: peak_MB below weights_f32_MB (the parameters in float32) + 1536.
void BM_SmolLm2TraceMemory(benchmark::State& state) { traceMemoryCase(state, smolFolder(), "SmolLM2-135M"); }
void BM_Qwen25TraceMemory(benchmark::State& state) { traceMemoryCase(state, qwenFolder(), "Qwen2.5-0.5B"); }

// Writing on: 32 new tokens, greedy, after a 16-token prompt, with the key/value cache.
void generateCase(benchmark::State& state, const std::shared_ptr<const Seq2SeqModel>& model)
{
    const PretrainedTokens prompt = tokensOf(*model, 16);
    std::int64_t tokens = 0;
    double wall = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const GeneratedTokens g = generateTokens(model->pretrained->weights, prompt.ids, 32, SamplingOptions{});
        wall += secondsSince(start);
        tokens += static_cast<std::int64_t>(g.ids.size());
    }
    // By CPU time (what the machine's other work does not change much) and by the clock.
    state.counters["tokens_per_s"] = benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
    state.counters["tokens_per_s_wall"] = static_cast<double>(tokens) / std::max(wall, 1e-9);
    state.SetLabel("16-token prompt, " + std::to_string(tokens / std::max<std::int64_t>(1, state.iterations())) + " new tokens");
}

void BM_Gpt2Generate(benchmark::State& state) { generateCase(state, gpt2Model()); }
void BM_SmolLm2Generate(benchmark::State& state) { generateCase(state, smolModel()); }
void BM_Qwen25Generate(benchmark::State& state) { generateCase(state, qwenModel()); }
void BM_SmolLm2GenerateThreads(benchmark::State& state) { onThreads(state, 0, [&] { generateCase(state, smolModel()); }); }
void BM_Qwen25GenerateThreads(benchmark::State& state) { onThreads(state, 0, [&] { generateCase(state, qwenModel()); }); }

void print(const char* key, double value) { std::printf("%s %.6f\n", key, value); }

/// `--child open DIR`: the resident memory before and after opening the folder.
void childOpen(const std::string& folder)
{
    const bench::MemoryStatus before = bench::memoryStatus();
    const auto start = std::chrono::steady_clock::now();
    const Seq2SeqModel m = openModel(folder);
    print("seconds", secondsSince(start));
    const bench::MemoryStatus after = bench::memoryStatus();
    print("rss_before", before.rss);
    print("rss_after", after.rss);
    print("anon_before", before.anon);
    print("anon_after", after.anon);
    print("file_before", before.file);
    print("file_after", after.file);
}

/// `--child trace DIR N auto|weights`: the trace's peak, its stages' bytes by id.
void childTrace(const std::string& folder, int n, bool weightsJson)
{
    print("rss_start", bench::memoryStatus().rss);
    const auto model = std::make_shared<const Seq2SeqModel>(openModel(folder));
    print("rss_opened", bench::memoryStatus().rss);
    double parameters = 0;
    for (const auto& file : model->pretrained->weights.files) {
        for (const auto& [name, entry] : file->tensors())
            parameters += static_cast<double>(entry.numel());
    }
    print("weights_f32", 4 * parameters / (1 << 20));
    const PretrainedTokens tokens = tokensOf(*model, n);
    TraceKeep keep;
    if (weightsJson)
        keep.only = {"weights"};
    const auto start = std::chrono::steady_clock::now();
    const Trace trace = computePretrainedTrace(model, tokens, configFor(*model, n), keep);
    print("seconds", secondsSince(start));
    std::map<std::string, double> bytes;
    double all = 0;
    for (const Stage& s : trace.stages) {
        for (const LabeledMatrix& m : s.matrices) {
            bytes[s.id] += 4.0 * static_cast<double>(m.values.size());
            all += 4.0 * static_cast<double>(m.values.size());
        }
    }
    for (const auto& [id, b] : bytes)
        print(("stage." + id).c_str(), b / (1 << 20));
    print("trace_stages", all / (1 << 20));
    print("dropped_stages", static_cast<double>(trace.stages.dropped().size()));
    if (weightsJson) {
        double json = 0;
        writeTraceJson(trace, -1, {"weights"}, [&](std::string_view piece) { json += static_cast<double>(piece.size()); });
        print("json", json / (1 << 20));
    }
    const bench::MemoryStatus end = bench::memoryStatus();
    print("peak", end.peak);
    print("file_after", end.file);
    print("anon_after", end.anon);
}

int childMain(int argc, char** argv)
{
    try {
        const std::string what = argc > 2 ? argv[2] : "";
        if (what == "open" && argc == 4) {
            childOpen(argv[3]);
            return 0;
        }
        if (what == "trace" && argc == 6) {
            childTrace(argv[3], std::stoi(argv[4]), std::string(argv[5]) == "weights");
            return 0;
        }
        std::fprintf(stderr, "bench_pretrained --child: open DIR | trace DIR N auto|weights\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_pretrained --child: %s\n", e.what());
    }
    return 1;
}

} // namespace

BENCHMARK(BM_Gpt2Trace)->ArgName("n")->Arg(64)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Gpt2Gemm)->ArgName("n")->Arg(64)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_BertTrace)->ArgName("n")->Arg(128)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_BertGemm)->ArgName("n")->Arg(128)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Gpt2Open)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Gpt2TraceMemory)->ArgNames({"n", "weights_json"})->Args({1024, 0})->Args({1024, 1})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gpt2Generate)->Unit(benchmark::kMillisecond)->MinTime(2);
// Issue 31: SmolLM2-135M and Qwen2.5-0.5B (BF16, tied embeddings).
BENCHMARK(BM_SmolLm2Trace)->ArgName("n")->Arg(64)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_SmolLm2Gemm)->ArgName("n")->Arg(64)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Qwen25Trace)->ArgName("n")->Arg(64)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Qwen25Gemm)->ArgName("n")->Arg(64)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_SmolLm2Open)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Qwen25Open)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_SmolLm2TraceMemory)->ArgNames({"n", "weights_json"})->Args({512, 0})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Qwen25TraceMemory)->ArgNames({"n", "weights_json"})->Args({512, 0})->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SmolLm2Generate)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Qwen25Generate)->Unit(benchmark::kMillisecond)->MinTime(2);
// One thread against every core, by the clock, in the same run.
const int kCores = attnlab::availableCores();
BENCHMARK(BM_SmolLm2TraceThreads)->ArgNames({"n", "threads"})->Args({64, 1})->Args({64, kCores})->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Qwen25TraceThreads)->ArgNames({"n", "threads"})->Args({64, 1})->Args({64, kCores})->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_SmolLm2GenerateThreads)->ArgName("threads")->Arg(1)->Arg(kCores)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Qwen25GenerateThreads)->ArgName("threads")->Arg(1)->Arg(kCores)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap(); // the measuring children too, as the programs do
#ifdef _OPENMP
    Eigen::setNbThreads(1); // the floors are one thread's
#endif
    if (argc > 1 && std::string(argv[1]) == "--child")
        return childMain(argc, argv);
    return attnlab::bench::runBenchmarks(argc, argv);
}
