#include "lessons/deck.h"

#include "export/exporter.h"
#include "export/pdfunicode.h"
#include "io/fileio.h"
#include "lessons/lessonmodel.h"
#include "lessons/stepnotes.h"
#include "views/compareview.h"
#include "views/heatmapview.h"
#include "views/registry.h"
#include "views/sessionview.h"
#include "views/stageview.h"
#include "widgets/formulabanner.h"
#include "widgets/markdowntext.h"
#include "widgets/projectiontype.h"
#include "session/session.h"
#include "session/stages.h"

#include <qcustomplot.h>

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <algorithm>
#include <memory>
#include <new>

namespace attnlab {

namespace {

constexpr int kPageWidth = 1600;
constexpr int kPageHeight = 900;
const QRect kFigure(30, 150, 1000, 720);
const QRect kText(1060, 150, 510, 720);
// Type from the page's height (widgets/projectiontype.h, issue 28 §4): 675 points tall in a PDF
// (900 pixels at 96 dpi), so the figure's labels and numbers and the text start at 3.5 % or more.
constexpr double kPagePoints = kPageHeight * 0.75;
const double kTextPoints = kLeastProjectedShare * kPagePoints;   ///< 23.6 points: the explanation's type
const double kSmallestTextPoints = 0.02 * kPagePoints;           ///< 13.5 points: a long one shrinks down to this to fit

struct DeckText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Deck)
};

/// "step N (line L): text".
QString atStep(const LessonStep& step, int index, const QString& text)
{
    return DeckText::tr("step %1 (line %2): %3").arg(index + 1).arg(step.line).arg(text);
}

/// Shows step `index` in `session`. Returns why it cannot be drawn as written (the engine
/// refused its input, or the model lacks its stage), or an empty string.
QString applyStep(Session& session, const LessonStep& step, int index)
{
    const bool found = session.applyLessonStep(step, true);
    QString reason;
    if (!session.error().isEmpty())
        reason = session.error();
    else if (session.isComparing() && !session.comparisonError().isEmpty())
        reason = DeckText::tr("B (compare: %1): %2").arg(QString::fromStdString(toString(session.comparison())), session.comparisonError());
    else if (!found)
        reason = DeckText::tr("this model has no stage %1 in layer %2 (%3)")
                     .arg(stepName(QString::fromStdString(step.stage)))
                     .arg(step.layer + 1)
                     .arg(blockName(step.block));
    return reason.isEmpty() ? reason : atStep(step, index, reason);
}

/// Lays `markdown` out in `doc` at the text column's width, in kTextPoints type, or smaller
/// (down to kSmallestTextPoints) when it would not fit. Returns the size used.
double layOutTextColumn(QTextDocument& doc, const QString& markdown)
{
    doc.setTextWidth(kText.width());
    const QString text = withLineBreaks(markdown); // laid out in linear time, whatever its words
    const auto layOut = [&](double points) {
        QFont f = QApplication::font();
        f.setPointSizeF(points);
        doc.setDefaultFont(f);
        doc.setMarkdown(text);
        return doc.size().height() <= kText.height();
    };
    // kTextPoints, else the largest size that fits; a text that does not fit even the smallest
    // is laid out twice, not at every size (a megabyte of text took seconds a size).
    if (layOut(kTextPoints))
        return kTextPoints;
    if (!layOut(kSmallestTextPoints))
        return kSmallestTextPoints;
    double points = kTextPoints - 0.5;
    while (points > kSmallestTextPoints && !layOut(points))
        points -= 0.5;
    if (points > kSmallestTextPoints)
        return points;
    layOut(kSmallestTextPoints);
    return kSmallestTextPoints;
}

/// Draws `markdown` in the text column (layOutTextColumn). Returns false when even the
/// smallest type does not fit (the end is cut off).
bool drawTextColumn(QPainter& p, const QString& markdown)
{
    QTextDocument doc;
    layOutTextColumn(doc, markdown);
    p.save();
    p.translate(kText.topLeft());
    doc.drawContents(&p, QRectF(0, 0, kText.width(), kText.height()));
    p.restore();
    return doc.size().height() <= kText.height();
}

