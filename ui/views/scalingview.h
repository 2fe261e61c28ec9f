#pragma once
// Why attention divides the scores by √d_k (lesson 3). With q and k of d_k independent components
// of mean 0 and variance 1, the score q·k = Σ_c q_c k_c is a sum of d_k products of variance 1:
// its variance is d_k. Large scores push softmax into saturation (one weight ≈ 1, the others ≈ 0,
// gradients ≈ 0); dividing by √d_k brings the variance back to 1 for every d_k.
//
// The view shows, for a chosen d_k: one row of n = kKeys scores s_j = q·k_j and its softmax
// without and with the scaling, as bars side by side; over d_k = 1, 2, 4, ..., 1024 (log axes):
// the empirical variance of q·k and of q·k/√d_k over kVarianceSamples pairs, and the largest
// softmax probability of a row (the mean over kMaxProbSamples rows, and the example row at each
// d_k the slider offers).
//
// The numbers come from the engine (demo/softmax_scaling.h): the same on every run. Smaller d_k use
// the leading components of the same 1024-dimensional vectors: moving the slider shows the same q
// and keys, looked at in more dimensions. The statistics over d_k (about 10 million random numbers)
// are computed once per process on a worker thread, from the first time the view is shown; until
// they arrive the two curve plots say "computing…". The view does not use the Session's trace; it
// takes the Session like every view.

#include "demo/softmax_scaling.h"
#include "views/sessionview.h"

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <vector>

class QCustomPlot;
class QShowEvent;
class QLabel;
class QSlider;
template <typename T>
class QFutureWatcher;

namespace attnlab {

class Session;

class SoftmaxScalingView : public SessionView {
    Q_OBJECT
public:
    static constexpr int kKeys = SoftmaxScaling::keys;                       ///< n: keys in the example row
    static constexpr int kMaxDim = SoftmaxScaling::maxDim;
    static constexpr int kVarianceSamples = SoftmaxScaling::varianceSamples; ///< (q, k) pairs behind each variance
    static constexpr int kMaxProbSamples = SoftmaxScaling::maxProbSamples;   ///< rows behind each mean max probability
    static constexpr std::uint64_t kSeed = SoftmaxScaling::seed;             ///< the statistics' fixed seed
    static constexpr std::uint64_t kExampleSeed = SoftmaxScaling::exampleSeed; ///< the example row's seed
    /// The d_k the slider offers (slider value i is kDkChoices[i]).
    static constexpr std::array<int, 5> kDkChoices{4, 16, 64, 256, 1024};
    static constexpr int kDefaultChoice = 2;         ///< d_k = 64

    explicit SoftmaxScalingView(Session* session, QWidget* parent = nullptr);

    // --- controls -----------------------------------------------------------------------
    /// Index into kDkChoices.
    QSlider* dkSlider() const { return m_dkSlider; }
    int dk() const;
    QLabel* captionLabel() const { return m_caption; }

    // --- the example row for the chosen d_k -----------------------------------------------
    /// The example's q (kMaxDim components) and keys (kKeys × kMaxDim); d_k uses the first d_k columns.
    const Eigen::VectorXd& exampleQuery() const { return m_example.q; }
    const Eigen::MatrixXd& exampleKeys() const { return m_example.keys; }
    /// s_j = q·k_j over the first dk() components.
    const std::vector<double>& scores() const { return m_row.scores; }
    /// softmax(s) and softmax(s / √d_k), as drawn.
    const std::vector<double>& unscaledRow() const { return m_row.unscaled; }
    const std::vector<double>& scaledRow() const { return m_row.scaled; }
    /// The example row's largest softmax probability, one per kDkChoices (the d_k it is shown at).
    const std::vector<double>& exampleMaxUnscaled() const { return m_exMaxUnscaled; }
    const std::vector<double>& exampleMaxScaled() const { return m_exMaxScaled; }

    // --- over d_k: empty until hasStatistics() --------------------------------------------
    /// True once the statistics over d_k are drawn. The first view to be shown starts them on a
    /// worker thread; a view made after they are done has them at once.
    bool hasStatistics() const { return m_hasStatistics; }
    /// Starts the statistics if need be and runs the event loop (the window stays live) until they
    /// are drawn, at most `timeoutMs`; true when they are. For slides and tests, which need the
    /// finished figure without showing the view.
    bool waitForStatistics(int timeoutMs = 60000);
    /// d_k = 1, 2, 4, ..., 1024: the x of the line plots.
    const std::vector<int>& curveDims() const { return m_stats.dims; }
    /// Sample variance (n − 1 in the denominator) of q·k and of q·k/√d_k, one per curveDims().
    const std::vector<double>& varianceUnscaled() const { return m_stats.varianceUnscaled; }
    const std::vector<double>& varianceScaled() const { return m_stats.varianceScaled; }
    /// The mean over kMaxProbSamples rows of the largest probability, one per curveDims().
    const std::vector<double>& meanMaxUnscaled() const { return m_stats.meanMaxUnscaled; }
    const std::vector<double>& meanMaxScaled() const { return m_stats.meanMaxScaled; }

    // --- plots ---------------------------------------------------------------------------
    QCustomPlot* unscaledPlot() const { return m_unscaledPlot; }
    QCustomPlot* scaledPlot() const { return m_scaledPlot; }
    QCustomPlot* variancePlot() const { return m_variancePlot; }
    QCustomPlot* maxProbPlot() const { return m_maxProbPlot; }

signals:
    /// The statistics over d_k are drawn (once per view).
    void statisticsReady();

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Shows the statistics when they are there; else watches the worker, starting it if `start`.
    void watchStatistics(bool start);
    void setupLayout();
    void setupBarPlots();
    void setupCurvePlots();
    void showStatistics(const ScalingStatistics& statistics);
    void retranslate() override;
    void applyFonts() override;
    void showDk();
    void drawBars(QCustomPlot* plot, const std::vector<double>& row, const QString& title);

    QLabel* m_caption;
    QLabel* m_dkLabel;
    QSlider* m_dkSlider;
    QLabel* m_dkValue;
    QCustomPlot* m_unscaledPlot;
    QCustomPlot* m_scaledPlot;
    QCustomPlot* m_variancePlot;
    QCustomPlot* m_maxProbPlot;
    QFutureWatcher<ScalingStatistics>* m_watcher = nullptr;

    // Copies of what is drawn.
    ScalingExample m_example;
    ScalingRow m_row;
    std::vector<double> m_exMaxUnscaled;
    std::vector<double> m_exMaxScaled;
    ScalingStatistics m_stats;
    bool m_hasStatistics = false;
};

} // namespace attnlab
