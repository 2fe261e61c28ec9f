// The position schemes inside attention in the studio (issue 14): choosing them in the settings
// puts their stages in the navigator in the trace's order, with names, formulas and shapes; the
// inspector explains a score from the rotated q and k, adds ALiBi's bias before the mask; each
// scheme's own settings row (RoPE's base, relative's K, Transformer-XL's L and M) is shown with
// that scheme only and changes the computation.

#include "explain/cell_explanation.h"
#include "session/session.h"
#include "session/stages.h"
#include "widgets/settingspanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

namespace {

QStringList stepIds(const Session& s)
{
    QStringList ids;
    for (const Step& st : s.steps())
        ids << st.id;
    return ids;
}

void usePositions(Session& s, PositionalEncoding pe)
{
    Config c = s.config();
    c.positional = pe;
    s.setConfig(c);
    s.setSentence(QStringLiteral("the cat sat on the mat"));
}

} // namespace

class TestPositionSteps : public QObject {
    Q_OBJECT
private slots:
    void ropeStepsComeBetweenKAndTheScores()
    {
        Session s;
        usePositions(s, PositionalEncoding::Rope);
        const QStringList ids = stepIds(s);
        QVERIFY(ids.indexOf("v") < ids.indexOf("rope_angles"));
        QVERIFY(ids.indexOf("rope_angles") < ids.indexOf("q_rotated"));
        QVERIFY(ids.indexOf("k_rotated") < ids.indexOf("scores"));
        QVERIFY(!ids.contains("position_bias"));
        for (const QString id : {"rope_angles", "q_rotated", "k_rotated"}) {
            QVERIFY(!stepName(id).isEmpty() && stepName(id) != id);
            QVERIFY(!stepFormula(id, s.config()).isEmpty());
        }
        QVERIFY(stepFormula("scores", s.config()).contains(QStringLiteral("Q\u0303")));
        QVERIFY(stepShapes("rope_angles", *s.trace()).startsWith(QStringLiteral("6 \u00D7 4"))); // d_k = 8: 4 pairs
        // The inspector's dot product uses the turned vectors: it adds up to the trace's score.
        const auto e = explainScore(*s.trace(), 0, 3, 1);
        QVERIFY(e);
        QVERIFY(std::abs(e->sum - e->score) <= 1e-4 * std::max(1.0, std::abs(e->score)));
        QVERIFY(!e->bias);
    }

    void alibiBiasIsAStepAndInTheInspector()
    {
        Session s;
        usePositions(s, PositionalEncoding::Alibi);
        const QStringList ids = stepIds(s);
        QVERIFY(ids.indexOf("scaled") < ids.indexOf("position_bias"));
        QVERIFY(ids.indexOf("position_bias") < ids.indexOf("mask"));
        QVERIFY(stepFormula("masked_scores", s.config()).contains(QStringLiteral("B_h")));
        const auto e = explainScore(*s.trace(), 0, 4, 1);
        QVERIFY(e && e->bias);
        QCOMPARE(*e->bias, -3.0 / 4); // 4 heads: m_1 = 1/4, |4 − 1| = 3
        QVERIFY(std::abs(e->scaled + *e->bias + e->mask - e->masked) <= 1e-5);
    }

    void theSettingsOfferThem()
    {
        Session s;
        SettingsPanel panel(&s);
        QComboBox* positions = nullptr;
        for (QComboBox* b : panel.findChildren<QComboBox*>()) {
            if (b->findText(QStringLiteral("RoPE (rotary)")) >= 0)
                positions = b;
        }
        QVERIFY(positions);
        positions->setCurrentIndex(positions->findData(static_cast<int>(PositionalEncoding::Rope)));
        QTRY_VERIFY(s.config().positional == PositionalEncoding::Rope);
        QTRY_VERIFY(stepIds(s).contains("q_rotated"));
    }

    void eachSchemeShowsItsOwnSettings()
    {
        Session s;
        SettingsPanel panel(&s);
        panel.show();
        const auto choose = [&](PositionalEncoding p) {
            panel.positionalBox()->setCurrentIndex(panel.positionalBox()->findData(static_cast<int>(p)));
        };
        QVERIFY(!panel.ropeBaseBox()->isVisibleTo(&panel) && !panel.maxDistanceBox()->isVisibleTo(&panel));
        choose(PositionalEncoding::Rope);
        QVERIFY(panel.ropeBaseBox()->isVisibleTo(&panel));
        QVERIFY(!panel.xlSegmentBox()->isVisibleTo(&panel));
        panel.ropeBaseBox()->setValue(500);
        QCOMPARE(s.config().positionOptions.ropeBase, 500.0);
        QVERIFY(stepFormula("rope_angles", s.config()).contains(QStringLiteral("500")));
        choose(PositionalEncoding::Relative);
        QVERIFY(panel.maxDistanceBox()->isVisibleTo(&panel) && !panel.ropeBaseBox()->isVisibleTo(&panel));
        panel.maxDistanceBox()->setValue(2);
        QCOMPARE(s.trace()->find("relative_keys")->main().values.rows(), 5);
        choose(PositionalEncoding::Xl);
        QVERIFY(panel.xlSegmentBox()->isVisibleTo(&panel) && panel.xlMemoryBox()->isVisibleTo(&panel));
        QCOMPARE(panel.xlMemoryBox()->text(), QStringLiteral("= L")); // memory −1: as long as a segment
        panel.xlSegmentBox()->setValue(3);
        panel.xlMemoryBox()->setValue(1);
        QCOMPARE(s.config().positionOptions.segment, 3);
        QCOMPARE(s.segmentCount(), (static_cast<int>(s.trace()->tokens.size()) + 2) / 3);
        QVERIFY(stepIds(s).contains("memory"));
        s.setSegment(1);
        QCOMPARE(s.trace()->find("memory")->main().values.rows(), 1);
    }

    void relativeAndXlStepsHaveNamesAndFormulas()
    {
        Session s;
        usePositions(s, PositionalEncoding::Relative);
        for (const QString id : {"relative_keys", "relative_values", "position_scores"}) {
            QVERIFY(stepIds(s).contains(id));
            QVERIFY(!stepName(id).isEmpty() && stepName(id) != id);
            QVERIFY(!stepFormula(id, s.config()).isEmpty());
        }
        QVERIFY(stepFormula("scores", s.config()).contains(QStringLiteral("P_h")));
        QVERIFY(stepShapes("relative_keys", *s.trace()).contains(QStringLiteral("distances")));
        usePositions(s, PositionalEncoding::Xl);
        for (const QString id : {"xl_w_r", "xl_u", "memory", "content_scores", "position_scores", "content_bias", "position_bias"}) {
            QVERIFY2(stepIds(s).contains(id), qPrintable(id));
            QVERIFY(!stepName(id).isEmpty() && stepName(id) != id);
            QVERIFY2(!stepFormula(id, s.config()).isEmpty(), qPrintable(id));
            QVERIFY2(!stepExplanation(id, PositionalEncoding::Xl).isEmpty(), qPrintable(id));
        }
        QVERIFY(stepFormula("scores", s.config()).contains(QStringLiteral("(d)")));
    }
};

QTEST_MAIN(TestPositionSteps)
#include "tst_positionsteps.moc"
