// The command line with the position schemes that act inside attention (issue 14): --pe rope
// and --pe alibi add their stages between q, k and the scores (in the trace's order), write the
// scheme's setting in the trace's config, and their stages export; numbers checked by hand.

#include "support/cli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace attnlab::testing;

namespace {

/// Cell (i, j) of the main matrix of the stage with this id and head (-1: no head).
double cell(const QJsonObject& trace, const QString& id, int head, int i, int j)
{
    for (const auto& s : trace.value(QStringLiteral("stages")).toArray()) {
        const QJsonObject o = s.toObject();
        if (o.value(QStringLiteral("id")).toString() == id && o.value(QStringLiteral("head")).toInt(-1) == head)
            return o.value(QStringLiteral("matrices")).toArray().at(0).toObject().value(QStringLiteral("data")).toArray().at(i).toArray().at(j).toDouble();
    }
    return std::nan("");
}

const QString kSentence = QStringLiteral("the cat sat on the mat");

} // namespace

class TestCliPosition : public QObject {
    Q_OBJECT
private slots:
    void ropeTurnsQueriesAndKeys()
    {
        const Run r = cli({"trace", "--sentence", kSentence, "--pe", "rope", "--rope-base", "500", "--d-model", "16", "--heads", "2"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject t = json(r.out);
        QCOMPARE(t.value("config").toObject().value("pe").toString(), QStringLiteral("rope"));
        QCOMPARE(t.value("config").toObject().value("rope_base").toDouble(), 500.0);
        const QStringList ids = stageIds(t);
        QVERIFY(ids.indexOf("v") < ids.indexOf("rope_angles"));
        QVERIFY(ids.indexOf("rope_angles") < ids.indexOf("q_rotated"));
        QVERIFY(ids.indexOf("q_rotated") < ids.indexOf("k_rotated"));
        QVERIFY(ids.indexOf("k_rotated") < ids.indexOf("scores"));
        QVERIFY(!ids.contains("position_bias"));
        // θ_{pos,i} = pos / 500^(2i/8): position 3, pair 1.
        QVERIFY(std::abs(cell(t, "rope_angles", -1, 3, 1) - 3 / std::pow(500.0, 2.0 / 8)) < 1e-5);
        // Position 0 is not turned; the scores are the turned vectors' dot products.
        QCOMPARE(cell(t, "q_rotated", 1, 0, 5), cell(t, "q", 1, 0, 5));
        double s = 0;
        for (int d = 0; d < 8; ++d)
            s += cell(t, "q_rotated", 0, 2, d) * cell(t, "k_rotated", 0, 4, d);
        QVERIFY(std::abs(cell(t, "scores", 0, 2, 4) - s) < 1e-4);
        // Nothing is added to X.
        QCOMPARE(cell(t, "positional_encoding", -1, 3, 0), 0.0);
    }

    void alibiBiasesTheScores()
    {
        const Run r = cli({"trace", "--sentence", kSentence, "--pe", "alibi", "--mask", "causal"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject t = json(r.out);
        const QStringList ids = stageIds(t);
        QVERIFY(ids.indexOf("scaled") < ids.indexOf("position_bias"));
        QVERIFY(ids.indexOf("position_bias") < ids.indexOf("masked_scores"));
        // 4 heads: slopes 1/4, 1/16, 1/64, 1/256; query 3, key 1: −2·m_h.
        QCOMPARE(cell(t, "position_bias", 0, 3, 1), -0.5);
        QCOMPARE(cell(t, "position_bias", 3, 3, 1), -2.0 / 256);
        QCOMPARE(cell(t, "masked_scores", 1, 3, 1), cell(t, "scaled", 1, 3, 1) - 2.0 / 16);
    }

    void theirStagesExport()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("q.png"));
        Run r = cli({"export", "--sentence", kSentence, "--pe", "rope", "--stage", "q_rotated", "--head", "2", "--output", png});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo(png).size() > 1000);
        r = cli({"export", "--sentence", kSentence, "--pe", "alibi", "--stage", "position_bias", "--output", dir.filePath("b.csv")});
        QCOMPARE(r.exitCode, 0);
        // Another scheme's stage is refused with the list of this run's.
        r = cli({"export", "--sentence", kSentence, "--pe", "alibi", "--stage", "q_rotated", "--output", png});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown stage 'q_rotated'"));
        QVERIFY(r.err.contains("position_bias"));
    }
};

QTEST_MAIN(TestCliPosition)
#include "tst_cli_position.moc"
