#pragma once
// Views that paint their figure themselves (the model view, the head view: no plot inside) are
// exported by painting it again on the file's device: a PNG at the chosen DPI, or SVG and PDF
// whose labels stay text (SessionView::figureSize / paintFigure). File ▸ Export view and Copy
// image use these for such a view.

#include "export/exporter.h"

#include <QPixmap>

class QWidget;

namespace attnlab {

class SessionView;

/// `view` when it paints its figure itself (a SessionView with a figureSize()), else null.
const SessionView* paintedFigure(const QWidget* view);

/// Saves the figure of `view` at its figureSize() (options.width and height are replaced by it,
/// within the export's limits) as options.format.
ExportResult exportFigure(const SessionView& view, ExportOptions options, const QString& path);

/// The figure of `view` as a picture at its figureSize(), on white (Copy image).
QPixmap figurePixmap(const SessionView& view);

} // namespace attnlab
