// RoPE and ALiBi in the studio (issue 14, first step): choosing them in the settings puts their
// stages in the navigator in the trace's order, with names, formulas and shapes; the inspector
// explains a score from the rotated q and k, and adds ALiBi's bias before the mask.

#include "explain/cell_explanation.h"
#include "session/session.h"
#include "session/stages.h"
#include "widgets/settingspanel.h"

#include <QComboBox>
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
};

QTEST_MAIN(TestPositionSteps)
#include "tst_positionsteps.moc"
