// The settings form scrolls up and down in its dock but is never cut off at the side: a row with
// a wider label (an attention kind's options) widens the scroll area with it.

#include "widgets/formscroll.h"

#include <QApplication>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QtTest>

using namespace attnlab;

class TestFormScroll : public QObject {
    Q_OBJECT
private slots:
    void aWiderRowWidensTheArea()
    {
        auto* form = new QWidget;
        auto* layout = new QFormLayout(form);
        layout->addRow(QStringLiteral("Seed"), new QLineEdit);
        FormScrollArea area(form);
        const int before = area.minimumWidth();
        QCOMPARE(before, form->minimumSizeHint().width() + area.verticalScrollBar()->sizeHint().width());
        layout->addRow(QStringLiteral("A much, much longer label for a new option"), new QLineEdit);
        QApplication::processEvents(); // the form's layout request reaches the area
        QVERIFY(area.minimumWidth() > before);
        QCOMPARE(area.minimumWidth(), form->minimumSizeHint().width() + area.verticalScrollBar()->sizeHint().width());
        QCOMPARE(area.horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
        QVERIFY(area.widgetResizable());
    }
};

QTEST_MAIN(TestFormScroll)
#include "tst_formscroll.moc"
