// The command line with the position schemes that act inside attention (issue 14): --pe rope,
// --pe alibi and --pe relative add their stages between q, k and the scores (in the trace's
// order), write the scheme's setting in the trace's config, and their stages export; numbers
// checked by hand; a setting of another scheme, or out of range, is one line and exit 2.

#include "support/cli.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
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

    void relativeAddsKeysAndValuesByDistance()
    {
        const Run r = cli({"trace", "--sentence", kSentence, "--pe", "relative", "--max-distance", "2", "--d-model", "8", "--heads", "2"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject t = json(r.out);
        QCOMPARE(t.value("config").toObject().value("max_distance").toInt(), 2);
        const QStringList ids = stageIds(t);
        QVERIFY(ids.indexOf("v") < ids.indexOf("relative_keys"));
        QVERIFY(ids.indexOf("relative_values") < ids.indexOf("position_scores"));
        QVERIFY(ids.indexOf("position_scores") < ids.indexOf("scores"));
        // P[i, j] = q_i·a^K of clip(j − i, −2, 2): query 1, key 5 is distance +4 → row 4.
        const int dK = 4;
        double p = 0, qk = 0;
        for (int d = 0; d < dK; ++d) {
            p += cell(t, "q", 1, 1, d) * cell(t, "relative_keys", -1, 4, d);
            qk += cell(t, "q", 1, 1, d) * cell(t, "k", 1, 5, d);
        }
        QVERIFY(std::abs(cell(t, "position_scores", 1, 1, 5) - p) < 1e-4);
        QVERIFY(std::abs(cell(t, "scores", 1, 1, 5) - (qk + p)) < 1e-4);
        // The output adds Σ_j α_ij a^V_clip(j−i): head 0, query 0, dimension 2.
        double z = 0;
        for (int j = 0; j < 6; ++j) {
            const int row = std::clamp(j, -2, 2) + 2;
            z += cell(t, "weights", 0, 0, j) * (cell(t, "v", 0, j, 2) + cell(t, "relative_values", -1, row, 2));
        }
        QVERIFY(std::abs(cell(t, "head_output", 0, 0, 2) - z) < 1e-4);
        QCOMPARE(cell(t, "positional_encoding", -1, 3, 0), 0.0);
    }

    void xlTracesEverySegment()
    {
        // 6 tokens, L = 4, M = 2: segment 0 = tokens 0..3 (no memory), segment 1 = tokens 4, 5 with
        // tokens 2, 3 as memory.
        const Run r = cli({"trace", "--sentence", kSentence, "--pe", "xl", "--segment", "4", "--memory", "2", "--d-model", "8", "--heads", "2"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject t = json(r.out);
        const QJsonObject config = t.value("config").toObject();
        QCOMPARE(config.value("pe").toString(), QStringLiteral("xl"));
        QCOMPARE(config.value("segment").toInt(), 4);
        QCOMPARE(config.value("memory").toInt(), 2);
        QJsonObject memory, weights1, bias1, k1;
        int segmented = 0;
        for (const auto& s : t.value("stages").toArray()) {
            const QJsonObject o = s.toObject();
            if (!o.contains("segment"))
                continue;
            ++segmented;
            const int tau = o.value("segment").toInt();
            const QString id = o.value("id").toString();
            const int head = o.value("head").toInt(-1);
            if (id == "memory")
                memory = o;
            if (tau == 1 && head == 0 && id == "weights")
                weights1 = o;
            if (tau == 1 && head == 0 && id == "content_bias")
                bias1 = o;
            if (tau == 1 && head == 0 && id == "k")
                k1 = o;
        }
        QVERIFY(segmented > 30);
        const auto data = [](const QJsonObject& o) { return o.value("matrices").toArray().at(0).toObject().value("data").toArray(); };
        // One memory stage (segment 1's), 2 rows: the block's input at tokens 2 and 3.
        QCOMPARE(memory.value("segment").toInt(), 1);
        QCOMPARE(data(memory).size(), 2);
        QCOMPARE(data(memory).at(1).toArray().at(3).toDouble(), cell(t, "input", -1, 3, 3));
        // Segment 1: 2 queries x 4 keys (2 memory + 2 own); query 4 may not see key 5.
        QCOMPARE(data(weights1).size(), 2);
        QCOMPARE(data(weights1).at(0).toArray().size(), 4);
        QCOMPARE(data(weights1).at(0).toArray().at(3).toDouble(), 0.0);
        QVERIFY(data(weights1).at(0).toArray().at(0).toDouble() > 0);
        // (c) = u·k_j: the same in every row.
        QCOMPARE(data(bias1).at(0).toArray().at(2).toDouble(), data(bias1).at(1).toArray().at(2).toDouble());
        double c = 0;
        for (int d = 0; d < 4; ++d)
            c += cell(t, "xl_u", 0, 0, d) * data(k1).at(2).toArray().at(d).toDouble();
        QVERIFY(std::abs(data(bias1).at(0).toArray().at(2).toDouble() - c) < 1e-4);
        QCOMPARE(cell(t, "positional_encoding", -1, 3, 0), 0.0);
    }

    void xlStagesExportPerSegment()
    {
        QTemporaryDir dir;
        const Run r = cli({"export", "--sentence", kSentence, "--pe", "xl", "--segment", "3", "--all", "--format", "csv", "--output-dir",
                           dir.filePath("all")});
        QCOMPARE(r.exitCode, 0);
        const QStringList files = QDir(dir.filePath("all")).entryList({"*weights_head1_segment*.csv"});
        QCOMPARE(files.size(), 2);
    }

    void badSettingsAreOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("K = 0") << QStringList{"--pe", "relative", "--max-distance", "0"} << QStringLiteral("max_distance (0) must be between 1 and 1024");
        QTest::newRow("K for rope") << QStringList{"--pe", "rope", "--max-distance", "3"} << QStringLiteral("--max-distance applies to --pe relative, not rope");
        QTest::newRow("base for relative") << QStringList{"--pe", "relative", "--rope-base", "100"} << QStringLiteral("--rope-base applies to --pe rope");
        QTest::newRow("relative with a kind") << QStringList{"--pe", "relative", "--attention", "linear"}
                                              << QStringLiteral("relative adds a term to every query–key score: it works with full attention, not linear");
        QTest::newRow("odd d_k for rope") << QStringList{"--pe", "rope", "--d-model", "6", "--heads", "2"} << QStringLiteral("d_k (3) must be even");
        QTest::newRow("base 1") << QStringList{"--pe", "rope", "--rope-base", "1"} << QStringLiteral("must be a number greater than 1");
        QTest::newRow("L = 0") << QStringList{"--pe", "xl", "--segment", "0"} << QStringLiteral("segment (0) must be between 1 and 1024");
        QTest::newRow("M < 0") << QStringList{"--pe", "xl", "--memory", "-3"} << QStringLiteral("memory (-3) must be between 0 and 1024");
        QTest::newRow("L for relative") << QStringList{"--pe", "relative", "--segment", "3"} << QStringLiteral("--segment applies to --pe xl, not relative");
        QTest::newRow("xl with a kind") << QStringList{"--pe", "xl", "--attention", "sliding-window"}
                                        << QStringLiteral("xl adds a term to every query–key score: it works with full attention");
    }

    void badSettingsAreOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(QStringList{"trace", "--sentence", kSentence} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(r.out.isEmpty());
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
        r = cli({"export", "--sentence", kSentence, "--pe", "relative", "--stage", "relative_keys", "--output", dir.filePath("k.svg")});
        QCOMPARE(r.exitCode, 0);
        r = cli({"export", "--sentence", kSentence, "--pe", "relative", "--stage", "position_scores", "--head", "1", "--output", dir.filePath("p.png")});
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
