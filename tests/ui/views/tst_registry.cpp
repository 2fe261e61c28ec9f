// The view registry: every kind of view has one entry that makes it, and the step → view
// decision follows the table (a lesson's view first, then the view that claims the stage, else
// the stage's heatmap).

#include "session/session.h"
#include "views/registry.h"
#include "views/sessionview.h"

#include <QtTest>

#include <memory>

using namespace attnlab;

class TestRegistry : public QObject {
    Q_OBJECT
private slots:
    void everyKindOnce()
    {
        Session session;
        const ViewKind kinds[] = {ViewKind::Tokens,           ViewKind::Matrix,         ViewKind::Positional,
                                  ViewKind::Concat,           ViewKind::Heads,          ViewKind::KernelRegression,
                                  ViewKind::SoftmaxScaling,   ViewKind::LayerNorm,      ViewKind::FeedForward,
                                  ViewKind::Model,            ViewKind::HeadLines,      ViewKind::Predictions,
                                  ViewKind::Approximation,    ViewKind::Cost,           ViewKind::PositionScheme,
                                  ViewKind::Length,           ViewKind::Training};
        QCOMPARE(viewRegistry().size(), std::size(kinds));
        for (const ViewKind kind : kinds) {
            const ViewEntry& e = viewEntry(kind);
            QVERIFY(e.kind == kind);
            std::unique_ptr<SessionView> view(e.make(&session, nullptr));
            QVERIFY(view);
            QVERIFY(view->session() == &session);
        }
    }

    void stepsFindTheirView_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("kind");
        QTest::newRow("tokens") << "tokens" << "stage" << int(ViewKind::Tokens);
        QTest::newRow("pe") << "positional_encoding" << "stage" << int(ViewKind::Positional);
        QTest::newRow("concat") << "concat" << "stage" << int(ViewKind::Concat);
        QTest::newRow("a layer norm") << "cross_norm" << "stage" << int(ViewKind::LayerNorm);
        QTest::newRow("ffn") << "ffn_hidden" << "stage" << int(ViewKind::FeedForward);
        // A modern decoder's gate and up steps show the gated FFN; Gemma 3's norms after the sublayers, the norm view.
        QTest::newRow("ffn gate") << "ffn_gate" << "stage" << int(ViewKind::FeedForward);
        QTest::newRow("ffn up") << "ffn_up" << "stage" << int(ViewKind::FeedForward);
        QTest::newRow("a norm after attention") << "attn_post_norm" << "stage" << int(ViewKind::LayerNorm);
        QTest::newRow("a norm after the FFN") << "ffn_post_norm" << "stage" << int(ViewKind::LayerNorm);
        QTest::newRow("q_norm: its heatmap") << "q_norm" << "stage" << int(ViewKind::Matrix);
        QTest::newRow("weights") << "weights" << "stage" << int(ViewKind::Matrix);
        QTest::newRow("an unknown stage") << "no_such_stage" << "stage" << int(ViewKind::Matrix);
        QTest::newRow("heads over the stage") << "weights" << "heads" << int(ViewKind::Heads);
        QTest::newRow("a lesson's view over the stage") << "concat" << "kernel-regression" << int(ViewKind::KernelRegression);
        QTest::newRow("softmax scaling") << "scaled" << "softmax-scaling" << int(ViewKind::SoftmaxScaling);
        QTest::newRow("the model view over any step") << "ffn_hidden" << "model" << int(ViewKind::Model);
        QTest::newRow("the head view over any step") << "tokens" << "head-view" << int(ViewKind::HeadLines);
        QTest::newRow("the predictions over any step") << "weights" << "predictions" << int(ViewKind::Predictions);
        QTest::newRow("probabilities: the heatmap on the Stage tab") << "probabilities" << "stage" << int(ViewKind::Matrix);
    }

    void stepsFindTheirView()
    {
        QFETCH(QString, stage);
        QFETCH(QString, view);
        QFETCH(int, kind);
        QCOMPARE(int(viewKindFor(stage, view)), kind);
    }

    void theTabsAreTheViewsPickedWhateverTheStep()
    {
        // Every head, the model view, the head view, a pretrained model's predictions, the cost and the length experiment have a
        // tab of their own, and a Session view name that asks for it; the other views are the
        // Stage tab's pages.
        QStringList tabs;
        for (const ViewEntry& e : viewRegistry()) {
            if (e.tab) {
                QVERIFY(!e.lessonView.isEmpty());
                tabs << e.lessonView;
            }
        }
        QCOMPARE(tabs, (QStringList{"heads", "model", "head-view", "predictions", "cost", "length", "training"}));
    }
};

QTEST_MAIN(TestRegistry)
#include "tst_registry.moc"