/// Draws the page of a step already applied to `session`, with `note` (a highlight it cannot
/// show) above the explanation. Returns false when the explanation does not fit the page.
bool drawPage(QPainter& p, const Lesson& lesson, const LessonStep& step, int index, int count, Session& session,
              const QString& note)
{
    p.fillRect(QRect(0, 0, kPageWidth, kPageHeight), Qt::white);
    QFont base = QApplication::font();

    QFont small = base;
    small.setPointSizeF(kSmallestTextPoints); // the lesson and the step counter: small, still readable
    p.setFont(small);
    p.setPen(QColor(90, 90, 90));
    p.drawText(QRect(30, 20, 1200, 30), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(lesson.title));
    p.drawText(QRect(1270, 20, 300, 30), Qt::AlignRight | Qt::AlignVCenter, DeckText::tr("Step %1 / %2").arg(index + 1).arg(count));
    QFont title = base;
    title.setPointSizeF(26);
    title.setBold(true);
    p.setFont(title);
    p.setPen(Qt::black);
    p.drawText(QRect(30, 55, 1540, 70), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, QString::fromStdString(step.title));
    p.setPen(QPen(QColor(0, 90, 200), 3));
    p.drawLine(30, 135, 1570, 135);

    // The figure, exactly as the studio draws it. A view that needs more room than the figure
    // (its minimum size) is drawn at its own size and scaled down to fit, never over the text.
    const auto view = makeSlideView(&session);
    const QSize size = view->size();
    const double fit = std::min({1.0, kFigure.width() / double(size.width()), kFigure.height() / double(size.height())});
    p.save();
    p.translate(kFigure.topLeft());
    p.scale(fit, fit);
    view->render(&p, QPoint(), QRegion(), QWidget::DrawChildren | QWidget::DrawWindowBackground);
    p.restore();

    // Formula and explanation on the right.
    const bool fits = drawTextColumn(p, pageMarkdown(session, step, note));

    p.setFont(small);
    p.setPen(QColor(140, 140, 140));
    p.drawText(QRect(30, 872, 1540, 24), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("Attention Lab"));
    return fits;
}

/// Draws the page of step `index`, already applied to `session`; what the page says about
/// itself (a highlight it cannot show, an explanation cut off) also goes to `notes`.
void drawStep(QPainter& p, const Lesson& lesson, int index, Session& session, QStringList& notes)
{
    const LessonStep& step = lesson.steps[static_cast<std::size_t>(index)];
    const QString note = highlightNote(session, step);
    if (!note.isEmpty())
        notes << atStep(step, index, note);
    if (!drawPage(p, lesson, step, index, static_cast<int>(lesson.steps.size()), session, note))
        notes << atStep(step, index, DeckText::tr("the explanation is too long for a slide: its end is cut off"));
}

QString slug(const std::string& title)
{
    QString s;
    for (const QChar c : QString::fromStdString(title).toLower()) {
        if (c.isLetterOrNumber())
            s += c;
        else if (!s.endsWith(QLatin1Char('-')))
            s += QLatin1Char('-');
    }
    while (s.endsWith(QLatin1Char('-')))
        s.chop(1);
    return s.left(40);
}

/// What a deck's pages show, in order: a step's index each, or -1 for the page that stands for the
/// steps a missing model would show (which model, how to get it).
struct Pages {
    std::vector<int> steps;
    QString modelTitle; ///< the model page's title and text (Markdown)
    QString modelText;

    int count() const { return static_cast<int>(steps.size()); }
};

/// Every step, or — without the lesson's model — the steps that need none and, where the first
/// that needs it stood, the model page.
Pages deckPages(const Lesson& lesson, const LessonModel& model)
{
    Pages pages;
    const bool ready = model.ready();
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
        if (ready || !lesson.steps[static_cast<std::size_t>(i)].needsModel())
            pages.steps.push_back(i);
        else if (pages.modelTitle.isEmpty()) {
            pages.steps.push_back(-1);
            pages.modelTitle = LessonModels::deckPageTitle(lesson, model);
            pages.modelText = LessonModels::deckPageMarkdown(lesson, model);
        }
    }
    return pages;
}

