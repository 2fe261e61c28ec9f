// The settings panel's Transformer rows: hidden for one attention block, shown (fixed) for the
// trained model, editable for a seeded one; choosing a model in the box switches the Session.

#include "session/session.h"
#include "shell/languages.h"
#include "widgets/attentionsettings.h"
#include "widgets/settingspanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QApplication>
#include <QtTest>

#include <limits>

using namespace attnlab;

class TestSettingsPanel : public QObject {
    Q_OBJECT
private slots:
    void aLanguageChangeRewritesEveryTextInPlace()
    {
        LanguageManager languages;
        Session s;
        SettingsPanel p(&s);
        p.show();
        auto* form = static_cast<QFormLayout*>(p.layout());
        const auto rowLabel = [form](QWidget* field) { return qobject_cast<QLabel*>(form->labelForField(field))->text(); };
        QCOMPARE(rowLabel(p.maskBox()), QStringLiteral("Mask"));
        p.maskBox()->setCurrentIndex(1);
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents();
        QCOMPARE(rowLabel(p.maskBox()), QStringLiteral("掩码"));
        QCOMPARE(p.maskBox()->itemText(0), QStringLiteral("无"));
        QCOMPARE(p.maskBox()->currentIndex(), 1); // the choice stays
        QVERIFY(s.config().mask == MaskKind::Causal);
        QVERIFY(p.scaleBox()->text().contains(QStringLiteral("√d_k")));
        QVERIFY(p.scaleBox()->text() != QStringLiteral("Divide scores by √d_k"));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCoreApplication::processEvents();
        QCOMPARE(rowLabel(p.maskBox()), QStringLiteral("Mask"));
        QCOMPARE(p.scaleBox()->text(), QStringLiteral("Divide scores by √d_k"));
    }

