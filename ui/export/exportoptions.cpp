// The export options: the image formats by name, the rules a picture's size must keep and what
// drawing it holds and takes (ui/export/exporter.h).

#include "export/exporter.h"

#include "core/message.h"

#include <QFileInfo>

#include <cmath>

namespace attnlab {

namespace {

constexpr double kLogicalDpi = 96; // ExportOptions' width and height are in 1/96 inch

} // namespace

std::optional<ImageFormat> parseImageFormat(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"png")
        return ImageFormat::Png;
    if (n == u"svg")
        return ImageFormat::Svg;
    if (n == u"pdf")
        return ImageFormat::Pdf;
    return std::nullopt;
}

std::optional<ImageFormat> imageFormatForFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix();
    if (suffix.isEmpty())
        return std::nullopt;
    return parseImageFormat(suffix);
}

QString imageFormatName(ImageFormat format)
{
    switch (format) {
    case ImageFormat::Png:
        return QStringLiteral("png");
    case ImageFormat::Svg:
        return QStringLiteral("svg");
    case ImageFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return QStringLiteral("png");
}

QString ExportOptions::problem() const
{
    if (QString p = ruleProblem(); !p.isEmpty())
        return p;
    try {
        checkWork(describe().toStdString(), cost(), "make it smaller");
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString ExportOptions::ruleProblem() const
{
    if (format != ImageFormat::Png && format != ImageFormat::Svg && format != ImageFormat::Pdf)
        return QStringLiteral("unknown image format (%1); the formats are png, svg and pdf").arg(static_cast<int>(format));
    if (dpi < kMinExportDpi || dpi > kMaxExportDpi)
        return QStringLiteral("dpi (%1) must be between %2 and %3").arg(dpi).arg(kMinExportDpi).arg(kMaxExportDpi);
    if (width < kMinExportSide || width > kMaxExportSide)
        return QStringLiteral("width (%1) must be between %2 and %3").arg(width).arg(kMinExportSide).arg(kMaxExportSide);
    if (height < kMinExportSide || height > kMaxExportSide)
        return QStringLiteral("height (%1) must be between %2 and %3").arg(height).arg(kMinExportSide).arg(kMaxExportSide);
    if (format == ImageFormat::Png) {
        const long long pw = std::llround(width * dpi / kLogicalDpi);
        const long long ph = std::llround(height * dpi / kLogicalDpi);
        if (pw > kMaxPngSide || ph > kMaxPngSide)
            return QStringLiteral("a %1 × %2 plot at %3 dpi would be a %4 × %5 pixel PNG; the limit is %6 pixels a side")
                .arg(width)
                .arg(height)
                .arg(dpi)
                .arg(pw)
                .arg(ph)
                .arg(kMaxPngSide);
    }
    return {};
}

WorkCost ExportOptions::cost() const
{
    const auto logical = static_cast<double>(width) * height;
    const double scale = dpi / kLogicalDpi;
    WorkCost c;
    switch (format) {
    case ImageFormat::Png: {
        const double pixels = logical * scale * scale; // the pixmap, its QImage and the PNG's bytes
        c.bytes = static_cast<std::int64_t>(11 * pixels);
        c.seconds = 1e-7 * pixels;
        break;
    }
    case ImageFormat::Svg: // the 3 × 3 bitmap of the colour map, its PNG and Base64 in the text
        c.bytes = static_cast<std::int64_t>(46 * logical);
        c.seconds = 1e-6 * logical;
        break;
    case ImageFormat::Pdf: // the bitmap, the writer's converted copy and its compressed stream
        c.bytes = static_cast<std::int64_t>(112 * logical);
        c.seconds = 5e-7 * logical;
        break;
    }
    return c;
}

QString ExportOptions::describe() const
{
    if (format == ImageFormat::Png)
        return QStringLiteral("a %1 × %2 pixel PNG")
            .arg(std::llround(width * dpi / kLogicalDpi))
            .arg(std::llround(height * dpi / kLogicalDpi));
    return QStringLiteral("a %1 × %2 %3").arg(width).arg(height).arg(imageFormatName(format).toUpper());
}

} // namespace attnlab
