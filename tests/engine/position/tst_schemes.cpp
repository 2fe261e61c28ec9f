// The position schemes' registry: every kind has exactly one scheme, its table has the right
// shape and values (checked by hand), and the trace's positional_encoding stage uses it.

#include "nn/attention.h"
#include "position/scheme.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

class TestSchemes : public QObject {
    Q_OBJECT
private slots:
    void everyKindHasOneScheme()
    {
        for (const auto kind : {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None}) {
            int count = 0;
            for (const auto& s : positionSchemes())
                count += s.kind == kind ? 1 : 0;
            QCOMPARE(count, 1);
            const Eigen::MatrixXf p = positionScheme(kind).table(7, 6, 42);
            QCOMPARE(p.rows(), Eigen::Index(7));
            QCOMPARE(p.cols(), Eigen::Index(6));
            QVERIFY(p.allFinite());
        }
    }

    void valuesByHand()
    {
        // Sinusoidal, d = 4: column 2i holds sin(pos / 10000^(2i/4)), column 2i+1 the cosine.
        const Eigen::MatrixXf s = sinusoidalPositions(3, 4, 0);
        const double want[3][4] = {{0, 1, 0, 1},
                                   {std::sin(1.0), std::cos(1.0), std::sin(0.01), std::cos(0.01)},
                                   {std::sin(2.0), std::cos(2.0), std::sin(0.02), std::cos(0.02)}};
        double worst = 0;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                worst = std::max(worst, std::abs(s(r, c) - want[r][c]));
        QVERIFY2(worst < 1e-7, qPrintable(QString("largest difference %1").arg(worst)));
        QVERIFY(noPositions(4, 3, 1).isZero(0));
        // Learned: uniform in [-1, 1), the same rows for a seed, other rows for another seed.
        const Eigen::MatrixXf a = learnedPositions(5, 8, 1);
        QVERIFY(a.maxCoeff() < 1.0f && a.minCoeff() >= -1.0f);
        QVERIFY(a.topRows(3) == learnedPositions(3, 8, 1));
        QVERIFY(a != learnedPositions(5, 8, 2));
    }

    void theTraceUsesTheScheme()
    {
        for (const auto kind : {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None}) {
            Request r;
            r.sentence = "one two three";
            r.config.positional = kind;
            const Trace t = computeTrace(r);
            const Stage* pe = t.find("positional_encoding");
            QVERIFY(pe);
            QCOMPARE(pe->formula, std::string(positionScheme(kind).formula));
            QVERIFY(pe->main().values == positionScheme(kind).table(3, r.config.dModel, r.config.seed));
        }
    }
};

QTEST_APPLESS_MAIN(TestSchemes)
#include "tst_schemes.moc"
