// The file names the studio suggests for exports: made from the stage, its place, the head and
// the sentence; characters file systems refuse are dropped, Chinese stays, the length is capped.
// The expected names are written out by hand.

#include "export/exportname.h"

#include <QtTest>

using namespace attnlab;

class TestExportName : public QObject {
    Q_OBJECT
private slots:
    void names_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<int>("layer"); // 0: none
        QTest::addColumn<QString>("block");
        QTest::addColumn<int>("head"); // 0: none
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("the issue's example") << "weights" << 0 << "" << 1 << QStringLiteral("狗咬了人")
                                             << QStringLiteral("weights-head1-狗咬了人.png");
        QTest::newRow("spaces become one underscore") << "scores" << 0 << "" << 2 << "the  dog\tbites" << "scores-head2-the_dog_bites.png";
        QTest::newRow("no head for a stage of all heads") << "concat" << 0 << "" << 0 << "a b" << "concat-a_b.png";
        QTest::newRow("a Transformer's place") << "weights" << 2 << "cross" << 3 << "je vais" << "weights-layer2-cross-head3-je_vais.png";
        QTest::newRow("characters Windows refuses") << "weights" << 0 << "" << 1 << "<sos> a/b\\c:d*e?f\"g|h"
                                                    << "weights-head1-sos_abcdefgh.png";
        QTest::newRow("no hidden file, no trailing dot") << "q" << 0 << "" << 1 << "...hi..." << "q-head1-hi.png";
        QTest::newRow("control characters") << "k" << 0 << "" << 1 << QStringLiteral("a\u0001b\u007Fc") << "k-head1-abc.png";
        QTest::newRow("an empty sentence") << "embedding" << 0 << "" << 0 << "   " << "embedding.png";
        QTest::newRow("nothing at all") << "" << 0 << "" << 0 << "" << "attention.png";
        QTest::newRow("other scripts stay") << "v" << 0 << "" << 1 << QStringLiteral("Ça va — привет")
                                            << QStringLiteral("v-head1-Ça_va_—_привет.png");
    }

    void names()
    {
        QFETCH(QString, stage);
        QFETCH(int, layer);
        QFETCH(QString, block);
        QFETCH(int, head);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        ExportNameParts p;
        p.stage = stage;
        if (layer > 0)
            p.layer = layer;
        p.block = block;
        if (head > 0)
            p.head = head;
        p.text = text;
        QCOMPARE(suggestedExportName(p, QStringLiteral("png")), expected);
    }

    void allHeadsAndComparison()
    {
        ExportNameParts p;
        p.prefix = QStringLiteral("compare");
        p.stage = QStringLiteral("weights");
        p.head = 2;
        p.allHeads = true;
        p.text = QStringLiteral("dog bites man");
        QCOMPARE(suggestedExportName(p, QStringLiteral("svg")), QStringLiteral("compare-weights-heads-dog_bites_man.svg"));
    }

    void longSentencesAreCut()
    {
        // 60 Chinese characters: 40 stay (120 bytes of UTF-8, far below the 255 allowed).
        QString chinese;
        for (int i = 0; i < 60; ++i)
            chinese += QChar(0x4E00 + i);
        const QString part = fileNamePart(chinese);
        QCOMPARE(part.size(), kMaxNameTextChars);
        QCOMPARE(part, chinese.left(40));
        ExportNameParts p;
        p.stage = QStringLiteral("weights");
        p.head = 1;
        p.text = chinese;
        QVERIFY(suggestedExportName(p, QStringLiteral("png")).toUtf8().size() < 255);
        // A cut never leaves half of a character outside the BMP (two UTF-16 units).
        const QString emoji = QString(39, QLatin1Char('a')) + QString::fromUcs4(U"\U0001F600\U0001F600");
        const QString cut = fileNamePart(emoji);
        QCOMPARE(cut.toUcs4().size(), 40);
        QVERIFY(cut.endsWith(QString::fromUcs4(U"\U0001F600")));
        // Nor a separator at the end.
        QCOMPARE(fileNamePart(QString(39, QLatin1Char('a')) + QStringLiteral(" b")), QString(39, QLatin1Char('a')));
    }
};

QTEST_MAIN(TestExportName)
#include "tst_exportname.moc"
