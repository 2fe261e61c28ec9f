#include "export/pdfunicode.h"

#include <QFont>
#include <QApplication>
#include <QMutex>
#include <QRawFont>
#include <QString>
#include <QStringList>

#include <algorithm>

namespace attnlab {

namespace {

/// The 4-digit hex code point at `p` (as in "<4EBA>"), or -1.
int hexCode(const QByteArray& bytes, qsizetype p)
{
    if (p < 0 || p + 4 > bytes.size())
        return -1;
    bool ok = false;
    const int v = bytes.mid(p, 4).toInt(&ok, 16);
    return ok ? v : -1;
}

/// The character people type for the ToUnicode target `u`, or 0 to keep `u`.
char16_t typedCharacter(int u, const RadicalEquivalents& radicals)
{
    if (u > 0 && u < 0x20)
        return 0x20; // control characters drawn with the space glyph
    if (u < 0x2E80 || u > 0x2FDF)
        return 0; // outside the CJK radicals blocks
    if (const char16_t to = radicals.value(static_cast<char16_t>(u), 0))
        return to;
    const QString n = QString(QChar(static_cast<char16_t>(u))).normalized(QString::NormalizationForm_KC);
    return n.size() == 1 ? n.front().unicode() : 0;
}

/// Rewrites the "<XXXX>" target whose first hex digit is at `p`; true when it changed.
bool fixTarget(QByteArray& pdf, qsizetype p, const RadicalEquivalents& radicals)
{
    const int u = hexCode(pdf, p);
    const char16_t to = typedCharacter(u, radicals);
    if (to == 0 || to == u)
        return false;
    pdf.replace(p, 4, QByteArray::number(to, 16).toUpper().rightJustified(4, '0'));
    return true;
}

/// Fixes the lines of one CMap stream, from `begin` to `end` (exclusive).
int fixCMap(QByteArray& pdf, qsizetype begin, qsizetype end, const RadicalEquivalents& radicals)
{
    // Lines "<first> <last> [<u1> <u2> ...]" list one character per glyph; "<g> <g> <u>" maps
    // one glyph. "<first> <last> <u>" with first < last counts up from u: left alone.
    int changed = 0;
    qsizetype line = begin;
    while (line < end) {
        qsizetype eol = pdf.indexOf('\n', line);
        if (eol < 0 || eol > end)
            eol = end;
        if (eol - line >= 15 && pdf[line] == '<' && pdf[line + 5] == '>' && pdf[line + 7] == '<' && pdf[line + 12] == '>') {
            if (pdf[line + 14] == '[') {
                for (qsizetype p = line + 15; p + 5 < eol; ++p) {
                    if (pdf[p] == '<' && pdf[p + 5] == '>')
                        changed += fixTarget(pdf, p + 1, radicals) ? 1 : 0;
                }
            } else if (pdf[line + 14] == '<' && pdf.mid(line + 1, 4) == pdf.mid(line + 8, 4)) {
                changed += fixTarget(pdf, line + 15, radicals) ? 1 : 0;
            }
        }
        line = eol + 1;
    }
    return changed;
}

} // namespace

RadicalEquivalents radicalEquivalents()
{
    static QMutex mutex;
    static QHash<QString, RadicalEquivalents> cache; // by font families
    const QStringList families = QApplication::font().families();
    const QMutexLocker lock(&mutex);
    if (const auto it = cache.constFind(families.join(QLatin1Char(','))); it != cache.constEnd())
        return *it;

    QString radicals;
    for (char16_t u = 0x2E80; u <= 0x2FDF; ++u)
        radicals += QChar(u);
    QString ideographs; // CJK Extension A and the unified ideographs
    for (char16_t u = 0x3400; u <= 0x4DBF; ++u)
        ideographs += QChar(u);
    for (char16_t u = 0x4E00; u <= 0x9FFF; ++u)
        ideographs += QChar(u);
    RadicalEquivalents table;
    for (const QString& family : families) {
        const QRawFont raw = QRawFont::fromFont(QFont(family));
        if (!raw.isValid())
            continue;
        const QList<quint32> radicalGlyphs = raw.glyphIndexesForString(radicals);
        if (std::all_of(radicalGlyphs.begin(), radicalGlyphs.end(), [](quint32 g) { return g == 0; }))
            continue; // not a CJK font
        const QList<quint32> ideographGlyphs = raw.glyphIndexesForString(ideographs);
        QHash<quint32, char16_t> byGlyph;
        for (qsizetype i = 0; i < ideographGlyphs.size() && i < ideographs.size(); ++i) {
            if (ideographGlyphs[i] != 0 && !byGlyph.contains(ideographGlyphs[i]))
                byGlyph.insert(ideographGlyphs[i], ideographs[i].unicode());
        }
        for (qsizetype i = 0; i < radicalGlyphs.size() && i < radicals.size(); ++i) {
            const auto found = byGlyph.constFind(radicalGlyphs[i]);
            if (radicalGlyphs[i] != 0 && found != byGlyph.constEnd() && !table.contains(radicals[i].unicode()))
                table.insert(radicals[i].unicode(), *found);
        }
    }
    cache.insert(families.join(QLatin1Char(',')), table);
    return table;
}

int fixToUnicodeMaps(QByteArray& pdf, const RadicalEquivalents& radicals)
{
    int changed = 0;
    qsizetype at = 0;
    while ((at = pdf.indexOf("/ToUnicode ", at)) >= 0) {
        at += 11;
        const qsizetype numberEnd = pdf.indexOf(' ', at);
        if (numberEnd < 0)
            break;
        // The referenced object "N 0 obj" and its stream.
        const QByteArray header = "\n" + pdf.mid(at, numberEnd - at) + " 0 obj\n";
        const qsizetype obj = pdf.indexOf(header);
        const qsizetype stream = obj < 0 ? -1 : pdf.indexOf("stream\n", obj);
        const qsizetype end = stream < 0 ? -1 : pdf.indexOf("endstream", stream);
        if (end < 0 || pdf.mid(obj, stream - obj).contains("/Filter"))
            continue; // not the plain map Qt writes: leave it as it is
        changed += fixCMap(pdf, stream + 7, end, radicals);
    }
    return changed;
}

int fixToUnicodeMaps(QByteArray& pdf)
{
    if (!pdf.contains("/ToUnicode "))
        return 0;
    return fixToUnicodeMaps(pdf, radicalEquivalents());
}

} // namespace attnlab
