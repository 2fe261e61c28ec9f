// From a text change to the repainted heatmap, in the real studio window (offscreen):
// Session::setSentence (engine + every view that listens) and an immediate replot of the
// visible heatmap, then the event loop drained. Run: QT_QPA_PLATFORM=offscreen build/bench/bench_studio

#include "common/allocator.h"
#include "core/compute_threads.h"
#include "pretrained_folders.h"
#include "views/heatmapview.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "views/stageview.h"

#include <benchmark/benchmark.h>

#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QTimer>

#include <string>

namespace {

using namespace attnlab;

QString sentenceOf(int n, int variant)
{
    QString s;
    for (int i = 0; i < n; ++i)
        s += QStringLiteral("w%1 ").arg((i * 7 + variant) % 97);
    return s;
}

/// The studio window on the session's current step; each iteration types `textFor(k)` (a
/// different text of the same length, as typing one more letter would) and repaints the heatmap.
template <typename TextFor>
void typeAndRepaint(benchmark::State& state, Session& session, TextFor textFor)
{
    MainWindow window(&session);
    window.resize(1400, 900);
    window.show();
    QApplication::processEvents();
    int variant = 0;
    for (auto _ : state) {
        session.setSentence(textFor(++variant));
        window.stageView()->heatmap()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QApplication::processEvents();
    }
}

void BM_TextChangeToRepaintedHeatmap(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    Session session;
    Config c = session.config();
    c.dModel = static_cast<int>(state.range(1));
    c.heads = static_cast<int>(state.range(2));
    session.setConfig(c);
    session.setStepId(QStringLiteral("weights"));
    typeAndRepaint(state, session, [n](int variant) { return sentenceOf(n, variant); });
}

/// Lower-case letters for the shipped reversal model: a different word of n characters each time.
QString wordOf(int n, int variant)
{
    QString s;
    for (int i = 0; i < n; ++i)
        s += QChar(u'a' + (i * 7 + variant) % 26);
    return s;
}

// The shipped trained encoder–decoder on its cross-attention step: every keystroke encodes the
// source and generates the whole reversal greedily (one decoder pass per token), then repaints.
void BM_TextChangeToRepaintedCrossAttention(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    Session session;
    Config c = session.config();
    c.model = ModelKind::Reversal;
    session.setConfig(c);
    session.setSentence(wordOf(n, 0));
    session.setStep(session.stepIndex(QStringLiteral("weights"), 1, Block::Cross));
    typeAndRepaint(state, session, [n](int variant) { return wordOf(n, variant); });
    state.SetLabel(std::to_string(session.generation().tokens.size()) + " generation steps");
}

/// "The w12 w33 …": n words, a different text for each variant.
QString wordsText(int n, int variant)
{
    QString s = QStringLiteral("The");
    for (int i = 1; i < n; ++i)
        s += QStringLiteral(" w%1").arg((i * 7 + variant) % 97);
    return s;
}

// GPT-2 small (a random-weight folder of its shape, written at start-up) on layer 6's weights,
// head 1: every keystroke tokenizes (byte-level BPE), runs the whole 12-layer pass with its LM
// head (n x 50257 logits and probabilities) and repaints. n counts the text's words; the label
// says how many BPE tokens that made.
void BM_TextChangeToRepaintedGpt2Small(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    bench::TemporaryFolder folder;
    bench::writeGpt2Small(folder.path(), ATTNLAB_TOKENIZER_DATA, 7);
    Session session;
    QString error;
    if (!session.importModel(QString::fromStdString(folder.path().string()), &error)) {
        state.SkipWithError(error.toStdString().c_str());
        return;
    }
    const auto text = [n](int variant) { return wordsText(n, variant); };
    session.setSentence(text(0));
    session.setStep(session.stepIndex(QStringLiteral("weights"), 5, Block::DecoderSelf));
    typeAndRepaint(state, session, text);
    state.SetLabel(std::to_string(session.fullTrace()->tokens.size()) + " tokens");
}

/// Sets state.range(1) compute threads, opens `folder` in the session on state.range(0) words
/// and on `layer`'s weights; false (the benchmark skipped with the reason) when it fails.
bool openFolder(benchmark::State& state, Session& session, const bench::TemporaryFolder& folder, int layer)
{
    setComputeThreads(static_cast<int>(state.range(1)));
    QString error;
    if (!session.importModel(QString::fromStdString(folder.path().string()), &error)) {
        state.SkipWithError(error.toStdString().c_str());
        return false;
    }
    session.setSentence(wordsText(static_cast<int>(state.range(0)), 0));
    session.setStep(session.stepIndex(QStringLiteral("weights"), layer, Block::DecoderSelf));
    return true;
}

// SmolLM2-135M (a random-weight BF16 folder of its shape) on layer 15's weights, head 1, on
// state.range(1) compute threads: every keystroke tokenizes (tokenizer.json), runs the 30-layer
// pass with its n x 49152 head and repaints. Issue 31's floor: 400 ms at 15 tokens.
void BM_TextChangeToRepaintedSmolLm2(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    bench::TemporaryFolder folder;
    bench::writeSmolLm2_135M(folder.path(), ATTNLAB_TOKENIZER_DATA, 7);
    Session session;
    if (!openFolder(state, session, folder, 14))
        return;
    typeAndRepaint(state, session, [n](int variant) { return wordsText(n, variant); });
    state.SetLabel(std::to_string(session.fullTrace()->tokens.size()) + " tokens, " + std::to_string(computeThreads()) + " threads");
    setComputeThreads(1);
}

// Qwen2.5-0.5B (random weights, BF16, Qwen's real tokenizer.json) in the studio window with its
// traces computed off the GUI thread, as the studio runs: each iteration types a new text and
// runs the event loop until the new trace is drawn, a 5 ms timer ticking all along. The time is
// the keystroke's; "longest_gap_ms" the longest wait between two ticks while a trace computed:
// how long the window can take to answer input then (issue 31's floor: 50 ms).
void BM_WindowWhileQwen25Computes(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    bench::TemporaryFolder folder;
    bench::writeQwen25_05B(folder.path(), ATTNLAB_QWEN_TOKENIZER, 7);
    Session session;
    if (!openFolder(state, session, folder, 11))
        return;
    session.setBackgroundTrace(true);
    MainWindow window(&session);
    window.resize(1400, 900);
    window.show();
    QApplication::processEvents();
    QElapsedTimer clock;
    qint64 last = -1;
    qint64 worst = 0;
    QTimer tick;
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        if (!session.isComputing())
            return;
        if (last >= 0)
            worst = std::max(worst, clock.elapsed() - last);
        last = clock.elapsed();
    });
    tick.start();
    clock.start();
    int variant = 0;
    for (auto _ : state) {
        last = -1;
        session.setSentence(wordsText(n, ++variant));
        while (session.isComputing())
            QApplication::processEvents(QEventLoop::WaitForMoreEvents);
        window.stageView()->heatmap()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QApplication::processEvents();
    }
    state.counters["longest_gap_ms"] = static_cast<double>(worst);
    state.SetLabel(std::to_string(session.fullTrace()->tokens.size()) + " tokens, " + std::to_string(computeThreads()) + " threads");
    setComputeThreads(1);
}

