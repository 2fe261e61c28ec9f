#pragma once
// The one place where engine matrices become QCustomPlot data, and the colour gradients.

#include <Eigen/Core>

#include <vector>

class QCPBars;
class QCPColorMapData;
class QColor;
class QCPColorGradient;
class QCustomPlot;
class QCPTextElement;
class QFont;
class QCPAxisTickerText;
class QString;
template <typename T>
class QSharedPointer;

namespace attnlab {

struct LabeledMatrix;

/// Fills `data` (resized to cols x rows) so that cell (key = column c, value = row r) holds
/// m(r, c). Non-finite values (masked -inf cells) become NaN, which the gradient draws in
/// its NaN colour instead of clamping them to the darkest colour.
void fillColorMapData(QCPColorMapData* data, const Eigen::MatrixXf& m);

/// Gives everything `plot` draws the font `f` (with its CJK fallback families): the axes of
/// every axis rect and colour scale, the legend, and text elements of the layout (titles,
/// bold and 20% larger). QCustomPlot copies fonts only when an element is created, so views
/// call this at construction and on QEvent::FontChange (presenter mode, deck pages).
void applyPlotFonts(QCustomPlot* plot, const QFont& f);

/// A number with a real minus sign (U+2212), as people write it: "−0.25".
QString minusSigned(QString text);
/// `v` with `decimals` decimals and a real minus sign.
QString fixedNumber(double v, int decimals);

/// Adds an (empty) title row above the plot; plotTitle() returns it.
void addPlotTitle(QCustomPlot* plot);
QCPTextElement* plotTitle(QCustomPlot* plot);
/// Sets `title`'s text, with the plot's type (applyPlotFonts); without text `title` leaves the
/// plot's layout (an empty text element still takes a line) and comes back at row 0 with one.
void setPlotTitle(QCustomPlot* plot, QCPTextElement* title, const QString& text);
/// Moves the legend to a row under the plot (after addPlotTitle), `columns` entries per row,
/// so it never covers the data.
void putLegendBelow(QCustomPlot* plot, int columns);

/// More token labels than this on a bar plot's axis overlap: tokenTicker labels every k-th.
inline constexpr int kMaxLabelledTokens = 24;
/// Horizontal bars on `plot` (keys down the y axis, values across), `color` filled, a darker edge.
QCPBars* horizontalBars(QCustomPlot* plot, const QColor& color);
/// A bar's value written just right of its end at (x, y) in the tick labels' font; returns the
/// width it needs to the right of the axis rect.
int addBarText(QCustomPlot* plot, double x, double y, const QString& text);
/// Token labels for a bar plot's x axis (ticks at 0, 1, …; every k-th when there are many).
QSharedPointer<QCPAxisTickerText> tokenTicker(const std::vector<QString>& tokens);
/// One label per row of `m`, for tokenTicker: its row label, or the row number where it has none.
std::vector<QString> rowTokens(const LabeledMatrix& m);
/// Upright token labels on the x axis when they fit side by side, slanted otherwise.
void fitTokenLabels(QCustomPlot* plot, const std::vector<QString>& tokens);
/// The engine's plain names as people write them: "LN_1(R_1)" -> "LN₁(R₁)", "W_1ᵀ" -> "W₁ᵀ".
QString withSubscripts(QString text);

/// Viridis (perceptually uniform, colour-blind safe): for probabilities and other values >= 0.
QCPColorGradient viridisGradient();
/// Blue - white - red, for signed values on a range symmetric around 0.
QCPColorGradient divergingGradient();
/// Purple - white - orange, for differences (A − B) on a range symmetric around 0.
QCPColorGradient differenceGradient();

} // namespace attnlab
