// The studio's centre: each kind of view has its page, the page and the tab follow the
// Session's step and view, and the tab leads the view back.

#include "session/session.h"
#include "session/stages.h"
#include "shell/viewstack.h"
#include "views/multiheadview.h"
#include "views/stageview.h"

#include <QtTest>

using namespace attnlab;

Q_DECLARE_METATYPE(attnlab::ViewKind)

class TestViewStack : public QObject {
    Q_OBJECT
private slots:
    void everyKindHasItsPage_data()
    {
        QTest::addColumn<ViewKind>("kind");
        QTest::addColumn<QString>("widget"); // the page's class
        QTest::newRow("tokens") << ViewKind::Tokens << "attnlab::TokensView";
        QTest::newRow("matrix") << ViewKind::Matrix << "attnlab::StageView";
        QTest::newRow("positional") << ViewKind::Positional << "attnlab::PositionalEncodingView";
        QTest::newRow("concat") << ViewKind::Concat << "attnlab::MultiHeadView";
        QTest::newRow("heads: the heatmap behind the grid") << ViewKind::Heads << "attnlab::StageView";
        QTest::newRow("kernel regression") << ViewKind::KernelRegression << "attnlab::KernelRegressionView";
        QTest::newRow("softmax scaling") << ViewKind::SoftmaxScaling << "attnlab::SoftmaxScalingView";
        QTest::newRow("layer norm") << ViewKind::LayerNorm << "attnlab::LayerNormView";
        QTest::newRow("feed-forward") << ViewKind::FeedForward << "attnlab::FeedForwardView";
    }

    void everyKindHasItsPage()
    {
        QFETCH(ViewKind, kind);
        QFETCH(QString, widget);
        Session s;
        ViewStack v(&s);
        QWidget* page = v.pageFor(kind);
        QVERIFY(page);
        QCOMPARE(QString::fromLatin1(page->metaObject()->className()), widget);
        QVERIFY(page != v.headsView());
        if (kind == ViewKind::Concat)
            QVERIFY(static_cast<MultiHeadView*>(page)->mode() == MultiHeadView::Mode::Concat);
    }

    void pageAndTabFollowTheSession_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("widget"); // the class of the widget in front
        QTest::addColumn<int>("tab");
        QTest::newRow("tokens") << "tokens" << "stage" << "attnlab::TokensView" << 0;
        QTest::newRow("weights") << "weights" << "stage" << "attnlab::StageView" << 0;
        QTest::newRow("positional encoding") << "positional_encoding" << "stage" << "attnlab::PositionalEncodingView" << 0;
        QTest::newRow("concat") << "concat" << "stage" << "attnlab::MultiHeadView" << 0;
        QTest::newRow("every head") << "scores" << "heads" << "attnlab::MultiHeadView" << 1;
        QTest::newRow("kernel regression") << "weights" << "kernel-regression" << "attnlab::KernelRegressionView" << 0;
        QTest::newRow("softmax scaling") << "scaled" << "softmax-scaling" << "attnlab::SoftmaxScalingView" << 0;
        QTest::newRow("the model view") << "weights" << "model" << "attnlab::ModelView" << 2;
        QTest::newRow("the head view") << "ffn_hidden" << "head-view" << "attnlab::HeadView" << 3;
    }

    void pageAndTabFollowTheSession()
    {
        QFETCH(QString, step);
        QFETCH(QString, view);
        QFETCH(QString, widget);
        QFETCH(int, tab);
        Session s;
        ViewStack v(&s);
        s.setStepId(step);
        s.setView(view);
        v.showStep();
        QCOMPARE(v.currentIndex(), tab);
        QCOMPARE(QString::fromLatin1(v.visibleView()->metaObject()->className()), widget);
        QCOMPARE(v.visibleView() == v.headsView(), tab == 1);
        QCOMPARE(v.currentStageWidget(), v.pageFor(viewKindFor(step, view)));
    }

    void theTabLeadsTheView()
    {
        Session s;
        ViewStack v(&s);
        s.setStepId(QStringLiteral("weights"));
        v.showStep();
        QCOMPARE(v.visibleView(), static_cast<QWidget*>(v.stageView()));
        v.setCurrentIndex(1); // the user clicks "All heads"
        QCOMPARE(s.view(), QStringLiteral("heads"));
        QCOMPARE(v.visibleView(), static_cast<QWidget*>(v.headsView()));
        v.setCurrentIndex(0); // and back
        QCOMPARE(s.view(), QStringLiteral("stage"));
        // A lesson's own view stays when the stage tab is picked again.
        s.setView(QStringLiteral("kernel-regression"));
        v.showStep();
        v.setCurrentIndex(0);
        QCOMPARE(s.view(), QStringLiteral("kernel-regression"));
        QCOMPARE(v.tabText(0), QStringLiteral("Stage"));
        QCOMPARE(v.tabText(1), QStringLiteral("All heads"));
    }

    void theModelAndHeadViewTabsLeadTheView()
    {
        Session s;
        ViewStack v(&s);
        s.setStepId(QStringLiteral("weights"));
        v.showStep();
        QCOMPARE(v.tabText(2), QStringLiteral("Model"));
        QCOMPARE(v.tabText(3), QStringLiteral("Head view"));
        v.setCurrentIndex(2);
        QCOMPARE(s.view(), QStringLiteral("model"));
        QCOMPARE(v.visibleView(), v.tabView(ViewKind::Model));
        v.setCurrentIndex(3);
        QCOMPARE(s.view(), QStringLiteral("head-view"));
        QCOMPARE(v.visibleView(), v.tabView(ViewKind::HeadLines));
        v.setCurrentIndex(0);
        QCOMPARE(s.view(), QStringLiteral("stage"));
        QCOMPARE(v.visibleView(), static_cast<QWidget*>(v.stageView()));
        // While comparing two inputs the comparison is in front and these tabs wait.
        s.setView(QStringLiteral("model"));
        s.setComparing(true);
        v.showStep();
        QCOMPARE(v.currentIndex(), 0);
        QVERIFY(!v.isTabEnabled(2) && !v.isTabEnabled(3));
        s.setComparing(false);
        v.showStep();
        QCOMPARE(v.currentIndex(), 2);
        QVERIFY(v.isTabEnabled(2) && v.isTabEnabled(3));
    }
};

QTEST_MAIN(TestViewStack)
#include "tst_viewstack.moc"
