// Every setting says what it does and why: each enabled input of the settings panel, the decoder
// panel and the comparison bar has a tooltip, in English and in Chinese; a setting a trained
// model owns keeps the tooltip that says so while it is greyed out.

#include "session/session.h"
#include "shell/languages.h"
#include "widgets/comparebar.h"
#include "widgets/decoderpanel.h"
#include "widgets/settingspanel.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;

namespace {

/// The inputs of `panel` a user can change (a spin box's or combo box's own line edit is part of
/// it, as is a line edit's clear button).
QList<QWidget*> inputs(QWidget* panel)
{
    QList<QWidget*> found;
    for (QWidget* w : panel->findChildren<QWidget*>()) {
        const bool input = qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w)
            || qobject_cast<QSlider*>(w)
            || (qobject_cast<QLineEdit*>(w) && !qobject_cast<QAbstractSpinBox*>(w->parent()) && !qobject_cast<QComboBox*>(w->parent()));
        if (input && !qobject_cast<QLineEdit*>(w->parent()))
            found << w;
    }
    return found;
}

QString describe(const QWidget* w)
{
    QString name = QString::fromLatin1(w->metaObject()->className());
    if (const auto* b = qobject_cast<const QAbstractButton*>(w))
        name += QStringLiteral(" \"") + b->text() + QLatin1Char('"');
    if (const auto* c = qobject_cast<const QComboBox*>(w))
        name += QStringLiteral(" [") + c->itemText(0) + QLatin1Char(']');
    if (const auto* l = qobject_cast<const QLineEdit*>(w))
        name += QStringLiteral(" (") + l->placeholderText() + QLatin1Char(')');
    return name;
}

bool hasHan(const QString& s)
{
    for (const QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF)
            return true;
    return false;
}

/// Checks every input of `panel`, enabled or greyed out (a greyed-out one says why); returns
/// how many enabled ones were checked.
int checkTooltips(QWidget* panel, bool chinese)
{
    int checked = 0;
    for (const QWidget* w : inputs(panel)) {
        checked += w->isEnabled() ? 1 : 0;
        const QString tip = w->toolTip();
        if (tip.isEmpty())
            qWarning("no tooltip: %s", qPrintable(describe(w)));
        if (chinese && !hasHan(tip))
            qWarning("not translated: %s: %s", qPrintable(describe(w)), qPrintable(tip));
        if (tip.isEmpty() || (chinese && !hasHan(tip)))
            return -1;
    }
    return checked;
}

} // namespace

class TestTooltips : public QObject {
    Q_OBJECT
private slots:
    void everySettingExplainsItself_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("model"); // a ModelKind
        QTest::newRow("English, one attention block") << "en" << int(ModelKind::None);
        QTest::newRow("English, seeded Transformer") << "en" << int(ModelKind::Seeded);
        QTest::newRow("English, trained Transformer") << "en" << int(ModelKind::Reversal);
        QTest::newRow("Chinese, one attention block") << "zh_CN" << int(ModelKind::None);
        QTest::newRow("Chinese, seeded Transformer") << "zh_CN" << int(ModelKind::Seeded);
        QTest::newRow("Chinese, trained Transformer") << "zh_CN" << int(ModelKind::Reversal);
    }

    void everySettingExplainsItself()
    {
        QFETCH(QString, language);
        QFETCH(int, model);
        LanguageManager languages;
        QVERIFY(languages.setLanguage(language));
        Session s;
        Config c = s.config();
        c.model = static_cast<ModelKind>(model);
        s.setConfig(c);
        QWidget window;
        auto* settings = new SettingsPanel(&s, &window);
        auto* decoder = new DecoderPanel(&s, &window);
        auto* compare = new CompareBar(&s, &window);
        const bool chinese = language != u"en";
        const int a = checkTooltips(settings, chinese);
        const int b = checkTooltips(decoder, chinese);
        const int d = checkTooltips(compare, chinese);
        QVERIFY(a > 0 && b >= 0 && d > 0);
        // One attention block: model, d_model, heads, seed, positions, two scalings, mask, pad to,
        // weights and their buttons; a trained model greys out most of them.
        QVERIFY2(a >= (model == int(ModelKind::None) ? 12 : 2), qPrintable(QString::number(a)));
        if (model != int(ModelKind::None))
            QVERIFY(b >= 3); // generate, teacher forcing, the target
        languages.setLanguage(QStringLiteral("en"));
    }

    void theScalingSaysWhy()
    {
        Session s;
        SettingsPanel settings(&s);
        QCOMPARE(settings.scaleBox()->toolTip(), QStringLiteral("Divide scores by \u221Ad_k (keeps the softmax from saturating as d_k grows)"));
    }

    void aGreyedOutSettingKeepsItsReasonInEitherLanguage()
    {
        LanguageManager languages;
        Session s;
        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        SettingsPanel settings(&s);
        QVERIFY(!settings.seedBox()->isEnabled());
        QVERIFY(settings.seedBox()->toolTip().startsWith(QStringLiteral("Part of the trained model")));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents();
        QVERIFY(!settings.seedBox()->isEnabled());
        QVERIFY(hasHan(settings.seedBox()->toolTip()));
        const QString chineseReason = settings.seedBox()->toolTip();
        languages.setLanguage(QStringLiteral("en"));
        QCoreApplication::processEvents();
        QVERIFY(settings.seedBox()->toolTip().startsWith(QStringLiteral("Part of the trained model")));
        QVERIFY(chineseReason != settings.seedBox()->toolTip());
    }
};

QTEST_MAIN(TestTooltips)
#include "tst_tooltips.moc"