    void transformerRowsFollowTheModel()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        QVERIFY(!p.layersBox()->isVisible()); // one attention block: nothing about layers
        QVERIFY(!p.normBox()->isVisible());
        QVERIFY(p.maskBox()->isEnabled());

        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::Reversal)));
        QVERIFY(s.config().model == ModelKind::Reversal);
        QVERIFY(s.isModel());
        QVERIFY(p.layersBox()->isVisible());
        QVERIFY(!p.layersBox()->isEnabled()); // the trained model fixes its sizes
        QCOMPARE(p.dFFBox()->value(), 128);
        QCOMPARE(p.dModelBox()->value(), 64);
        // Issue 28 §5: a Transformer's encoder takes the mask and the padding; not its weights.
        QVERIFY(p.maskBox()->isEnabled());
        QVERIFY(p.padToBox()->isEnabled());
        QVERIFY(!p.weightsBox()->isEnabled());
        // What the trained model fixes is shown as it has it, greyed out with the reason
        // (issue 11 §1: Positions = none used to be offered and silently ignored).
        for (QWidget* w : {static_cast<QWidget*>(p.positionalBox()), static_cast<QWidget*>(p.seedBox())}) {
            QVERIFY(!w->isEnabled());
            QVERIFY2(w->toolTip().contains(QStringLiteral("trained model")), qPrintable(w->toolTip()));
        }
        QCOMPARE(p.positionalBox()->currentData().toInt(), static_cast<int>(s.model()->spec.positional));
        QVERIFY(p.scaleBox()->isEnabled()); // score scaling is an experiment on any model

        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::Seeded)));
        QVERIFY(p.positionalBox()->isEnabled());
        QVERIFY(!p.positionalBox()->toolTip().contains(QStringLiteral("trained model")));
        QVERIFY(s.config().model == ModelKind::Seeded);
        QVERIFY(p.layersBox()->isEnabled());
        p.layersBox()->setValue(3);
        QCOMPARE(s.config().encoderLayers, 3);
        QVERIFY(s.stepIndex(QStringLiteral("layer_output"), 2, Block::EncoderSelf) >= 0);
    }

    // Issue 28 §5: the mask and the padding of a seeded Transformer, chosen in the panel, reach
    // every layer; each layer's mask is a step of the stage list, its block view says its mask.
    void aTransformerTakesTheMaskAndThePadding()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::Seeded)));
        s.setSentence(QStringLiteral("a b c"));
        s.setTarget(QStringLiteral("x y"));
        p.maskBox()->setCurrentIndex(p.maskBox()->findData(static_cast<int>(MaskKind::Padding)));
        p.padToBox()->setValue(5);
        QTRY_VERIFY_WITH_TIMEOUT(s.fullTrace() && s.fullTrace()->tokens.size() == 5, 20000);
        QVERIFY(s.config().mask == MaskKind::Padding);
        QCOMPARE(s.fullTrace()->tokens.back(), std::string("<pad>"));
        const float minusInf = -std::numeric_limits<float>::infinity();
        for (int layer = 0; layer < s.config().encoderLayers; ++layer) {
            for (const Block block : {Block::EncoderSelf, Block::Cross}) {
                const int step = s.stepIndex(QStringLiteral("mask"), layer, block);
                QVERIFY2(step >= 0, qPrintable(QString("no mask step in layer %1").arg(layer + 1)));
                s.setStep(step);
                const Stage* mask = s.trace()->find("mask");
                QVERIFY(mask);
                QCOMPARE(mask->main().values(0, 4), minusInf); // the <pad> key, hidden
                QCOMPARE(mask->main().values(0, 2), 0.0f);
                QVERIFY(s.trace()->config.mask == MaskKind::Padding); // what the views are told
            }
        }
        // The decoder's self-attention stays causal.
        s.setStep(s.stepIndex(QStringLiteral("mask"), 1, Block::DecoderSelf));
        QVERIFY(s.trace()->config.mask == MaskKind::Causal);
    }

    // Issue 11 §2: typing "16" into d_model (4 heads) passed through d_model = 1 and reset the
    // heads to 1. Values commit on Return; the head count chosen is kept as a wish.
    // Issue 28 §3: settings that cannot go together are greyed with the reason, not accepted
    // and then refused in internal words.
    void positionsThatNeedFullAttentionAreGreyed()
    {
        Session s;
        SettingsPanel p(&s);
        p.show();
        auto* positions = qobject_cast<QStandardItemModel*>(p.positionalBox()->model());
        const auto item = [&](PositionalEncoding e) { return positions->item(p.positionalBox()->findData(static_cast<int>(e))); };
        QVERIFY(item(PositionalEncoding::Alibi)->isEnabled());
        Config c = s.config();
        c.attention = AttentionKind::Performer;
        s.setConfig(c);
        for (PositionalEncoding e : {PositionalEncoding::Alibi, PositionalEncoding::Relative, PositionalEncoding::Xl}) {
            QVERIFY(!item(e)->isEnabled());
            QVERIFY2(item(e)->toolTip().contains(QStringLiteral("full attention")), qPrintable(item(e)->toolTip()));
        }
        QVERIFY(item(PositionalEncoding::Rope)->isEnabled()); // RoPE turns q and k: any kind
        // And the other way round: with ALiBi only full attention is offered.
        c.attention = AttentionKind::Full;
        c.positional = PositionalEncoding::Alibi;
        s.setConfig(c);
        QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
        QComboBox* kinds = p.attentionSettings()->kindBox();
        auto* kindItems = qobject_cast<QStandardItemModel*>(kinds->model());
        for (int i = 0; i < kinds->count(); ++i) {
            const bool full = static_cast<AttentionKind>(kinds->itemData(i).toInt()) == AttentionKind::Full;
            QCOMPARE(kindItems->item(i)->isEnabled(), full);
        }
    }

    // Issue 28 §3: an opened folder's greyed settings show its own values (a 2-layer GPT-2 said
    // 1 layer and ReLU).
    void anOpenedFolderShowsItsOwnSizes()
    {
        Session s;
        QString error;
        QVERIFY2(s.importModel(QStringLiteral(ATTNLAB_TEST_DATA "/hf/gpt2_f32"), &error), qPrintable(error));
        SettingsPanel p(&s);
        p.show();
        const ModelSpec& spec = s.model()->spec;
        QVERIFY(spec.decoderLayers >= 2);
        QCOMPARE(p.layersBox()->value(), spec.decoderLayers);
        QVERIFY(!p.layersBox()->isEnabled());
        QCOMPARE(p.activationBox()->currentData().toInt(), static_cast<int>(Activation::GeluTanh));
        QCOMPARE(p.activationBox()->currentText(), QStringLiteral("GELU (tanh)"));
        QCOMPARE(p.dModelBox()->value(), spec.dModel);
    }

    // A modern decoder (Qwen3: d_model 24, 4 query heads of head_dim 8 sharing 2): the boxes
    // cannot say RMSNorm, SwiGLU or RoPE, so their rows are hidden and the model's line says
    // them; d_k is head_dim. The panel showed Pre-LN, GELU (tanh), learned positions and
    // d_k = 24 / 4 = 6.
    void aModernDecoderSaysWhatItIs()
    {
        Session s;
        QString error;
        QVERIFY2(s.importModel(QStringLiteral(ATTNLAB_TEST_DATA "/hf/qwen3_qknorm_f32"), &error), qPrintable(error));
        SettingsPanel p(&s);
        p.show();
        QVERIFY(!p.normBox()->isVisibleTo(&p) && !p.activationBox()->isVisibleTo(&p) && !p.positionalBox()->isVisibleTo(&p));
        QStringList texts;
        for (const QLabel* l : p.findChildren<QLabel*>())
            texts << l->text();
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(all.contains(QStringLiteral("(Qwen3): 2 layers, d_model 24, 4 query heads sharing 2 key/value heads of 8, d_ff 40; "
                                             "RMSNorm, SwiGLU, RoPE inside attention")),
                 qPrintable(all));
        QVERIFY2(texts.contains(QStringLiteral("d_k = 8")), qPrintable(all));
        // GPT-2 again: its rows are back.
        QVERIFY2(s.importModel(QStringLiteral(ATTNLAB_TEST_DATA "/hf/gpt2_f32"), &error), qPrintable(error));
        QVERIFY(p.normBox()->isVisibleTo(&p) && p.activationBox()->isVisibleTo(&p) && p.positionalBox()->isVisibleTo(&p));
    }

    void dModelCommitsOnReturnAndKeepsTheHeads()
    {
        Session s;
        Config c = s.config();
        c.dModel = 12;
        c.heads = 4;
        s.setConfig(c);
        SettingsPanel p(&s);
        p.show();
        QVERIFY(QTest::qWaitForWindowActive(&p));
        QCOMPARE(p.headsBox()->currentData().toInt(), 4);
        const auto type = [&](const char* digits) {
            p.dModelBox()->setFocus();
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier);
            QTest::keyClicks(QApplication::focusWidget(), QString::fromLatin1(digits));
        };
        type("16");
        QCOMPARE(s.config().dModel, 12); // nothing committed while typing
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QCOMPARE(s.config().dModel, 16);
        QCOMPARE(s.config().heads, 4);
        type("5");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        QCOMPARE(s.config().heads, 5); // 5 allows 1 or 5 heads: the closest to 4
        type("12");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab); // leaving the box commits too
        QCOMPARE(s.config().dModel, 12);
        QCOMPARE(s.config().heads, 4); // the wish, not the closest to 5 (6)
    }

    void maxTokensLetsALongTextThrough()
    {
        // 600 words: cut at the default 512 (with the warning), whole at 1024.
        QStringList words;
        for (int i = 0; i < 600; ++i)
            words << QStringLiteral("w%1").arg(i);
        Session s;
        s.setSentence(words.join(QLatin1Char(' ')));
        SettingsPanel p(&s);
        p.show();
        QCOMPARE(p.maxTokensBox()->value(), 512);
        QCOMPARE(p.maxTokensBox()->maximum(), 1024);
        QCOMPARE(static_cast<int>(s.trace()->tokens.size()), 512);
        const auto cut = [&] {
            for (const auto& w : s.trace()->warnings)
                if (w.code == "tokens_cut")
                    return true;
            return false;
        };
        QVERIFY(cut());
        p.maxTokensBox()->setValue(1024);
        QCOMPARE(s.config().maxTokens, 1024);
        QCOMPARE(static_cast<int>(s.trace()->tokens.size()), 600);
        QCOMPARE(s.trace()->tokens[599], std::string("w599"));
        QVERIFY(!cut());
        // Set elsewhere (a session file, undo): the box follows.
        Config c = s.config();
        c.maxTokens = 100;
        s.setConfig(c);
        QCOMPARE(p.maxTokensBox()->value(), 100);
        QCOMPARE(static_cast<int>(s.trace()->tokens.size()), 100);
    }
};

QTEST_MAIN(TestSettingsPanel)
#include "tst_settingspanel.moc"
