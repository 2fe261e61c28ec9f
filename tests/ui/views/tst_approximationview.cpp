// How far an attention kind is from full attention (issue 13 §2): on the weights step of any kind
// but full the studio shows the kind's weights beside full attention's and the error column, for
// the head chosen, with the trace's two approximation numbers in the caption; full attention
// says there is nothing to compare; the three plots are what File ▸ Export view exports.

#include "attention/approximation.h"
#include "session/session.h"
#include "shell/viewstack.h"
#include "views/approximationview.h"
#include "views/columnplot.h"
#include "views/heatmapview.h"
#include "views/registry.h"
#include "views/stageview.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QtTest>

using namespace attnlab;

Q_DECLARE_METATYPE(attnlab::AttentionKind)

namespace {

void useKind(Session& s, AttentionKind kind, MaskKind mask = MaskKind::None)
{
    Config c = s.config();
    c.attention = kind;
    c.mask = mask;
    s.setConfig(c);
}

/// e_i = Σ_j |A_ij − A^full_ij| by hand (A's columns are tokens for every kind but linformer).
std::vector<double> l1Rows(const Eigen::MatrixXf& a, const Eigen::MatrixXf& full)
{
    std::vector<double> e;
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        double sum = 0;
        for (Eigen::Index j = 0; j < a.cols(); ++j)
            sum += std::abs(static_cast<double>(a(i, j)) - full(i, j));
        e.push_back(sum);
    }
    return e;
}

} // namespace

class TestApproximationView : public QObject {
    Q_OBJECT
private slots:
    void theWeightsStepShowsThreeMatrices_data()
    {
        QTest::addColumn<AttentionKind>("kind");
        QTest::addColumn<int>("mask");
        QTest::newRow("sliding window, causal") << AttentionKind::SlidingWindow << int(MaskKind::Causal);
        QTest::newRow("performer") << AttentionKind::Performer << int(MaskKind::None);
        QTest::newRow("lsh") << AttentionKind::Lsh << int(MaskKind::None);
        QTest::newRow("linformer") << AttentionKind::Linformer << int(MaskKind::Padding);
    }

    void theWeightsStepShowsThreeMatrices()
    {
        QFETCH(AttentionKind, kind);
        QFETCH(int, mask);
        Session s;
        ViewStack stack(&s);
        useKind(s, kind, static_cast<MaskKind>(mask));
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        s.setStepId(QStringLiteral("weights"));
        stack.showStep();
        auto* view = qobject_cast<ApproximationView*>(stack.currentStageWidget());
        QVERIFY(view);
        QVERIFY(view->hasComparison());
        s.setHead(2);
        const Trace& t = *s.trace();
        const Eigen::MatrixXf& a = t.find("weights", 2)->main().values;
        const Eigen::MatrixXf& full = t.find("reference_weights", 2)->main().values;
        QCOMPARE(view->weights()->matrix().values, a);
        QCOMPARE(view->reference()->matrix().values, full);
        QCOMPARE(view->weights()->scale(), HeatmapView::Scale::Probability);
        QCOMPARE(view->reference()->scale(), HeatmapView::Scale::Probability);
        const Eigen::MatrixXf& e = t.find("error", 2)->main().values;
        std::vector<double> shown(view->error()->values());
        QCOMPARE(static_cast<Eigen::Index>(shown.size()), e.rows());
        // The error column is the L1 distance of the two rows (linformer: of A·F and A^full).
        if (kind != AttentionKind::Linformer) {
            const std::vector<double> hand = l1Rows(a, full);
            for (std::size_t i = 0; i < hand.size(); ++i)
                QVERIFY2(std::abs(shown[i] - hand[i]) < 1e-5, qPrintable(QStringLiteral("row %1: %2 vs %3").arg(i).arg(shown[i]).arg(hand[i])));
        }
        // The caption gives the trace's two numbers, as the trace JSON does.
        const auto approx = approximations(t);
        QCOMPARE(approx.size(), std::size_t(1));
        QCOMPARE(*view->outputMaxAbs(), approx[0].outputMaxAbs);
        QCOMPARE(*view->outputRelFro(), approx[0].outputRelFro);
        const QString caption = view->captionLabel()->text();
        QVERIFY2(caption.contains(QString::number(approx[0].outputRelFro, 'f', 4)), qPrintable(caption));
        QVERIFY(caption.contains(QStringLiteral("head 3")));
        // Exported as one figure of its three plots.
        QCOMPARE(view->exportedPlots().size(), 3);
    }

    void fullAttentionHasNothingToCompare()
    {
        Session s;
        ViewStack stack(&s);
        s.setStepId(QStringLiteral("weights"));
        stack.showStep();
        QCOMPARE(stack.currentStageWidget(), static_cast<QWidget*>(stack.stageView())); // the heatmap, as always
        s.setView(QStringLiteral("approximation"));
        stack.showStep();
        auto* view = qobject_cast<ApproximationView*>(stack.currentStageWidget());
        QVERIFY(view);
        QVERIFY(!view->hasComparison());
        QVERIFY(view->messageLabel()->text().startsWith(QStringLiteral("Full attention")));
        // Switching to a kind brings the comparison to the weights step.
        s.setView(QStringLiteral("stage"));
        useKind(s, AttentionKind::Strided);
        stack.showStep();
        QCOMPARE(stack.currentStageWidget(), static_cast<QWidget*>(view));
        QVERIFY(view->hasComparison());
        // Its other steps keep their own views.
        s.setStepId(QStringLiteral("reference_weights"));
        stack.showStep();
        QCOMPARE(stack.currentStageWidget(), static_cast<QWidget*>(stack.stageView()));
    }

    void theRegistryDecidesByTheTrace()
    {
        Session s;
        QCOMPARE(viewKindFor(QStringLiteral("weights"), QStringLiteral("stage"), s.trace().get()), ViewKind::Matrix);
        useKind(s, AttentionKind::Linear);
        QCOMPARE(viewKindFor(QStringLiteral("weights"), QStringLiteral("stage"), s.trace().get()), ViewKind::Approximation);
        QCOMPARE(viewKindFor(QStringLiteral("weights"), QStringLiteral("heads"), s.trace().get()), ViewKind::Heads);
        QCOMPARE(viewKindFor(QStringLiteral("kv"), QStringLiteral("stage"), s.trace().get()), ViewKind::Matrix);
        QCOMPARE(viewKindFor(QStringLiteral("weights"), QStringLiteral("stage")), ViewKind::Matrix); // no trace given
    }
};

QTEST_MAIN(TestApproximationView)
#include "tst_approximationview.moc"
