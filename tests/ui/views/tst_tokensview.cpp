// The tokens step as a strip of large token cards (issue 11 §3: a small table in an empty pane
// on first start): one card per token, in order, with its position counted from 1, its kind,
// and its vocabulary id (a trained model) or its size in UTF-8 bytes; each card holds its text.

#include "session/session.h"
#include "views/tokensview.h"

#include <QAbstractItemDelegate>
#include <QListWidget>
#include <QtTest>

using namespace attnlab;

class TestTokensView : public QObject {
    Q_OBJECT
private slots:
    void oneCardPerTokenCountedFromOne()
    {
        Session s;
        s.setSentence(QStringLiteral("狗咬了人 ok"));
        TokensView v(&s);
        v.resize(800, 400);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QStringList tokens{QStringLiteral("狗"), QStringLiteral("咬"), QStringLiteral("了"), QStringLiteral("人"), QStringLiteral("ok")};
        QCOMPARE(v.strip()->count(), tokens.size());
        for (int i = 0; i < tokens.size(); ++i) {
            QCOMPARE(v.strip()->item(i)->text(), tokens[i]);
            const QStringList lines = TokensView::cardLines(v.strip(), i);
            QCOMPARE(lines.size(), 3);
            QCOMPARE(lines[0], QStringLiteral("#%1").arg(i + 1));
            // Each CJK character is 3 bytes of UTF-8; "ok" is 2.
            QCOMPARE(lines[1], i < 4 ? QStringLiteral("CJK character") : QStringLiteral("word"));
            QCOMPARE(lines[2], i < 4 ? QStringLiteral("3 UTF-8 bytes") : QStringLiteral("2 UTF-8 bytes"));
        }
        // Every card is as wide as its large token text and its lines, and lies in the strip.
        for (int i = 0; i < v.strip()->count(); ++i) {
            const QModelIndex index = v.strip()->model()->index(i, 0);
            const QRect card = v.strip()->visualRect(index);
            QFont big = v.strip()->font();
            big.setPointSizeF(big.pointSizeF() * 2.2);
            QVERIFY2(card.width() >= QFontMetrics(big).horizontalAdvance(tokens[i]), qPrintable(tokens[i]));
            for (const QString& line : TokensView::cardLines(v.strip(), i))
                QVERIFY2(card.width() >= QFontMetrics(v.strip()->font()).horizontalAdvance(line), qPrintable(line));
            QVERIFY(v.strip()->viewport()->rect().contains(card));
        }
    }

    void aTrainedModelShowsVocabularyIds()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        s.setSentence(QStringLiteral("ab"));
        TokensView v(&s);
        QCOMPARE(v.strip()->count(), 2);
        const auto& vocab = s.model()->srcVocab;
        for (int i = 0; i < 2; ++i) {
            const QString line = TokensView::cardLines(v.strip(), i).value(2);
            QVERIFY2(line.startsWith(QStringLiteral("id ")), qPrintable(line));
            const auto id = static_cast<std::size_t>(line.mid(3).toInt());
            QVERIFY(id < vocab.size());
            QCOMPARE(QString::fromStdString(vocab[id]), v.strip()->item(i)->text());
        }
    }

    void longSentencesWrapOntoMoreLines()
    {
        Session s;
        s.setSentence(QStringLiteral("one two three four five six seven eight nine ten eleven twelve thirteen fourteen"));
        TokensView v(&s);
        v.resize(500, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QRect first = v.strip()->visualRect(v.strip()->model()->index(0, 0));
        const QRect last = v.strip()->visualRect(v.strip()->model()->index(v.strip()->count() - 1, 0));
        QVERIFY(last.top() > first.bottom()); // on a later line, not off to the right
        QVERIFY(last.right() <= v.strip()->viewport()->width());
    }
};

QTEST_MAIN(TestTokensView)
#include "tst_tokensview.moc"
