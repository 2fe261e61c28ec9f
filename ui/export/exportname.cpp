#include "export/exportname.h"

#include <QStringList>

namespace attnlab {

namespace {

bool forbiddenInFileNames(char32_t c)
{
    // Windows refuses these; "/" separates folders everywhere; control characters are trouble.
    static const QString forbidden = QStringLiteral("/\\:*?\"<>|");
    return c < 0x20 || c == 0x7F || (c < 0x80 && forbidden.contains(QChar(static_cast<char16_t>(c))));
}

QString trimmed(QString s)
{
    // A leading dot hides a file; trailing dots and spaces vanish on Windows; separators at the
    // ends look like leftovers.
    static const QString edges = QStringLiteral("._- ");
    while (!s.isEmpty() && edges.contains(s.front()))
        s.remove(0, 1);
    while (!s.isEmpty() && edges.contains(s.back()))
        s.chop(1);
    return s;
}

} // namespace

QString fileNamePart(const QString& text, int maxChars)
{
    QString out;
    int chars = 0;
    bool space = false;
    for (const char32_t c : text.toUcs4()) {
        if (chars >= maxChars)
            break;
        if (QChar::isSpace(c)) {
            space = !out.isEmpty();
            continue;
        }
        if (forbiddenInFileNames(c))
            continue;
        if (space) {
            out += QLatin1Char('_');
            ++chars;
            space = false;
            if (chars >= maxChars)
                break;
        }
        out += QString::fromUcs4(&c, 1); // whole code points: never half of a surrogate pair
        ++chars;
    }
    return trimmed(out);
}

QString suggestedExportName(const ExportNameParts& parts, const QString& suffix)
{
    QStringList pieces;
    const auto add = [&pieces](const QString& piece) {
        if (!piece.isEmpty())
            pieces << piece;
    };
    add(fileNamePart(parts.prefix));
    add(fileNamePart(parts.stage));
    if (parts.layer)
        add(QStringLiteral("layer%1").arg(*parts.layer));
    add(fileNamePart(parts.block));
    if (parts.allHeads)
        add(QStringLiteral("heads"));
    else if (parts.head)
        add(QStringLiteral("head%1").arg(*parts.head));
    add(fileNamePart(parts.text));
    const QString base = pieces.isEmpty() ? QStringLiteral("attention") : pieces.join(QLatin1Char('-'));
    return base + QLatin1Char('.') + suffix;
}

} // namespace attnlab
