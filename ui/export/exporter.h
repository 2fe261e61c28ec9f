#pragma once
// Pictures and tables for slides and handouts: a heatmap as PNG (at a chosen DPI), SVG or PDF
// (text stays text, so tokens can be searched and copied), a matrix as CSV, and every stage of a
// trace at once. Every file goes through a temporary file and a rename, so an earlier file at
// the path survives any failure. No function throws: each returns an ExportResult.

#include "views/heatmapview.h"
#include "core/cost.h"
#include "core/trace.h"

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <functional>
#include <optional>

class QCPPainter;
class QCustomPlot;
class QWidget;

namespace attnlab {

enum class ImageFormat {
    Png,
    Svg,
    Pdf,
};

/// "png", "svg" or "pdf", any case, to a format; anything else gives nullopt.
std::optional<ImageFormat> parseImageFormat(const QString& name);
/// The format named by a file's suffix ("heads.PDF" gives Pdf); nullopt for other suffixes.
std::optional<ImageFormat> imageFormatForFile(const QString& path);
/// "png", "svg" or "pdf": the format's name and its file suffix.
QString imageFormatName(ImageFormat format);

/// Limits of ExportOptions (a 10000 × 10000 plot at 1200 dpi would be 20 GB of pixels).
constexpr int kMinExportDpi = 48;
constexpr int kMaxExportDpi = 1200;
constexpr int kMinExportSide = 50;     ///< logical pixels (a small view of the studio can be exported)
constexpr int kMaxExportSide = 10000;
constexpr int kMaxPngSide = 16384;     ///< pixels of the PNG, after the DPI scaling

struct ExportOptions {
    ImageFormat format = ImageFormat::Png;
    /// PNG only: the PNG has width·dpi/96 × height·dpi/96 pixels and records `dpi`, so slide
    /// tools place it at width/96 × height/96 inches. SVG and PDF are vector files of that size.
    int dpi = 150;
    int width = 1200;  ///< logical pixels (1/96 inch) of the rendered plot
    int height = 900;

