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

    // Issue 28 §3: beside full attention a narrow heatmap labelled 3 of 12 keys; its labels now
    // stand upright at 90° where slanted ones would leave most keys out, every k-th, evenly.
    void aNarrowHeatmapLabelsEvenlyAndMost()
    {
        const std::vector<std::string> words{"The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired", "."};
        LabeledMatrix m;
        m.name = "A";
        m.values = Eigen::MatrixXf::Constant(12, 12, 1.0f / 12);
        m.rowLabels = labels(words);
        m.colLabels = labels(words);
        HeatmapView v;
        v.resize(330, 420);
        v.show();
        v.setMatrix(m, QStringLiteral("A"), HeatmapView::Scale::Probability);
        QCoreApplication::processEvents();
        v.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCoreApplication::processEvents();
        auto ticker = v.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QList<double> keys = ticker->ticks().keys();
        QVERIFY2(keys.size() >= 6, qPrintable(QString::number(keys.size())));
        for (int i = 1; i < keys.size(); ++i) // evenly: the same step between labelled keys
            QCOMPARE(keys[i] - keys[i - 1], keys[1] - keys[0]);
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
