// The cell inspector explains a number from the Trace. With identity weights, no positions and
// no embedding scale, Q = K = V = X, so every expected number below is computed by hand from X
// (stage "input"): q_i[d] = X[i, h·d_k + d], S_ij = Σ_d q_i[d]·k_j[d], softmax written out.

#include "views/cellinspector.h"
#include "session/session.h"
#include "support/hfsession.h"
#include "support/settle.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QHeaderView>
#include <QScopeGuard>
#include <QTableWidget>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;

namespace {

const QString kSentence = QStringLiteral("the cat sat on the mat"); // 6 tokens, "the" twice
const QString kMinusInfinity = QStringLiteral("\u2212\u221E");

Config identityConfig(int d, int heads, MaskKind mask = MaskKind::None)
{
    Config c;
    c.dModel = d;
    c.heads = heads;
    c.weightsPreset = WeightsPreset::Identity;
    c.positional = PositionalEncoding::None;
    c.embedScale = false;
    c.mask = mask;
    return c;
}

Eigen::MatrixXd inputX(const Session& s)
{
    const Stage* x = s.trace()->find("input");
    return x ? x->main().values.cast<double>() : Eigen::MatrixXd();
}

/// Hand-computed scores of head h: S_ij = Σ_d X[i, h·dK + d]·X[j, h·dK + d].
double handScore(const Eigen::MatrixXd& x, int h, int dK, int i, int j)
{
    double s = 0;
    for (int d = 0; d < dK; ++d)
        s += x(i, h * dK + d) * x(j, h * dK + d);
    return s;
}

bool close(double a, double b, double tol = 1e-5)
{
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

QString diff(const char* what, int where, double got, double want)
{
    return QStringLiteral("%1 at %2: got %3, want %4 (difference %5)")
        .arg(QLatin1String(what))
        .arg(where)
        .arg(got, 0, 'g', 9)
        .arg(want, 0, 'g', 9)
        .arg(std::abs(got - want), 0, 'g', 3);
}

/// The "−∞" markers drawn in the bar chart.
int minusInfinityMarkers(QCustomPlot* plot)
{
    int count = 0;
    for (int k = 0; k < plot->itemCount(); ++k) {
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(k)); t && t->text() == kMinusInfinity)
            ++count;
    }
    return count;
}

QCPBars* barsNamed(QCustomPlot* plot, const QString& name)
{
    for (int k = 0; k < plot->plottableCount(); ++k) {
        if (auto* b = qobject_cast<QCPBars*>(plot->plottable(k)); b && b->name() == name)
            return b;
    }
    return nullptr;
}

} // namespace

class TestCellInspector : public QObject {
    Q_OBJECT
private slots:
    void showsTheHintWhenNothingIsSelected()
    {
        Session s;
        CellInspector w(&s);
        QCOMPARE(w.mode(), CellInspector::Mode::Hint);
        QVERIFY(w.summaryText().contains(QStringLiteral("Click a cell of the heatmap")));
        QVERIFY(w.table()->isHidden());
    }

