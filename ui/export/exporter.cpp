#include "export/exporter.h"

#include "export/pdfunicode.h"
#include "io/fileio.h"
#include "session/messages.h"
#include "session/stages.h"
#include "widgets/projectiontype.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <exception>
#include <stdexcept>

namespace attnlab {

namespace {

constexpr double kLogicalDpi = 96; // ExportOptions' width and height are in 1/96 inch

ExportResult failure(const QString& error)
{
    ExportResult r;
    r.error = error;
    return r;
}

QString quoted(const QString& path)
{
    return QLatin1Char('\'') + path + QLatin1Char('\'');
}

/// Writes through saveBytes: an earlier file survives.
ExportResult writeBytes(const QString& path, const QByteArray& bytes)
{
    if (const QString error = saveBytes(path, bytes); !error.isEmpty())
        return failure(error);
    ExportResult r;
    r.ok = true;
    r.files << path;
    return r;
}

/// The first text element of the plot's layout (HeatmapView's title), for the file's metadata.
QString plotTitle(QCustomPlot* plot)
{
    QCPLayoutGrid* layout = plot->plotLayout();
    for (int i = 0; i < layout->elementCount(); ++i) {
        if (auto* text = qobject_cast<QCPTextElement*>(layout->elementAt(i)); text && !text->text().isEmpty())
            return text->text();
    }
    return QStringLiteral("Attention Lab");
}

/// QSvgGenerator writes only a font's first family (font-family="DejaVu Sans"), so a viewer
/// falls back on its own for Chinese, and may pick Japanese shapes. Append the application
/// font's other families ("Noto Sans CJK SC") to every font-family attribute.
QByteArray addFallbackFamilies(const QByteArray& svg)
{
    QStringList fallbacks = QApplication::font().families();
    if (fallbacks.size() < 2)
        return svg;
    fallbacks.removeFirst();
    QString list;
    for (const QString& f : fallbacks)
        list += QStringLiteral(", '") + QString(f).remove(QLatin1Char('\'')).remove(QLatin1Char('"')).toHtmlEscaped() + QLatin1Char('\'');
    QString text = QString::fromUtf8(svg);
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    text.replace(family, QStringLiteral("font-family=\"\\1") + list + QLatin1Char('"'));
    return text.toUtf8();
}

} // namespace

QByteArray encodePng(QImage image, int dpi)
{
    const int dotsPerMeter = qRound(dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        throw std::runtime_error("could not encode the PNG");
    return bytes;
}

namespace {

QByteArray renderPng(QCustomPlot* plot, const ExportOptions& o)
{
    // Drawn at dpi/96 times the logical size (sharp text and lines, not a stretched picture).
    const QPixmap pixmap = plot->toPixmap(o.width, o.height, o.dpi / kLogicalDpi);
    if (pixmap.isNull())
        throw std::runtime_error("could not draw the plot");
    return encodePng(pixmap.toImage(), o.dpi);
}

/// Draws with `paint` on `device` through a QCPPainter set up for vector output.
void paintVector(QPaintDevice* device, const std::function<void(QCPPainter&)>& paint)
{
    QCPPainter painter;
    if (!painter.begin(device))
        throw std::runtime_error("could not start drawing");
    // Vectorized: no pixel-grid tweaks; the colour map is embedded as a 3x bitmap of its area.
    painter.setMode(QCPPainter::pmVectorized);
    // Hairlines (cosmetic pens) print almost invisibly thin; 1 px = 0.75 pt lines instead.
    painter.setMode(QCPPainter::pmNonCosmetic);
    // PDF: the colour map's bitmap is stored losslessly, not as a JPEG that blurs cell edges.
    painter.setRenderHint(QPainter::LosslessImageRendering);
    paint(painter);
    painter.end();
}

/// Draws the plot with a QCPPainter set up for vector output.
void paintVector(QCustomPlot* plot, QPaintDevice* device, const ExportOptions& o)
{
    paintVector(device, [&](QCPPainter& painter) { plot->toPainter(&painter, o.width, o.height); });
}

/// Draws one picture on a vector device (a QSvgGenerator or a QPdfWriter) set up for it.
using Painting = std::function<void(QPaintDevice*)>;

/// An SVG of o.width × o.height logical pixels drawn by `paint`, naming the fallback font families.
QByteArray renderSvg(const ExportOptions& o, const QString& title, const Painting& paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(static_cast<int>(kLogicalDpi)); // the default, 72, would make it 4/3 too large
    svg.setSize(QSize(o.width, o.height));
    svg.setViewBox(QRect(0, 0, o.width, o.height));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Attention Lab"));
    paint(&svg);
    buffer.close();
    return addFallbackFamilies(bytes);
}

/// A one-page PDF of o.width × o.height logical pixels drawn by `paint`, its text searchable.
QByteArray renderPdf(const ExportOptions& o, const QString& title, const Painting& paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("Attention Lab"));
        pdf.setTitle(title);
        // One page exactly the plot's size: width/96 inches = width·72/96 points.
        const QSizeF points(o.width * 72.0 / kLogicalDpi, o.height * 72.0 / kLogicalDpi);
        pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(static_cast<int>(kLogicalDpi)); // painter units = the plot's pixels
        paint(&pdf);
    } // the writer finishes the file when it goes
    buffer.close();
    if (!bytes.startsWith("%PDF"))
        throw std::runtime_error("could not make the PDF");
    fixToUnicodeMaps(bytes); // Qt's maps name a tab for the space and radicals for ideographs
    return bytes;
}

/// A widget as drawn on screen, at dpi/96 times its size, as PNG.
QByteArray renderWidgetPng(QWidget* widget, const ExportOptions& o)
{
    const double scale = o.dpi / kLogicalDpi;
    QImage image(QSize(qRound(o.width * scale), qRound(o.height * scale)), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        throw std::bad_alloc();
    image.fill(widget->palette().color(widget->backgroundRole()));
    {
        QPainter painter(&image);
        painter.scale(scale, scale);
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    }
    return encodePng(image, o.dpi);
}

/// Paints a widget on a vector device; `lossless` keeps the PDF's bitmaps out of JPEG.
void paintWidget(QWidget* widget, QPaintDevice* device, bool lossless)
{
    QPainter painter(device);
    if (lossless)
        painter.setRenderHint(QPainter::LosslessImageRendering);
    widget->render(&painter);
    painter.end();
}

/// A picture `paint` draws in logical pixels, at dpi/96 times the size, as PNG.
QByteArray renderPaintingPng(const std::function<void(QCPPainter&)>& paint, const ExportOptions& o)
{
    const double scale = o.dpi / kLogicalDpi;
    QImage image(QSize(qRound(o.width * scale), qRound(o.height * scale)), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        throw std::bad_alloc();
    image.fill(Qt::white);
    {
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.scale(scale, scale);
        paint(painter);
    }
    return encodePng(image, o.dpi);
}

/// Makes the folder `dir` when it is missing, but not its parents: a typo in the parent path is
/// an error rather than a new tree of folders. Empty when `dir` is a folder now, else why not.
QString makeFolder(const QString& dir)
{
    const QFileInfo info(dir);
    if (info.exists() && !info.isDir())
        return QStringLiteral("it is not a folder");
    if (info.exists())
        return {};
    const QFileInfo parent(info.absolutePath());
    if (!parent.isDir())
        return QStringLiteral("the folder %1 does not exist").arg(quoted(parent.filePath()));
    if (!QDir().mkdir(dir))
        return QStringLiteral("cannot create the folder");
    return {};
}

QString withSuffix(const QString& base, const QString& suffix)
{
    return base + QLatin1Char('.') + suffix;
}

/// A picture to export: its PNG, and how to paint it on an SVG and on a PDF device.
struct Drawing {
    std::function<QByteArray()> png;
    Painting svg;
    Painting pdf;
};

/// Draws `d` in o.format and writes it to `path`. Running out of memory while drawing is the
/// result's error, saying what to make smaller (`smaller`); so is any other exception.
ExportResult drawAndWrite(const QString& path, const ExportOptions& o, const QString& title, const Drawing& d, const QString& smaller)
{
    QByteArray bytes;
    try {
        switch (o.format) {
        case ImageFormat::Png:
            bytes = d.png();
            break;
        case ImageFormat::Svg:
            bytes = renderSvg(o, title, d.svg);
            break;
        case ImageFormat::Pdf:
            bytes = renderPdf(o, title, d.pdf);
            break;
        }
    } catch (const std::bad_alloc&) {
        return failure(QStringLiteral("cannot export to %1: out of memory (%2)").arg(quoted(path), smaller));
    } catch (const std::exception& e) {
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(path), QString::fromUtf8(e.what())));
    }
    return writeBytes(path, bytes);
}

const QString kSmallerPicture = QStringLiteral("try a smaller width or height, or a lower dpi");

} // namespace

