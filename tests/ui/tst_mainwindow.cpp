// The studio window driven as a user would: type a sentence, switch the mask, read the heatmap.

#include "heatmapview.h"
#include "mainwindow.h"
#include "session.h"

#include <QApplication>
#include <QComboBox>
#include <QInputMethodEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace attnlab;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void showsTheDefaultAttention()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const LabeledMatrix& m = w.heatmap()->matrix();
        QCOMPARE(m.name, std::string("A_h"));
        QCOMPARE(*m.rowLabels, s.trace()->tokens);
        for (Eigen::Index i = 0; i < m.values.rows(); ++i)
            QVERIFY(std::abs(m.values.row(i).sum() - 1.0f) < 1e-5f);
    }

    void typingAChineseSentence()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        QSignalSpy changed(&s, &Session::traceChanged);
        w.sentenceEdit()->selectAll();
        // Chinese arrives through an input method: a commit string, as an IME sends it.
        QInputMethodEvent ime;
        ime.setCommitString(QStringLiteral("我爱中国"));
        QApplication::sendEvent(w.sentenceEdit(), &ime);
        QTRY_VERIFY(changed.count() >= 1);
        QTRY_COMPARE(*w.heatmap()->matrix().rowLabels, (std::vector<std::string>{"我", "爱", "中", "国"}));
    }

    void causalMaskHidesTheFuture()
    {
        Session s;
        MainWindow w(&s);
        auto* mask = w.findChild<QComboBox*>();
        QVERIFY(mask);
        mask->setCurrentIndex(mask->findData(QStringLiteral("causal")));
        const Eigen::MatrixXf& a = w.heatmap()->matrix().values;
        for (Eigen::Index i = 0; i < a.rows(); ++i) {
            for (Eigen::Index j = i + 1; j < a.cols(); ++j)
                QCOMPARE(a(i, j), 0.0f);
        }
    }

    void errorsShowInline()
    {
        Session s;
        MainWindow w(&s);
        w.sentenceEdit()->clear();
        QTRY_VERIFY(w.messageLabel()->text().contains("no tokens"));
        QVERIFY(w.heatmap()->matrix().values.size() > 0); // the last heatmap stays
        QTest::keyClicks(w.sentenceEdit(), QStringLiteral("back again"));
        QTRY_VERIFY(!w.messageLabel()->text().contains("no tokens"));
        QTRY_COMPARE(w.heatmap()->matrix().rowLabels->size(), std::size_t(2));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
