// The settings panel's attention kind (issue 13): choosing a kind in the box computes that kind
// (its stages in the navigator), only the kind's own options are shown and change the Session's
// Config, an invalid combination shows the engine's message while the last good trace stays, the
// kind is greyed out (full) for models that cannot use it, undo takes a kind back, and a session
// file keeps it.

#include "session/history.h"
#include "session/session.h"
#include "shell/mainwindow.h"
#include "widgets/attentionsettings.h"
#include "widgets/errorbanner.h"
#include "widgets/settingspanel.h"
#include "widgets/stagenavigator.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

Q_DECLARE_METATYPE(attnlab::AttentionKind)

namespace {

void choose(AttentionSettings* a, AttentionKind kind)
{
    QComboBox* box = a->kindBox();
    box->setCurrentIndex(box->findData(static_cast<int>(kind)));
}

/// A spin box's value typed in and committed with Return, as a user does.
void type(QSpinBox* box, int value)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QString::number(value));
    QTest::keyClick(box, Qt::Key_Return);
}

/// Global positions typed in and committed with Return (after what the field held, when `append`).
void typePositions(AttentionSettings* a, const QString& text, bool append = true)
{
    a->globalEdit()->setFocus();
    if (!append)
        a->globalEdit()->selectAll();
    QTest::keyClicks(a->globalEdit(), text);
    QTest::keyClick(a->globalEdit(), Qt::Key_Return);
}

bool hasStep(const Session& s, const char* id)
{
    return s.stepIndex(QString::fromLatin1(id)) >= 0;
}

} // namespace