ExportResult exportPlot(QCustomPlot* plot, const ExportOptions& options, const QString& path)
{
    if (!plot)
        return failure(QStringLiteral("cannot export to %1: there is no plot").arg(quoted(path)));
    if (const QString p = options.problem(); !p.isEmpty())
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(path), p));
    const auto vector = [&](QPaintDevice* d) { paintVector(plot, d, options); };
    const ExportResult result
        = drawAndWrite(path, options, plotTitle(plot), {[&] { return renderPng(plot, options); }, vector, vector}, kSmallerPicture);
    // Drawing at the export size left the plot's layout at that size: lay it out for the screen again.
    plot->replot(QCustomPlot::rpQueuedReplot);
    return result;
}

ExportResult exportWidget(QWidget* widget, const ExportOptions& options, const QString& path)
{
    if (!widget)
        return failure(QStringLiteral("cannot export to %1: there is no view").arg(quoted(path)));
    ExportOptions o = options;
    o.width = widget->width();
    o.height = widget->height();
    if (auto* heatmap = qobject_cast<HeatmapView*>(widget))
        return exportPlot(heatmap->plot(), o, path);
    if (auto* plot = qobject_cast<QCustomPlot*>(widget))
        return exportPlot(plot, o, path);
    if (const QString p = o.problem(); !p.isEmpty())
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(path), p));

    const QString title = widget->windowTitle().isEmpty() ? QStringLiteral("Attention Lab") : widget->windowTitle();
    return drawAndWrite(path, o, title,
                        {[&] { return renderWidgetPng(widget, o); }, [&](QPaintDevice* d) { paintWidget(widget, d, false); },
                         [&](QPaintDevice* d) { paintWidget(widget, d, true); }},
                        QStringLiteral("try a smaller dpi"));
}

