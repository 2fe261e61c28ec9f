// The studio window driven as a user would: type a sentence (also in Chinese), step through
// every stage with the keyboard, switch masks and watch the masked cells change, change the
// settings, save and reopen a session, and survive a corrupt one.

#include "lessons/lessonplayer.h"
#include "views/cellinspector.h"
#include "widgets/formulabanner.h"
#include "views/heatmapview.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "widgets/settingspanel.h"
#include "widgets/stagenavigator.h"
#include "session/stages.h"
#include "views/stageview.h"

#include <QApplication>
#include <QComboBox>
#include <QInputMethodEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QDockWidget>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QImage>
#include <QDir>
#include <QtTest>

#include <cmath>

#include <qcustomplot.h>

using namespace attnlab;

namespace {

void press(QWidget* w, Qt::Key key)
{
    QTest::keyClick(w, key);
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Keep the tests away from the user's real settings and last session.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
    }

    void showsTheDefaultAttention()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        const LabeledMatrix& m = w.stageView()->heatmap()->matrix();
        QCOMPARE(m.name, std::string("A_h"));
        QCOMPARE(*m.rowLabels, s.trace()->tokens);
        for (Eigen::Index i = 0; i < m.values.rows(); ++i)
            QVERIFY(std::abs(m.values.row(i).sum() - 1.0f) < 1e-5f);
        QVERIFY(w.banner()->formulaText().contains(QStringLiteral("softmax")));
    }

    void typingASentence()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        w.sentenceEdit()->setFocus();
        w.sentenceEdit()->selectAll();
        QTest::keyClicks(w.sentenceEdit(), QStringLiteral("the cat sat"));
        QTRY_COMPARE(s.trace()->tokens, (std::vector<std::string>{"the", "cat", "sat"}));
        QTRY_COMPARE(w.stageView()->heatmap()->matrix().rowLabels->size(), std::size_t(3));
        // Arrow keys inside the text box edit the text; they do not change the stage.
        const int step = s.step();
        press(w.sentenceEdit(), Qt::Key_Left);
        QCOMPARE(s.step(), step);
    }

    void typingAChineseSentence()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        w.sentenceEdit()->setFocus();
        w.sentenceEdit()->selectAll();
        // Chinese arrives through an input method: a commit string, as an IME sends it.
        QInputMethodEvent ime;
        ime.setCommitString(QStringLiteral("狗咬了人"));
        QApplication::sendEvent(w.sentenceEdit(), &ime);
        QTRY_COMPARE(s.trace()->tokens, (std::vector<std::string>{"狗", "咬", "了", "人"}));
        QTRY_COMPARE(*w.stageView()->heatmap()->matrix().colLabels, (std::vector<std::string>{"狗", "咬", "了", "人"}));
    }

    void stepThroughEveryStageWithTheKeyboard()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.stageView()->setFocus();
        press(&w, Qt::Key_Home);
        QCOMPARE(s.step(), 0);
        QCOMPARE(s.stepId(), QStringLiteral("tokens"));
        QCOMPARE(w.navigator()->list()->currentRow(), 0);
        const int count = static_cast<int>(steps().size());
        for (int i = 1; i < count; ++i) {
            // Right arrow, Space and the clicker's PageDown all advance.
            const Qt::Key key = i % 3 == 0 ? Qt::Key_Right : i % 3 == 1 ? Qt::Key_Space : Qt::Key_PageDown;
            press(&w, key);
            QCOMPARE(s.step(), i);
            QCOMPARE(w.navigator()->list()->currentRow(), i);
            const QString id = steps()[static_cast<std::size_t>(i)].id;
            QVERIFY2(!w.banner()->formulaText().isEmpty(), qPrintable(id));
            QVERIFY2(!w.banner()->shapesText().isEmpty(), qPrintable(id));
            if (w.currentStageWidget() == w.stageView()) {
                const Stage* st = w.stageView()->stage();
                QVERIFY2(st && QString::fromStdString(st->id) == id, qPrintable(id));
                QCOMPARE(w.stageView()->heatmap()->matrix().values, st->main().values);
            }
        }
        press(&w, Qt::Key_Right); // at the end: stays
        QCOMPARE(s.step(), count - 1);
        press(&w, Qt::Key_PageUp);
        QCOMPARE(s.step(), count - 2);
        press(&w, Qt::Key_Left);
        QCOMPARE(s.step(), count - 3);
        press(&w, Qt::Key_End);
        QCOMPARE(s.step(), count - 1);
    }

    void headSelectorFollowsPerHeadStages()
    {
        Session s;
        MainWindow w(&s);
        s.setStepId(QStringLiteral("scores"));
        w.navigator()->headBox()->setValue(3);
        QCOMPARE(s.head(), 2);
        QCOMPARE(w.stageView()->heatmap()->matrix().values, s.trace()->find("scores", 2)->main().values);
        QVERIFY(w.banner()->shapesText().contains(QStringLiteral("8")));
        s.setStepId(QStringLiteral("concat"));
        QVERIFY(!w.navigator()->headBox()->isEnabled());
    }

    void causalMaskMakesTheUpperTriangleMinusInfinity()
    {
        Session s;
        MainWindow w(&s);
        s.setStepId(QStringLiteral("masked_scores"));
        QComboBox* mask = w.settingsPanel()->maskBox();
        mask->setCurrentIndex(mask->findData(static_cast<int>(MaskKind::Causal)));
        QVERIFY(s.config().mask == MaskKind::Causal);
        const Eigen::MatrixXf& m = w.stageView()->heatmap()->matrix().values;
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            for (Eigen::Index j = 0; j < m.cols(); ++j)
                QCOMPARE(std::isinf(m(i, j)) && m(i, j) < 0, j > i);
        }
        s.setStepId(QStringLiteral("weights"));
        const Eigen::MatrixXf& a = w.stageView()->heatmap()->matrix().values;
        for (Eigen::Index i = 0; i < a.rows(); ++i) {
            for (Eigen::Index j = i + 1; j < a.cols(); ++j)
                QCOMPARE(a(i, j), 0.0f);
        }
        // Back to none: nothing masked.
        mask->setCurrentIndex(mask->findData(static_cast<int>(MaskKind::None)));
        QVERIFY(w.stageView()->heatmap()->matrix().values.minCoeff() > 0.0f);
    }

    void clickingAScoreExplainsIt()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        s.setStepId(QStringLiteral("scores"));
        s.setHead(1);
        QCustomPlot* plot = w.stageView()->heatmap()->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        // The centre of cell (row 2, column 4), as the user clicks it.
        const QPoint at(qRound(plot->xAxis->coordToPixel(4)), qRound(plot->yAxis->coordToPixel(2)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(s.selectedRow(), 2);
        QCOMPARE(s.selectedColumn(), 4);
        QVERIFY(w.inspector()->mode() == CellInspector::Mode::Score);
        // q_2 · k_4 by hand, from the trace's Q and K of head 1.
        const Eigen::MatrixXf& q = s.trace()->find("q", 1)->main().values;
        const Eigen::MatrixXf& k = s.trace()->find("k", 1)->main().values;
        double dot = 0;
        for (Eigen::Index d = 0; d < q.cols(); ++d)
            dot += static_cast<double>(q(2, d)) * k(4, d);
        QVERIFY(std::abs(w.inspector()->shownValue(QStringLiteral("recomputed")) - dot) < 1e-4);
        QVERIFY(std::abs(w.inspector()->shownValue(QStringLiteral("scaled")) - dot / std::sqrt(8.0)) < 1e-4);
        QVERIFY(w.inspector()->headingText().contains(QString::fromStdString(s.trace()->tokens[4])));
    }

    void headsOfferOnlyDivisors()
    {
        Session s;
        MainWindow w(&s);
        w.settingsPanel()->dModelBox()->setValue(12);
        QStringList offered;
        for (int i = 0; i < w.settingsPanel()->headsBox()->count(); ++i)
            offered << w.settingsPanel()->headsBox()->itemText(i);
        QCOMPARE(offered, (QStringList{"1", "2", "3", "4", "6", "12"}));
        QCOMPARE(s.config().dModel, 12);
        QCOMPARE(12 % s.config().heads, 0);
        QVERIFY(s.error().isEmpty());
    }

    void errorsShowInlineAndKeepTheLastResult()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        w.sentenceEdit()->setFocus();
        w.sentenceEdit()->selectAll();
        QTest::keyClick(w.sentenceEdit(), Qt::Key_Delete);
        QTRY_VERIFY(w.messageLabel()->text().contains("no tokens"));
        QVERIFY(w.stageView()->heatmap()->matrix().values.size() > 0); // the last heatmap stays
        QTest::keyClicks(w.sentenceEdit(), QStringLiteral("back again"));
        QTRY_COMPARE(w.stageView()->heatmap()->matrix().rowLabels->size(), std::size_t(2));
        QTRY_VERIFY(!w.messageLabel()->text().contains("no tokens"));
    }

    void saveAndReopenASession()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("lesson.attnlab.json");
        {
            Session s;
            MainWindow w(&s);
            s.setSentence(QStringLiteral("<sos> Je vais bien"));
            Config c = s.config();
            c.dModel = 16;
            c.heads = 2;
            c.mask = MaskKind::Causal;
            c.seed = 7;
            s.setConfig(c);
            s.setStepId(QStringLiteral("scaled"));
            s.setHead(1);
            QVERIFY(w.saveSession(path));
        }
        Session s;
        MainWindow w(&s);
        QVERIFY(w.openSession(path));
        QCOMPARE(w.sentenceEdit()->text(), QStringLiteral("<sos> Je vais bien"));
        QCOMPARE(s.config().dModel, 16);
        QVERIFY(s.config().mask == MaskKind::Causal);
        QCOMPARE(s.config().seed, std::uint64_t(7));
        QCOMPARE(s.stepId(), QStringLiteral("scaled"));
        QCOMPARE(s.head(), 1);
        QCOMPARE(w.settingsPanel()->maskBox()->currentData().toInt(), static_cast<int>(MaskKind::Causal));
        QVERIFY(w.recentFiles().contains(QFileInfo(path).absoluteFilePath()));
    }

    void corruptSessionKeepsWhatWeHad_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{ this is not json") << "parse error";
        QTest::newRow("truncated") << QByteArray("{\"format\": \"attention-lab.session\", \"version\": 1, \"sentence\": \"ab") << "parse error";
        QTest::newRow("other format") << QByteArray(R"({"format": "something.else"})") << "not an Attention Lab session";
        QTest::newRow("future version") << QByteArray(R"({"format": "attention-lab.session", "version": 99})") << "unsupported version";
        QTest::newRow("bad config") << QByteArray(R"({"format": "attention-lab.session", "version": 1, "sentence": "a b", "config": {"d_model": 10, "heads": 3}, "weights": {"source": "seeded"}})")
                                    << "d_model (10) must be a multiple of heads (3)";
        QTest::newRow("mask does not fit") << QByteArray(R"({"format": "attention-lab.session", "version": 1, "sentence": "a b", "config": {"mask": "custom"}, "weights": {"source": "seeded"}, "custom_mask": [[0,1,0],[0,0,0],[0,0,0]]})")
                                           << "the custom mask is 3 x 3 but the sentence has 2 tokens";
        QTest::newRow("bad weights") << QByteArray(R"({"format": "attention-lab.session", "version": 1, "sentence": "a b", "config": {}, "weights": {"source": "file", "embedded_safetensors_base64": "AAAA"}})")
                                     << "safetensors";
    }

    void corruptSessionKeepsWhatWeHad()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QFile f(dir.filePath("bad.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        Session s;
        MainWindow w(&s);
        s.setSentence(QStringLiteral("my own work"));
        const auto before = s.trace();
        QVERIFY(!w.openSession(f.fileName()));
        QVERIFY2(w.messageLabel()->text().contains(message), qPrintable(w.messageLabel()->text()));
        QCOMPARE(s.trace(), before);
        QCOMPARE(s.sentence(), QStringLiteral("my own work"));
        QCOMPARE(w.sentenceEdit()->text(), QStringLiteral("my own work"));
        QVERIFY(!w.openSession(dir.filePath("missing.json")));
        QVERIFY(w.messageLabel()->text().contains("cannot open"));
    }

    void weightsAndMaskFiles()
    {
        Session s;
        MainWindow w(&s);
        QVERIFY(w.importWeights(ATTNLAB_TEST_DATA "/mha/causal_je.safetensors"));
        QCOMPARE(s.config().dModel, 16);
        QVERIFY(!w.settingsPanel()->dModelBox()->isEnabled());
        QVERIFY(!w.importWeights(ATTNLAB_TEST_DATA "/mha/cases.json"));
        QVERIFY(w.messageLabel()->text().contains("Could not open the weights"));
        QCOMPARE(s.config().dModel, 16); // unchanged

        QTemporaryDir dir;
        QVERIFY(!w.saveWeights("/nonexistent/dir/w.safetensors"));
        QVERIFY(w.messageLabel()->text().contains("Could not save"));
        QVERIFY(w.saveWeights(dir.filePath("w.safetensors")));

        s.setSentence(QStringLiteral("Masks hide some keys."));
        QVERIFY(w.openMask(ATTNLAB_TEST_DATA "/mha/custom.mask"));
        QVERIFY(s.config().mask == MaskKind::Custom);
        QVERIFY(!w.openMask(ATTNLAB_TEST_DATA "/mha/cases.json"));
    }

    void exportEveryFormatFromTheWindow()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        s.setSentence(QStringLiteral("狗咬了人"));
        s.setStepId(QStringLiteral("weights"));
        QTemporaryDir dir;
        QVERIFY(w.exportCurrentView(dir.filePath("a.png"), 300));
        const QImage png(dir.filePath("a.png"));
        QVERIFY(!png.isNull());
        QCOMPARE(qRound(png.dotsPerMeterX() * 0.0254), 300);
        QVERIFY(w.exportCurrentView(dir.filePath("a.svg")));
        QFile svg(dir.filePath("a.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(svg.readAll()).contains(QStringLiteral("咬")));
        QVERIFY(w.exportCurrentView(dir.filePath("a.pdf")));
        QVERIFY(QFileInfo(dir.filePath("a.pdf")).size() > 1000);
        QVERIFY(w.exportCurrentCsv(dir.filePath("a.csv")));
        QVERIFY(w.exportAllStagesTo(dir.filePath("all"), QStringLiteral("png")));
        QVERIFY(QDir(dir.filePath("all")).entryList({"*.png"}).size() == static_cast<int>(s.trace()->stages.size()));
        // A bad path: a clear message, and the earlier file is untouched.
        QVERIFY(!w.exportCurrentView(QStringLiteral("/nonexistent/dir/a.png")));
        QVERIFY(w.messageLabel()->text().contains(QStringLiteral("not exported")));
        QVERIFY(!w.exportCurrentView(dir.filePath("a.gif")));
        QVERIFY(!png.isNull());
        // Other views export too (the positional-encoding plots).
        s.setStepId(QStringLiteral("positional_encoding"));
        QVERIFY(w.exportCurrentView(dir.filePath("pe.png")));
    }

    void exportAllOfATransformer()
    {
        // Every stage of every layer, not only the block on screen.
        Session s;
        Config c = s.config();
        c.model = ModelKind::Seeded;
        c.dModel = 8;
        c.heads = 2;
        c.setLayers(1);
        s.setConfig(c);
        s.setSentence(QStringLiteral("a b"));
        MainWindow w(&s);
        QTemporaryDir dir;
        QVERIFY(w.exportAllStagesTo(dir.filePath("all"), QStringLiteral("png")));
        const QStringList files = QDir(dir.filePath("all")).entryList({"*.png"});
        QCOMPARE(files.size(), static_cast<int>(s.fullTrace()->stages.size()));
        QCOMPARE(files.filter(QStringLiteral("weights_cross_layer1_head2")).size(), 1);
        QCOMPARE(files.filter(QStringLiteral("ffn_hidden_decoder_self_layer1")).size(), 1);
    }

    // Issue 11 §3: the first start opened on stage 12 of 15 with no hint.
    void aFreshStartBeginsAtTheFirstStageWithAHint()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        w.startAtFirstStage();
        QCOMPARE(s.step(), 0);
        QCOMPARE(s.stepId(), QStringLiteral("tokens"));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("\u2192")), qPrintable(w.statusBar()->currentMessage()));
        QTest::keyClick(w.windowHandle(), Qt::Key_Right);
        QCOMPARE(s.step(), 1);
        QVERIFY(w.statusBar()->currentMessage().isEmpty()); // said once, gone after the first step
    }

    void presenterMode()
    {
        Session s;
        MainWindow w(&s);
        w.show();
        const qreal normal = w.font().pointSizeF();
        const qreal formula = w.banner()->formulaLabel()->font().pointSizeF();
        w.setPresenterMode(true);
        QVERIFY(w.isPresenterMode());
        QVERIFY(w.banner()->formulaLabel()->font().pointSizeF() > formula);
        // A clean projection (issue 11 §3): no menus, tabs, sentence row, status bar or panels;
        // the view, the counter, and the lesson's text in a large caption under the view.
        QCOMPARE(w.menuBar()->height(), 0);
        QVERIFY(!w.sentenceEdit()->isVisible());
        QVERIFY(!w.statusBar()->isVisible());
        QVERIFY(!w.tabs()->tabBar()->isVisible());
        for (auto* dock : w.findChildren<QDockWidget*>())
            QVERIFY2(!dock->isVisible(), qPrintable(dock->windowTitle()));
        QVERIFY(w.visibleView()->isVisible());
        auto* caption = w.findChild<QTextBrowser*>(QStringLiteral("PresenterCaption"));
        QVERIFY(caption && !caption->isVisible()); // no lesson: the banner says it all
        QVERIFY(w.lessonPlayer()->openLessonAt(QStringLiteral(":/lessons/en/03-scaled-dot-product.md"), 1));
        QVERIFY(caption->isVisible());
        QVERIFY(caption->toPlainText().contains(QString::fromStdString(w.lessonPlayer()->lesson()->steps[1].title)));
        QVERIFY(caption->height() <= w.height() / 3 + 1);
        w.lessonPlayer()->stop();
        QVERIFY(!caption->isVisible());
        QVERIFY(w.font().pointSizeF() >= 16);
        QVERIFY(w.font().pointSizeF() > normal);
        QVERIFY(w.counterLabel()->isVisible());
        QVERIFY2(w.counterLabel()->text().contains(QStringLiteral("/ 15")), qPrintable(w.counterLabel()->text()));
        w.setPresenterMode(false);
        QVERIFY(!w.counterLabel()->isVisible());
        QCOMPARE(w.font().pointSizeF(), normal);
        QVERIFY(w.menuBar()->height() > 0);
        QVERIFY(w.sentenceEdit()->isVisible());
        QVERIFY(w.tabs()->tabBar()->isVisible());
        // The banner's type is the window's again (issue 11 §2: it kept presenter size and wrapped).
        QCOMPARE(w.banner()->formulaLabel()->font().pointSizeF(), formula);
        s.nextStep();
        QCOMPARE(w.banner()->formulaLabel()->font().pointSizeF(), formula);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
