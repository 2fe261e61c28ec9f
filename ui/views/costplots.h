#pragma once
// Log–log plots of measured curves (the Cost view): one curve of points per series in its colour
// (the view names them: the kinds' boxes carry the colours), and dashed guide lines y ∝ x^p
// (O(n), O(n²), 1/√M) through a point of the data, named in a legend row under the plot, so that
// a curve's slope can be read against them.

#include <QColor>
#include <QString>

#include <vector>

class QCustomPlot;

namespace attnlab {

struct Curve {
    QString name;
    QColor color;
    std::vector<double> x, y; ///< positive values only (a log axis has no 0)
};

struct Guide {
    QString name;
    double power = 1; ///< y ∝ x^power
};

/// Sets `plot` up once: a title row, log axes (x ticks at powers of `xBase`, y at powers of 10),
/// texts that fit, and the guides' legend under the plot.
void setUpLogLogPlot(QCustomPlot* plot, double xBase);

/// Draws `curves` (points joined by lines) and the `guides` through the geometric mean of the
/// curves' first points (each spanning the curves' x range, named in the legend), with the title
/// and axis labels; empty curves are left out. The y range spans at least a decade and a half.
/// Replots.
void drawLogLog(QCustomPlot* plot, const std::vector<Curve>& curves, const std::vector<Guide>& guides, const QString& title,
                const QString& xLabel, const QString& yLabel);

/// The colour of the i-th series (Okabe–Ito, colour-blind safe), i ≥ 0.
QColor seriesColor(int i);

} // namespace attnlab
