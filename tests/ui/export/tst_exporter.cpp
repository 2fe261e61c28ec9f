// Image and CSV export: PNG pixel size and DPI, SVG and PDF with their text searchable
// (Chinese included, in the Simplified Chinese face), CSV quoting, every stage at once with
// progress and cancel, and failures that leave earlier files alone.

#include "nn/attention.h"
#include "export/exporter.h"

#include <qcustomplot.h>

#include <QFontInfo>
#include <QLabel>
#include <QRawFont>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <limits>

using attnlab::ExportOptions;
using attnlab::ImageFormat;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

/// A square matrix over `tokens`, values i + j/10 (so every cell differs).
attnlab::LabeledMatrix tokenMatrix(const QStringList& tokens)
{
    auto labels = std::make_shared<std::vector<std::string>>();
    for (const auto& t : tokens)
        labels->push_back(t.toStdString());
    attnlab::LabeledMatrix m;
    m.name = "A_h";
    const auto n = static_cast<Eigen::Index>(tokens.size());
    m.values.resize(n, n);
    for (Eigen::Index r = 0; r < n; ++r)
        for (Eigen::Index c = 0; c < n; ++c)
            m.values(r, c) = static_cast<float>(r) / static_cast<float>(n) + static_cast<float>(c) / 100.0f;
    m.rowLabels = labels;
    m.colLabels = labels;
    return m;
}

ExportOptions options(ImageFormat format, int dpi = 96, int width = 800, int height = 600)
{
    ExportOptions o;
    o.format = format;
    o.dpi = dpi;
    o.width = width;
    o.height = height;
    return o;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// --- A small PDF text extractor, enough for what Qt's PDF writer produces -------------------
// Qt embeds each font as a subset with a ToUnicode map (glyph -> character) and draws every
// glyph as "<gid> Tj" inside BT .. ET. Mapping the glyphs back through the ToUnicode maps gives
// the text a PDF viewer searches and copies. Streams may be compressed (FlateDecode).

struct PdfObject {
    QByteArray dict;
    QByteArray stream; // decoded
};

QHash<int, PdfObject> pdfObjects(const QByteArray& pdf)
{
    QHash<int, PdfObject> objects;
    static const QRegularExpression header(QStringLiteral("(?:^|[\\r\\n])(\\d+) 0 obj\\b"));
    const QString text = QString::fromLatin1(pdf); // one char per byte: positions agree
    auto it = header.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        const qsizetype start = m.capturedEnd();
        const qsizetype end = pdf.indexOf("endobj", start);
        if (end < 0)
            break;
        const QByteArray body = pdf.mid(start, end - start);
        PdfObject o;
        const qsizetype s = body.indexOf("stream");
        if (s >= 0 && body.indexOf("endstream") > s) {
            o.dict = body.left(s);
            qsizetype dataStart = s + 6;
            if (body.mid(dataStart, 2) == "\r\n")
                dataStart += 2;
            else if (body[dataStart] == '\n')
                dataStart += 1;
            QByteArray data = body.mid(dataStart, body.lastIndexOf("endstream") - dataStart);
            if (o.dict.contains("/FlateDecode")) {
                QByteArray sized(4, '\0');
                qToBigEndian<quint32>(static_cast<quint32>(data.size() * 20 + 1024), sized.data()); // a size hint
                data = qUncompress(sized + data);
            }
            o.stream = data;
        } else {
            o.dict = body;
        }
        objects.insert(m.captured(1).toInt(), o);
    }
    return objects;
}

