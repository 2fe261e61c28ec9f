// The command line with the attention kinds (issue 13): --attention and its options on trace and
// export, the approximation numbers in the trace JSON, the refusals (one line each, exit code 2),
// and the cost command's table and JSON.

#include "support/cli.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <algorithm>

#include <cmath>

using namespace attnlab::testing;

namespace {

/// The main matrix of the first stage with this id and head.
QJsonArray stageData(const QJsonObject& trace, const QString& id, int head)
{
    for (const auto& s : trace.value(QStringLiteral("stages")).toArray()) {
        const QJsonObject o = s.toObject();
        if (o.value(QStringLiteral("id")).toString() == id && o.value(QStringLiteral("head")).toInt(-1) == head)
            return o.value(QStringLiteral("matrices")).toArray().at(0).toObject().value(QStringLiteral("data")).toArray();
    }
    return {};
}

const QString kSentence = QStringLiteral("the cat sat on the mat and looked at the dog");

/// Multiplies every F32 tensor of a safetensors file by `factor` (its header kept as it is).
bool scaleWeights(const QString& path, float factor)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QByteArray bytes = f.readAll();
    f.close();
    const auto n = static_cast<qsizetype>(qFromLittleEndian<quint64>(bytes.constData()));
    const QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, n)).object();
    for (auto it = header.begin(); it != header.end(); ++it) {
        const QJsonObject t = it.value().toObject();
        if (it.key() == u"__metadata__")
            continue;
        if (t.value(QStringLiteral("dtype")).toString() != u"F32")
            return false;
        const QJsonArray offsets = t.value(QStringLiteral("data_offsets")).toArray();
        for (qsizetype at = 8 + n + offsets.at(0).toInteger(); at < 8 + n + offsets.at(1).toInteger(); at += 4)
            qToLittleEndian(qFromLittleEndian<float>(bytes.constData() + at) * factor, bytes.data() + at);
    }
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

/// A stage's matrix as long doubles.
using RealMatrix = std::vector<std::vector<long double>>;
RealMatrix realMatrix(const QJsonArray& rows)
{
    RealMatrix m;
    for (const auto& r : rows) {
        m.emplace_back();
        for (const auto& x : r.toArray())
            m.back().push_back(static_cast<long double>(x.toDouble()));
    }
    return m;
}

} // namespace

