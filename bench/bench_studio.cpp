// From a text change to the repainted heatmap, in the real studio window (offscreen):
// Session::setSentence (engine + every view that listens) and an immediate replot of the
// visible heatmap, then the event loop drained. Run: QT_QPA_PLATFORM=offscreen build/bench/bench_studio

#include "common/allocator.h"
#include "pretrained_folders.h"
#include "views/heatmapview.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "views/stageview.h"

#include <benchmark/benchmark.h>

#include <qcustomplot.h>

#include <QApplication>

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
    const auto text = [n](int variant) {
        QString s = QStringLiteral("The");
        for (int i = 1; i < n; ++i)
            s += QStringLiteral(" w%1").arg((i * 7 + variant) % 97);
        return s;
    };
    session.setSentence(text(0));
    session.setStep(session.stepIndex(QStringLiteral("weights"), 5, Block::DecoderSelf));
    typeAndRepaint(state, session, text);
    state.SetLabel(std::to_string(session.fullTrace()->tokens.size()) + " tokens");
}

} // namespace

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
