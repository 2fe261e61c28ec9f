// The positional encoding view: the table it draws is the session's, PE(0) is [0, 1, 0, 1, ...],
// the encoding can be switched (and follows the session), bad dimension input is refused inline,
// and the similarity P·Pᵀ is what a hand computation from the table gives.

#include "views/heatmapview.h"
#include "views/positionalview.h"
#include "session/session.h"
#include "support/settle.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include "model/run.h"
#include "model/shipped.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

/// The largest |a - b| and where it is, for messages that say what went wrong.
QString largestDifference(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b, double* worst)
{
    *worst = 0;
    Eigen::Index wr = 0, wc = 0;
    for (Eigen::Index r = 0; r < a.rows(); ++r) {
        for (Eigen::Index c = 0; c < a.cols(); ++c) {
            const double d = std::abs(static_cast<double>(a(r, c)) - b(r, c));
            if (d > *worst) {
                *worst = d;
                wr = r;
                wc = c;
            }
        }
    }
    return QStringLiteral("largest difference %1 at [%2, %3]").arg(*worst).arg(wr).arg(wc);
}

/// Types `text` key by key, replacing what the box held (curves follow every keystroke).
void typeDimensions(PositionalEncodingView& v, const QString& text)
{
    v.dimensionsEdit()->selectAll();
    QTest::keyClick(v.dimensionsEdit(), Qt::Key_Backspace);
    QTest::keyClicks(v.dimensionsEdit(), text);
}

/// Puts `text` in the box at once, as a paste does.
void pasteDimensions(PositionalEncodingView& v, const QString& text)
{
    v.dimensionsEdit()->selectAll();
    v.dimensionsEdit()->insert(text);
    QCOMPARE(v.dimensionsEdit()->text(), text);
}

} // namespace

