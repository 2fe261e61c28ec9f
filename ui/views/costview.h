#pragma once
// The Cost tab (issue 13 §3): what each attention kind costs, measured live on this computer.
// The user ticks kinds, gives the sequence lengths n, d_model, heads and runs per n, and presses
// Run: the engine's measureCost (attention/measure.h: the attention computation alone, Q, K, V
// given) runs kind after kind in a background thread, with a progress bar and Cancel. Then the
// median time and the peak extra memory against n, on log–log axes, one curve per kind (its
// fitted slope in the legend), with dashed O(n) and O(n²) lines for reading the slopes. Each kind
// uses the options of the settings panel (window, M, K, …).
//
// Below them, Performer on the current sentence: the mean error of its weights against full
// attention for M = 16 … 1024 random features (attention/convergence.h, on the trace's Q, K, V,
// off the GUI thread as well), with a dashed 1/√M line.

#include "attention/convergence.h"
#include "attention/measure.h"
#include "views/sessionview.h"

#include <QFutureWatcher>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace attnlab {

class Session;

/// One kind's measurement: its result, or why it could not run.
struct KindCost {
    AttentionKind kind = AttentionKind::Full;
    CostResult result;
    QString error;
};

/// Performer's convergence on a trace, or why it could not be computed.
struct ConvergenceResult {
    std::vector<ConvergencePoint> points;
    QString error;
};

class CostView : public SessionView {
    Q_OBJECT
public:
    explicit CostView(Session* session, QWidget* parent = nullptr);
    ~CostView() override;

    QCheckBox* kindBox(AttentionKind kind) const { return m_kinds.at(kind); }
    QLineEdit* lengthsEdit() const { return m_lengths; }
    QSpinBox* dModelBox() const { return m_dModel; }
    QSpinBox* headsBox() const { return m_heads; }
    QSpinBox* repeatsBox() const { return m_repeats; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    QCustomPlot* timePlot() const { return m_timePlot; }
    QCustomPlot* memoryPlot() const { return m_memoryPlot; }
    QCustomPlot* convergencePlot() const { return m_convergencePlot; }

    /// True while a measurement runs.
    bool isRunning() const { return m_running; }
    /// The last run's results, one per kind ticked (those finished, when cancelled).
    const std::vector<KindCost>& results() const { return m_results; }
    /// True when the last run was cancelled.
    bool wasCancelled() const { return m_cancelled; }
    /// Performer's mean error against M on the current sentence (empty until computed).
    const std::vector<ConvergencePoint>& convergence() const { return m_convergence; }
    /// True while the convergence of the current trace is being computed.
    bool isComputingConvergence() const { return m_convergenceWatcher.isRunning(); }

    /// Starts a measurement with the controls' settings (Run); a bad setting is said in the
    /// status line and nothing starts.
    void run();
    /// Stops the measurement after the run in progress (Cancel).
    void cancel();
    /// For a lesson's slide: when nothing has been measured yet, ticks and measures every kind at
    /// n = 128 … 1024 once (a second or two), and waits for Performer's convergence on the
    /// sentence; false when either did not finish within `timeoutMs`.
    bool prepareForSlide(int timeoutMs = 60000);

    FigureName figureName() const override { return {QStringLiteral("cost"), std::nullopt, Block::None}; }

signals:
    /// A measurement ended (finished or cancelled): the plots show it.
    void runFinished();
    /// The convergence plot shows the current trace's.
    void convergenceFinished();

private:
    void refresh() override;
    void retranslate() override;
    void applyFonts() override;
    void buildControls();
    /// The requests of the kinds ticked, or the first problem (in `problem`).
    std::vector<CostRequest> requests(QString* problem) const;
    void showProgress();
    void finishRun();
    void drawCost();
    void drawConvergence();
    void setRunning(bool running);

    std::map<AttentionKind, QCheckBox*> m_kinds;
    QLabel* m_kindsLabel;
    QLabel* m_lengthsLabel;
    QLineEdit* m_lengths;
    QLabel* m_dModelLabel;
    QSpinBox* m_dModel;
    QLabel* m_headsLabel;
    QSpinBox* m_heads;
    QLabel* m_repeatsLabel;
    QSpinBox* m_repeats;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QCustomPlot* m_timePlot;
    QCustomPlot* m_memoryPlot;
    QCustomPlot* m_convergencePlot;
    QTimer* m_poll;

    /// Shared with the worker thread: how many timed runs are done, of how many, and Cancel.
    struct Progress {
        std::atomic<int> done{0};
        std::atomic<int> total{1};
        std::atomic<bool> cancel{false};
    };
    std::shared_ptr<Progress> m_state;
    QFutureWatcher<std::vector<KindCost>> m_watcher;
    std::vector<KindCost> m_results;
    bool m_running = false;
    bool m_cancelled = false;

    QFutureWatcher<ConvergenceResult> m_convergenceWatcher;
    std::shared_ptr<std::atomic<bool>> m_convergenceCancel;
    std::shared_ptr<const Trace> m_convergenceOf; ///< the trace the convergence was asked for
    std::vector<ConvergencePoint> m_convergence;
    QString m_convergenceError;
};

} // namespace attnlab
