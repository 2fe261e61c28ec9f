// From a text change to the repainted heatmap, in the real studio window (offscreen):
// Session::setSentence (engine + every view that listens) and an immediate replot of the
// visible heatmap, then the event loop drained. Run: QT_QPA_PLATFORM=offscreen build/bench/bench_studio

#include "common/allocator.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "session.h"
#include "stageview.h"

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

void BM_TextChangeToRepaintedHeatmap(benchmark::State& state)
{
    const int n = static_cast<int>(state.range(0));
    Session session;
    Config c = session.config();
    c.dModel = static_cast<int>(state.range(1));
    c.heads = static_cast<int>(state.range(2));
    session.setConfig(c);
    session.setStepId(QStringLiteral("weights"));
    MainWindow window(&session);
    window.resize(1400, 900);
    window.show();
    QApplication::processEvents();
    int variant = 0;
    for (auto _ : state) {
        // A different sentence of the same length each time, as typing one more letter would.
        session.setSentence(sentenceOf(n, ++variant));
        window.stageView()->heatmap()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QApplication::processEvents();
    }
}

} // namespace

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
