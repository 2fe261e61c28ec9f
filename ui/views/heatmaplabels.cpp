#include "views/heatmaplabels.h"

#include "plot/fitting.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace attnlab {

namespace {

/// A ticker with every `step`-th of `labels`, from the first.
QSharedPointer<QCPAxisTickerText> everyKth(const std::vector<std::string>& labels, int step)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = static_cast<int>(labels.size());
    for (int i = 0; i < n; i += std::max(1, step))
        ticker->addTick(i, QString::fromStdString(labels[static_cast<std::size_t>(i)]));
    return ticker;
}

/// A ticker with every k-th of `labels`, k the smallest that leaves at most `maxLabels`.
QSharedPointer<QCPAxisTickerText> labelTicker(const std::vector<std::string>& labels, int maxLabels)
{
    const int n = static_cast<int>(labels.size());
    maxLabels = std::max(1, maxLabels);
    return everyKth(labels, n <= maxLabels ? 1 : (n + maxLabels - 1) / maxLabels);
}

/// The step, in cells of `cell` pixels, that puts labels `need` pixels apart (the pixels the
/// fitting ticker asks for between neighbours), with 5 % to spare for the margins that move
/// when the labels change; 0 when the cells have no size yet.
int stepFor(double need, double cell)
{
    return cell > 0 ? std::max(1, static_cast<int>(std::ceil(1.05 * need / cell))) : 0;
}

} // namespace

int widestLabel(const std::vector<std::string>& labels, const QFont& font)
{
    const QFontMetrics fm(font);
    int widest = 0;
    for (const auto& l : labels)
        widest = std::max(widest, fm.horizontalAdvance(QString::fromStdString(l)));
    return widest;
}

void labelHeatmapRows(QCPAxis* axis, const std::vector<std::string>& labels, double cell, double zoom)
{
    // Every k-th row, k the fewest rows whose height holds a label (the fitting ticker keeps
    // neighbours 0.8 of a line and 2 pixels apart): 1024 rows in 600 pixels get about 45 labels.
    const QFontMetrics fm(axis->tickLabelFont());
    const int step = stepFor(fm.height() * 0.8 + 2, cell);
    axis->setTicker(step > 0 ? everyKth(labels, step) : labelTicker(labels, static_cast<int>(kMaxLabelledCells * zoom)));
    fitTickLabels(axis);
}

void labelHeatmapColumns(QCPAxis* axis, const LabeledMatrix& m, bool probabilities, double cell, double zoom, int widest)
{
    const std::vector<std::string>& labels = *m.colLabels;
    const Eigen::MatrixXf& v = m.values;
    const int cols = static_cast<int>(v.cols());
    QCustomPlot* plot = axis->parentPlot();
    const int maxLabels = static_cast<int>(kMaxLabelledCells * zoom); // zoomed in: room for more
    // Upright column labels when they fit their cells (CJK characters, short words): every one;
    // slanted otherwise, so long words do not run into each other.
    const int cellWidth = cols > 0 ? static_cast<int>(std::max(plot->width() - 160, 200) * zoom / cols) : 0;
    const bool upright = widest + 6 <= cellWidth;
    axis->setTickLabelRotation(upright ? 0 : -45);
    if (upright) {
        axis->setTicker(labelTicker(labels, std::max(maxLabels, cols)));
    } else {
        // Slanted labels need a line's height over sin 45° each: every k-th column, k the fewest
        // columns that wide (fewer labels in a comparison's narrow plots than in a wide one).
        // Where that leaves most keys unlabelled (a narrow plot beside another), upright at 90°
        // they need only a line's height each: every k-th column for a smaller k, evenly.
        const QFontMetrics fm(axis->tickLabelFont());
        const int slanted = plot->width() > 0 ? stepFor(fm.height() / std::sin(std::numbers::pi / 4) + 1, cell) : 0;
        const int vertical = plot->width() > 0 ? stepFor(fm.height() + 1, cell) : 0;
        const bool standing = vertical > 0 && vertical < slanted;
        const int step = standing ? vertical : slanted;
        if (standing)
            axis->setTickLabelRotation(-90);
        axis->setTicker(step > 0 ? everyKth(labels, step) : labelTicker(labels, maxLabels)); // 0: not laid out yet
    }
    // Too many probability columns to label them all (a vocabulary): label the columns that
    // hold a real probability somewhere, so the bright cells carry their tokens' names.
    QMap<double, double> priority;
    if (probabilities && cols > maxLabels) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int c = 0; c < cols; ++c) {
            if (const float top = v.col(c).maxCoeff(); top >= kLabelledProbability) {
                ticker->addTick(c, QString::fromStdString(labels[static_cast<std::size_t>(c)]));
                priority.insert(c, static_cast<double>(top));
            }
        }
        if (!ticker->ticks().isEmpty() && ticker->ticks().size() <= maxLabels) { // none: every k-th, as above
            axis->setTicker(ticker);
            axis->setTickLabelRotation(-90); // neighbouring tokens stay apart
        } else {
            priority.clear();
        }
    }
    // Of neighbouring columns that both hold a probability, the likelier keeps its label.
    fitTickLabels(axis, priority);
}

} // namespace attnlab
