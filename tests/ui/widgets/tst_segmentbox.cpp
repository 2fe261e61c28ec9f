// BERT's second sentence box: shown only while a BERT folder is open; what is typed becomes
// segment B ([CLS] A [SEP] B [SEP], token type ids 0 then 1), and clearing it is one sentence again.

#include "session/session.h"
#include "widgets/segmentbox.h"

#include <QLineEdit>
#include <QtTest>

using namespace attnlab;

namespace {

QString hf(const char* name)
{
    return QStringLiteral(ATTNLAB_TEST_DATA "/hf/") + QString::fromUtf8(name);
}

int count(const std::vector<std::string>& tokens, const char* token)
{
    return static_cast<int>(std::count(tokens.begin(), tokens.end(), std::string(token)));
}

} // namespace

class TestSegmentBox : public QObject {
    Q_OBJECT

private slots:
    void typedTextIsSegmentB()
    {
        Session s;
        s.setSentence(QStringLiteral("the cat sat"));
        QWidget window; // as in the studio: a child, shown with its window
        SegmentBox box(&s, &window);
        window.show();
        QVERIFY(!box.isVisible()); // one attention block: no second sentence
        QString error;
        QVERIFY2(s.importModel(hf("bert_mlm_f32"), &error), qPrintable(error));
        QVERIFY(box.isVisible());
        QCOMPARE(count(s.fullTrace()->tokens, "[SEP]"), 1);

        box.edit()->setFocus();
        QTest::keyClicks(box.edit(), QStringLiteral("it was tired"));
        QTest::keyClick(box.edit(), Qt::Key_Return);
        QCOMPARE(s.segmentB().value_or(QString()), QStringLiteral("it was tired"));
        const Trace& t = *s.fullTrace();
        QCOMPARE(count(t.tokens, "[SEP]"), 2);
        // [CLS] the cat sat [SEP] → 0;  it was tired [SEP] → 1.
        const auto firstSep = std::find(t.tokens.begin(), t.tokens.end(), std::string("[SEP]")) - t.tokens.begin();
        for (std::size_t i = 0; i < t.segmentIds.size(); ++i)
            QCOMPARE(t.segmentIds[i], static_cast<long>(i) <= firstSep ? 0 : 1);
        QCOMPARE(t.segmentIds.back(), 1);

        box.edit()->clear();
        QTest::keyClick(box.edit(), Qt::Key_Return);
        QVERIFY(!s.segmentB());
        QCOMPARE(count(s.fullTrace()->tokens, "[SEP]"), 1);
    }

    void hiddenForGpt2AndKeptForLater()
    {
        Session s;
        s.setSentence(QStringLiteral("the cat sat"));
        s.setSegmentB(QStringLiteral("it was tired"));
        QWidget window; // as in the studio: a child, shown with its window
        SegmentBox box(&s, &window);
        window.show();
        QString error;
        QVERIFY2(s.importModel(hf("gpt2_f32"), &error), qPrintable(error));
        QVERIFY(!box.isVisible());
        QVERIFY(s.error().isEmpty()); // GPT-2 reads one text: B is not given to it
        QVERIFY2(s.importModel(hf("bert_mlm_f32"), &error), qPrintable(error));
        QVERIFY(box.isVisible());
        QCOMPARE(box.edit()->text(), QStringLiteral("it was tired"));
        QCOMPARE(count(s.fullTrace()->tokens, "[SEP]"), 2);
    }
};

QTEST_MAIN(TestSegmentBox)
#include "tst_segmentbox.moc"
