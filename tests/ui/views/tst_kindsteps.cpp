// The attention kinds' steps in the studio (issue 13): the navigator lists each kind's stages in
// the registry's order (attention/kind.h) with translated names, formulas and explanations; every
// step is drawn (n x n and n x K heatmaps with their tokens and p1 … / f1 … labels, the n x 1
// stages as bars, one per token), per-head stages follow the head (lsh's mask too), and the cell
// inspector explains or describes every cell of every step without failing.

#include "attention/kind.h"
#include "session/kindstages.h"
#include "session/session.h"
#include "session/stages.h"
#include "shell/languages.h"
#include "views/cellinspector.h"
#include "views/columnplot.h"
#include "views/heatmapview.h"
#include "views/stageview.h"
#include "widgets/formulabanner.h"
#include "widgets/stagenavigator.h"

#include <QListWidget>
#include <QtTest>

using namespace attnlab;

Q_DECLARE_METATYPE(attnlab::AttentionKind)

namespace {

void useKind(Session& s, AttentionKind kind)
{
    Config c = s.config();
    c.attention = kind;
    c.attentionOptions.projDim = 4;  // linformer: n x 4
    c.attentionOptions.features = 8; // performer: n x 8 features
    s.setConfig(c);
    s.setSentence(QStringLiteral("the cat sat on the mat"));
}

bool hasHan(const QString& s)
{
    for (const QChar c : s) {
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF)
            return true;
    }
    return false;
}

/// One row per attention kind.
void everyKind()
{
    QTest::addColumn<AttentionKind>("kind");
    for (const AttentionKindInfo& k : attentionKinds())
        QTest::newRow(std::string(k.name).c_str()) << k.kind;
}

QStringList stepIds(const Session& s)
{
    QStringList ids;
    for (const Step& st : s.steps())
        ids << st.id;
    return ids;
}

} // namespace

class TestKindSteps : public QObject {
    Q_OBJECT
private slots:
    void theNavigatorListsTheKindsStagesInOrder_data() { everyKind(); }
    void theNavigatorListsTheKindsStagesInOrder()
    {
        QFETCH(AttentionKind, kind);
        Session s;
        StageNavigator nav(&s);
        useKind(s, kind);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        // tokens … v, the kind's stages in its order, concat, output (and full attention's output).
        QStringList want{"tokens", "embedding", "positional_encoding", "input", "q", "k", "v"};
        for (const std::string& id : attentionKind(kind).stageIds)
            want << QString::fromStdString(id);
        want << "concat" << "output";
        if (kind != AttentionKind::Full)
            want << "reference_output";
        QCOMPARE(stepIds(s), want);
        // One line per step in the navigator, each with its name (not its id).
        QCOMPARE(nav.findChild<QListWidget*>()->count(), static_cast<int>(want.size()));
        for (const Step& st : s.steps()) {
            QVERIFY2(stepName(st.id) != st.id, qPrintable(st.id));
            QVERIFY(st.perHead == (s.trace()->find(st.id.toStdString(), 0) != nullptr));
        }
        // The formula banner has something to say on every step.
        FormulaBanner banner(&s);
        for (int i = 0; i < static_cast<int>(s.steps().size()); ++i) {
            s.setStep(i);
            QVERIFY2(!banner.formulaText().isEmpty(), qPrintable(s.stepId()));
            QVERIFY2(!banner.shapesText().isEmpty() || s.stepId() == u"tokens", qPrintable(s.stepId()));
        }
    }

    void theNamesAreTranslated_data() { everyKind(); }
    void theNamesAreTranslated()
    {
        QFETCH(AttentionKind, kind);
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        Session s;
        useKind(s, kind);
        for (const std::string& id : attentionKind(kind).stageIds) {
            const QString q = QString::fromStdString(id);
            QVERIFY2(hasHan(stepName(q)) || stepName(q).contains(QStringLiteral("\u00B7V")), qPrintable(q + ": " + stepName(q)));
        }
        s.setStepId(QStringLiteral("weights"));
        FormulaBanner banner(&s);
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }

    void everyStepHasAFormula_data() { everyKind(); }
    void everyStepHasAFormula()
    {
        // What the banner and a lesson's slide write above the stage (a kind's own stages had
        // none on slides: an empty `` was printed).
        QFETCH(AttentionKind, kind);
        Session s;
        useKind(s, kind);
        for (const Step& st : s.steps())
            QVERIFY2(!stepFormula(st.id, s.config()).isEmpty(), qPrintable(st.id));
        Config c = s.config();
        c.attention = AttentionKind::Linformer;
        QCOMPARE(stepFormula(QStringLiteral("k_projected"), c), kindStepFormula(QStringLiteral("k_projected"), c.attention, true));
    }