/// glyph id -> text, from a ToUnicode CMap's bfchar and bfrange sections.
QHash<int, QString> parseToUnicode(const QByteArray& cmap)
{
    QHash<int, QString> map;
    const auto hexText = [](const QString& hex) {
        QString s;
        for (qsizetype i = 0; i + 4 <= hex.size(); i += 4)
            s += QChar(static_cast<char16_t>(hex.mid(i, 4).toUInt(nullptr, 16)));
        return s;
    };
    const QString text = QString::fromLatin1(cmap);
    static const QRegularExpression array(QStringLiteral("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>\\s*\\[([^\\]]*)\\]"));
    static const QRegularExpression range(QStringLiteral("<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>\\s*<([0-9A-Fa-f]+)>"));
    static const QRegularExpression hexItem(QStringLiteral("<([0-9A-Fa-f]+)>"));
    static const QRegularExpression sections(QStringLiteral("beginbf(char|range)(.*?)endbf\\1"),
                                             QRegularExpression::DotMatchesEverythingOption);
    auto sit = sections.globalMatch(text);
    while (sit.hasNext()) {
        const auto section = sit.next();
        const QString body = section.captured(2);
        if (section.captured(1) == u"char") {
            auto it = hexItem.globalMatch(body);
            while (it.hasNext()) {
                const int glyph = it.next().captured(1).toInt(nullptr, 16);
                if (!it.hasNext())
                    break;
                map.insert(glyph, hexText(it.next().captured(1)));
            }
            continue;
        }
        for (const QString& line : body.split(QLatin1Char('\n'))) {
            if (const auto a = array.match(line); a.hasMatch()) {
                int glyph = a.captured(1).toInt(nullptr, 16);
                auto it = hexItem.globalMatch(a.captured(3));
                while (it.hasNext())
                    map.insert(glyph++, hexText(it.next().captured(1)));
            } else if (const auto r = range.match(line); r.hasMatch()) {
                const int first = r.captured(1).toInt(nullptr, 16);
                const int last = r.captured(2).toInt(nullptr, 16);
                const uint base = r.captured(3).toUInt(nullptr, 16);
                for (int g = first; g <= last; ++g)
                    map.insert(g, QString(QChar(static_cast<char16_t>(base + static_cast<uint>(g - first)))));
            }
        }
    }
    return map;
}

struct PdfText {
    QStringList blocks;      ///< the text of each BT .. ET block
    QStringList fontNames;   ///< the embedded fonts' names ("NotoSansCJKsc-Regular")
};

PdfText pdfText(const QByteArray& pdf)
{
    PdfText result;
    const auto objects = pdfObjects(pdf);
    // Font resources: "/F7 7 0 R" inside "/Font << ... >>".
    QHash<QString, QHash<int, QString>> fonts; // resource name -> ToUnicode
    static const QRegularExpression fontDict(QStringLiteral("/Font\\s*<<([^>]*)>>"));
    static const QRegularExpression fontRef(QStringLiteral("/(\\w+)\\s+(\\d+) 0 R"));
    static const QRegularExpression toUnicode(QStringLiteral("/ToUnicode (\\d+) 0 R"));
    static const QRegularExpression baseFont(QStringLiteral("/BaseFont /([^\\s/]+)"));
    for (const auto& o : objects) {
        const auto d = fontDict.match(QString::fromLatin1(o.dict));
        if (!d.hasMatch())
            continue;
        auto it = fontRef.globalMatch(d.captured(1));
        while (it.hasNext()) {
            const auto ref = it.next();
            const PdfObject font = objects.value(ref.captured(2).toInt());
            const QString fontDictText = QString::fromLatin1(font.dict);
            if (const auto b = baseFont.match(fontDictText); b.hasMatch())
                result.fontNames << b.captured(1);
            if (const auto u = toUnicode.match(fontDictText); u.hasMatch())
                fonts.insert(ref.captured(1), parseToUnicode(objects.value(u.captured(1).toInt()).stream));
        }
    }
    // Content streams: "/F7 16 Tf", then "<0001> Tj" or "[<0001> 10 <0002>] TJ".
    static const QRegularExpression ops(QStringLiteral("/(\\w+)\\s+[\\d.]+\\s+Tf|<([0-9A-Fa-f]+)>|\\bBT\\b|\\bET\\b"));
    for (const auto& o : objects) {
        if (o.stream.isEmpty() || !o.stream.contains("BT"))
            continue;
        QHash<int, QString> current;
        QString block;
        auto it = ops.globalMatch(QString::fromLatin1(o.stream));
        while (it.hasNext()) {
            const auto m = it.next();
            if (!m.captured(1).isEmpty()) {
                current = fonts.value(m.captured(1));
            } else if (!m.captured(2).isEmpty()) {
                const QString hex = m.captured(2);
                for (qsizetype i = 0; i + 4 <= hex.size(); i += 4)
                    block += current.value(hex.mid(i, 4).toInt(nullptr, 16), QStringLiteral("\uFFFD"));
            } else if (m.captured(0) == u"ET") {
                result.blocks << block;
                block.clear();
            }
        }
    }
    return result;
}

} // namespace