// Heatmaps of n = 256 … 1024 tokens (issue 12, section 5): one attention block (d_model 64,
// 2 heads, causal mask, max_tokens 1024) in the studio window on its attention weights
// (masked = 0) or its masked scores (masked = 1: the −∞ cells). Each case times one thing the
// user does to the big heatmap, up to the repainted plot.
enum class BigAction {
    NewTrace, ///< another text of n tokens: the engine, every view that listens, the heatmap
    Resize,   ///< the window one pixel wider or narrower: the heatmap lays itself out again
    Select,   ///< a click selects another cell (the outline moves, the inspector explains it)
    Hover,    ///< the mouse moves to another cell (the dashed outline and the tooltip follow)
};

void bigHeatmap(benchmark::State& state, BigAction action)
{
    const int n = static_cast<int>(state.range(0));
    Session session;
    Config c = session.config();
    c.dModel = 64;
    c.heads = 2;
    c.mask = MaskKind::Causal;
    c.maxTokens = 1024;
    session.setConfig(c);
    session.setSentence(sentenceOf(n, 0));
    session.setStepId(state.range(1) ? QStringLiteral("masked_scores") : QStringLiteral("weights"));
    MainWindow window(&session);
    window.resize(1400, 900);
    window.show();
    QApplication::processEvents();
    QCustomPlot* plot = window.stageView()->heatmap()->plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QApplication::processEvents();
    const QRect cells = plot->axisRect()->rect();
    int k = 0;
    for (auto _ : state) {
        ++k;
        switch (action) {
        case BigAction::NewTrace:
            session.setSentence(sentenceOf(n, k));
            plot->replot(QCustomPlot::rpImmediateRefresh);
            break;
        case BigAction::Resize:
            window.resize(1400 + k % 2, 900);
            break;
        case BigAction::Select:
            session.selectCell((k * 37) % n, (k * 37) % n / 2);
            break;
        case BigAction::Hover: {
            // Across the cells in steps of 7 pixels: a different cell each time.
            const QPointF at(cells.left() + 3 + (k * 7) % std::max(1, cells.width() - 6), cells.top() + 3 + (k * 5) % std::max(1, cells.height() - 6));
            QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(plot, &move);
            break;
        }
        }
        QApplication::processEvents(); // the queued replots and the paint events
    }
    state.SetLabel(QStringLiteral("%1 tokens, %2 items").arg(session.trace()->tokens.size()).arg(plot->itemCount()).toStdString());
}

