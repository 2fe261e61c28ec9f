#pragma once
// Texts that fit their boxes, whatever the window's size and language: a plot's titles break
// into lines (and, as a last resort, take smaller type), a legend under a plot takes as many
// columns as its widest entry allows, and an axis of text labels draws only the labels that do
// not run into their neighbours. Measured with the fonts drawn, at each replot.

#include <QMap>

class QCPAxis;
class QCustomPlot;

namespace attnlab {

/// From now on, before every replot of `plot`: its title rows (the text elements of its layout)
/// break at spaces and punctuation to fit the plot's width, and a legend in the plot's layout
/// (putLegendBelow) wraps into the columns that fit. Calling it again does nothing more.
void keepTextsFitting(QCustomPlot* plot);

/// The same, but `plot`'s titles stay on one line: smaller type (down to 60%), then cut with an
/// ellipsis. For figures whose caption gives the whole titles (a comparison's three plots).
void keepTitlesOnOneLine(QCustomPlot* plot);

/// Makes `axis`'s text ticker (QCPAxisTickerText) draw only labels that fit side by side at its
/// current rotation and font: evenly every k-th, or, with `priority` (tick → weight), the most
/// important first (a vocabulary: the columns with the most probability). The ticker keeps every
/// tick it was given (ticks()); QCPAxis::tickVector() holds those drawn. No text ticker: nothing.
void fitTickLabels(QCPAxis* axis, const QMap<double, double>& priority = {});

} // namespace attnlab