    /// Empty when the options are valid, else the rule broken: "dpi (0) must be between 48 and 1200",
    /// or a picture that would need more memory than CostLimits allows: "a 10000 × 10000 PDF would
    /// need about 10 GB of memory; the limit is 4 GB: make it smaller".
    QString problem() const;
    /// problem() without the memory check: a value out of its range, a PNG over the pixel limit.
    QString ruleProblem() const;
    /// What drawing one picture of these options holds and takes, from its size alone (measured
    /// with heatmaps of 6 to 500 tokens: QCustomPlot embeds a colour map in a vector file as a
    /// bitmap of 3 × 3 pixels a pixel, which the PDF writer converts again): 112 bytes per logical
    /// pixel for PDF (107–110 measured), 46 for SVG (41–44: more cells, a larger embedded PNG),
    /// 11 per pixel of the PNG.
    WorkCost cost() const;
    /// "a 10000 × 10000 PDF", "a 15625 × 15625 pixel PNG".
    QString describe() const;
};

struct ExportResult {
    bool ok = false;
    /// Why it failed, one line naming the file: "cannot write '/x/a.png': No such file or directory".
    QString error;
    /// The files written, in order. After a failure or a cancel, the ones written before it: they stay.
    QStringList files;
    /// exportAllStages was cancelled by its progress callback (ok is false, error says so).
    bool cancelled = false;
};

/// Saves `plot` as it looks, laid out at options.width × options.height, without resizing the
/// widget. Title, axis labels and colour bar are included; in SVG and PDF text stays text.
ExportResult exportPlot(QCustomPlot* plot, const ExportOptions& options, const QString& path);

/// Saves any widget at its current size (options.width and height are not used): "export the
/// current view". A QCustomPlot or HeatmapView goes through exportPlot (sharp, text as text);
/// other widgets are painted with QWidget::render, where plots inside them come out as pixels.
ExportResult exportWidget(QWidget* widget, const ExportOptions& options, const QString& path);

/// Draws `m` in an offscreen HeatmapView (never shown) of options.width × options.height, as the
/// studio shows it, and saves it. Needs a QApplication; the view takes the application's font,
/// which must list "Noto Sans CJK SC" for Chinese tokens to get Simplified Chinese shapes.
ExportResult exportMatrix(const LabeledMatrix& m, const QString& title, HeatmapView::Scale scale,
                          const ExportOptions& options, const QString& path);

/// Draws a picture with `paint` on a canvas of options.width × options.height logical pixels
/// (white, the painter in those units) and saves it: PNG at options.dpi, or SVG and PDF as vector
/// files whose text stays text. `title` goes into the file's metadata. For figures of several
/// plots (QCustomPlot::toPainter draws each where the painter is translated to).
ExportResult exportPainting(const std::function<void(QCPPainter&)>& paint, const QString& title, const ExportOptions& options,
                            const QString& path);

/// Lays the hidden `view` out at width × height and shows `m` in it, as the studio would (values
/// inside cells when they fit), ready for QCustomPlot::toPainter.
void prepareHeatmap(HeatmapView& view, const LabeledMatrix& m, const QString& title, HeatmapView::Scale scale, int width, int height);

/// `image` as PNG, its pHYs chunk saying `dpi`: slide tools then show it at width/96 inches,
/// not width/dpi. Throws std::runtime_error when it cannot be encoded.
QByteArray encodePng(QImage image, int dpi);
/// Writes `bytes` to `path` with writeFileAtomically (engine/io/fileio.h: a temporary file in
/// the same folder, flushed to the disk, renamed over `path`), the one way every file of the
/// studio and the command line is written. Returns an empty string, or why it failed in the
/// interface's language ("cannot write '/x/a.png': … (the folder '/x' does not exist)").
QString saveBytes(const QString& path, const QByteArray& bytes);

/// `m` as CSV (RFC 4180): a header row with the matrix name, then the column labels; each row
/// starts with its row label. Fields with a comma, quote, line break or outer space are quoted,
/// quotes doubled. Numbers are float32 in the shortest form that reads back exactly; non-finite
/// values are -inf, inf and nan. Lines end in CRLF. No byte-order mark (exportCsv adds it).
QString matrixToCsv(const LabeledMatrix& m);

/// Writes matrixToCsv(m) as UTF-8 with a byte-order mark: Excel needs it to read Chinese
/// tokens as UTF-8; LibreOffice and pandas skip it (Python's csv module: encoding="utf-8-sig").
ExportResult exportCsv(const LabeledMatrix& m, const QString& path);

/// The title of a stage's picture: "Softmax → weights A — head 1" (translated; heads 1-based).
QString stageTitle(const Stage& stage);

/// The file name, without suffix, of the stage at `index` in trace.stages: its 1-based position
/// (two digits, more when the trace has 100 stages or more), id, 1-based head and (Transformer-XL)
/// 1-based segment: "01_embedding", "07_scores_head1", "09_mask", "31_weights_head2_segment3".
QString stageFileBaseName(const Trace& trace, std::size_t index);

/// What exportAllStages writes for each stage.
enum class StageFiles {
    ImageAndCsv, ///< a picture in options.format and a .csv (the default)
    ImageOnly,
    CsvOnly,
};

/// Writes every stage's main matrix, every head, into `dir` as stageFileBaseName + ".png" (or
/// .svg, .pdf) and + ".csv". Creates `dir` when its parent exists. `progress(done, total)`
/// counts files: it is called with 0 before the first file and after each one; returning
/// false cancels: the files already written stay, and the result lists them.
ExportResult exportAllStages(const Trace& trace, const QString& dir, const ExportOptions& options,
                             const std::function<bool(int done, int total)>& progress = {},
                             StageFiles files = StageFiles::ImageAndCsv);

} // namespace attnlab
