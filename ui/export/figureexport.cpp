#include "export/figureexport.h"

#include "views/sessionview.h"

#include <qcustomplot.h>

#include <QPainter>

#include <algorithm>

namespace attnlab {

const SessionView* paintedFigure(const QWidget* view)
{
    const auto* v = dynamic_cast<const SessionView*>(view);
    return v && !v->figureSize().isEmpty() ? v : nullptr;
}

ExportResult exportFigure(const SessionView& view, ExportOptions options, const QString& path)
{
    const QSize size = view.figureSize();
    options.width = std::clamp(size.width(), kMinExportSide, kMaxExportSide);
    options.height = std::clamp(size.height(), kMinExportSide, kMaxExportSide);
    const QString title = view.figureName().view;
    return exportPainting([&view](QCPPainter& painter) { view.paintFigure(painter); }, title, options, path);
}

QPixmap figurePixmap(const SessionView& view)
{
    QPixmap pixmap(view.figureSize());
    pixmap.fill(Qt::white);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::TextAntialiasing);
    view.paintFigure(painter);
    return pixmap;
}

} // namespace attnlab
