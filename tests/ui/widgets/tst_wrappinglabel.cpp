// A wrapping label beside a stretching one: on one line where the row has room, wrapped where
// it has not, and never asking for more than its longest word.

#include "widgets/wrappinglabel.h"

#include <QHBoxLayout>
#include <QtTest>

using namespace attnlab;

class TestWrappingLabel : public QObject {
    Q_OBJECT
private slots:
    void oneLineWithRoomWrappedWithout()
    {
        QWidget row;
        auto* layout = new QHBoxLayout(&row);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* label = new WrappingLabel(&row);
        label->setText(QStringLiteral("decoder layer 1 \u00B7 cross-attention"));
        auto* rest = new QLabel(QStringLiteral("the formula"), &row);
        layout->addWidget(label);
        layout->addWidget(rest, 1);
        const int oneLine = label->fontMetrics().horizontalAdvance(label->text());
        const int lineHeight = label->fontMetrics().lineSpacing();
        QVERIFY(label->wordWrap());

        // Room: the whole line, one line high (a plain wrapping QLabel takes less and wraps).
        row.resize(oneLine * 3, 200);
        row.show();
        QVERIFY(QTest::qWaitForWindowExposed(&row));
        QVERIFY2(label->width() >= oneLine, qPrintable(QStringLiteral("%1 < %2").arg(label->width()).arg(oneLine)));
        QVERIFY(label->heightForWidth(label->width()) < 2 * lineHeight);

        // No room: it gives way down to its longest word and wraps.
        const int longestWord = label->fontMetrics().horizontalAdvance(QStringLiteral("cross-attention"));
        QVERIFY(label->minimumSizeHint().width() < oneLine);
        QVERIFY(label->minimumSizeHint().width() <= longestWord + 2 * label->frameWidth() + 2);
        QVERIFY(label->heightForWidth(longestWord + 4) >= 2 * lineHeight);

        // Lines of their own stay lines: the widest one is asked for.
        label->setText(QStringLiteral("decoder layer 1\nQueries Q \u00B7 head 1 of 2"));
        QCOMPARE(label->sizeHint().width(), label->fontMetrics().size(0, label->text()).width());
    }
};

QTEST_MAIN(TestWrappingLabel)
#include "tst_wrappinglabel.moc"
