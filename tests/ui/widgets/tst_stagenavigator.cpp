// The stage navigator: for a Transformer the steps are grouped by source, each layer, target
// and output, and the layer and block selectors jump to the same stage elsewhere.

#include "session/session.h"
#include "shell/languages.h"
#include "widgets/stagenavigator.h"

#include <QComboBox>
#include <QListWidget>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

class TestStageNavigator : public QObject {
    Q_OBJECT
private slots:
    void oneAttentionBlockHasNoSelectors()
    {
        Session s;
        StageNavigator nav(&s);
        nav.show();
        QCOMPARE(nav.list()->count(), static_cast<int>(attnlab::steps().size()));
        QVERIFY(!nav.layerBox()->isVisible());
        QVERIFY(!nav.blockBox()->isVisible());
    }

    // Switching the language at run time wrote the head box's "1 of 4" again only on the next
    // change of heads.
    void theHeadBoxFollowsTheLanguage()
    {
        LanguageManager languages;
        Session s;
        StageNavigator nav(&s);
        QCOMPARE(nav.headBox()->suffix(), QStringLiteral(" of 4"));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents();
        QCOMPARE(nav.headBox()->suffix(), QStringLiteral(" / 4"));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCoreApplication::processEvents();
        QCOMPARE(nav.headBox()->suffix(), QStringLiteral(" of 4"));
    }

    void transformerStepsAreGroupedByLayer()
    {
        Session s;
        StageNavigator nav(&s);
        nav.show();
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        QVERIFY(nav.layerBox()->isVisible());
        QCOMPARE(nav.layerBox()->count(), 2);
        QStringList headings;
        for (int i = 0; i < nav.list()->count(); ++i) {
            if (nav.list()->item(i)->data(Qt::UserRole).toInt() < 0)
                headings << nav.list()->item(i)->text();
        }
        QCOMPARE(headings, (QStringList{"Source", "Encoder layer 1", "Encoder layer 2", "Output", "Target", "Decoder layer 1",
                                        "Decoder layer 2", "Output"}));
        // Every step, and one heading per part.
        QCOMPARE(nav.list()->count(), static_cast<int>(s.steps().size()) + headings.size());
    }

    void selectorsJumpToTheSameStage()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        StageNavigator nav(&s);
        nav.show();
        s.setStep(s.stepIndex(QStringLiteral("weights"), 0, Block::EncoderSelf));
        // Block → cross-attention: the same stage, in decoder layer 1's cross-attention.
        nav.blockBox()->setCurrentIndex(nav.blockBox()->findData(QStringLiteral("cross")));
        emit nav.blockBox()->activated(nav.blockBox()->currentIndex());
        QCOMPARE(s.currentStep(), (Step{QStringLiteral("weights"), true, 0, Block::Cross}));
        // Layer → 2.
        nav.layerBox()->setCurrentIndex(1);
        emit nav.layerBox()->activated(1);
        QCOMPARE(s.currentStep().layer, std::optional<int>(1));
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        // A stage that the block does not have: its first step instead.
        s.setStep(s.stepIndex(QStringLiteral("ffn_hidden"), 1, Block::DecoderSelf));
        nav.blockBox()->setCurrentIndex(nav.blockBox()->findData(QStringLiteral("cross")));
        emit nav.blockBox()->activated(nav.blockBox()->currentIndex());
        QVERIFY(s.currentStep().block == Block::Cross);
        QCOMPARE(s.stepId(), QStringLiteral("q"));
        // The list follows: the current row is the session's step.
        QCOMPARE(nav.list()->currentItem()->data(Qt::UserRole).toInt(), s.step());
        QVERIFY(nav.headBox()->isEnabled()); // q is per head
    }

    void clickingARowSelectsItsStep()
    {
        Session s;
        Config c = s.config();
        c.model = ModelKind::Seeded;
        s.setConfig(c);
        StageNavigator nav(&s);
        nav.show();
        // A heading is not a step: clicking it changes nothing.
        const int before = s.step();
        nav.list()->setCurrentRow(0);
        QCOMPARE(s.step(), before);
        nav.list()->setCurrentRow(2); // Source: 1. tokens, 2. embedding
        QCOMPARE(s.stepId(), QStringLiteral("embedding"));
        QCOMPARE(s.step(), nav.list()->item(2)->data(Qt::UserRole).toInt());
    }
};

QTEST_MAIN(TestStageNavigator)
#include "tst_stagenavigator.moc"