/// The page saying which model to get and how: the title, and the text across the page.
void drawModelPage(QPainter& p, const Lesson& lesson, const Pages& pages)
{
    p.fillRect(QRect(0, 0, kPageWidth, kPageHeight), Qt::white);
    QFont small = QApplication::font();
    small.setPointSizeF(kSmallestTextPoints);
    p.setFont(small);
    p.setPen(QColor(90, 90, 90));
    p.drawText(QRect(30, 20, 1540, 30), Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(lesson.title));
    QFont title = QApplication::font();
    title.setPointSizeF(26);
    title.setBold(true);
    p.setFont(title);
    p.setPen(QColor(0xb0, 0x60, 0x00));
    p.drawText(QRect(30, 55, 1540, 70), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, pages.modelTitle);
    p.setPen(QPen(QColor(0xc9, 0x8a, 0x00), 3));
    p.drawLine(30, 135, 1570, 135);
    QTextDocument doc;
    doc.setTextWidth(1540);
    QFont body = QApplication::font();
    body.setPointSizeF(kTextPoints);
    doc.setDefaultFont(body);
    doc.setMarkdown(withLineBreaks(pages.modelText));
    p.save();
    p.translate(30, 160);
    doc.drawContents(&p, QRectF(0, 0, 1540, 700));
    p.restore();
}

/// Shows page `k`'s step in `session` (nothing for the model page); why it cannot, or "".
QString applyPage(Session& session, const Lesson& lesson, const Pages& pages, int k)
{
    const int step = pages.steps[static_cast<std::size_t>(k)];
    return step < 0 ? QString() : applyStep(session, lesson.steps[static_cast<std::size_t>(step)], step);
}

void drawPageAt(QPainter& p, const Lesson& lesson, const Pages& pages, int k, Session& session, QStringList& notes)
{
    const int step = pages.steps[static_cast<std::size_t>(k)];
    if (step < 0)
        drawModelPage(p, lesson, pages);
    else
        drawStep(p, lesson, step, session, notes);
}

/// "03-the-title.png": the page's number and its title.
QString pageFileName(const Lesson& lesson, const Pages& pages, int k)
{
    const int step = pages.steps[static_cast<std::size_t>(k)];
    const QString title = step < 0 ? slug(pages.modelTitle.toStdString()) : slug(lesson.steps[static_cast<std::size_t>(step)].title);
    return QStringLiteral("%1-%2.png").arg(k + 1, 2, 10, QLatin1Char('0')).arg(title);
}

} // namespace

QString pageMarkdown(const Session& session, const LessonStep& step, const QString& note)
{
    QString markdown;
    const bool stageView = session.view() == u"stage" || session.view() == u"heads";
    if (stageView) {
        const QString id = session.stepId();
        const auto& cfg = session.trace()->config;
        // In a Transformer, which layer and block the stage belongs to comes first.
        const QString place = stepPlace(session.currentStep());
        const QString name = place.isEmpty() ? stepName(id) : QStringLiteral("%1 \u2014 %2").arg(place, stepName(id));
        // A pretrained model's formula as the studio's banner gives it: what the engine computed
        // (RMSNorm, the gated FFN, RoPE's halves), not the studio's own block's.
        QString formula = stepFormula(id, cfg);
        if (session.trace()->model && session.trace()->model->pretrained)
            formula = FormulaBanner(const_cast<Session*>(&session)).formulaText();
        markdown += QStringLiteral("**%1**\n\n`%2`\n\n*%3*\n\n").arg(name, formula, stepShapes(id, *session.trace()));
    }
    // A highlight the sentence cannot show is said on the page, as in the studio.
    if (!note.isEmpty())
        markdown += QStringLiteral("> \u26A0 %1\n\n").arg(note);
    return markdown + QString::fromStdString(step.explanation);
}

