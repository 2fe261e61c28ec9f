// The ToUnicode-map repair for Qt's PDFs, on small hand-made PDFs: which targets change (control
// characters to a space, CJK radicals to the ideographs that share their glyphs), which lines and
// streams are left alone, and that no byte moves. Then the radical table of the Chinese font.

#include "export/pdfunicode.h"
#include "shell/languages.h"

#include <QApplication>
#include <QRawFont>
#include <QtTest>

using attnlab::LanguageManager;
using attnlab::RadicalEquivalents;

namespace {

/// A minimal PDF as Qt writes it: a font whose /ToUnicode names object 2, a CMap stream holding
/// `mapLines` between beginbfrange and endbfrange, with `streamDict` as the stream's dictionary.
QByteArray pdfWithMap(const QByteArray& mapLines, const QByteArray& streamDict = "<< /Length 3 0 R >>")
{
    return "%PDF-1.4\n"
           "1 0 obj\n"
           "<< /Type /Font /Subtype /Type0 /BaseFont /NotoSansCJKsc-Regular /ToUnicode 2 0 R >>\n"
           "endobj\n"
           "2 0 obj\n"
        + streamDict
        + "\n"
          "stream\n"
          "/CIDInit /ProcSet findresource begin\n"
          "begincmap\n"
          "1 begincodespacerange\n"
          "<0000> <FFFF>\n"
          "endcodespacerange\n"
          "3 beginbfrange\n"
        + mapLines
        + "endbfrange\n"
          "endcmap\n"
          "endstream\n"
          "endobj\n"
          "%%EOF\n";
}

} // namespace

class TestPdfUnicode : public QObject {
    Q_OBJECT
private slots:
    void fixesTheTargetsPeopleSearchFor_data()
    {
        QTest::addColumn<QByteArray>("map");
        QTest::addColumn<QByteArray>("expected");
        QTest::addColumn<int>("changed");
        // ⻢ U+2EE2 is a simplified radical: only the font's table knows it is drawn as 马 U+9A6C.
        QTest::newRow("glyph list") << QByteArray("<0001> <0004> [<0009> <2F08> <0041> <2EE2>]\n")
                                    << QByteArray("<0001> <0004> [<0020> <4EBA> <0041> <9A6C>]\n") << 3;
        // ⼀ U+2F00 is a Kangxi radical: NFKC gives 一 U+4E00 without the table.
        QTest::newRow("one glyph") << QByteArray("<0005> <0005> <2F00>\n") << QByteArray("<0005> <0005> <4E00>\n") << 1;
        QTest::newRow("tab and newline") << QByteArray("<0003> <0003> <0009>\n<0004> <0004> <000A>\n")
                                         << QByteArray("<0003> <0003> <0020>\n<0004> <0004> <0020>\n") << 2;
        // A range counting up from its first character is not one glyph's character.
        QTest::newRow("counting range") << QByteArray("<0006> <0007> <2F08>\n") << QByteArray("<0006> <0007> <2F08>\n") << 0;
        // ⺀ U+2E80 is in neither the table nor NFKC; U+0000 is not a control character drawn as a space.
        QTest::newRow("nothing known") << QByteArray("<0008> <0009> [<2E80> <0000>]\n") << QByteArray("<0008> <0009> [<2E80> <0000>]\n") << 0;
        QTest::newRow("ordinary text") << QByteArray("<000A> <000C> [<0041> <4EBA> <0020>]\n")
                                       << QByteArray("<000A> <000C> [<0041> <4EBA> <0020>]\n") << 0;
        QTest::newRow("every kind") << QByteArray("<0001> <0002> [<0009> <2F08>]\n<0005> <0005> <2EE2>\n<0006> <0007> <0009>\n")
                                    << QByteArray("<0001> <0002> [<0020> <4EBA>]\n<0005> <0005> <9A6C>\n<0006> <0007> <0009>\n") << 3;
    }

    void fixesTheTargetsPeopleSearchFor()
    {
        QFETCH(QByteArray, map);
        QFETCH(QByteArray, expected);
        QFETCH(int, changed);
        const RadicalEquivalents radicals{{u'\u2EE2', u'\u9A6C'}, {u'\u2F08', u'\u4EBA'}};
        QByteArray pdf = pdfWithMap(map);
        const qsizetype size = pdf.size();
        QCOMPARE(attnlab::fixToUnicodeMaps(pdf, radicals), changed);
        QCOMPARE(pdf.size(), size); // no offset in the file moves
        QCOMPARE(pdf, pdfWithMap(expected));
    }

    void leavesOtherStreamsAlone_data()
    {
        QTest::addColumn<QByteArray>("pdf");
        const QByteArray map = "<0001> <0002> [<0009> <2F08>]\n";
        QTest::newRow("compressed map") << pdfWithMap(map, "<< /Length 3 0 R /Filter /FlateDecode >>");
        QByteArray missing = pdfWithMap(map);
        missing.replace("/ToUnicode 2 0 R", "/ToUnicode 7 0 R");
        QTest::newRow("missing object") << missing;
        QByteArray noMap = pdfWithMap(map);
        noMap.replace("/ToUnicode 2 0 R", "/Encoding 2 0 R  ");
        QTest::newRow("no ToUnicode") << noMap;
        QTest::newRow("cut short") << QByteArray("%PDF-1.4\n1 0 obj\n<< /ToUnicode 2");
        QTest::newRow("no stream") << QByteArray("%PDF-1.4\n1 0 obj\n<< /ToUnicode 2 0 R >>\nendobj\n2 0 obj\n<< >>\nendobj\n");
    }

    void leavesOtherStreamsAlone()
    {
        QFETCH(QByteArray, pdf);
        QByteArray fixed = pdf;
        QCOMPARE(attnlab::fixToUnicodeMaps(fixed, {{u'\u2F08', u'\u4EBA'}}), 0);
        QCOMPARE(fixed, pdf);
    }

    void radicalsOfTheChineseFont()
    {
        LanguageManager::useSimplifiedChineseGlyphs(); // as the applications do
        QVERIFY2(QRawFont::fromFont(QFont(QStringLiteral("Noto Sans CJK SC"))).supportsCharacter(U'人'),
                 "no Chinese font: install fonts-noto-cjk (scripts/setup.sh)");
        const RadicalEquivalents table = attnlab::radicalEquivalents();
        QCOMPARE(table.value(u'\u2F08'), u'\u4EBA'); // ⼈ is drawn as 人
        QCOMPARE(table.value(u'\u2EE2'), u'\u9A6C'); // ⻢ is drawn as 马
        for (auto it = table.cbegin(); it != table.cend(); ++it) {
            QVERIFY(it.key() >= 0x2E80 && it.key() <= 0x2FDF);
            QVERIFY((it.value() >= 0x3400 && it.value() <= 0x4DBF) || (it.value() >= 0x4E00 && it.value() <= 0x9FFF));
        }

        // The one-argument form uses this table: ⻢ becomes 马 in a map.
        QByteArray pdf = pdfWithMap("<0001> <0001> <2EE2>\n");
        QCOMPARE(attnlab::fixToUnicodeMaps(pdf), 1);
        QCOMPARE(pdf, pdfWithMap("<0001> <0001> <9A6C>\n"));
    }
};

QTEST_MAIN(TestPdfUnicode)
#include "tst_pdfunicode.moc"
