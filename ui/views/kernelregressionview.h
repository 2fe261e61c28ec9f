#pragma once
// Nadaraya–Watson kernel regression (1964), the oldest attention (lesson 2). Training points
// (x_i, y_i) come from y = 2·sin(x) + x^0.8 + noise; a query x attends to every key x_i with
//
//     w_i(x) = softmax_i(−(x − x_i)² / (2σ²)),     f(x) = Σ_i w_i(x) · y_i
//
// (a Gaussian kernel: keys x_i, values y_i, query x). The view shows the points, the true curve
// and the prediction; the weights of one chosen query as bars under it (the kernel bump); and the
// weight matrix of a grid of queries × the sorted keys as a heatmap (a band along the diagonal).
// A bandwidth control sets σ: small σ gives a spiky fit and a narrow band, large σ a flat fit.
// "Learn w" fits the classic parameterisation exp(−((x − x_i)·w)²/2), i.e. σ = 1/w, by
// minimising the leave-one-out error on the training points.
//
// The data, weights, predictions, leave-one-out error and the fit come from the engine
// (demo/kernel_regression.h): the same points on every run. The view draws them. It does not use
// the Session's trace; it takes the Session like every view.

#include "demo/kernel_regression.h"
#include "views/sessionview.h"

#include <QPoint>
#include <QSharedPointer>

#include <cstdint>
#include <vector>

class QCPAxisTicker;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;

namespace attnlab {

class HeatmapView;
class Session;

class KernelRegressionView : public SessionView {
    Q_OBJECT
public:
    static constexpr int kTrainingPoints = KernelRegression::trainingPoints;
    static constexpr double kXMax = KernelRegression::xMax;          ///< x_i uniform in [0, kXMax)
    static constexpr double kNoiseSd = KernelRegression::noiseSd;    ///< y_i = f(x_i) + N(0, kNoiseSd²)
    static constexpr std::uint64_t kSeed = KernelRegression::seed;   ///< the data's fixed seed
    static constexpr int kHeatmapQueries = 41;    ///< heatmap rows: x = 0, 0.125, ..., 5
    static constexpr int kCurvePoints = 251;      ///< predicted curve: x = 0, 0.02, ..., 5
    static constexpr int kQuerySteps = 500;       ///< query slider: value v is x = v / 100
    static constexpr double kMinSigma = KernelRegression::minSigma;
    static constexpr double kMaxSigma = KernelRegression::maxSigma;
    static constexpr double kDefaultSigma = 0.3;
    /// σ slider: value v is σ = 0.01 · 10^(v/100), the engine's bandwidth grid.
    static constexpr int kSigmaSliderSteps = KernelRegression::gridSteps;

    explicit KernelRegressionView(Session* session, QWidget* parent = nullptr);

    /// The function the data come from: 2·sin(x) + x^0.8.
    static double trueFunction(double x) { return kernelRegressionTruth(x); }

    // --- controls -----------------------------------------------------------------------
    /// The query x in hundredths: value v means x = v / 100 (0..kQuerySteps).
    QSlider* querySlider() const { return m_querySlider; }
    /// σ itself (the value the computation uses).
    QDoubleSpinBox* sigmaSpin() const { return m_sigmaSpin; }
    /// σ on a log scale, kept in step with sigmaSpin().
    QSlider* sigmaSlider() const { return m_sigmaSlider; }
    /// Sets σ = 1/w with w minimising the leave-one-out error (see learnW()).
    QPushButton* learnButton() const { return m_learn; }
    /// "w = 1/σ = …", and the leave-one-out error after "Learn w".
    QLabel* wLabel() const { return m_wLabel; }
    QLabel* captionLabel() const { return m_caption; }

    // --- plots --------------------------------------------------------------------------
    /// Points, true function, prediction, query line.
    QCustomPlot* fitPlot() const { return m_fitPlot; }
    /// The chosen query's weights as bars at x_i, with the kernel bump.
    QCustomPlot* weightsPlot() const { return m_weightsPlot; }
    /// The weights of kHeatmapQueries queries (rows) × the sorted keys (columns).
    HeatmapView* heatmapView() const { return m_heatmap; }

    // --- what is shown ------------------------------------------------------------------
    double sigma() const;
    double query() const;
    /// Keys x_i, sorted ascending, and their values y_i.
    const std::vector<double>& trainingX() const { return m_data.x; }
    const std::vector<double>& trainingY() const { return m_data.y; }
    /// The x of the predicted curve (kCurvePoints values, 0..kXMax) and f(x) there.
    const std::vector<double>& curveX() const { return m_curveX; }
    const std::vector<double>& predictedCurve() const { return m_curveY; }
    /// The heatmap's queries (its rows).
    const std::vector<double>& heatmapQueries() const { return m_gridQ; }
    /// The weights of the chosen query over the keys (sum 1) and its prediction Σ w_i y_i.
    const std::vector<double>& queryWeights() const { return m_queryW; }
    double queryPrediction() const { return m_queryY; }
    /// The heatmap cell outlined for the query: (grid row nearest the query, its heaviest key).
    QPoint heatmapSelection() const { return m_selection; }

    /// (1/n) Σ_i (y_i − Σ_{j≠i} w_j(x_i) y_j)²: how well each point is predicted by the others.
    double leaveOneOutLoss(double sigma) const;
    /// Chooses w (σ = 1/w) that minimises leaveOneOutLoss, sets it, and returns σ.
    double learnW();

private:
    void setupControls();
    void setupPlots();
    void retranslate() override;
    void applyFonts() override;
    void syncSigmaSlider();
    void updateWLabel();
    void recompute();
    void updateQuery();
    void useSparseKeyTicks();

    QLabel* m_caption;
    QLabel* m_queryLabel;
    QLabel* m_queryValue;
    QSlider* m_querySlider;
    QLabel* m_sigmaLabel;
    QSlider* m_sigmaSlider;
    QDoubleSpinBox* m_sigmaSpin;
    QPushButton* m_learn;
    QLabel* m_wLabel;
    QCustomPlot* m_fitPlot;
    QCustomPlot* m_weightsPlot;
    HeatmapView* m_heatmap;
    QSharedPointer<QCPAxisTicker> m_keyTicker; ///< every 5th key on the heatmap's top axis

    // Copies of what is drawn.
    KernelRegressionData m_data;
    std::vector<double> m_curveX;
    std::vector<double> m_curveY;
    std::vector<double> m_gridQ;
    std::vector<double> m_queryW;
    double m_queryY = 0;
    QPoint m_selection{-1, -1};
    double m_learnedLoss = -1; ///< the loss after "Learn w", shown until σ changes by hand
};

} // namespace attnlab