void prepareHeatmap(HeatmapView& view, const LabeledMatrix& m, const QString& title, HeatmapView::Scale scale, int width, int height)
{
    view.resize(width, height);
    // A hidden widget gets no resize events: lay out its children and the plot's viewport by hand.
    if (view.layout())
        view.layout()->activate();
    view.plot()->setGeometry(0, 0, width, height);
    view.plot()->setViewport(QRect(0, 0, width, height));
    // Labels and numbers in type from the picture's height, as on a slide (issue 28 §4): a
    // figure pasted into a lesson's slides is read from the back row too.
    setProjected(&view, true, projectedPointSize(height, 96));
    view.setProjectedType(true);
    view.setMatrix(m, title, scale);
    // Lay the plot out once so the view knows its cells' size, then set the matrix again: only
    // now can it tell whether values fit inside the cells and labels stand upright.
    view.plot()->replot(QCustomPlot::rpQueuedRefresh);
    view.setMatrix(m, title, scale);
    // Setting the matrix set the whole title again (and queued a replot no event loop may run
    // before the picture is drawn): lay out once more, so the title is fitted to the picture.
    view.plot()->replot(QCustomPlot::rpQueuedRefresh);
}

ExportResult exportPainting(const std::function<void(QCPPainter&)>& paint, const QString& title, const ExportOptions& options,
                            const QString& path)
{
    if (const QString p = options.problem(); !p.isEmpty())
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(path), p));
    const auto vector = [&](QPaintDevice* device) { paintVector(device, paint); };
    return drawAndWrite(path, options, title, {[&] { return renderPaintingPng(paint, options); }, vector, vector}, kSmallerPicture);
}