    void everyStepIsDrawnAndInspected_data() { everyKind(); }
    void everyStepIsDrawnAndInspected()
    {
        QFETCH(AttentionKind, kind);
        Session s;
        useKind(s, kind);
        StageView view(&s);
        CellInspector inspector(&s);
        view.resize(800, 600);
        for (int i = 0; i < static_cast<int>(s.steps().size()); ++i) {
            s.setStep(i);
            const QString id = s.stepId();
            const Stage* stage = view.stage();
            if (id == u"tokens") {
                QVERIFY(!stage);
                continue;
            }
            QVERIFY2(stage, qPrintable(id));
            const Eigen::MatrixXf& m = stage->main().values;
            const bool column = ColumnPlot::isColumnStage(id);
            QCOMPARE(view.column()->isVisibleTo(&view), column);
            QCOMPARE(view.heatmap()->isVisibleTo(&view), !column);
            if (column)
                QCOMPARE(view.column()->values().size(), static_cast<std::size_t>(m.rows()));
            else
                QCOMPARE(view.heatmap()->matrix().values.rows(), m.rows());
            // Every cell (the first, the last), inspected: something is said, never nothing.
            for (const auto& [r, c] : {std::pair<int, int>{0, 0}, {int(m.rows()) - 1, int(m.cols()) - 1}}) {
                s.selectCell(r, c);
                QVERIFY2(!inspector.summaryText().isEmpty(), qPrintable(id));
                QVERIFY2(inspector.mode() != CellInspector::Mode::Hint, qPrintable(id));
            }
            s.selectCell(-1, -1);
        }
    }

    void labelsSayWhatTheColumnsAre()
    {
        Session s;
        StageView view(&s);
        useKind(s, AttentionKind::Linformer);
        s.setStepId(QStringLiteral("scores"));
        const LabeledMatrix& m = view.heatmap()->matrix();
        QCOMPARE(m.values.cols(), 4);
        QCOMPARE(QString::fromStdString(m.colLabels->front()), QStringLiteral("p1"));
        QCOMPARE(QString::fromStdString(m.rowLabels->at(1)), QStringLiteral("cat"));
        useKind(s, AttentionKind::Performer);
        s.setStepId(QStringLiteral("q_features"));
        QCOMPARE(view.heatmap()->matrix().values.cols(), 8);
        QCOMPARE(QString::fromStdString(view.heatmap()->matrix().colLabels->back()), QStringLiteral("f8"));
    }

    void perHeadStagesFollowTheHead()
    {
        Session s;
        StageView view(&s);
        useKind(s, AttentionKind::Lsh);
        s.setStepId(QStringLiteral("mask"));
        QVERIFY(s.currentStep().perHead); // lsh hashes per head
        s.setHead(0);
        QCOMPARE(*view.stage()->head, 0);
        s.setHead(3);
        QCOMPARE(*view.stage()->head, 3);
        QCOMPARE(view.heatmap()->matrix().values, s.trace()->find("mask", 3)->main().values);
        s.setStepId(QStringLiteral("buckets"));
        QVERIFY(view.column()->isVisibleTo(&view));
        std::vector<double> want;
        for (Eigen::Index i = 0; i < 6; ++i)
            want.push_back(s.trace()->find("buckets", 3)->main().values(i, 0));
        QCOMPARE(view.column()->values(), want);
        QCOMPARE(view.column()->barTexts().front(), QStringLiteral("bucket %1").arg(int(want.front())));
        QCOMPARE(view.exportedPlots().size(), 1);
        QVERIFY(view.exportedPlots().front() == view.column()->plot());
    }

    void theErrorColumnReadsAsNumbers()
    {
        Session s;
        StageView view(&s);
        useKind(s, AttentionKind::SlidingWindow);
        s.setStepId(QStringLiteral("error"));
        s.setHead(1);
        const Eigen::MatrixXf& e = s.trace()->find("error", 1)->main().values;
        QCOMPARE(view.column()->barTexts().size(), 6);
        QCOMPARE(view.column()->barTexts()[2], QString::number(e(2, 0), 'f', 3).replace(QLatin1Char('-'), QChar(0x2212)));
        // Full attention has no error stage: back to the heatmaps.
        useKind(s, AttentionKind::Full);
        QCOMPARE(s.stepIndex(QStringLiteral("error")), -1);
    }
};

QTEST_MAIN(TestKindSteps)
#include "tst_kindsteps.moc"
