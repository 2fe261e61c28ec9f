// The settings panel's Transformer rows: hidden for one attention block, shown (fixed) for the
// trained model, editable for a seeded one; choosing a model in the box switches the Session.

#include "session/session.h"
#include "widgets/settingspanel.h"

#include <QComboBox>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

class TestSettingsPanel : public QObject {
    Q_OBJECT
private slots:
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
        QVERIFY(!p.maskBox()->isEnabled());

        p.modelBox()->setCurrentIndex(p.modelBox()->findData(static_cast<int>(ModelKind::Seeded)));
        QVERIFY(s.config().model == ModelKind::Seeded);
        QVERIFY(p.layersBox()->isEnabled());
        p.layersBox()->setValue(3);
        QCOMPARE(s.config().encoderLayers, 3);
        QVERIFY(s.stepIndex(QStringLiteral("layer_output"), 2, Block::EncoderSelf) >= 0);
    }
};

QTEST_MAIN(TestSettingsPanel)
#include "tst_settingspanel.moc"
