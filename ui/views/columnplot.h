#pragma once
// One column per token, drawn as bars (issue 13's n × 1 stages): an attention kind's error
// against full attention (the L1 distance of each row of weights, 0 … 2), performer's and linear
// attention's normaliser D, and lsh's bucket of each token. One horizontal bar per token, token 0
// at the top as in the heatmaps, its value written at the end of the bar; buckets get one colour
// each, so the tokens that attend each other share a colour.

#include "core/trace.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;

namespace attnlab {

class ColumnPlot : public QWidget {
    Q_OBJECT
public:
    enum class Style {
        Values,  ///< a number per token (error, normaliser)
        Buckets, ///< a bucket index per token (0 … B − 1), one colour per bucket
    };

    explicit ColumnPlot(QWidget* parent = nullptr);

    /// Draws the first column of `m` (one bar per row, labelled with its row labels), `title`
    /// above it and `axisLabel` under the values. Keeps a copy of what it draws.
    void setColumn(const LabeledMatrix& m, const QString& title, const QString& axisLabel, Style style);
    /// The stage ids drawn as a column: error, normalizer, buckets.
    static bool isColumnStage(const QString& stageId);
    /// The style of a column stage: buckets for "buckets", values otherwise.
    static Style styleForStage(const QString& stageId);

    QCustomPlot* plot() const { return m_plot; }
    /// The values drawn, one per token.
    const std::vector<double>& values() const { return m_values; }
    /// The texts at the ends of the bars, in token order (empty when there are too many rows).
    QStringList barTexts() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void redraw();

    QCustomPlot* m_plot;
    LabeledMatrix m_matrix;
    std::vector<double> m_values;
    QString m_title;
    QString m_axisLabel;
    Style m_style = Style::Values;
};

} // namespace attnlab
