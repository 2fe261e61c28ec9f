#pragma once
// Searchable text in the PDFs Qt writes: Qt's ToUnicode maps name the wrong character for some
// glyphs (a tab for the space, a CJK radical for a common ideograph); these functions put the
// characters people type back into the maps, in place.

#include <QByteArray>
#include <QHash>

namespace attnlab {

/// Radical code point → the unified ideograph drawn with the same glyph.
using RadicalEquivalents = QHash<char16_t, char16_t>;

/// CJK radical code points (U+2E80..U+2FDF) to the unified ideographs that the application's
/// fonts draw with the same glyph (⼈ U+2F08 to 人 U+4EBA, ⻢ U+2EE2 to 马 U+9A6C). Found in the
/// fonts themselves, because Unicode's normalization covers only the Kangxi radicals, not the
/// simplified forms Chinese text is full of. Cached per list of font families; needs a
/// QApplication for the fonts.
RadicalEquivalents radicalEquivalents();

/// Rewrites the targets of the plain ToUnicode maps (glyph → character: what a viewer's search
/// and copy see) in a PDF written by QPdfWriter, and returns how many it changed.
///
/// Why: Qt writes each glyph's character as the lowest code point that uses the glyph. So the
/// space glyph says U+0009 (a tab: Qt draws tabs with it), and in CJK fonts, which share glyphs
/// between common characters and the CJK radicals, 人 U+4EBA says ⼈ U+2F08: a search for the
/// token 人 would miss it.
///
/// What: in each stream referenced by "/ToUnicode N 0 R" that has no /Filter (Qt leaves these
/// maps uncompressed), every target of a "<first> <last> [<u1> <u2> ...]" line and of a
/// one-glyph "<g> <g> <u>" line becomes
///   - U+0020 when it is a control character (U+0001..U+001F);
///   - `radicals[u]` when u is a CJK radical listed there, else u's NFKC form when that is one
///     character (the Kangxi radicals);
/// and stays as it is otherwise. "<first> <last> <u>" lines with first < last (counting up from
/// u) and compressed streams are left alone. Every replacement has the same four hex digits'
/// length, so no offset in the file (the xref table) moves.
int fixToUnicodeMaps(QByteArray& pdf, const RadicalEquivalents& radicals);

/// fixToUnicodeMaps with the radicalEquivalents() of the application's fonts (looked up only
/// when the PDF has a ToUnicode map).
int fixToUnicodeMaps(QByteArray& pdf);

} // namespace attnlab