ExportResult exportMatrix(const LabeledMatrix& m, const QString& title, HeatmapView::Scale scale,
                          const ExportOptions& options, const QString& path)
{
    if (const QString p = options.problem(); !p.isEmpty())
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(path), p));
    if (m.values.size() == 0)
        return failure(QStringLiteral("cannot export to %1: the matrix '%2' is empty").arg(quoted(path), QString::fromStdString(m.name)));
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return failure(QStringLiteral("cannot export to %1: drawing a heatmap needs a QApplication").arg(quoted(path)));
    try {
        HeatmapView view; // never shown: drawn straight into the file
        prepareHeatmap(view, m, title, scale, options.width, options.height);
        return exportPlot(view.plot(), options, path);
    } catch (const std::bad_alloc&) {
        return failure(QStringLiteral("cannot export to %1: out of memory (%2)").arg(quoted(path), kSmallerPicture));
    } catch (const std::exception& e) {
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(path), QString::fromUtf8(e.what())));
    }
}

QString saveBytes(const QString& path, const QByteArray& bytes)
{
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        return {};
    } catch (const std::exception& e) {
        return errorText(e);
    }
}

QString matrixToCsv(const LabeledMatrix& m)
{
    const auto field = [](const QString& s) {
        // RFC 4180: quote a field holding a separator, a quote or a line break, doubling quotes.
        // Outer spaces are quoted too, or spreadsheets trim them.
        const bool quote = s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))
            || s.contains(QLatin1Char('\r')) || (!s.isEmpty() && (s.front().isSpace() || s.back().isSpace()));
        if (!quote)
            return s;
        return QLatin1Char('"') + QString(s).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    };
    const auto label = [](const Labels& labels, Eigen::Index i) {
        const auto k = static_cast<std::size_t>(i);
        return labels && k < labels->size() ? QString::fromStdString((*labels)[k]) : QString::number(i + 1);
    };
    const auto number = [](float v) {
        if (std::isnan(v))
            return QStringLiteral("nan");
        if (std::isinf(v))
            return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
        char buf[32];
        const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v); // shortest form that reads back as this float
        return ec == std::errc() ? QString::fromLatin1(buf, static_cast<qsizetype>(end - buf)) : QString::number(static_cast<double>(v), 'g', 9);
    };

    const Eigen::MatrixXf& v = m.values;
    QString csv;
    csv += field(QString::fromStdString(m.name));
    for (Eigen::Index c = 0; c < v.cols(); ++c)
        csv += QLatin1Char(',') + field(label(m.colLabels, c));
    csv += QStringLiteral("\r\n");
    for (Eigen::Index r = 0; r < v.rows(); ++r) {
        csv += field(label(m.rowLabels, r));
        for (Eigen::Index c = 0; c < v.cols(); ++c)
            csv += QLatin1Char(',') + number(v(r, c));
        csv += QStringLiteral("\r\n");
    }
    return csv;
}

ExportResult exportCsv(const LabeledMatrix& m, const QString& path)
{
    try {
        return writeBytes(path, QByteArray("\xEF\xBB\xBF") + matrixToCsv(m).toUtf8());
    } catch (const std::bad_alloc&) {
        return failure(QStringLiteral("cannot export to %1: out of memory").arg(quoted(path)));
    }
}

QString stageTitle(const Stage& stage)
{
    QString name = stepName(QString::fromStdString(stage.id));
    if (stage.head)
        name = QCoreApplication::translate("attnlab::Exporter", "%1 \u2014 head %2").arg(name).arg(*stage.head + 1);
    if (stage.segment) // Transformer-XL's segments, counted from 1 like heads
        name = QCoreApplication::translate("attnlab::Exporter", "%1 \u2014 segment %2").arg(name).arg(*stage.segment + 1);
    if (const QString where = stagePlace(stage); !where.isEmpty())
        name = QCoreApplication::translate("attnlab::Exporter", "%1 (%2)").arg(name, where);
    return name;
}

