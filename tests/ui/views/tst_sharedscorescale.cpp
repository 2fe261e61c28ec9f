// One colour scale across Scores → Scaled → Masked scores: off, each stage spans its own ±max
// (so the two look alike); on, all three span the largest finite |value| of the three (masked
// −∞ ignored), so the scaled scores are √d_k times paler. The check box and lessons set it; with
// no mask the Mask stage says "no mask" instead of drawing zeros on a −1…1 bar.

#include "views/heatmapview.h"
#include "views/stageview.h"
#include "session/session.h"

#include "lesson/lesson.h"
#include "lessons/deck.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

/// The largest finite |value| of a stage's main matrix for one head, computed here.
double ownMax(const Session& s, const char* id, int head)
{
    const Stage* st = s.trace()->find(id, head);
    double m = 0;
    const Eigen::MatrixXf& v = st->main().values;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        if (std::isfinite(v.data()[i]))
            m = std::max(m, static_cast<double>(std::abs(v.data()[i])));
    }
    return m;
}

QCPRange rangeShown(const StageView& v)
{
    return qobject_cast<QCPColorMap*>(v.heatmap()->plot()->plottable(0))->dataRange();
}

void useMask(Session& s, MaskKind mask)
{
    Config c = s.config();
    c.mask = mask;
    s.setConfig(c);
}

} // namespace

class TestSharedScoreScale : public QObject {
    Q_OBJECT
private slots:
    void ownRangesByDefault()
    {
        Session s;
        QVERIFY(!s.sharedScoreScale());
        StageView v(&s);
        for (const char* id : {"scores", "scaled", "masked_scores"}) {
            s.setStepId(QString::fromLatin1(id));
            const double own = ownMax(s, id, s.head());
            QCOMPARE(rangeShown(v).upper, own);
            QCOMPARE(rangeShown(v).lower, -own);
            QVERIFY(v.sharedScoresBox()->isVisibleTo(&v));
            QVERIFY(!v.sharedScoresBox()->isChecked());
        }
        s.setStepId(QStringLiteral("weights"));
        QVERIFY(!v.sharedScoresBox()->isVisibleTo(&v)); // probabilities are always 0..1
    }

    void oneRangeForTheThree_data()
    {
        QTest::addColumn<int>("mask");
        QTest::newRow("no mask") << static_cast<int>(MaskKind::None);
        QTest::newRow("causal: −∞ ignored") << static_cast<int>(MaskKind::Causal);
    }

    void oneRangeForTheThree()
    {
        QFETCH(int, mask);
        Session s;
        useMask(s, static_cast<MaskKind>(mask));
        StageView v(&s);
        s.setStepId(QStringLiteral("scaled"));
        QSignalSpy spy(&s, &Session::sharedScoreScaleChanged);
        v.sharedScoresBox()->click(); // the user's check box sets the session's property
        QCOMPARE(spy.count(), 1);
        QVERIFY(s.sharedScoreScale());
        const int head = s.head();
        const double shared = std::max({ownMax(s, "scores", head), ownMax(s, "scaled", head), ownMax(s, "masked_scores", head)});
        QVERIFY(std::isfinite(shared) && shared > 0);
        for (const char* id : {"scores", "scaled", "masked_scores"}) {
            s.setStepId(QString::fromLatin1(id));
            QCOMPARE(rangeShown(v).upper, shared);
            QCOMPARE(rangeShown(v).lower, -shared);
            QVERIFY(v.sharedScoresBox()->isChecked());
        }
        // The scaled scores are the scores ÷ √d_k: their own range is √d_k times smaller.
        const double root = std::sqrt(static_cast<double>(s.config().dK()));
        QVERIFY(std::abs(ownMax(s, "scores", head) / ownMax(s, "scaled", head) - root) < 1e-4 * root);
        // Other stages keep their own range.
        s.setStepId(QStringLiteral("q"));
        QCOMPARE(rangeShown(v).upper, ownMax(s, "q", head));
        s.setSharedScoreScale(false);
        s.setStepId(QStringLiteral("scaled"));
        QCOMPARE(rangeShown(v).upper, ownMax(s, "scaled", head));
        QVERIFY(!v.sharedScoresBox()->isChecked());
    }

    void noMaskSaysSo()
    {
        Session s;
        useMask(s, MaskKind::None);
        StageView v(&s);
        s.setStepId(QStringLiteral("mask"));
        QVERIFY2(v.heatmap()->message().contains(StageView::tr("No mask").section(QLatin1Char('\n'), 0, 0)),
                 qPrintable(v.heatmap()->message()));
        QVERIFY(!v.heatmap()->plot()->plottable(0)->visible());
        useMask(s, MaskKind::Causal);
        QVERIFY(v.heatmap()->message().isEmpty());
        QVERIFY(v.heatmap()->plot()->plottable(0)->visible());
    }

    void lessonsSetIt()
    {
        const Lesson lesson = parseLesson("---\ntitle: T\nlanguage: en\n---\n\n"
                                          "## One\nstage: scores\n\nA.\n\n"
                                          "## Two\nstage: scaled\nscore_colors: shared\n\nB.\n\n"
                                          "## Three\nstage: masked_scores\n\nC.\n\n"
                                          "## Four\nscore_colors: own\n\nD.\n",
                                          "t.md");
        QCOMPARE(lesson.steps.size(), std::size_t(4));
        QVERIFY(!lesson.steps[0].scoreColors); // not said: the viewer's choice stays
        QVERIFY(lesson.steps[1].scoreColors == LessonStep::ScoreColors::Shared);
        QVERIFY(lesson.steps[2].scoreColors == LessonStep::ScoreColors::Shared); // carried over
        QVERIFY(lesson.steps[3].scoreColors == LessonStep::ScoreColors::Own);
        Session s;
        s.setSharedScoreScale(true);
        s.applyLessonStep(lesson.steps[0]);
        QVERIFY(s.sharedScoreScale());
        s.applyLessonStep(lesson.steps[3]);
        QVERIFY(!s.sharedScoreScale());
        s.applyLessonStep(lesson.steps[2]);
        QVERIFY(s.sharedScoreScale());
    }

    void aBadValueIsAnErrorOnItsLine()
    {
        try {
            parseLesson("---\ntitle: T\nlanguage: en\n---\n\n## One\nstage: scores\nscore_colors: same\n\nA.\n", "t.md");
            QFAIL("no error");
        } catch (const LessonError& e) {
            QCOMPARE(e.line(), 8);
            QCOMPARE(QString::fromStdString(e.reason()), QStringLiteral("unknown score_colors 'same' (expected one of shared, own)"));
        }
    }

    void theScalingLessonsStartShared()
    {
        for (const char* lang : {"en", "zh"}) {
            for (const char* name : {"03-scaled-dot-product", "04-look-ahead-mask"}) {
                const QString path = QStringLiteral(":/lessons/%1/%2.md").arg(QLatin1String(lang), QLatin1String(name));
                const Lesson l = readLessonFile(path);
                QVERIFY2(l.steps.front().scoreColors == LessonStep::ScoreColors::Shared, qPrintable(path));
            }
        }
    }
};

QTEST_MAIN(TestSharedScoreScale)
#include "tst_sharedscorescale.moc"