class TestPositionalView : public QObject {
    Q_OBJECT
private slots:
    void matrixIsTheSessionsTable()
    {
        Session s;
        PositionalEncodingView v(&s);
        const int n = static_cast<int>(s.trace()->tokens.size());
        QVERIFY(n < PositionalEncodingView::kMinPositions); // the default sentence is short
        const LabeledMatrix& m = v.matrixView()->matrix();
        QCOMPARE(m.values.rows(), Eigen::Index(PositionalEncodingView::kMinPositions));
        QCOMPARE(m.values.cols(), Eigen::Index(s.config().dModel));
        double worst = 0;
        const QString where = largestDifference(m.values, s.positionalTable(PositionalEncodingView::kMinPositions), &worst);
        QVERIFY2(worst == 0, qPrintable(where));
        // The sentence's own rows are the first n: the same as the trace's P.
        const Eigen::MatrixXf& p = s.trace()->find("positional_encoding")->main().values;
        QVERIFY(m.values.topRows(n) == p);
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("%1 positions").arg(PositionalEncodingView::kMinPositions)));
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("first %1 rows").arg(n)));
    }

    void rowsAreTheFormulaByHand()
    {
        Session s;
        PositionalEncodingView v(&s);
        const Eigen::MatrixXf& m = v.matrixView()->matrix().values;
        const int d = s.config().dModel;
        // PE(0) = [sin 0, cos 0, ...] = [0, 1, 0, 1, ...].
        for (int j = 0; j < d; ++j)
            QCOMPARE(m(0, j), j % 2 == 0 ? 0.0f : 1.0f);
        // PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...).
        for (int pos : {1, 7, 33, 49}) {
            for (int j = 0; j < d; ++j) {
                const double angle = pos / std::pow(10000.0, 2.0 * (j / 2) / d);
                const double expected = j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                QVERIFY2(std::abs(m(pos, j) - expected) < 1e-6,
                         qPrintable(QStringLiteral("PE(%1, %2) = %3, expected %4").arg(pos).arg(j).arg(m(pos, j)).arg(expected)));
            }
        }
    }

    void longSentencesShowAllTheirPositions()
    {
        Session s;
        QStringList words;
        for (int i = 0; i < 60; ++i)
            words << QStringLiteral("w%1").arg(i);
        s.setSentence(words.join(QLatin1Char(' ')));
        PositionalEncodingView v(&s);
        QCOMPARE(v.matrixView()->matrix().values.rows(), Eigen::Index(60));
        QCOMPARE(v.positionCount(), 60);
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("60 positions")));
    }

    void switchingToNoneShowsZeros()
    {
        Session s;
        PositionalEncodingView v(&s);
        QSignalSpy traces(&s, &Session::traceChanged);
        const QString before = v.captionLabel()->text();
        v.kindCombo()->setCurrentIndex(v.kindCombo()->findData(QStringLiteral("none")));
        QVERIFY(s.config().positional == PositionalEncoding::None);
        QCOMPARE(traces.count(), 1);
        const Eigen::MatrixXf& m = v.matrixView()->matrix().values;
        QCOMPARE(m.rows(), Eigen::Index(PositionalEncodingView::kMinPositions)); // zeros, not an empty plot
        QVERIFY(m.isZero(0));
        QVERIFY(v.similarityView()->matrix().values.isZero(0));
        QVERIFY(v.captionLabel()->text() != before);
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("No positional encoding")));
        // ... and on the plots themselves.
        const auto notes = [](QCustomPlot* p) {
            int count = 0;
            for (int i = 0; i < p->itemCount(); ++i)
                count += p->item(i)->objectName() == QStringLiteral("zeroNote") ? 1 : 0;
            return count;
        };
        QCOMPARE(notes(v.matrixView()->plot()), 1);
        QCOMPARE(notes(v.similarityView()->plot()), 1);
        // The curves are still drawn: flat lines at 0.
        QVERIFY(v.curvesPlot()->graphCount() > 0);
        for (int g = 0; g < v.curvesPlot()->graphCount(); ++g) {
            const auto data = v.curvesPlot()->graph(g)->data();
            QCOMPARE(data->size(), PositionalEncodingView::kMinPositions);
            for (auto it = data->constBegin(); it != data->constEnd(); ++it)
                QCOMPARE(it->value, 0.0);
        }
    }

    void comboFollowsTheSession()
    {
        Session s;
        PositionalEncodingView v(&s);
        QCOMPARE(v.kindCombo()->currentData().toString(), QStringLiteral("sinusoidal"));
        Config c = s.config();
        c.positional = PositionalEncoding::Learned;
        s.setConfig(c);
        QCOMPARE(v.kindCombo()->currentData().toString(), QStringLiteral("learned"));
        QVERIFY(v.matrixView()->matrix().values == s.positionalTable(PositionalEncodingView::kMinPositions));
        QVERIFY(!v.matrixView()->matrix().values.isZero(0));
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("learned")));
        for (int i = 0; i < v.matrixView()->plot()->itemCount(); ++i)
            QVERIFY(v.matrixView()->plot()->item(i)->objectName() != QStringLiteral("zeroNote"));
    }

    void aTrainedModelShowsItsOwnPositions()
    {
        // Positions = none, then the trained model (issue 11 §1): the view shows the model's
        // sinusoids, not "P = 0 everywhere", and its choice is greyed out with the reason.
        Session s;
        PositionalEncodingView v(&s);
        Config c = s.config();
        c.positional = PositionalEncoding::None;
        s.setConfig(c);
        QVERIFY(v.kindCombo()->isEnabled());
        c = s.config();
        c.model = ModelKind::Reversal;
        adoptModelWidths(c, *shippedModel());
        s.setConfig(c);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QVERIFY(s.trace()->config.positional == PositionalEncoding::Sinusoidal);
        QCOMPARE(v.kindCombo()->currentData().toString(), QStringLiteral("sinusoidal"));
        QVERIFY(!v.kindCombo()->isEnabled());
        QVERIFY(v.kindCombo()->toolTip().contains(QStringLiteral("trained model")));
        QVERIFY(!v.matrixView()->matrix().values.isZero(0));
        QVERIFY(!v.captionLabel()->text().contains(QStringLiteral("No positional encoding")));
    }

    void defaultCurvesAreColumnsOfTheTable()
    {
        Session s;
        PositionalEncodingView v(&s);
        QCustomPlot* p = v.curvesPlot();
        QVERIFY(p->graphCount() >= 3);
        QCOMPARE(p->graphCount(), static_cast<int>(v.dimensions().size()));
        // Columns counted from 1 (as their labels d1, d2, …), with the formula's own i.
        QVERIFY(p->graph(0)->name().startsWith(QStringLiteral("dim 1 (sin, i=0)")));
        QVERIFY(p->graph(1)->name().startsWith(QStringLiteral("dim 2 (cos, i=0)")));
        QVERIFY(p->legend->visible());
        QCOMPARE(p->legend->itemCount(), p->graphCount());
        const Eigen::MatrixXf& m = v.matrixView()->matrix().values;
        for (int g = 0; g < p->graphCount(); ++g) {
            const int dim = v.dimensions()[static_cast<std::size_t>(g)];
            const auto data = p->graph(g)->data();
            QCOMPARE(data->size(), static_cast<int>(m.rows()));
            int pos = 0;
            for (auto it = data->constBegin(); it != data->constEnd(); ++it, ++pos) {
                QCOMPARE(it->key, double(pos));
                QCOMPARE(it->value, double(m(pos, dim)));
            }
        }
    }

    void typedDimensionsAreDrawn()
    {
        Session s;
        PositionalEncodingView v(&s);
        typeDimensions(v, QStringLiteral("7, 8")); // typed from 1: columns 6 and 7 from 0
        QCOMPARE(v.dimensions(), (std::vector<int>{6, 7}));
        QCOMPARE(v.curvesPlot()->graphCount(), 2);
        QVERIFY(v.curvesPlot()->graph(0)->name().startsWith(QStringLiteral("dim 7 (sin, i=3)")));
        QVERIFY(v.curvesPlot()->graph(1)->name().startsWith(QStringLiteral("dim 8 (cos, i=3)")));
        QVERIFY(v.messageLabel()->text().isEmpty());
        // A new sentence keeps what the user typed.
        s.setSentence(QStringLiteral("a b c"));
        QCOMPARE(v.dimensions(), (std::vector<int>{6, 7}));
    }

    // A legend wrapped into columns on a narrow screen (fitLegend) has empty cells: three curves
    // in two columns leave one. Drawing the curves again (a new sentence) set the font of every
    // cell's entry, the empty one's too: the studio crashed at 1280 × 720 in presenter mode.
    void aWrappedLegendIsDrawnAgain()
    {
        Session s;
        PositionalEncodingView v(&s);
        typeDimensions(v, QStringLiteral("1, 2, 3"));
        v.resize(260, 500);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QCustomPlot* p = v.curvesPlot();
        QTRY_VERIFY(p->legend->wrap() > 0 && p->legend->wrap() < 3);
        p->replot(QCustomPlot::rpImmediateRefresh);
        s.setSentence(QStringLiteral("a new sentence to draw again"));
        QCOMPARE(p->graphCount(), 3);
        int entries = 0;
        for (int i = 0; i < p->legend->itemCount(); ++i)
            entries += p->legend->item(i) != nullptr;
        QCOMPARE(entries, 3);
    }

    void badDimensionsShowAMessage_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("letters") << QStringLiteral("abc") << QStringLiteral("not a dimension");
        QTest::newRow("too large") << QStringLiteral("1, 99") << QStringLiteral("no dimension 99");
        QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("no dimension 0"); // counted from 1
        QTest::newRow("negative") << QStringLiteral("-1") << QStringLiteral("no dimension -1");
        QTest::newRow("empty") << QString() << QStringLiteral("at least one");
        QTest::newRow("mixed") << QStringLiteral("1,,x") << QStringLiteral("not a dimension");
        QTest::newRow("huge number") << QStringLiteral("99999999999999999999") << QStringLiteral("not a dimension");
    }

    void badDimensionsShowAMessage()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        Session s;
        PositionalEncodingView v(&s);
        pasteDimensions(v, QStringLiteral("3, 4"));
        QCOMPARE(v.curvesPlot()->graphCount(), 2);
        pasteDimensions(v, text);
        QVERIFY2(v.messageLabel()->text().contains(says), qPrintable(v.messageLabel()->text()));
        QVERIFY(!v.messageLabel()->isHidden());
        // The last good curves stay.
        QCOMPARE(v.dimensions(), (std::vector<int>{2, 3}));
        QCOMPARE(v.curvesPlot()->graphCount(), 2);
        // Correcting the input clears the message.
        pasteDimensions(v, QStringLiteral("5"));
        QVERIFY(v.messageLabel()->text().isEmpty());
        QVERIFY(v.messageLabel()->isHidden());
        QCOMPARE(v.dimensions(), std::vector<int>{4});
    }

    void similarityIsPTimesPTransposed()
    {
        Session s;
        PositionalEncodingView v(&s);
        const int positions = PositionalEncodingView::kMinPositions;
        const Eigen::MatrixXf table = s.positionalTable(positions);
        const Eigen::MatrixXf& sim = v.similarityView()->matrix().values;
        QCOMPARE(sim.rows(), Eigen::Index(positions));
        QCOMPARE(sim.cols(), Eigen::Index(positions));
        for (int i = 0; i < positions; ++i) {
            // Diagonal: |PE(i)|², summed by hand in double.
            double norm2 = 0;
            for (Eigen::Index k = 0; k < table.cols(); ++k)
                norm2 += double(table(i, k)) * table(i, k);
            QVERIFY2(std::abs(sim(i, i) - norm2) < 1e-4 * std::max(1.0, norm2),
                     qPrintable(QStringLiteral("S(%1, %1) = %2, |PE(%1)|² = %3").arg(i).arg(sim(i, i)).arg(norm2)));
            for (int j = 0; j < positions; ++j) {
                QCOMPARE(sim(i, j), sim(j, i)); // exactly symmetric
                double dot = 0;
                for (Eigen::Index k = 0; k < table.cols(); ++k)
                    dot += double(table(i, k)) * table(j, k);
                QVERIFY2(std::abs(sim(i, j) - dot) < 1e-4 * std::max(1.0, std::abs(dot)),
                         qPrintable(QStringLiteral("S(%1, %2) = %3, by hand %4").arg(i).arg(j).arg(sim(i, j)).arg(dot)));
            }
        }
        // Sinusoidal: each sin/cos pair contributes sin² + cos² = 1, so the diagonal is d/2,
        // and a neighbour is more alike than a position ten steps away.
        QVERIFY(std::abs(sim(5, 5) - s.config().dModel / 2.0) < 1e-4);
        QVERIFY(sim(5, 6) > sim(5, 15));
    }

    void sentenceRowsAreMarked()
    {
        Session s;
        PositionalEncodingView v(&s);
        v.resize(1100, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        testing::settle(); // resizing redraws the heatmaps, which removes and re-adds the marker
        const auto markers = [](QCustomPlot* p) {
            int count = 0;
            for (int i = 0; i < p->itemCount(); ++i)
                count += p->item(i)->objectName() == QStringLiteral("sentenceMarker") ? 1 : 0;
            return count;
        };
        QCOMPARE(markers(v.matrixView()->plot()), 1);
        QCOMPARE(markers(v.similarityView()->plot()), 1);
        const QCPItemLine* line = nullptr;
        for (int i = 0; i < v.matrixView()->plot()->itemCount(); ++i) {
            if (v.matrixView()->plot()->item(i)->objectName() == QStringLiteral("sentenceMarker"))
                line = qobject_cast<QCPItemLine*>(v.matrixView()->plot()->item(i));
        }
        QVERIFY(line);
        QCOMPARE(line->start->coords().y(), s.trace()->tokens.size() - 0.5);

        // A shorter sentence: the same table, the marker moves to its new last row.
        s.setSentence(QStringLiteral("a b c"));
        QCOMPARE(markers(v.matrixView()->plot()), 1);
        QCOMPARE(markers(v.similarityView()->plot()), 1);
        for (int i = 0; i < v.matrixView()->plot()->itemCount(); ++i) {
            if (v.matrixView()->plot()->item(i)->objectName() == QStringLiteral("sentenceMarker"))
                line = qobject_cast<QCPItemLine*>(v.matrixView()->plot()->item(i));
        }
        QCOMPARE(line->start->coords().y(), 2.5);
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("first 3 rows")));
    }
};

QTEST_MAIN(TestPositionalView)
#include "tst_positionalview.moc"