void BM_BigHeatmapNewTrace(benchmark::State& state)
{
    bigHeatmap(state, BigAction::NewTrace);
}
void BM_BigHeatmapResize(benchmark::State& state)
{
    bigHeatmap(state, BigAction::Resize);
}
void BM_BigHeatmapSelect(benchmark::State& state)
{
    bigHeatmap(state, BigAction::Select);
}
void BM_BigHeatmapHover(benchmark::State& state)
{
    bigHeatmap(state, BigAction::Hover);
}

// A probabilities heatmap as wide as GPT-2's vocabulary (n × 50257, random values, labels
// "t0" …), in a HeatmapView of 1000 × 700: setMatrix with another matrix of the same shape (the
// labels, shared as a model's vocabulary is, measured once) and the immediate replot.
void BM_BigHeatmapVocabulary(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    constexpr int kVocabulary = 50257;
    const auto numbered = [](char prefix, int count) {
        auto labels = std::make_shared<std::vector<std::string>>();
        for (int i = 0; i < count; ++i)
            labels->push_back(QStringLiteral("%1%2").arg(QLatin1Char(prefix)).arg(i).toStdString());
        return labels;
    };
    const Labels vocabulary = numbered('t', kVocabulary);
    const Labels rows = numbered('r', n);
    LabeledMatrix m[2];
    for (LabeledMatrix& one : m) {
        one.name = std::string(1, 'P'); // (assigning the literal makes GCC 12 warn, wrongly, of overlapping copies)
        one.values = Eigen::MatrixXf::Random(n, kVocabulary).cwiseAbs() * 1e-3f;
        one.rowLabels = rows;
        one.colLabels = vocabulary;
    }
    HeatmapView view;
    view.resize(1000, 700);
    view.show();
    QApplication::processEvents();
    int k = 0;
    for (auto _ : state) {
        view.setMatrix(m[++k % 2], QStringLiteral("P"), HeatmapView::Scale::Probability);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QApplication::processEvents();
    }
}

} // namespace

#define BIG_HEATMAP(name)                                                                                                          \
    BENCHMARK(name)->ArgNames({"n", "masked"})->ArgsProduct({{256, 512, 1024}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime()
BIG_HEATMAP(BM_BigHeatmapNewTrace);
BIG_HEATMAP(BM_BigHeatmapResize);
BIG_HEATMAP(BM_BigHeatmapSelect);
BIG_HEATMAP(BM_BigHeatmapHover);
BENCHMARK(BM_BigHeatmapVocabulary)->ArgNames({"n"})->Arg(16)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

const int kCores = attnlab::availableCores();
BENCHMARK(BM_TextChangeToRepaintedSmolLm2)->ArgNames({"words", "threads"})->Args({8, 1})->Args({8, kCores})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WindowWhileQwen25Computes)->ArgNames({"words", "threads"})->Args({8, 1})->Args({8, kCores})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(5);
BENCHMARK(BM_TextChangeToRepaintedGpt2Small)->ArgNames({"words"})->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TextChangeToRepaintedCrossAttention)->ArgNames({"n"})->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TextChangeToRepaintedHeatmap)
    ->ArgNames({"n", "d", "h"})
    ->Args({32, 512, 8})
    ->Args({128, 512, 8})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char** argv)
{
    attnlab::keepLargeAllocationsOnHeap();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
