// Type a back row can read (issue 28 §1): in presenter mode on a 1024 × 768 projector and a
// 1920 × 1080 screen, in English and in Chinese, the heatmap's token labels
// and its cell numbers are at least 3.5 % of the screen's height; numbers that would not fit
// their cells are not drawn (they never run into each other); cells a lesson dims keep
// near-black numbers; nothing interactive is projected (the colour-scale check boxes, the Compare bar), and it
// all comes back when presenter mode ends.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "support/screens.h"
#include "views/stageview.h"
#include "widgets/comparebar.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QStandardPaths>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// A font's size in pixels on `screen`.
double pixels(const QFont& f, const QScreen* screen)
{
    return f.pointSizeF() > 0 ? f.pointSizeF() * screen->logicalDotsPerInchY() / 72.0 : f.pixelSize();
}

/// The numbers drawn in the heatmap's cells.
QList<QCPItemText*> cellNumbers(QCustomPlot* plot)
{
    QList<QCPItemText*> texts;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->visible())
            texts << t;
    }
    return texts;
}

} // namespace

class TestProjectedType : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_projectedtype"));
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void typeFromTheScreensHeight_data()
    {
        QTest::addColumn<QString>("screen");
        QTest::addColumn<QString>("language");
        for (const char* screen : {"projector-1024", "monitor-1920"}) {
            for (const char* language : {"en", "zh_CN"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(screen, language))) << screen << language;
        }
    }

    void typeFromTheScreensHeight()
    {
        QFETCH(QString, screen);
        QFETCH(QString, language);
        LanguageManager languages;
        QVERIFY(languages.setLanguage(language));
        QScreen* on = screenNamed(screen);
        QVERIFY(on);
        Session s;
        MainWindow w(&s);
        w.setCurrentLanguage(language);
        openOn(w, on);
        s.setStepId(QStringLiteral("weights"));
        presentOn(w, on);
        settle(w);
        const double least = 0.035 * on->geometry().height();
        QCustomPlot* plot = w.stageView()->heatmap()->plot();
        QVERIFY2(pixels(plot->xAxis2->tickLabelFont(), on) >= least, qPrintable(QString::number(pixels(plot->xAxis2->tickLabelFont(), on))));
        QVERIFY(pixels(plot->yAxis->tickLabelFont(), on) >= least);
        // Every number drawn is large enough and inside its cell; on the monitor they are drawn.
        const QList<QCPItemText*> numbers = cellNumbers(plot);
        const double cellWidth = plot->axisRect()->width() / double(w.stageView()->heatmap()->matrix().values.cols());
        for (QCPItemText* t : numbers) {
            QVERIFY2(pixels(t->font(), on) >= least, qPrintable(t->text() + QStringLiteral(": ") + QString::number(pixels(t->font(), on))));
            QVERIFY2(QFontMetricsF(t->font()).horizontalAdvance(t->text()) <= cellWidth,
                     qPrintable(QStringLiteral("%1 in a cell %2 pixels wide").arg(t->text()).arg(cellWidth)));
        }
        if (on->geometry().height() >= 1080)
            QCOMPARE(numbers.size(), int(w.stageView()->heatmap()->matrix().values.size()));
        w.setPresenterMode(false);
    }

    // A number's type on narrow cells is never so large that it runs into the next one: at the
    // 1024 × 768 projector, X (12 × 32) has no room for its numbers, and none are drawn.
    void numbersThatDoNotFitAreNotDrawn()
    {
        Session s;
        MainWindow w(&s);
        openOn(w, screenNamed(QStringLiteral("projector-1024")));
        w.presenter()->setScreenChoice(QStringLiteral("projector-1024"));
        s.setStepId(QStringLiteral("input"));
        w.setPresenterMode(true);
        settle(w);
        QCustomPlot* plot = w.stageView()->heatmap()->plot();
        const double cellWidth = plot->axisRect()->width() / double(w.stageView()->heatmap()->matrix().values.cols());
        for (QCPItemText* t : cellNumbers(plot))
            QVERIFY2(QFontMetricsF(t->font()).horizontalAdvance(t->text()) <= cellWidth, qPrintable(t->text()));
        w.setPresenterMode(false);
    }

    void dimmedCellsKeepDarkNumbers()
    {
        Session s;
        MainWindow w(&s);
        openOn(w, screenNamed(QStringLiteral("monitor-1920")));
        w.presenter()->setScreenChoice(QStringLiteral("monitor-1920"));
        QVERIFY(w.lessonPlayer()->openLessonAt(QStringLiteral(":/lessons/en/03-scaled-dot-product.md"), 0));
        s.setStepId(QStringLiteral("weights"));
        Highlight lit;
        lit.rows = {1};
        s.setHighlight(lit);
        w.setPresenterMode(true);
        settle(w);
        int dimmed = 0;
        for (QCPItemText* t : cellNumbers(w.stageView()->heatmap()->plot())) {
            if (t->position->coords().y() != 1) {
                ++dimmed;
                QVERIFY2(t->color().lightness() < 60, qPrintable(t->color().name()));
            }
        }
        QVERIFY(dimmed > 0);
        w.setPresenterMode(false);
    }

    void nothingInteractiveIsProjected()
    {
        Session s;
        MainWindow w(&s);
        openOn(w, screenNamed(QStringLiteral("monitor-1920")));
        w.presenter()->setScreenChoice(QStringLiteral("monitor-1920"));
        s.setStepId(QStringLiteral("scores"));
        settle(w);
        QCheckBox* scores = w.stageView()->sharedScoresBox();
        QCheckBox* heads = w.stageView()->sharedScaleBox();
        QVERIFY(scores->isVisible());
        QVERIFY(heads->isVisible());
        w.setPresenterMode(true);
        settle(w);
        QVERIFY(!scores->isVisible());
        QVERIFY(!heads->isVisible());
        // Another step while projected: still hidden, and its own check boxes too.
        s.setStepId(QStringLiteral("masked_scores"));
        settle(w);
        QVERIFY(!scores->isVisible());
        // The Compare bar's fields.
        auto* bar = w.findChild<CompareBar*>();
        bar->toggleAction()->trigger();
        settle(w);
        QVERIFY(s.isComparing());
        QVERIFY(!bar->isVisible());
        bar->toggleAction()->trigger();
        w.setPresenterMode(false);
        s.setStepId(QStringLiteral("scores"));
        settle(w);
        QVERIFY(scores->isVisible());
        QVERIFY(heads->isVisible());
    }
};

int main(int argc, char** argv)
{
    return runOnClassroomScreens<TestProjectedType>(argc, argv);
}

#include "tst_projectedtype.moc"