class TestCliAttention : public QObject {
    Q_OBJECT
private slots:
    void everyKindTraces_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QStringList>("newStages");
        QTest::newRow("sliding-window") << QStringList{"sliding-window", "--window", "1", "--global", "0"} << QStringList{"mask"};
        QTest::newRow("bigbird") << QStringList{"bigbird", "--window", "1", "--random", "2"} << QStringList{"mask"};
        QTest::newRow("strided") << QStringList{"strided", "--stride", "3"} << QStringList{"mask"};
        QTest::newRow("linformer") << QStringList{"linformer", "--proj-dim", "4"}
                                   << QStringList{"projection_e", "projection_f", "k_projected", "v_projected"};
        QTest::newRow("performer") << QStringList{"performer", "--features", "32"}
                                   << QStringList{"random_features", "q_features", "k_features", "kv", "normalizer"};
        QTest::newRow("linear") << QStringList{"linear"} << QStringList{"q_features", "k_features", "kv", "normalizer"};
        QTest::newRow("lsh") << QStringList{"lsh", "--buckets", "4", "--chunk", "4"} << QStringList{"random_rotations", "buckets"};
        QTest::newRow("flash") << QStringList{"flash", "--query-block", "3", "--key-block", "2"}
                               << QStringList{"tiles", "running_max", "running_sum", "partial_output"};
    }

    void everyKindTraces()
    {
        QFETCH(QStringList, options);
        QFETCH(QStringList, newStages);
        const Run r = cli(QStringList{"trace", "--sentence", kSentence, "--attention"} + options);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject t = json(r.out);
        QCOMPARE(t.value("config").toObject().value("attention").toString(), options.front());
        const QStringList ids = stageIds(t);
        for (const QString& id : newStages + QStringList{"weights", "head_output", "reference_weights", "error", "reference_output"})
            QVERIFY2(ids.contains(id), qPrintable(id));
        // The approximation numbers: a distance, consistent with the stages written.
        const QJsonObject a = t.value("approximation").toObject();
        QVERIFY(a.value("output_max_abs").toDouble(-1) >= 0);
        if (options.front() == "flash") // exact: full attention's output to float rounding
            QVERIFY2(a.value("output_max_abs").toDouble(-1) < 1e-5, qPrintable(QString::number(a.value("output_max_abs").toDouble())));
        QVERIFY(a.value("output_rel_fro").toDouble(-1) >= 0);
        // error (n x 1) is the L1 distance of each row of weights from full attention's.
        const QJsonArray weights = stageData(t, "weights", 0);
        const QJsonArray reference = stageData(t, "reference_weights", 0);
        const QJsonArray error = stageData(t, "error", 0);
        QCOMPARE(error.size(), reference.size());
        if (options.front() != "linformer") { // linformer's weights are n x K; its error uses A·F
            for (int i = 0; i < error.size(); ++i) {
                double l1 = 0;
                for (int j = 0; j < reference.at(i).toArray().size(); ++j)
                    l1 += std::abs(weights.at(i).toArray().at(j).toDouble() - reference.at(i).toArray().at(j).toDouble());
                QVERIFY(std::abs(l1 - error.at(i).toArray().at(0).toDouble()) < 1e-4);
            }
        }
    }

    void theSameSeedGivesTheSameTrace()
    {
        const QStringList args{"trace", "--sentence", kSentence, "--attention", "bigbird", "--window", "1", "--random", "3", "--seed", "7"};
        const Run a = cli(args);
        const Run b = cli(args);
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(a.out, b.out);
        const Run c = cli(QStringList(args.mid(0, args.size() - 1)) << "8");
        QVERIFY(stageData(json(c.out), "mask", -1) != stageData(json(a.out), "mask", -1));
    }

    void anEncoderStackUsesTheKindInEveryLayer()
    {
        const Run r = cli({"trace", "--sentence", kSentence, "--layers", "2", "--attention", "linear"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject t = json(r.out);
        int kv = 0;
        for (const auto& s : t.value("stages").toArray())
            kv += s.toObject().value("id").toString() == "kv" ? 1 : 0;
        QCOMPARE(kv, 2 * 4); // two layers of four heads
        QCOMPARE(t.value("approximation").toObject().value("layers").toArray().size(), 2);
    }

    void exportDrawsAKindsStage()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath("e.png");
        const Run r = cli({"export", "--sentence", kSentence, "--attention", "performer", "--features", "16", "--stage", "weights", "--head",
                           "1", "--output", png});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo(png).size() > 1000);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("window 0") << QStringList{"--attention", "sliding-window", "--window", "0"} << "window (0) must be between 1";
        QTest::newRow("features 0") << QStringList{"--attention", "performer", "--features", "0"} << "features (0) must be between 1";
        QTest::newRow("odd buckets") << QStringList{"--attention", "lsh", "--buckets", "3"} << "buckets (3) must be an even number";
        QTest::newRow("one bucket") << QStringList{"--attention", "lsh", "--buckets", "1"} << "buckets (1) must be an even number";
        QTest::newRow("linformer causal") << QStringList{"--attention", "linformer", "--mask", "causal"}
                                          << "linformer attention cannot use a causal mask";
        QTest::newRow("global outside") << QStringList{"--attention", "sliding-window", "--global", "0,40"}
                                        << "global position 40 is outside the sentence";
        QTest::newRow("option of another kind") << QStringList{"--attention", "performer", "--window", "3"}
                                                << "--window applies to --attention sliding-window and bigbird, not performer";
        QTest::newRow("unknown kind") << QStringList{"--attention", "ring"} << "--attention must be full|sliding-window";
        QTest::newRow("query block 0") << QStringList{"--attention", "flash", "--query-block", "0"}
                                       << "query_block (0) must be between 1 and 4096: the queries are taken B_r at a time";
        QTest::newRow("key block 5000") << QStringList{"--attention", "flash", "--key-block", "5000"}
                                        << "key_block (5000) must be between 1 and 4096: the keys are taken B_c at a time";
        QTest::newRow("block of another kind") << QStringList{"--attention", "lsh", "--key-block", "4"}
                                               << "--key-block applies to --attention flash, not lsh";
        QTest::newRow("block not a number") << QStringList{"--attention", "flash", "--query-block", "4x"} << "--query-block";
        QTest::newRow("encoder-decoder") << QStringList{"--attention", "linear", "--source", "a b", "--target", "c"}
                                         << "linear attention is for one attention block and for seeded encoder stacks";
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QStringList input = args.contains("--source") ? QStringList{} : QStringList{"--sentence", kSentence};
        const Run r = cli(QStringList{"trace"} + input + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void aCustomMaskIsForTheSparseKinds()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("mask.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 11; ++i) { // the sentence's 11 tokens; hide key 0 from every query but the first
            for (int j = 0; j < 11; ++j)
                f.write(j == 0 && i > 0 ? "1 " : "0 ");
            f.write("\n");
        }
        f.close();
        const Run linear = cli({"trace", "--sentence", kSentence, "--attention", "linear", "--mask-file", f.fileName()});
        QCOMPARE(linear.exitCode, 2);
        QVERIFY(linear.err.contains("linear attention takes no mask, a causal or a padding mask, not a custom one"));
        const Run window = cli({"trace", "--sentence", kSentence, "--attention", "sliding-window", "--window", "1", "--mask-file", f.fileName()});
        QCOMPARE(window.exitCode, 0);
        const QJsonArray mask = stageData(json(window.out), "mask", -1);
        QVERIFY(mask.at(1).toArray().at(0).isString()); // "-inf": key 0 is hidden from query 1 by the custom mask
        QCOMPARE(mask.at(1).toArray().at(2).toDouble(-1), 0.0);
    }

    // Imported weights scaled ×10 (issue 27 §4): scaled scores in the hundreds put every exponent
    // of a row far below float's exp range, and rows of Performer's weights summed to 0 (with a
    // head output of 0) and exit 0. Each row must be the estimate, checked against the
    // definition computed here in long double from the trace's own q, k and Ω:
    //   A_ij ∝ Σ_r exp(ω_r·q̂_i − ‖q̂_i‖²/2 + ω_r·k̂_j − ‖k̂_j‖²/2), x̂ = x / d_k^¼.
    void performerWithWeightsScaledUp()
    {
        QTemporaryDir dir;
        const QString w = dir.filePath(QStringLiteral("w.safetensors"));
        const Run saved = cli({"trace", "--seed", "3", "--save-weights", w, "-o", dir.filePath(QStringLiteral("a.json"))});
        QVERIFY2(saved.exitCode == 0, saved.err.constData());
        QVERIFY(scaleWeights(w, 10.0f));
        const Run r = cli({"trace", "--seed", "3", "--attention", "performer", "--weights", w});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QJsonObject trace = json(r.out);
        const RealMatrix omega = realMatrix(stageData(trace, QStringLiteral("random_features"), -1));
        long double largestScore = 0, worst = 0, worstSum = 0;
        for (int h = 0; h < 4; ++h) {
            const RealMatrix q = realMatrix(stageData(trace, QStringLiteral("q"), h));
            const RealMatrix k = realMatrix(stageData(trace, QStringLiteral("k"), h));
            const RealMatrix weights = realMatrix(stageData(trace, QStringLiteral("weights"), h));
            QVERIFY(!q.empty() && q.size() == weights.size() && !omega.empty());
            const std::size_t dK = q[0].size();
            const long double scale = 1 / std::pow(static_cast<long double>(dK), 0.25L);
            const auto exponents = [&](const std::vector<long double>& x) {
                long double norm2 = 0;
                for (const long double a : x)
                    norm2 += a * scale * a * scale;
                std::vector<long double> e;
                for (const auto& o : omega) {
                    long double dot = 0;
                    for (std::size_t c = 0; c < dK; ++c)
                        dot += o[c] * x[c] * scale;
                    e.push_back(dot - norm2 / 2);
                }
                return e;
            };
            for (std::size_t i = 0; i < q.size(); ++i) {
                const auto eq = exponents(q[i]);
                std::vector<long double> logs;
                for (std::size_t j = 0; j < k.size(); ++j) {
                    const auto ek = exponents(k[j]);
                    long double top = -INFINITY, sum = 0, score = 0;
                    for (std::size_t r = 0; r < eq.size(); ++r)
                        top = std::max(top, eq[r] + ek[r]);
                    for (std::size_t r = 0; r < eq.size(); ++r)
                        sum += std::exp(eq[r] + ek[r] - top);
                    logs.push_back(top + std::log(sum));
                    for (std::size_t c = 0; c < dK; ++c)
                        score += q[i][c] * k[j][c];
                    largestScore = std::max(largestScore, std::abs(score) / std::sqrt(static_cast<long double>(dK)));
                }
                const long double top = *std::max_element(logs.begin(), logs.end());
                long double total = 0, rowSum = 0;
                for (const long double l : logs)
                    total += std::exp(l - top);
                for (std::size_t j = 0; j < logs.size(); ++j) {
                    worst = std::max(worst, std::abs(std::exp(logs[j] - top) / total - weights[i][j]));
                    rowSum += weights[i][j];
                }
                worstSum = std::max(worstSum, std::abs(rowSum - 1));
            }
        }
        const QByteArray what = "largest scaled score " + QByteArray::number(double(largestScore)) + ", largest weight difference "
                                + QByteArray::number(double(worst)) + ", largest row-sum error " + QByteArray::number(double(worstSum));
        QVERIFY2(largestScore > 100, what.constData()); // the case: scores far beyond the unscaled weights'
        QVERIFY2(worstSum < 1e-5L && worst < 1e-4L, what.constData());
    }

    void costReportsEveryLength()
    {
        const Run r = cli({"cost", "--attention", "sliding-window", "--window", "4", "--n", "64,128,256", "--d-model", "32", "--heads",
                           "2", "--repeats", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = json(r.out);
        QCOMPARE(j.value("attention").toString(), QStringLiteral("sliding-window"));
        QCOMPARE(j.value("d_model").toInt(), 32);
        QCOMPARE(j.value("heads").toInt(), 2);
        QCOMPARE(j.value("repeats").toInt(), 2);
        const QJsonArray points = j.value("points").toArray();
        QCOMPARE(points.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject p = points.at(i).toObject();
            QCOMPARE(p.value("n").toInt(), 64 << i);
            QVERIFY(p.value("median_s").toDouble() > 0);
            QVERIFY(p.value("peak_bytes").toDouble(-1) >= 0);
            // FLOPs by formula: 4·d_k per allowed cell and head; a window of 4 allows 9 keys
            // per row, fewer at the edges (2·(4+3+2+1) = 20 cells fewer per head).
            const double n = 64 << i;
            QCOMPARE(p.value("flops").toDouble(), 2 * 4.0 * 16 * (9 * n - 20));
            QVERIFY(std::abs(p.value("gflops").toDouble() - p.value("flops").toDouble() / p.value("median_s").toDouble() / 1e9) < 1e-3);
        }
        QVERIFY(std::isfinite(j.value("slope").toDouble()));
        // Without --json: a table with one line per n and the slope.
        const Run t = cli({"cost", "--attention", "linear", "--n", "64,128", "--d-model", "32", "--heads", "2", "--repeats", "1"});
        QCOMPARE(t.exitCode, 0);
        QVERIFY(t.out.contains("log-log slope"));
        QCOMPARE(t.out.count('\n'), 2 + 2 + 1);
    }

    // FlashAttention's cost: full attention's FLOPs, and memory that grows as n, not n²: at
    // n = 1024 full attention holds 4 MB of scores, flash its m, ℓ, a tile and K, V (about 0.5 MB).
    void costOfFlash()
    {
        const QStringList common{"--n", "256,1024", "--d-model", "64", "--heads", "1", "--repeats", "1", "--json"};
        const Run f = cli(QStringList{"cost", "--attention", "flash", "--query-block", "16", "--key-block", "16"} + common);
        const Run a = cli(QStringList{"cost", "--attention", "full"} + common);
        QCOMPARE(f.exitCode, 0);
        QCOMPARE(a.exitCode, 0);
        const QJsonArray fp = json(f.out).value("points").toArray(), ap = json(a.out).value("points").toArray();
        QCOMPARE(json(f.out).value("attention").toString(), QStringLiteral("flash"));
        for (int i = 0; i < 2; ++i)
            QCOMPARE(fp.at(i).toObject().value("flops").toDouble(), ap.at(i).toObject().value("flops").toDouble());
        const double flashBytes = fp.at(1).toObject().value("peak_bytes").toDouble();
        const double fullBytes = ap.at(1).toObject().value("peak_bytes").toDouble();
        if (fullBytes > 0) // measured (Linux)
            QVERIFY2(flashBytes < fullBytes / 2, qPrintable(QStringLiteral("flash %1, full %2 bytes").arg(flashBytes).arg(fullBytes)));
    }

    void costRefusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("n 1") << QStringList{"--n", "1"} << "n (1) must be between 2";
        QTest::newRow("n text") << QStringList{"--n", "64,x"} << "--n expects a whole number";
        QTest::newRow("heads") << QStringList{"--d-model", "30", "--heads", "4"} << "must be a multiple of heads";
        QTest::newRow("full too large") << QStringList{"--attention", "full", "--n", "65536"} << "at n = 65536, measuring would need about 16 GB of memory; the limit is 4 GB: use a smaller --n or --d-model";
        QTest::newRow("repeats") << QStringList{"--repeats", "0"} << "repeats (0) must be between 1 and 100";
        QTest::newRow("window 0") << QStringList{"--attention", "sliding-window", "--window", "0"} << "window (0)";
        QTest::newRow("flash block 0") << QStringList{"--attention", "flash", "--key-block", "0"} << "key_block (0) must be between 1 and 4096";
    }

    void costRefusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = cli(QStringList{"cost"} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliAttention)
#include "tst_cli_attention.moc"