/// The widget the studio would show for this step, offscreen at the figure's size.
std::unique_ptr<SessionView> makeSlideView(Session* session)
{
    const ViewEntry& entry = viewEntry(viewKindFor(session->stepId(), session->view(), session->trace().get()));
    // A step that compares two inputs shows A, B and A − B, as the studio does.
    std::unique_ptr<SessionView> w(showsComparison(*session) ? new CompareView(session) : entry.make(session, nullptr));
    if (entry.prepareForSlide && !showsComparison(*session))
        entry.prepareForSlide(w.get());
    // Slide type from the page's height, for the back row; nothing interactive on a slide (the
    // colour-scale check boxes, a shape the page says), no plot title above the banner's name.
    // The heatmaps' labels and numbers take type from the page's height (3.7 %), the rest of the
    // view a larger type than on screen.
    QFont big = QApplication::font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    setProjected(w.get(), true, projectedPointSize(kPageHeight, 96));
    w->setFont(big);
    w->setAttribute(Qt::WA_DontShowOnScreen);
    w->setAutoFillBackground(true);
    w->resize(kFigure.size());
    w->show();
    QCoreApplication::processEvents();
    // Plots paint from a pixel buffer: render it at twice the resolution so slides stay sharp.
    for (QCustomPlot* plot : w->findChildren<QCustomPlot*>()) {
        plot->setBufferDevicePixelRatio(2.0);
        plot->replot(QCustomPlot::rpImmediateRefresh);
    }
    return w;
}

double slideTextPoints(const QString& markdown)
{
    QTextDocument doc;
    return layOutTextColumn(doc, markdown);
}

double slidePagePoints()
{
    return kPagePoints;
}

Lesson readLessonFile(const QString& path)
{
    std::string bytes;
    if (path.startsWith(QLatin1Char(':'))) {
        // A shipped lesson, built into the program.
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            throw LessonError(path.toStdString(), 0, f.errorString().toStdString());
        bytes = f.read(static_cast<qint64>(kMaxLessonBytes) + 1).toStdString();
    } else {
        // The engine's reader refuses what is not a regular file (a FIFO, /dev/zero) instead of
        // waiting on it, and never reads more than the limit + 1 byte.
        try {
            bytes = readFile(QFile::encodeName(path).toStdString(), kMaxLessonBytes);
        } catch (const FileError& e) {
            throw LessonError(path.toStdString(), 0, e.reason());
        }
    }
    if (bytes.size() > kMaxLessonBytes)
        throw LessonError(path.toStdString(), 0, "the file is larger than 4 MB");
    return parseLesson(bytes, QFileInfo(path).fileName().toStdString());
}

