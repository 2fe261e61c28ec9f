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
// Every vector comes from a fixed SplitMix64 stream (standard normal components), so the numbers
// are the same on every run. Smaller d_k use the leading components of the same 1024-dimensional
// vectors: moving the slider shows the same q and keys, looked at in more dimensions.
// The view does not use the Session's trace; it takes the Session like every view.

#include <Eigen/Core>

#include <QWidget>

#include <array>
#include <cstdint>
#include <vector>

class QCustomPlot;
class QEvent;
class QLabel;
class QSlider;

namespace attnlab {

class Session;

class SoftmaxScalingView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kKeys = 10;                 ///< n: keys in the example row
    static constexpr int kMaxDim = 1024;
    static constexpr int kVarianceSamples = 2000;    ///< (q, k) pairs behind each variance
    static constexpr int kMaxProbSamples = 500;      ///< rows behind each mean max probability
    static constexpr std::uint64_t kSeed = 2017;     ///< the statistics' fixed seed
    /// The example row's seed: picked (among 1..200) as a row whose largest weight grows step by
    /// step with d_k, as the mean over many rows does; the mean curve shows it is the rule.
    static constexpr std::uint64_t kExampleSeed = 5;
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
    const Eigen::VectorXd& exampleQuery() const { return m_q; }
    const Eigen::MatrixXd& exampleKeys() const { return m_keys; }
    /// s_j = q·k_j over the first dk() components.
    const std::vector<double>& scores() const { return m_scores; }
    /// softmax(s) and softmax(s / √d_k), as drawn.
    const std::vector<double>& unscaledRow() const { return m_unscaled; }
    const std::vector<double>& scaledRow() const { return m_scaled; }

    // --- over d_k ------------------------------------------------------------------------
    /// d_k = 1, 2, 4, ..., 1024: the x of the line plots.
    const std::vector<int>& curveDims() const { return m_dims; }
    /// Sample variance (n − 1 in the denominator) of q·k and of q·k/√d_k, one per curveDims().
    const std::vector<double>& varianceUnscaled() const { return m_varUnscaled; }
    const std::vector<double>& varianceScaled() const { return m_varScaled; }
    /// The example row's largest softmax probability, one per kDkChoices (the d_k it is shown at).
    const std::vector<double>& exampleMaxUnscaled() const { return m_exMaxUnscaled; }
    const std::vector<double>& exampleMaxScaled() const { return m_exMaxScaled; }
    /// The mean over kMaxProbSamples rows of the largest probability, one per curveDims().
    const std::vector<double>& meanMaxUnscaled() const { return m_meanMaxUnscaled; }
    const std::vector<double>& meanMaxScaled() const { return m_meanMaxScaled; }

    // --- plots ---------------------------------------------------------------------------
    QCustomPlot* unscaledPlot() const { return m_unscaledPlot; }
    QCustomPlot* scaledPlot() const { return m_scaledPlot; }
    QCustomPlot* variancePlot() const { return m_variancePlot; }
    QCustomPlot* maxProbPlot() const { return m_maxProbPlot; }

private:
    void retranslate();
    void applyFonts();
    void showDk();
    void drawBars(QCustomPlot* plot, const std::vector<double>& row, const QString& title);
    void changeEvent(QEvent* event) override;

    Session* m_session;
    QLabel* m_caption;
    QLabel* m_dkLabel;
    QSlider* m_dkSlider;
    QLabel* m_dkValue;
    QCustomPlot* m_unscaledPlot;
    QCustomPlot* m_scaledPlot;
    QCustomPlot* m_variancePlot;
    QCustomPlot* m_maxProbPlot;

    // Copies of what is drawn.
    Eigen::VectorXd m_q;
    Eigen::MatrixXd m_keys;
    std::vector<double> m_scores;
    std::vector<double> m_unscaled;
    std::vector<double> m_scaled;
    std::vector<int> m_dims;
    std::vector<double> m_varUnscaled;
    std::vector<double> m_varScaled;
    std::vector<double> m_exMaxUnscaled;
    std::vector<double> m_exMaxScaled;
    std::vector<double> m_meanMaxUnscaled;
    std::vector<double> m_meanMaxScaled;
};

} // namespace attnlab