    void scoreCellIsTheDotProduct_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("head");
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("col");
        QTest::newRow("one head, cat·mat") << 1 << 0 << 1 << 5;
        QTest::newRow("one head, the·the (same token)") << 1 << 0 << 0 << 4;
        QTest::newRow("two heads, head 2, sat·on") << 2 << 1 << 2 << 3;
        QTest::newRow("two heads, head 1, mat·cat") << 2 << 0 << 5 << 1;
    }

    void scoreCellIsTheDotProduct()
    {
        QFETCH(int, heads);
        QFETCH(int, head);
        QFETCH(int, row);
        QFETCH(int, col);
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, heads));
        s.setStepId(QStringLiteral("scores"));
        s.setHead(head);
        CellInspector w(&s);
        s.selectCell(row, col);
        QCOMPARE(w.mode(), CellInspector::Mode::Score);

        const Eigen::MatrixXd x = inputX(s);
        const int dK = 4 / heads;
        // One table row per dimension: q_i[d], k_j[d], their product.
        double sum = 0;
        for (int d = 0; d < dK; ++d) {
            const double q = x(row, head * dK + d);
            const double k = x(col, head * dK + d);
            QCOMPARE(w.table()->item(d, 0)->text(), QStringLiteral("d%1").arg(d + 1)); // counted from 1
            QVERIFY2(close(w.tableNumber(d, 1), q), qPrintable(diff("q_i[d]", d, w.tableNumber(d, 1), q)));
            QVERIFY2(close(w.tableNumber(d, 2), k), qPrintable(diff("k_j[d]", d, w.tableNumber(d, 2), k)));
            QVERIFY2(close(w.tableNumber(d, 3), q * k), qPrintable(diff("product", d, w.tableNumber(d, 3), q * k)));
            sum += q * k;
        }
        QCOMPARE(sum, handScore(x, head, dK, row, col));
        // Then Σ (the row after the dimensions), the trace's S_ij, and S_ij / √d_k.
        QVERIFY2(close(w.tableNumber(dK, 3), sum), qPrintable(diff("sum row", dK, w.tableNumber(dK, 3), sum)));
        QVERIFY2(close(w.shownValue("recomputed"), sum), qPrintable(diff("recomputed", 0, w.shownValue("recomputed"), sum)));
        QVERIFY2(close(w.shownValue("trace"), sum), qPrintable(diff("trace S", 0, w.shownValue("trace"), sum)));
        const double scaled = sum / std::sqrt(static_cast<double>(dK));
        QVERIFY2(close(w.shownValue("scaled"), scaled), qPrintable(diff("scaled", 0, w.shownValue("scaled"), scaled)));
        QCOMPARE(w.shownValue("mask"), 0.0);
        QVERIFY(close(w.shownValue("masked"), scaled));

        // The weight: softmax of the hand-computed scaled row.
        double denom = 0;
        double maxScore = -1e300;
        for (int j = 0; j < 6; ++j)
            maxScore = std::max(maxScore, handScore(x, head, dK, row, j) / std::sqrt(double(dK)));
        for (int j = 0; j < 6; ++j)
            denom += std::exp(handScore(x, head, dK, row, j) / std::sqrt(double(dK)) - maxScore);
        const double a = std::exp(scaled - maxScore) / denom;
        QVERIFY2(close(w.shownValue("weight"), a), qPrintable(diff("weight", col, w.shownValue("weight"), a)));

        const std::vector<std::string>& tok = s.trace()->tokens;
        QCOMPARE(w.headingText(), QStringLiteral("query \u201C%1\u201D (row %2) \u00B7 key \u201C%3\u201D (column %4)")
                                      .arg(QString::fromStdString(tok[row]))
                                      .arg(row + 1) // rows and columns counted from 1 on screen
                                      .arg(QString::fromStdString(tok[col]))
                                      .arg(col + 1));
        QVERIFY(w.summaryText().contains(QStringLiteral("Head %1").arg(head + 1))); // heads 1-based on screen
    }

    void scalingOffKeepsTheScore()
    {
        Session s;
        s.setSentence(kSentence);
        Config c = identityConfig(4, 1);
        c.scaleScores = false;
        s.setConfig(c);
        s.setStepId(QStringLiteral("scaled"));
        CellInspector w(&s);
        s.selectCell(3, 2);
        const double sum = handScore(inputX(s), 0, 4, 3, 2);
        QVERIFY(close(w.shownValue("scaled"), sum));
        QVERIFY(w.summaryText().contains(QStringLiteral("Scaling is off")));
    }

    void numbersUseTheRealMinusSign()
    {
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, 1));
        s.setStepId(QStringLiteral("scores"));
        CellInspector w(&s);
        // Find a cell with a negative product; its text must start with U+2212, not '-'.
        const Eigen::MatrixXd x = inputX(s);
        bool found = false;
        for (int j = 0; j < 6 && !found; ++j) {
            s.selectCell(1, j);
            for (int d = 0; d < 4 && !found; ++d) {
                if (x(1, d) * x(j, d) < 0) {
                    const QString text = w.table()->item(d, 3)->text();
                    QVERIFY2(text.startsWith(QChar(0x2212)), qPrintable(text));
                    QVERIFY(!text.contains(QLatin1Char('-')));
                    found = true;
                }
            }
        }
        QVERIFY(found);
    }

    void causallyMaskedCellIsMinusInfinity_data()
    {
        QTest::addColumn<QString>("step");
        QTest::newRow("masked_scores") << QStringLiteral("masked_scores");
        QTest::newRow("mask") << QStringLiteral("mask");
        QTest::newRow("scores") << QStringLiteral("scores");
    }

    void causallyMaskedCellIsMinusInfinity()
    {
        QFETCH(QString, step);
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, 2, MaskKind::Causal));
        s.setStepId(step);
        s.setHead(1);
        CellInspector w(&s);
        s.selectCell(1, 4); // key 4 is in the future of query 1
        QCOMPARE(w.mode(), CellInspector::Mode::Score);
        QVERIFY(std::isinf(w.shownValue("mask")) && w.shownValue("mask") < 0);
        QVERIFY(std::isinf(w.shownValue("masked")) && w.shownValue("masked") < 0);
        QCOMPARE(w.shownValue("weight"), 0.0);
        // The score itself is still an ordinary number: the mask comes after it.
        QVERIFY(close(w.shownValue("trace"), handScore(inputX(s), 1, 2, 1, 4)));
        // The table shows −∞ for M and S″, and 0 for A.
        int minusInf = 0;
        for (int r = 0; r < w.table()->rowCount(); ++r) {
            const auto* item = w.table()->item(r, w.table()->columnCount() - 1);
            if (item && item->text() == kMinusInfinity)
                ++minusInf;
        }
        QCOMPARE(minusInf, 2);
        QCOMPARE(w.tableNumber(w.table()->rowCount() - 1, w.table()->columnCount() - 1), 0.0);
        QVERIFY(w.summaryText().contains(kMinusInfinity));

        // An allowed cell of the same row is not masked.
        s.selectCell(1, 0);
        QCOMPARE(w.shownValue("mask"), 0.0);
        QVERIFY(w.shownValue("weight") > 0.0);
    }

    void weightsRowShowsBothBarCharts()
    {
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, 1, MaskKind::Causal));
        s.setStepId(QStringLiteral("weights"));
        CellInspector w(&s);
        w.resize(420, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int i = 2;
        s.selectCell(i, 1); // any cell of row 2 selects the row
        QCOMPARE(w.mode(), CellInspector::Mode::WeightsRow);
        QVERIFY(w.barsPlot()->isVisible());

        // Hand softmax of row 2: keys 0..2 visible, 3..5 masked.
        const Eigen::MatrixXd x = inputX(s);
        std::vector<double> scaled;
        for (int j = 0; j <= i; ++j)
            scaled.push_back(handScore(x, 0, 4, i, j) / 2.0);
        const double mx = *std::max_element(scaled.begin(), scaled.end());
        double denom = 0;
        for (double v : scaled)
            denom += std::exp(v - mx);

        QCPBars* weights = barsNamed(w.barsPlot(), "weights");
        QCPBars* scores = barsNamed(w.barsPlot(), "scores");
        QVERIFY(weights && scores);
        QCOMPARE(weights->data()->size(), 6);
        double sum = 0;
        for (int j = 0; j < 6; ++j) {
            const double got = (weights->data()->constBegin() + j)->value;
            const double want = j <= i ? std::exp(scaled[std::size_t(j)] - mx) / denom : 0.0;
            QVERIFY2(close(got, want), qPrintable(diff("weight bar", j, got, want)));
            QVERIFY(got >= 0.0 && got <= 1.0);
            sum += got;
        }
        QVERIFY2(std::abs(sum - 1.0) < 1e-5, qPrintable(diff("sum of bars", i, sum, 1.0)));
        QVERIFY(close(w.shownValue("sum"), 1.0));
        // Before softmax: bars only for the visible keys, a −∞ marker for each masked one.
        QCOMPARE(scores->data()->size(), 3);
        for (int j = 0; j <= i; ++j)
            QVERIFY(close((scores->data()->constBegin() + j)->value, scaled[std::size_t(j)]));
        QCOMPARE(w.maskedKeys(), (std::vector<int>{3, 4, 5}));
        QCOMPARE(minusInfinityMarkers(w.barsPlot()), 3);
        // Keys are the tick labels.
        auto ticker = w.barsPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(5), QStringLiteral("mat"));

        // The table: key, score, exp(score − max), weight; then the Σ row with Σ A = 1.
        QCOMPARE(w.table()->rowCount(), 7);
        QCOMPARE(w.table()->item(4, 1)->text(), kMinusInfinity);
        QCOMPARE(w.tableNumber(4, 2), 0.0);
        QCOMPARE(w.tableNumber(4, 3), 0.0);
        QVERIFY(close(w.tableNumber(6, 2), denom));
        QVERIFY(close(w.tableNumber(6, 3), 1.0));
        QVERIFY(w.summaryText().contains(QStringLiteral("\u2713")));

        // Row 5 sees everything: no markers, all six score bars.
        s.selectCell(5, 0);
        QCOMPARE(minusInfinityMarkers(w.barsPlot()), 0);
        QCOMPARE(scores->data()->size(), 6);
        QVERIFY(w.maskedKeys().empty());
    }

    void headOutputTermsSumToZ()
    {
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, 2, MaskKind::Causal));
        s.setStepId(QStringLiteral("head_output"));
        s.setHead(1);
        CellInspector w(&s);
        const int i = 3;
        const int c = 1;
        s.selectCell(i, c);
        QCOMPARE(w.mode(), CellInspector::Mode::HeadOutput);
        const Eigen::MatrixXd x = inputX(s);
        const Eigen::MatrixXf& a = s.trace()->find("weights", 1)->main().values;
        const double z = s.trace()->find("head_output", 1)->main().values(i, c);
        double sum = 0;
        for (int j = 0; j < 6; ++j) {
            const double v = x(j, 1 * 2 + c); // identity weights: V = X's columns of head 2
            QVERIFY2(close(w.tableNumber(j, 2), v), qPrintable(diff("V[j, c]", j, w.tableNumber(j, 2), v)));
            QVERIFY(close(w.tableNumber(j, 3), double(a(i, j)) * v));
            sum += w.tableNumber(j, 3);
        }
        QVERIFY2(close(sum, z), qPrintable(diff("Σ terms vs Z", i, sum, z)));
        QVERIFY(close(w.shownValue("trace"), z));
        QVERIFY(close(w.shownValue("recomputed"), z));
        // Masked future keys weigh 0 and add nothing.
        QCOMPARE(w.tableNumber(5, 3), 0.0);
    }

    void projectionListsTheLargestTerms()
    {
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(16, 2));
        s.setStepId(QStringLiteral("k"));
        s.setHead(1);
        CellInspector w(&s);
        const int i = 4;
        const int c = 3;
        s.selectCell(i, c);
        QCOMPARE(w.mode(), CellInspector::Mode::Projection);
        // Identity W_K: the one nonzero term is X[i, h·d_k + c]·1, listed first.
        const double xv = inputX(s)(i, 1 * 8 + c);
        QCOMPARE(w.table()->item(0, 0)->text(), QStringLiteral("d12")); // column 11 counted from 0
        QVERIFY(close(w.tableNumber(0, 1), xv));
        QCOMPARE(w.tableNumber(0, 2), 1.0);
        QVERIFY(close(w.tableNumber(0, 3), xv));
        // 8 of 16 terms listed, then "… 8 smaller terms", bias, Σ, the trace's value.
        QCOMPARE(w.table()->rowCount(), 8 + 4);
        QVERIFY(w.table()->item(8, 0)->text().startsWith(QChar(0x2026)));
        QCOMPARE(w.shownValue("omitted"), 0.0);
        QCOMPARE(w.shownValue("bias"), 0.0);
        QVERIFY(close(w.shownValue("recomputed"), xv));
        QVERIFY(close(w.shownValue("trace"), xv));
    }

    void staleSelectionsShowTheHint()
    {
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, 2));
        s.setStepId(QStringLiteral("scores"));
        CellInspector w(&s);
        s.selectCell(99, 99);
        QCOMPARE(w.mode(), CellInspector::Mode::Hint);
        QVERIFY(w.summaryText().contains(QStringLiteral("Click a cell")));

        // Column 3 exists in the 6 x 6 scores but not in the 6 x 2 queries of a head.
        s.selectCell(1, 3);
        QCOMPARE(w.mode(), CellInspector::Mode::Score);
        s.setStepId(QStringLiteral("q"));
        QCOMPARE(w.mode(), CellInspector::Mode::Hint);

        // A shorter sentence: the session keeps (1, 3) (3 < d_model), the 3 x 3 scores do not have it.
        s.setStepId(QStringLiteral("scores"));
        QCOMPARE(w.mode(), CellInspector::Mode::Score);
        s.setSentence(QStringLiteral("a b c"));
        QCOMPARE(w.mode(), CellInspector::Mode::Hint);
        QVERIFY(w.summaryText().contains(QStringLiteral("Click a cell")));

        // Shrinking under a weights row, with the panel on screen.
        w.show();
        s.setSentence(kSentence);
        s.setStepId(QStringLiteral("weights"));
        s.selectCell(5, 5);
        QCOMPARE(w.mode(), CellInspector::Mode::WeightsRow);
        s.setSentence(QStringLiteral("a"));
        QCOMPARE(w.mode(), CellInspector::Mode::Hint);
        testing::settle(); // the queued replot runs on the emptied state
    }

    void stepAndHeadChangesUpdateThePanel()
    {
        Session s;
        s.setSentence(kSentence);
        s.setConfig(identityConfig(4, 2));
        s.setStepId(QStringLiteral("scores"));
        CellInspector w(&s);
        s.selectCell(2, 1);
        QCOMPARE(w.mode(), CellInspector::Mode::Score);
        const double head1 = w.shownValue("trace");
        QVERIFY(close(head1, handScore(inputX(s), 0, 2, 2, 1)));

        s.setHead(1);
        QVERIFY(close(w.shownValue("trace"), handScore(inputX(s), 1, 2, 2, 1)));

        s.setStepId(QStringLiteral("weights"));
        QCOMPARE(w.mode(), CellInspector::Mode::WeightsRow);
        QVERIFY(close(w.shownValue("sum"), 1.0));

        s.setStepId(QStringLiteral("head_output"));
        QCOMPARE(w.mode(), CellInspector::Mode::HeadOutput);

        s.setStepId(QStringLiteral("input"));
        QCOMPARE(w.mode(), CellInspector::Mode::Value);
        QVERIFY(w.summaryText().startsWith(QStringLiteral("X[3, 2] = "))); // cell (2, 1) counted from 1
        QVERIFY(close(w.shownValue("trace"), inputX(s)(2, 1)));
        QVERIFY(w.table()->isHidden());

        s.selectCell(-1, -1);
        QCOMPARE(w.mode(), CellInspector::Mode::Hint);
    }

    void chineseTokensInTheHeading()
    {
        Session s;
        s.setSentence(QStringLiteral("狗咬了人"));
        s.setConfig(identityConfig(4, 1));
        s.setStepId(QStringLiteral("masked_scores"));
        CellInspector w(&s);
        s.selectCell(0, 3);
        QCOMPARE(w.headingText(), QStringLiteral("query \u201C狗\u201D (row 1) \u00B7 key \u201C人\u201D (column 4)"));
        s.setStepId(QStringLiteral("weights"));
        auto ticker = w.barsPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(1), QStringLiteral("咬"));
        // The axes use the widget's font, so its CJK fallback family carries over.
        QCOMPARE(w.barsPlot()->xAxis->tickLabelFont().families(), w.font().families());
    }

    void crossAttentionKeysAreTheSource()
    {
        // In cross-attention the queries are the decoder's tokens and the keys the source's;
        // keys and values are projections of the encoder output, not of the decoder stream.
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        s.setSentence(QStringLiteral("abc"));
        s.setTarget(QStringLiteral("cba"));
        s.setStep(s.stepIndex(QStringLiteral("scores"), 1, Block::Cross));
        CellInspector w(&s);
        s.selectCell(1, 2);
        QCOMPARE(w.headingText(), QStringLiteral("query \u201Cc\u201D (row 2) \u00B7 key \u201Cc\u201D (column 3)"));
        s.selectCell(3, 0);
        QCOMPARE(w.headingText(), QStringLiteral("query \u201Ca\u201D (row 4) \u00B7 key \u201Ca\u201D (column 1)"));
        // K = Mem·W_Kᵀ + b_K: the recomputed value is the trace's.
        s.setStep(s.stepIndex(QStringLiteral("k"), 1, Block::Cross));
        s.selectCell(2, 5);
        QCOMPARE(w.mode(), CellInspector::Mode::Projection);
        QVERIFY(w.headingText().contains(QStringLiteral("\u201Cc\u201D (row 3)")));
        QVERIFY(close(w.shownValue("recomputed"), w.shownValue("trace")));
        const Stage* k = s.fullTrace()->find("k", 0, 1, Block::Cross);
        QVERIFY(close(w.shownValue("trace"), k->main().values(2, 5)));
    }

    /// Saves screenshots for a human look when ATTNLAB_INSPECTOR_SHOTS names a directory.
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("ATTNLAB_INSPECTOR_SHOTS");
        if (dir.isEmpty())
            QSKIP("set ATTNLAB_INSPECTOR_SHOTS=<dir> to save screenshots");
        // As the application does (app/gui/main.cpp): Simplified Chinese glyph shapes.
        const QFont appFont = QApplication::font();
        const auto restore = qScopeGuard([&] { QApplication::setFont(appFont); });
        QFont font = appFont;
        font.setFamilies({QFontInfo(font).family(), QStringLiteral("Noto Sans CJK SC")});
        QApplication::setFont(font);
        Session s;
        Config c = s.config();
        c.mask = MaskKind::Causal;
        s.setConfig(c);
        CellInspector w(&s);
        w.resize(420, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        s.setStepId(QStringLiteral("masked_scores"));
        s.selectCell(2, 5);
        testing::settle();
        QVERIFY(w.grab().save(dir + QStringLiteral("/inspector_scores.png")));
        s.setStepId(QStringLiteral("weights"));
        s.selectCell(8, 1);
        testing::settle();
        QVERIFY(w.grab().save(dir + QStringLiteral("/inspector_weights.png")));
        s.setStepId(QStringLiteral("q"));
        s.selectCell(3, 2);
        testing::settle();
        QVERIFY(w.grab().save(dir + QStringLiteral("/inspector_q.png")));
        s.setStepId(QStringLiteral("head_output"));
        testing::settle();
        QVERIFY(w.grab().save(dir + QStringLiteral("/inspector_head_output.png")));
        s.setSentence(QStringLiteral("我爱自然语言处理"));
        s.setStepId(QStringLiteral("weights"));
        s.selectCell(4, 0);
        testing::settle();
        QVERIFY(w.grab().save(dir + QStringLiteral("/inspector_weights_zh.png")));
        s.selectCell(-1, -1);
        testing::settle();
        QVERIFY(w.grab().save(dir + QStringLiteral("/inspector_hint.png")));
    }

    // Grouped-query attention (issue 31): query head 5 of the Llama folder (6 heads over 2
    // key/value heads) scores with key/value head 2's keys; the inspector says so, and its q·k
    // recomputed from them is the trace's score (it used the keys of head 5, which do not exist).
    // Gemma 3 divides by √query_pre_attn_scalar, and says it.
    void aSharedKeyExplainsAGroupedQueryScore()
    {
        Session s;
        QVERIFY(testing::openHfFolder(s, "llama_gqa_tied_f32", kSentence));
        s.setStep(s.stepIndex(QStringLiteral("scores"), 0, Block::DecoderSelf));
        s.setHead(4);
        CellInspector w(&s);
        s.selectCell(3, 1);
        QVERIFY2(w.summaryText().contains(QStringLiteral("Grouped-query attention: k_2 is the key of key/value head 2, which query heads 4, 5, 6 share.")),
                 qPrintable(w.summaryText()));
        const double trace = s.trace()->find("scores", 4)->main().values(3, 1);
        QVERIFY(std::abs(w.shownValue("recomputed") - trace) <= 1e-5 * std::max(1.0, std::abs(trace)));

        QVERIFY(testing::openHfFolder(s, "gemma3_sliding_bf16", kSentence));
        s.setStep(s.stepIndex(QStringLiteral("scaled"), 0, Block::DecoderSelf));
        s.setHead(1);
        s.selectCell(2, 0);
        QVERIFY2(w.summaryText().contains(QStringLiteral("\u00F7 √query_pre_attn_scalar =")), qPrintable(w.summaryText()));
        QVERIFY(w.summaryText().contains(QStringLiteral("which query heads 1, 2 share")));
    }
};

QTEST_MAIN(TestCellInspector)
#include "tst_cellinspector.moc"