QString stageFileBaseName(const Trace& trace, std::size_t index)
{
    const int digits = std::max<int>(2, static_cast<int>(QString::number(trace.stages.size()).size()));
    QString name = QStringLiteral("%1_").arg(static_cast<qulonglong>(index + 1), digits, 10, QLatin1Char('0'));
    if (index >= trace.stages.size())
        return name + QStringLiteral("unknown");
    const Stage& s = trace.stages[index];
    name += QString::fromStdString(s.id);
    if (s.block != Block::None)
        name += QLatin1Char('_') + QString::fromLatin1(toString(s.block));
    if (s.layer)
        name += QStringLiteral("_layer%1").arg(*s.layer + 1);
    if (s.head)
        name += QStringLiteral("_head%1").arg(*s.head + 1);
    if (s.segment)
        name += QStringLiteral("_segment%1").arg(*s.segment + 1);
    return name;
}

ExportResult exportAllStages(const Trace& trace, const QString& dir, const ExportOptions& options,
                             const std::function<bool(int done, int total)>& progress, StageFiles files)
{
    const bool images = files != StageFiles::CsvOnly;
    const bool csv = files != StageFiles::ImageOnly;
    if (images) {
        if (const QString p = options.problem(); !p.isEmpty())
            return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(dir), p));
        if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
            return failure(QStringLiteral("cannot export to %1: drawing heatmaps needs a QApplication").arg(quoted(dir)));
    }
    if (trace.stages.empty())
        return failure(QStringLiteral("cannot export to %1: the trace has no stages").arg(quoted(dir)));
    if (const QString p = makeFolder(dir); !p.isEmpty())
        return failure(QStringLiteral("cannot export to %1: %2").arg(quoted(dir), p));

    ExportResult result;
    const int total = static_cast<int>(trace.stages.size()) * ((images ? 1 : 0) + (csv ? 1 : 0));
    int done = 0;
    // Asks the progress callback whether to go on; when not, the result says it was cancelled.
    const auto carryOn = [&] {
        if (!progress || progress(done, total))
            return true;
        result.cancelled = true;
        result.error = QStringLiteral("export cancelled after %1 of %2 files; the files written stay in %3").arg(done).arg(total).arg(quoted(dir));
        return false;
    };
    // After each file: false when the export stops here (a failure, or cancelled).
    const auto wrote = [&](const ExportResult& r) {
        if (!r.ok) {
            result.error = r.error;
            return false;
        }
        result.files << r.files;
        ++done;
        return carryOn();
    };
    if (!carryOn())
        return result;

    try {
        const QDir folder(dir);
        std::unique_ptr<HeatmapView> view; // one hidden view, reused for every stage
        for (std::size_t i = 0; i < trace.stages.size(); ++i) {
            const Stage& stage = trace.stages[i];
            const QString base = folder.filePath(stageFileBaseName(trace, i));
            if (images) {
                if (!view)
                    view = std::make_unique<HeatmapView>();
                prepareHeatmap(*view, stage.main(), stageTitle(stage), HeatmapView::scaleForStage(QString::fromStdString(stage.id)),
                               options.width, options.height);
                if (!wrote(exportPlot(view->plot(), options, withSuffix(base, imageFormatName(options.format)))))
                    return result;
            }
            if (csv && !wrote(exportCsv(stage.main(), withSuffix(base, QStringLiteral("csv")))))
                return result;
        }
    } catch (const std::bad_alloc&) {
        result.error = QStringLiteral("cannot export to %1: out of memory").arg(quoted(dir));
        return result;
    } catch (const std::exception& e) {
        result.error = QStringLiteral("cannot export to %1: %2").arg(quoted(dir), QString::fromUtf8(e.what()));
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace attnlab