class TestExporter : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // As the applications do: name the Simplified Chinese face, or fontconfig may pick
        // Japanese shapes for the same characters.
        QFont font = QApplication::font();
        font.setFamilies({QFontInfo(font).family(), QStringLiteral("Noto Sans CJK SC")});
        QApplication::setFont(font);
        QVERIFY2(QRawFont::fromFont(QFont(QStringLiteral("Noto Sans CJK SC"))).supportsCharacter(U'狗'),
                 "no Chinese font: install fonts-noto-cjk (scripts/setup.sh)");
    }

    // Issue 28 §4: an exported heatmap's token labels and cell numbers were about 1 % of the
    // picture's height; they take 3.5 % of it or more, as on a slide.
    void exportedLabelsAreReadFromTheBackRow()
    {
        const attnlab::LabeledMatrix m = tokenMatrix({QStringLiteral("狗"), QStringLiteral("咬"), QStringLiteral("了"), QStringLiteral("人")});
        attnlab::HeatmapView view;
        attnlab::prepareHeatmap(view, m, QStringLiteral("A"), attnlab::HeatmapView::Scale::Probability, 1200, 900);
        view.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const double least = 0.035 * 900;
        const auto pixels = [](const QFont& f) { return f.pointSizeF() * 96.0 / 72.0; };
        QVERIFY2(pixels(view.plot()->xAxis2->tickLabelFont()) >= least, qPrintable(QString::number(pixels(view.plot()->xAxis2->tickLabelFont()))));
        QVERIFY(pixels(view.plot()->yAxis->tickLabelFont()) >= least);
        int numbers = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i) {
            if (auto* t = qobject_cast<QCPItemText*>(view.plot()->item(i))) {
                ++numbers;
                QVERIFY(pixels(t->font()) >= least);
            }
        }
        QCOMPARE(numbers, 16);
    }

    void formatNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("format"); // -1: none
        QTest::newRow("png") << "png" << static_cast<int>(ImageFormat::Png);
        QTest::newRow("upper case") << "SVG" << static_cast<int>(ImageFormat::Svg);
        QTest::newRow("pdf") << "pdf" << static_cast<int>(ImageFormat::Pdf);
        QTest::newRow("jpeg") << "jpg" << -1;
        QTest::newRow("csv is not an image") << "csv" << -1;
        QTest::newRow("empty") << "" << -1;
    }

    void formatNames()
    {
        QFETCH(QString, name);
        QFETCH(int, format);
        const auto parsed = attnlab::parseImageFormat(name);
        const auto bySuffix = attnlab::imageFormatForFile(QStringLiteral("slides/heads.") + name);
        QCOMPARE(parsed.has_value(), format >= 0);
        QCOMPARE(bySuffix.has_value(), format >= 0);
        if (format >= 0) {
            QCOMPARE(static_cast<int>(*parsed), format);
            QCOMPARE(static_cast<int>(*bySuffix), format);
            QCOMPARE(attnlab::imageFormatName(*parsed), name.toLower());
        }
        QVERIFY(!attnlab::imageFormatForFile(QStringLiteral("no-suffix")));
    }

    void optionProblems_data()
    {
        QTest::addColumn<int>("dpi");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<QString>("problem");
        QTest::newRow("defaults") << 150 << 1200 << 900 << "";
        QTest::newRow("dpi 0") << 0 << 1200 << 900 << "dpi (0) must be between 48 and 1200";
        QTest::newRow("dpi huge") << 5000 << 1200 << 900 << "dpi (5000) must be between 48 and 1200";
        QTest::newRow("narrow") << 150 << 10 << 900 << "width (10) must be between 50 and 10000";
        QTest::newRow("tall") << 150 << 1200 << 20000 << "height (20000) must be between 50 and 10000";
        QTest::newRow("too many pixels") << 1200 << 10000 << 900 << "a 10000 × 900 plot at 1200 dpi would be a 125000 × 11250 pixel PNG";
    }

    void optionProblems()
    {
        QFETCH(int, dpi);
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(QString, problem);
        const QString got = options(ImageFormat::Png, dpi, width, height).problem();
        if (problem.isEmpty())
            QCOMPARE(got, QString());
        else
            QVERIFY2(got.startsWith(problem), qPrintable(got));
    }

    /// What a picture needs, from its size: the documented largest (10000 × 10000) needs more
    /// memory than CostLimits allows as PDF and SVG (7.5 and 4.2 GB were seen), not as PNG.
    void sizedBeforeDrawing_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("side");
        QTest::addColumn<QString>("problem");
        QTest::newRow("pdf 10000") << int(ImageFormat::Pdf) << 10000 << "a 10000 × 10000 PDF would need about 10 GB of memory; the limit is 4 GB: make it smaller";
        QTest::newRow("svg 10000") << int(ImageFormat::Svg) << 10000 << "a 10000 × 10000 SVG would need about 4.3 GB of memory; the limit is 4 GB: make it smaller";
        QTest::newRow("pdf 6000") << int(ImageFormat::Pdf) << 6000 << "";
        QTest::newRow("png 10000 at 96 dpi") << int(ImageFormat::Png) << 10000 << "";
    }
    void sizedBeforeDrawing()
    {
        QFETCH(int, format);
        QFETCH(int, side);
        QFETCH(QString, problem);
        const ExportOptions o = options(static_cast<ImageFormat>(format), 96, side, side);
        QCOMPARE(o.problem(), problem);
        QCOMPARE(o.cost().bytes > attnlab::CostLimits::maxWorkBytes, !problem.isEmpty());
        // Refused before anything is drawn: the file is not made.
        if (!problem.isEmpty()) {
            QTemporaryDir dir;
            const auto r = attnlab::exportMatrix(tokenMatrix({"a", "b"}), QStringLiteral("t"), attnlab::HeatmapView::Scale::Probability, o,
                                                 dir.filePath(QStringLiteral("x")));
            QVERIFY(!r.ok);
            QVERIFY2(r.error.contains(problem), qPrintable(r.error));
            QVERIFY(QDir(dir.path()).isEmpty());
        }
    }

    void pngHasThePixelSizeAndDpi_data()
    {
        QTest::addColumn<int>("dpi");
        QTest::addColumn<QSize>("pixels");
        // 800 x 600 logical pixels: 1/96 inch each.
        QTest::newRow("96 dpi") << 96 << QSize(800, 600);
        QTest::newRow("150 dpi") << 150 << QSize(1250, 938); // 937.5 rounds up
        QTest::newRow("300 dpi") << 300 << QSize(2500, 1875);
    }

    void pngHasThePixelSizeAndDpi()
    {
        QFETCH(int, dpi);
        QFETCH(QSize, pixels);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("weights.png"));
        const auto r = attnlab::exportMatrix(tokenMatrix({"狗", "咬", "了", "人"}), QStringLiteral("Attention weights"),
                                             attnlab::HeatmapView::Scale::Probability, options(ImageFormat::Png, dpi), path);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.files, QStringList{path});
        QImage image;
        QVERIFY(image.load(path, "PNG"));
        QCOMPARE(image.size(), pixels);
        // pHYs: dots per metre, so 800 logical pixels show as 800/96 inches.
        QCOMPARE(image.dotsPerMeterX(), qRound(dpi / 0.0254));
        QCOMPARE(image.dotsPerMeterY(), qRound(dpi / 0.0254));
        QVERIFY(!QFile::exists(path + QStringLiteral(".part"))); // no temporary left behind
        // Not blank: the heatmap's viridis colours are in the middle of the picture.
        const QColor centre = image.pixelColor(image.width() / 2, image.height() / 2);
        QVERIFY2(centre != QColor(Qt::white), qPrintable(centre.name()));
    }

    void svgIsValidAndKeepsTextAsText()
    {
        const QStringList tokens{"狗", "咬", "了", "人", "didn't", "a,b", "say \"hi\"", "<sos>", "R&D"};
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("weights.svg"));
        const QString title = QStringLiteral("Softmax → weights A — head 1");
        const auto r = attnlab::exportMatrix(tokenMatrix(tokens), title, attnlab::HeatmapView::Scale::Probability,
                                             options(ImageFormat::Svg, 96, 900, 700), path);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QByteArray svg = readAll(path);
        QVERIFY(!svg.isEmpty());

        QXmlStreamReader xml(svg);
        QStringList texts;
        QString viewBox;
        QString svgTitle;
        QStringList families;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == u"svg") {
                viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
            } else if (xml.name() == u"title") {
                svgTitle = xml.readElementText();
            } else if (xml.name() == u"text") {
                families << xml.attributes().value(QStringLiteral("font-family")).toString();
                texts << xml.readElementText();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(viewBox, QStringLiteral("0 0 900 700"));
        QCOMPARE(svgTitle, title);
        QVERIFY2(texts.contains(title), qPrintable(texts.join(u'|')));
        for (const QString& t : tokens)
            QVERIFY2(texts.count(t) >= 2, qPrintable(t + QStringLiteral(" not found as text (row and column label): ") + texts.join(u'|')));
        // Viewers get the Simplified Chinese face by name, not only the first family.
        QVERIFY(!families.isEmpty());
        for (const QString& f : families)
            QVERIFY2(f.contains(QStringLiteral("Noto Sans CJK SC")), qPrintable(f));
    }

    void pdfKeepsTextSearchable()
    {
        // 人, 骨, 马 and 一 share their glyphs with CJK radical code points: the PDF must still
        // say 人, not ⼈, or a search for the token finds nothing.
        const QStringList tokens{"狗", "咬", "了", "人", "骨", "马", "一", "didn't", "<sos>", "(a)"};
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("weights.pdf"));
        const QString title = QStringLiteral("Attention weights — head 2");
        const auto r = attnlab::exportMatrix(tokenMatrix(tokens), title, attnlab::HeatmapView::Scale::Probability,
                                             options(ImageFormat::Pdf, 96, 800, 600), path);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        // One page of 800 x 600 pixels at 96 dpi = 600 x 450 points.
        QVERIFY2(pdf.contains("/MediaBox [0 0 600"), pdf.mid(pdf.indexOf("/MediaBox"), 60).constData());

        const PdfText text = pdfText(pdf);
        QVERIFY2(text.blocks.contains(title), qPrintable(text.blocks.join(u'|')));
        for (const QString& t : tokens)
            QVERIFY2(text.blocks.count(t) >= 2, qPrintable(t + QStringLiteral(" not found as text: ") + text.blocks.join(u'|')));
        for (const QString& b : text.blocks)
            QVERIFY2(!b.contains(QChar(0xFFFD)), qPrintable(b)); // every glyph maps back to a character
        // The Chinese glyphs come from the Simplified Chinese face, embedded.
        QVERIFY2(text.fontNames.contains(QStringLiteral("NotoSansCJKsc-Regular")), qPrintable(text.fontNames.join(u',')));
    }

    void csvQuotesAndInfinities()
    {
        attnlab::LabeledMatrix m = tokenMatrix({"a,b", "say \"hi\"", "狗"});
        m.name = "S''_h";
        m.values << 0.5f, -kInf, -kInf, //
            0.1f, 1e-5f, -kInf,          //
            -2.25f, kInf, 3.0f;
        const QString want = QStringLiteral(
            "S''_h,\"a,b\",\"say \"\"hi\"\"\",狗\r\n"
            "\"a,b\",0.5,-inf,-inf\r\n"
            "\"say \"\"hi\"\"\",0.1,1e-05,-inf\r\n"
            "狗,-2.25,inf,3\r\n");
        QCOMPARE(attnlab::matrixToCsv(m), want);

        // The file: UTF-8 with a byte-order mark, for Excel.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("m.csv"));
        const auto r = attnlab::exportCsv(m, path);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(readAll(path), QByteArray("\xEF\xBB\xBF") + want.toUtf8());
    }

    void csvNumbersReadBackExactly()
    {
        attnlab::LabeledMatrix m = tokenMatrix({"x"});
        const float v = 0.1f + 0.2f;
        m.values(0, 0) = v;
        const QString csv = attnlab::matrixToCsv(m);
        const QString cell = csv.split(QStringLiteral("\r\n"))[1].section(QLatin1Char(','), 1, 1);
        QCOMPARE(cell.toFloat(), v);
    }

    void allStagesWritesEveryStageAndHead_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("files");
        QTest::newRow("png + csv") << static_cast<int>(ImageFormat::Png) << static_cast<int>(attnlab::StageFiles::ImageAndCsv);
        QTest::newRow("svg + csv") << static_cast<int>(ImageFormat::Svg) << static_cast<int>(attnlab::StageFiles::ImageAndCsv);
        QTest::newRow("pdf + csv") << static_cast<int>(ImageFormat::Pdf) << static_cast<int>(attnlab::StageFiles::ImageAndCsv);
        QTest::newRow("pdf only") << static_cast<int>(ImageFormat::Pdf) << static_cast<int>(attnlab::StageFiles::ImageOnly);
        QTest::newRow("csv only") << static_cast<int>(ImageFormat::Png) << static_cast<int>(attnlab::StageFiles::CsvOnly);
    }

    void allStagesWritesEveryStageAndHead()
    {
        QFETCH(int, format);
        QFETCH(int, files);
        const auto kind = static_cast<attnlab::StageFiles>(files);
        const auto trace = smallTrace(2);
        QCOMPARE(trace.stages.size(), std::size_t(6 + 8 * 2)); // 6 shared stages, 8 per head

        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("slides")); // made by the export
        QList<QPair<int, int>> calls;
        const auto r = attnlab::exportAllStages(trace, dir, options(static_cast<ImageFormat>(format), 96, 400, 300),
                                                [&](int done, int total) {
                                                    calls.append({done, total});
                                                    return true;
                                                },
                                                kind);
        QVERIFY2(r.ok, qPrintable(r.error));
        const int perStage = kind == attnlab::StageFiles::ImageAndCsv ? 2 : 1;
        const int total = static_cast<int>(trace.stages.size()) * perStage;
        QCOMPARE(r.files.size(), total);
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), total); // nothing else (no .part files)
        for (const QString& f : r.files)
            QVERIFY2(QFileInfo(f).size() > 0, qPrintable(f));

        const QString image = kind == attnlab::StageFiles::CsvOnly ? QString() : attnlab::imageFormatName(static_cast<ImageFormat>(format));
        const QString csv = kind == attnlab::StageFiles::ImageOnly ? QString() : QStringLiteral("csv");
        // Numbered by position in the trace, heads counted from 1.
        for (const char* base : {"01_embedding", "02_positional_encoding", "03_input", "04_q_head1", "05_q_head2", "11_scores_head2",
                                 "14_mask", "17_weights_head1", "18_weights_head2", "21_concat", "22_output"}) {
            for (const QString& suffix : {image, csv}) {
                if (!suffix.isEmpty())
                    QVERIFY2(QFile::exists(dir + u'/' + QString::fromLatin1(base) + u'.' + suffix), base);
            }
        }
        // Progress: 0 first, then one call per file, up to the total.
        QCOMPARE(calls.size(), total + 1);
        for (int i = 0; i < calls.size(); ++i)
            QCOMPARE(calls[i], qMakePair(i, total));
    }

    void allStagesCancel()
    {
        const auto trace = smallTrace(2);
        QTemporaryDir tmp;
        const QString dir = tmp.path();
        const auto r = attnlab::exportAllStages(trace, dir, options(ImageFormat::Png, 96, 300, 200),
                                                [](int done, int) { return done < 5; });
        QVERIFY(!r.ok);
        QVERIFY(r.cancelled);
        QVERIFY2(r.error.contains(QStringLiteral("cancelled after 5 of 44 files")), qPrintable(r.error));
        // The files written before the cancel stay, and are listed.
        QCOMPARE(r.files.size(), 5);
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 5);
        for (const QString& f : r.files)
            QVERIFY(QFile::exists(f));

        // Cancelled before the first file: nothing written.
        QTemporaryDir tmp2;
        const auto none = attnlab::exportAllStages(trace, tmp2.path(), options(ImageFormat::Png), [](int, int) { return false; });
        QVERIFY(none.cancelled);
        QVERIFY(none.files.isEmpty());
        QVERIFY(QDir(tmp2.path()).entryList(QDir::Files).isEmpty());
    }

    void fileNamesWidenForManyStages()
    {
        const auto one = smallTrace(1);
        QCOMPARE(attnlab::stageFileBaseName(one, 0), QStringLiteral("01_embedding"));
        QCOMPARE(attnlab::stageFileBaseName(one, 6), QStringLiteral("07_scores_head1"));
        QCOMPARE(attnlab::stageFileBaseName(one, 8), QStringLiteral("09_mask"));
        const auto many = smallTrace(16); // 6 + 8 * 16 = 134 stages: three digits, so names sort
        QCOMPARE(many.stages.size(), std::size_t(134));
        QCOMPARE(attnlab::stageFileBaseName(many, 0), QStringLiteral("001_embedding"));
        QCOMPARE(attnlab::stageFileBaseName(many, 133), QStringLiteral("134_output"));
        QCOMPARE(attnlab::stageFileBaseName(many, 4), QStringLiteral("005_q_head2"));
        QCOMPARE(attnlab::stageTitle(*many.find("weights", 15)), QStringLiteral("Softmax \u2192 weights A \u2014 head 16"));
        QCOMPARE(attnlab::stageTitle(*many.find("mask")), QStringLiteral("Mask M"));
    }

    void failuresLeaveEarlierFilesAlone_data()
    {
        QTest::addColumn<QString>("format"); // png | svg | pdf | csv
        QTest::newRow("png") << "png";
        QTest::newRow("svg") << "svg";
        QTest::newRow("pdf") << "pdf";
        QTest::newRow("csv") << "csv";
    }

    void failuresLeaveEarlierFilesAlone()
    {
        QFETCH(QString, format);
        const auto m = tokenMatrix({"狗", "咬"});
        const auto save = [&](const QString& path, int dpi = 96) {
            if (format == u"csv")
                return attnlab::exportCsv(m, path);
            return attnlab::exportMatrix(m, QStringLiteral("t"), attnlab::HeatmapView::Scale::Signed,
                                         options(*attnlab::parseImageFormat(format), dpi), path);
        };

        // A folder that does not exist.
        const QString missing = QStringLiteral("/nonexistent/dir/out.") + format;
        auto r = save(missing);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("cannot write '") + missing + QStringLiteral("'")), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("No such file or directory")), qPrintable(r.error));
        QVERIFY(r.files.isEmpty());

        QTemporaryDir dir;
        // A path under a file, and a path that is a folder.
        writeAll(dir.filePath(QStringLiteral("file")), "x");
        r = save(dir.filePath(QStringLiteral("file/out.")) + format);
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("cannot write")), qPrintable(r.error));
        QDir(dir.path()).mkdir(QStringLiteral("folder.") + format);
        r = save(dir.filePath(QStringLiteral("folder.")) + format);
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("it is a directory")), qPrintable(r.error));

        // An earlier file survives a failed write: its temporary file cannot be made (a folder
        // is in the way; permissions would not stop root).
        const QString earlier = dir.filePath(QStringLiteral("earlier.")) + format;
        writeAll(earlier, "earlier work");
        QVERIFY(QDir(dir.path()).mkdir(QFileInfo(earlier).fileName() + QStringLiteral(".part")));
        r = save(earlier);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("cannot write '") + earlier), qPrintable(r.error));
        QCOMPARE(readAll(earlier), QByteArray("earlier work"));
        QVERIFY(QDir(dir.path()).rmdir(QFileInfo(earlier).fileName() + QStringLiteral(".part")));

        // Bad options: nothing is written.
        if (format != u"csv") {
            r = save(earlier, 0);
            QVERIFY2(!r.ok && r.error.contains(QStringLiteral("dpi (0) must be between 48 and 1200")), qPrintable(r.error));
            QCOMPARE(readAll(earlier), QByteArray("earlier work"));
        }
        // And a good export replaces it.
        r = save(earlier);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(readAll(earlier) != QByteArray("earlier work"));
    }

    void allStagesErrors()
    {
        const auto trace = smallTrace(1);
        QTemporaryDir tmp;
        // The parent folder must exist (a typo does not make a tree of folders).
        auto r = attnlab::exportAllStages(trace, QStringLiteral("/nonexistent/a/b"), options(ImageFormat::Png));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("the folder '/nonexistent/a' does not exist")), qPrintable(r.error));
        QVERIFY(!QFile::exists(QStringLiteral("/nonexistent")));
        // A file is not a folder.
        writeAll(tmp.filePath(QStringLiteral("file")), "x");
        r = attnlab::exportAllStages(trace, tmp.filePath(QStringLiteral("file")), options(ImageFormat::Png));
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("it is not a folder")), qPrintable(r.error));
        // Bad options and an empty trace.
        r = attnlab::exportAllStages(trace, tmp.path(), options(ImageFormat::Png, 96, 20, 20));
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("width (20)")), qPrintable(r.error));
        r = attnlab::exportAllStages(attnlab::Trace{}, tmp.path(), options(ImageFormat::Png));
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("no stages")), qPrintable(r.error));
        // A file in the way of one stage's file: the error names it, earlier files stay.
        QVERIFY(QDir(tmp.path()).mkdir(QStringLiteral("03_input.png")));
        r = attnlab::exportAllStages(trace, tmp.path(), options(ImageFormat::Png, 96, 300, 200));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(QStringLiteral("03_input.png")), qPrintable(r.error));
        QCOMPARE(r.files.size(), 4); // 01 and 02, each .png and .csv
    }

    void nothingToExport()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.png"));
        auto r = attnlab::exportPlot(nullptr, options(ImageFormat::Png), path);
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("there is no plot")), qPrintable(r.error));
        r = attnlab::exportWidget(nullptr, options(ImageFormat::Png), path);
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("there is no view")), qPrintable(r.error));
        r = attnlab::exportMatrix(attnlab::LabeledMatrix{}, QStringLiteral("t"), attnlab::HeatmapView::Scale::Signed,
                                  options(ImageFormat::Png), path);
        QVERIFY2(!r.ok && r.error.contains(QStringLiteral("is empty")), qPrintable(r.error));
        QVERIFY(!QFile::exists(path));
    }

    // A title longer than the picture is wide (a model's stage names its layer and block) was
    // drawn whole on one line, cut at both ends by its column: the view fitted the title it had
    // before the export set it again. What is drawn is the whole title, in lines that fit.
    void exportedLongTitleFitsThePicture_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("800 wide") << 800;
        QTest::newRow("480 wide") << 480;
    }

    void exportedLongTitleFitsThePicture()
    {
        QFETCH(int, width);
        const QString title = QStringLiteral("Softmax → weights A — head 1 (decoder layer 1 · masked self-attention, block 12 of 12)");
        attnlab::HeatmapView view; // as exportMatrix draws it
        attnlab::prepareHeatmap(view, tokenMatrix({"he", "ll", "o", "wor", "ld"}), title, attnlab::HeatmapView::Scale::Probability, width,
                                600);
        QTemporaryDir dir;
        const auto r = attnlab::exportPlot(view.plot(), options(ImageFormat::Png, 96, width, 600), dir.filePath(QStringLiteral("t.png")));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCPTextElement* drawn = nullptr;
        for (QCPLayoutElement* e : view.plot()->plotLayout()->elements(false))
            drawn = drawn ? drawn : qobject_cast<QCPTextElement*>(e);
        QVERIFY(drawn);
        const QStringList lines = drawn->text().split(QLatin1Char('\n'));
        QCOMPARE(lines.join(QLatin1Char(' ')).simplified(), title); // every word, none cut off
        const QFontMetrics metrics(drawn->font());
        for (const QString& line : lines)
            QVERIFY2(metrics.horizontalAdvance(line) <= drawn->outerRect().width(),
                     qPrintable(QStringLiteral("'%1' is %2 px wide in a title %3 px wide")
                                    .arg(line)
                                    .arg(metrics.horizontalAdvance(line))
                                    .arg(drawn->outerRect().width())));
    }

    void exportPlotLeavesTheWidgetAsItWas()
    {
        attnlab::HeatmapView view;
        view.resize(500, 400);
        view.setMatrix(tokenMatrix({"The", "cat", "sat"}), QStringLiteral("Scores"), attnlab::HeatmapView::Scale::Signed);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QSize before = view.plot()->size();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("plot.png"));
        const auto r = attnlab::exportPlot(view.plot(), options(ImageFormat::Png, 192, 1000, 700), path);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(QImage(path).size(), QSize(2000, 1400)); // the export size, not the widget's
        QCOMPARE(view.plot()->size(), before);
        QCOMPARE(view.plot()->viewport().size(), before);
    }

    void exportWidgetUsesTheWidgetsSize()
    {
        QLabel label(QStringLiteral("狗咬了人 and the cat"));
        label.resize(300, 100);
        QTemporaryDir dir;

        const QString png = dir.filePath(QStringLiteral("label.png"));
        auto r = attnlab::exportWidget(&label, options(ImageFormat::Png, 192), png);
        QVERIFY2(r.ok, qPrintable(r.error));
        QImage image(png);
        QCOMPARE(image.size(), QSize(600, 200));
        QCOMPARE(image.dotsPerMeterX(), qRound(192 / 0.0254));

        const QString svg = dir.filePath(QStringLiteral("label.svg"));
        r = attnlab::exportWidget(&label, options(ImageFormat::Svg), svg);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QByteArray svgBytes = readAll(svg);
        QVERIFY(svgBytes.contains("viewBox=\"0 0 300 100\""));
        QVERIFY(svgBytes.contains(QStringLiteral("狗咬了人").toUtf8()));

        const QString pdf = dir.filePath(QStringLiteral("label.pdf"));
        r = attnlab::exportWidget(&label, options(ImageFormat::Pdf), pdf);
        QVERIFY2(r.ok, qPrintable(r.error));
        const PdfText text = pdfText(readAll(pdf));
        QVERIFY2(text.blocks.join(QString()).contains(QStringLiteral("狗咬了人")), qPrintable(text.blocks.join(u'|')));

        // A heatmap goes through exportPlot: its labels are text in the SVG.
        attnlab::HeatmapView view;
        view.resize(400, 300);
        view.setMatrix(tokenMatrix({"狗", "咬"}), QStringLiteral("W"), attnlab::HeatmapView::Scale::Signed);
        const QString heat = dir.filePath(QStringLiteral("heat.svg"));
        r = attnlab::exportWidget(&view, options(ImageFormat::Svg), heat);
        QVERIFY2(r.ok, qPrintable(r.error));
        const QByteArray heatBytes = readAll(heat);
        QVERIFY(heatBytes.contains("viewBox=\"0 0 400 300\""));
        QVERIFY(heatBytes.contains(QStringLiteral(">咬</text>").toUtf8()));
    }

private:
    static attnlab::Trace smallTrace(int heads)
    {
        attnlab::Request request;
        request.sentence = "狗咬了人";
        request.config.dModel = heads * 2;
        request.config.heads = heads;
        request.config.mask = attnlab::MaskKind::Causal;
        return attnlab::computeTrace(request);
    }
};

QTEST_MAIN(TestExporter)
#include "tst_exporter.moc"