namespace {

/// Writes a page or a deck, made by `encode`, through a temporary file and a rename: an earlier
/// file survives failures, and a full disk gives one clear reason. Returns the error, or "".
QString writeDeckFile(const QString& path, const std::function<QByteArray()>& encode)
{
    try {
        return saveBytes(path, encode()); // its failure says why, in the interface's language
    } catch (const std::bad_alloc&) {
        return DeckText::tr("cannot write '%1': %2").arg(path, QStringLiteral("out of memory (try a lower dpi)"));
    } catch (const std::exception& e) {
        return DeckText::tr("cannot write '%1': %2").arg(path, QString::fromUtf8(e.what()));
    }
}

/// The deck as one PDF, a page per step (written in memory first, then to the file at once).
DeckResult renderPdfDeck(const Lesson& lesson, const Pages& pages, const QString& output, Session& session,
                         const std::function<bool(int, int)>& progress)
{
    DeckResult result;
    const int count = pages.count();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setResolution(96); // one page = 1600 × 900 logical pixels
        pdf.setPageSize(QPageSize(QSizeF(kPageWidth * 0.75, kPageHeight * 0.75), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(QString::fromStdString(lesson.title));
        pdf.setCreator(QStringLiteral("Attention Lab"));
        QPainter painter(&pdf);
        for (int i = 0; i < count; ++i) {
            if (progress && !progress(i, count)) {
                painter.end();
                result.error = DeckText::tr("cancelled");
                return result;
            }
            const QString failed = applyPage(session, lesson, pages, i);
            if (!failed.isEmpty()) {
                painter.end();
                result.error = failed;
                return result;
            }
            if (i > 0)
                pdf.newPage();
            drawPageAt(painter, lesson, pages, i, session, result.notes);
        }
    }
    // Searchable Chinese: Qt's ToUnicode maps name Kangxi radicals for 一 子 己 生 自 行 (a search
    // for 行 failed) and a tab for the space.
    fixToUnicodeMaps(bytes);
    result.error = writeDeckFile(output, [&bytes] { return bytes; });
    if (!result.error.isEmpty())
        return result;
    result.files << output;
    result.pages = count;
    result.ok = true;
    return result;
}

/// The deck as one PNG per step in the folder `output`, at `dpi`.
DeckResult renderPngDeck(const Lesson& lesson, const Pages& pages, const QString& output, int dpi, Session& session,
                         const std::function<bool(int, int)>& progress)
{
    DeckResult result;
    const int count = pages.count();
    const bool made = !QFileInfo::exists(output);
    if (!QDir().mkpath(output)) {
        result.error = DeckText::tr("cannot create the folder '%1'").arg(output);
        return result;
    }
    const double scale = std::clamp(dpi, 24, 1200) / 96.0;
    for (int i = 0; i < count; ++i) {
        if (progress && !progress(i, count)) {
            result.error = DeckText::tr("cancelled after %n page(s)", nullptr, i);
            return result;
        }
        const QString failed = applyPage(session, lesson, pages, i);
        if (!failed.isEmpty()) {
            result.error = failed;
            if (made && result.files.isEmpty())
                QDir().rmdir(output); // the folder this call made, still empty
            return result;
        }
        const QString path = QDir(output).filePath(pageFileName(lesson, pages, i));
        QImage image(qRound(kPageWidth * scale), qRound(kPageHeight * scale), QImage::Format_RGB32);
        if (image.isNull()) { // the pixels could not be allocated
            result.error = writeDeckFile(path, []() -> QByteArray { throw std::bad_alloc(); });
            return result;
        }
        {
            // The page is laid out at 96 dpi and scaled as a whole, as the exporter does: a
            // device pixel ratio below 1 would be ignored and cut the page (at 24–72 dpi).
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            painter.scale(scale, scale);
            drawPageAt(painter, lesson, pages, i, session, result.notes);
        }
        result.error = writeDeckFile(path, [&image, dpi] { return encodePng(std::move(image), dpi); }); // moved: no copy of the pixels
        if (!result.error.isEmpty())
            return result;
        result.files << path;
        ++result.pages;
    }
    result.ok = true;
    return result;
}

} // namespace

DeckResult renderLessonDeck(const Lesson& lesson, const QString& output, const DeckOptions& options,
                            const std::function<bool(int, int)>& progress)
{
    Session session;
    // A lesson that needs a pretrained model is drawn with it; without it, the steps that need
    // none and one page saying which model to get and how.
    Lesson withModel = lesson;
    const LessonModel model = LessonModels::open(session, withModel);
    const Pages pages = deckPages(withModel, model);
    session.setLessonInput(lesson.sentence ? std::optional<QString>(QString::fromStdString(*lesson.sentence)) : std::nullopt,
                           withModel.config);
    DeckResult result = options.format == DeckOptions::Format::Pdf ? renderPdfDeck(withModel, pages, output, session, progress)
                                                                   : renderPngDeck(withModel, pages, output, options.dpi, session, progress);
    if (!model.ready())
        result.notes.prepend(LessonModels::missingText(lesson, model));
    const int count = pages.count();
    if (result.ok && progress)
        progress(count, count);
    return result;
}

} // namespace attnlab
