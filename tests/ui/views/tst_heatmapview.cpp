// The heatmap: probabilities on the 0..1 scale, single rows drawn, and a vocabulary's columns
// labelled where the probability is.

#include "views/heatmapview.h"

#include "core/trace.h"

#include <qcustomplot.h>

#include <QtTest>

using namespace attnlab;

namespace {

Labels labels(std::vector<std::string> l)
{
    return std::make_shared<const std::vector<std::string>>(std::move(l));
}

} // namespace

class TestHeatmapView : public QObject {
    Q_OBJECT
private slots:
    void probabilitiesUseTheProbabilityScale()
    {
        QCOMPARE(HeatmapView::scaleForStage(QStringLiteral("weights")), HeatmapView::Scale::Probability);
        QCOMPARE(HeatmapView::scaleForStage(QStringLiteral("probabilities")), HeatmapView::Scale::Probability);
        QCOMPARE(HeatmapView::scaleForStage(QStringLiteral("logits")), HeatmapView::Scale::Signed);
    }

    void aVocabularyIsLabelledWhereTheProbabilityIs()
    {
        // 2 target positions × 60 vocabulary entries: too many columns to label them all.
        std::vector<std::string> vocab;
        for (int i = 0; i < 60; ++i)
            vocab.push_back("t" + std::to_string(i));
        LabeledMatrix m;
        m.name = "P";
        m.values = Eigen::MatrixXf::Constant(2, 60, 0.001f);
        m.values(0, 7) = 0.9f;
        m.values(1, 42) = 0.6f;
        m.values(1, 43) = 0.3f;
        m.rowLabels = labels({"<sos>", "x"});
        m.colLabels = labels(vocab);
        HeatmapView v;
        v.resize(800, 500);
        v.show();
        v.setMatrix(m, QStringLiteral("P"), HeatmapView::Scale::Probability);
        QCoreApplication::processEvents();
        auto ticker = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().keys(), (QList<double>{7, 42, 43}));
        QCOMPARE(ticker->ticks().value(42), QStringLiteral("t42"));
    }

    void aSingleRowIsDrawn()
    {
        // QCustomPlot sizes cells by range / (size − 1): one row needs a range of its own.
        LabeledMatrix m;
        m.name = "A";
        m.values = Eigen::MatrixXf::Constant(1, 4, 0.25f);
        m.rowLabels = labels({"<sos>"});
        m.colLabels = labels({"a", "b", "c", "d"});
        HeatmapView v;
        v.resize(600, 300);
        v.show();
        v.setMatrix(m, QStringLiteral("A"), HeatmapView::Scale::Probability);
        QCoreApplication::processEvents();
        auto* map = qobject_cast<QCPColorMap*>(v.plot()->plottable(0));
        QVERIFY(map);
        QVERIFY(map->data()->valueRange().size() > 0);
        QCOMPARE(map->data()->data(0, 0), 0.25);
    }
};

QTEST_MAIN(TestHeatmapView)
#include "tst_heatmapview.moc"