class TestAttentionSettings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_attentionsettings"));
    }

    void everyKindIsOfferedWithItsOwnOptions_data()
    {
        QTest::addColumn<AttentionKind>("kind");
        QTest::addColumn<QString>("options"); // the option rows shown, in order
        QTest::addColumn<QString>("stage");   // a stage only this kind has
        QTest::newRow("full") << AttentionKind::Full << "" << "masked_scores";
        QTest::newRow("sliding window") << AttentionKind::SlidingWindow << "window dilation global" << "reference_weights";
        QTest::newRow("bigbird") << AttentionKind::BigBird << "window dilation global random" << "error";
        QTest::newRow("strided") << AttentionKind::Strided << "stride" << "error";
        QTest::newRow("linformer") << AttentionKind::Linformer << "projDim" << "projection_e";
        QTest::newRow("performer") << AttentionKind::Performer << "features" << "random_features";
        QTest::newRow("linear") << AttentionKind::Linear << "" << "q_features";
        QTest::newRow("lsh") << AttentionKind::Lsh << "buckets chunk" << "buckets";
        QTest::newRow("flash") << AttentionKind::Flash << "queryBlock keyBlock" << "running_max";
    }

    void everyKindIsOfferedWithItsOwnOptions()
    {
        QFETCH(AttentionKind, kind);
        QFETCH(QString, options);
        QFETCH(QString, stage);
        Session s;
        SettingsPanel p(&s);
        p.show();
        AttentionSettings* a = p.attentionSettings();
        QCOMPARE(a->kindBox()->count(), 9);
        choose(a, kind);
        QVERIFY(s.config().attention == kind);
        QVERIFY(s.trace()->config.attention == kind);
        QVERIFY(s.error().isEmpty());
        QVERIFY2(hasStep(s, stage.toLatin1().constData()), qPrintable(stage));
        const std::pair<const char*, QWidget*> rows[] = {
            {"window", a->windowBox()}, {"dilation", a->dilationBox()}, {"global", a->globalEdit()},
            {"random", a->randomBox()}, {"stride", a->strideBox()},     {"projDim", a->projDimBox()},
            {"features", a->featuresBox()}, {"buckets", a->bucketsBox()}, {"chunk", a->chunkBox()},
            {"queryBlock", a->queryBlockBox()}, {"keyBlock", a->keyBlockBox()}};
        QStringList shown;
        for (const auto& [name, w] : rows) {
            if (w->isVisible())
                shown << QString::fromLatin1(name);
        }
        QCOMPARE(shown.join(QLatin1Char(' ')), options);
    }

    void anOptionChangesTheTrace()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        AttentionSettings* a = p.attentionSettings();
        choose(a, AttentionKind::Linformer);
        type(a->projDimBox(), 5);
        QCOMPARE(s.config().attentionOptions.projDim, 5);
        QCOMPARE(s.trace()->find("weights", 0)->main().values.cols(), 5); // n x K
        choose(a, AttentionKind::SlidingWindow);
        typePositions(a, QStringLiteral("0, 3"));
        QCOMPARE(s.config().attentionOptions.global, (std::vector<int>{0, 3}));
        // Position 3 attends every key: its row of the mask hides nothing.
        const Eigen::MatrixXf& m = s.trace()->find("mask")->main().values;
        QVERIFY(m.row(3).array().isFinite().all());
        QVERIFY(!m.row(8).array().isFinite().all());
        // Another kind has no global positions; the field keeps them for the windowed kinds.
        choose(a, AttentionKind::Strided);
        QVERIFY(s.config().attentionOptions.global.empty());
        QVERIFY(s.error().isEmpty());
        choose(a, AttentionKind::BigBird);
        QCOMPARE(s.config().attentionOptions.global, (std::vector<int>{0, 3}));
    }

    void anInvalidCombinationShowsTheEnginesMessageAndKeepsTheTrace_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("linformer with a causal mask")
            << "linformer+causal" << "linformer attention cannot use a causal mask: each projected key mixes every position, "
                                     "later ones included; use no mask or the padding mask";
        QTest::newRow("an odd number of buckets")
            << "buckets 3" << "buckets (3) must be an even number between 2 and 4096: a bucket is the largest of B/2 rotated "
                              "coordinates and their negatives";
        QTest::newRow("a global position after the last token")
            << "global 40" << "global position 40 is outside the sentence, which has 12 tokens (positions 0 to 11)";
    }

    void anInvalidCombinationShowsTheEnginesMessageAndKeepsTheTrace()
    {
        QFETCH(QString, what);
        QFETCH(QString, message);
        Session s;
        MainWindow w(&s);
        w.show();
        SettingsPanel* p = w.settingsPanel();
        AttentionSettings* a = p->attentionSettings();
        choose(a, AttentionKind::Performer); // a good trace of another kind first
        QVERIFY(s.error().isEmpty());
        const std::shared_ptr<const Trace> good = s.trace();
        if (what == u"linformer+causal") {
            p->maskBox()->setCurrentIndex(p->maskBox()->findData(static_cast<int>(MaskKind::Causal)));
            QVERIFY(s.error().isEmpty()); // performer takes a causal mask
            const std::shared_ptr<const Trace> causal = s.trace();
            choose(a, AttentionKind::Linformer);
            QCOMPARE(s.trace(), causal);
        } else if (what == u"buckets 3") {
            choose(a, AttentionKind::Lsh);
            const std::shared_ptr<const Trace> lsh = s.trace();
            type(a->bucketsBox(), 3);
            QCOMPARE(s.trace(), lsh);
        } else {
            choose(a, AttentionKind::SlidingWindow);
            const std::shared_ptr<const Trace> window = s.trace();
            typePositions(a, QStringLiteral("40"));
            QCOMPARE(s.trace(), window);
        }
        QCOMPARE(s.error(), message);
        QVERIFY2(w.errorBanner()->text().startsWith(message), qPrintable(w.errorBanner()->text()));
        QVERIFY(w.errorBanner()->isVisible());
        Q_UNUSED(good);
    }

    // FlashAttention's blocks: the boxes take 1 … 4096 only, a block typed changes the tiles, and
    // a value that comes from elsewhere (a session file, a lesson) gets the engine's rule.
    void flashBlocksAreBounded()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        AttentionSettings* a = p.attentionSettings();
        choose(a, AttentionKind::Flash);
        QCOMPARE(a->queryBlockBox()->minimum(), 1);
        QCOMPARE(a->keyBlockBox()->maximum(), kMaxAttentionParameter);
        QVERIFY(!a->queryBlockBox()->toolTip().isEmpty());
        type(a->keyBlockBox(), 2);
        QCOMPARE(s.config().attentionOptions.keyBlock, 2);
        const int keys = static_cast<int>(s.trace()->find("tiles")->main().values.cols());
        QCOMPARE(s.trace()->find("running_max", 0)->main().values.cols(), Eigen::Index((keys + 1) / 2)); // one column per key block
        const std::shared_ptr<const Trace> good = s.trace();
        Config c = s.config();
        c.attentionOptions.queryBlock = 0;
        s.setConfig(c);
        QCOMPARE(s.error(), QStringLiteral("query_block (0) must be between 1 and 4096: the queries are taken B_r at a time (a tile's rows)"));
        QCOMPARE(s.trace(), good);
    }

    void unreadableGlobalPositionsChangeNothing()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        AttentionSettings* a = p.attentionSettings();
        choose(a, AttentionKind::SlidingWindow);
        const Config before = s.config();
        const std::shared_ptr<const Trace> trace = s.trace();
        typePositions(a, QStringLiteral("0, x"));
        QVERIFY(s.config() == before);
        QCOMPARE(s.trace(), trace);
        QVERIFY(a->globalEdit()->isVisible());
        bool said = false;
        for (QLabel* l : p.findChildren<QLabel*>())
            said = said || (l->isVisible() && l->text().contains(QStringLiteral("\u201C0, x\u201D")));
        QVERIFY(said);
        // Corrected, it applies and the reason goes away.
        typePositions(a, QStringLiteral("0 2"), false);
        QCOMPARE(s.config().attentionOptions.global, (std::vector<int>{0, 2}));
        for (QLabel* l : p.findChildren<QLabel*>())
            QVERIFY(!(l->isVisible() && l->text().contains(QStringLiteral("0, x"))));
    }

    void modelsThatCannotUseAKindGreyItOut()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        AttentionSettings* a = p.attentionSettings();
        choose(a, AttentionKind::Performer);
        QVERIFY(a->featuresBox()->isVisible());
        // The trained encoder–decoder computes full attention: the box says so, greyed out.
        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::Reversal)));
        QVERIFY(s.error().isEmpty());
        QVERIFY(s.config().attention == AttentionKind::Full);
        QVERIFY(!a->kindBox()->isEnabled());
        QCOMPARE(a->kindBox()->currentData().toInt(), static_cast<int>(AttentionKind::Full));
        QVERIFY(!a->featuresBox()->isVisible());
        QVERIFY(a->kindBox()->toolTip().contains(QStringLiteral("full attention")));
        // A seeded encoder–decoder neither; a seeded encoder stack can.
        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::Seeded)));
        QVERIFY(!a->kindBox()->isEnabled());
        Config c = s.config();
        c.architecture = Architecture::EncoderStack;
        c.setLayers(1);
        s.setConfig(c);
        QVERIFY(a->kindBox()->isEnabled());
        choose(a, AttentionKind::Linear);
        QVERIFY(s.error().isEmpty());
        QVERIFY(s.isModel());
        QVERIFY(s.stepIndex(QStringLiteral("kv"), 0, Block::EncoderSelf) >= 0);
        // Back to one attention block: every kind again.
        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::None)));
        QVERIFY(a->kindBox()->isEnabled());
    }

    void undoTakesTheKindBack()
    {
        Session s;
        History history(&s);
        SettingsPanel p(&s);
        p.show();
        choose(p.attentionSettings(), AttentionKind::Lsh);
        QVERIFY(s.config().attention == AttentionKind::Lsh);
        history.commitPending(); // (the event loop would record it)
        QVERIFY(history.canUndo());
        history.undo();
        QVERIFY(s.config().attention == AttentionKind::Full);
        QCOMPARE(p.attentionSettings()->kindBox()->currentData().toInt(), static_cast<int>(AttentionKind::Full));
        QVERIFY(!hasStep(s, "buckets"));
        history.redo();
        QVERIFY(s.config().attention == AttentionKind::Lsh);
        QVERIFY(p.attentionSettings()->bucketsBox()->isVisible());
    }

    void aSessionFileKeepsTheKind()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kind.json"));
        {
            Session s;
            SettingsPanel p(&s);
            choose(p.attentionSettings(), AttentionKind::BigBird);
            type(p.attentionSettings()->randomBox(), 3);
            QString error;
            QVERIFY2(s.saveSession(path, &error), qPrintable(error));
        }
        Session s;
        SettingsPanel p(&s);
        p.show();
        QString error;
        QVERIFY2(s.loadSession(path, &error), qPrintable(error));
        QVERIFY(s.config().attention == AttentionKind::BigBird);
        QCOMPARE(s.config().attentionOptions.random, 3);
        QCOMPARE(p.attentionSettings()->kindBox()->currentData().toInt(), static_cast<int>(AttentionKind::BigBird));
        QCOMPARE(p.attentionSettings()->randomBox()->value(), 3);
        QVERIFY(p.attentionSettings()->randomBox()->isVisible());
    }

    void positionsAreRead()
    {
        QCOMPARE(AttentionSettings::parsePositions(QStringLiteral("0, 5")), std::optional<std::vector<int>>({0, 5}));
        QCOMPARE(AttentionSettings::parsePositions(QStringLiteral(" 1 2;3 ")), std::optional<std::vector<int>>({1, 2, 3}));
        QCOMPARE(AttentionSettings::parsePositions(QStringLiteral("0\uFF0C4\u30016")), std::optional<std::vector<int>>({0, 4, 6})); // Chinese commas
        QCOMPARE(AttentionSettings::parsePositions(QString()), std::optional<std::vector<int>>(std::vector<int>{}));
        QVERIFY(!AttentionSettings::parsePositions(QStringLiteral("1.5")));
        QVERIFY(!AttentionSettings::parsePositions(QStringLiteral("a")));
        QCOMPARE(AttentionSettings::positionsText({0, 5}), QStringLiteral("0, 5"));
    }
};

QTEST_MAIN(TestAttentionSettings)
#include "tst_attentionsettings.moc"
