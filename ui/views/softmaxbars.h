#pragma once
// The cell inspector's two bar charts over the keys of one query: the row before softmax above
// (finite scores as bars, a "−∞" marker for each masked key) and the weights after it below, on
// the full 0..1 scale. It draws what it is given and computes nothing.

#include <qcustomplot.h>

#include <QString>

#include <vector>

namespace attnlab {

class SoftmaxBars : public QCustomPlot {
    Q_OBJECT
public:
    explicit SoftmaxBars(QWidget* parent = nullptr);

    /// Draws one row: `scores` (−∞ for the `maskedKeys`) and `weights`, one per key, the keys
    /// labelled `keyLabels` along both x axes; the two charts titled `beforeTitle`, `afterTitle`.
    void showRow(const std::vector<double>& scores, const std::vector<double>& weights, const std::vector<int>& maskedKeys,
                 const std::vector<QString>& keyLabels, const QString& beforeTitle, const QString& afterTitle);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void setupCharts();
    void applyStyle();
    void setBars(const std::vector<double>& scores, const std::vector<double>& weights, const std::vector<int>& maskedKeys);
    void fitKeyLabels(const std::vector<QString>& keyLabels);
    void addMinusInfinityMarkers(const std::vector<int>& maskedKeys, int keys);
    /// The weights' values on their bars, when each fits its bar's width (again on every resize).
    void addWeightLabels();

    QCPAxisRect* m_beforeRect = nullptr;
    QCPAxisRect* m_afterRect = nullptr;
    QCPTextElement* m_beforeTitle = nullptr;
    QCPTextElement* m_afterTitle = nullptr;
    QCPBars* m_scoreBars = nullptr;
    QCPBars* m_weightBars = nullptr;
    double m_low = 0;  ///< the bottom of the score bars and −∞ arrows
    double m_span = 1; ///< the scores' range
    std::vector<double> m_weights; ///< the row drawn, for its labels
};

} // namespace attnlab
