// Comparing two inputs on the screens of a classroom (issue 10 §1 and §2): on a 1024 × 768 and a
// 1280 × 720 projector and a 1920 × 1080 monitor, in the normal layout and in presenter mode,
// the window stays within the screen at every step of the comparison lesson, and A, B and A − B
// show whole — each heatmap's cells and colour scale, and the caption saying what A and B are.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/mainwindow.h"
#include "shell/presentermode.h"
#include "support/screens.h"
#include "views/compareview.h"
#include "views/heatmapview.h"
#include "widgets/comparebar.h"

#include <QLabel>
#include <QtTest>

#include <qcustomplot.h>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

QCPColorScale* colorScaleOf(QCustomPlot* plot)
{
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* c = qobject_cast<QCPColorScale*>(e))
            return c;
    }
    return nullptr;
}

} // namespace

class TestCompareScreens : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_compare_screens"));
        QCOMPARE(QGuiApplication::screens().size(), 3);
    }

    void theTripleShowsWhole_data()
    {
        QTest::addColumn<QString>("screen");
        QTest::addColumn<bool>("presenter");
        QTest::addColumn<QString>("language");
        for (const char* name : {"projector-1024", "projector-1280", "monitor-1920"}) {
            for (bool presenter : {false, true}) {
                for (const char* language : {"en", "zh"})
                    QTest::addRow("%s, %s, %s", name, presenter ? "presenter" : "normal", language) << name << presenter << language;
            }
        }
    }

    void theTripleShowsWhole()
    {
        QFETCH(QString, screen);
        QFETCH(bool, presenter);
        QFETCH(QString, language);
        QScreen* s = screenNamed(screen);
        Session session;
        MainWindow w(&session);
        w.resize(1400, 900); // as at a first start on this screen
        openOn(w, s);
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/%1/14-comparing-inputs.md").arg(language)));
        if (presenter)
            presentOn(w, s);
        const QRect room = presenter ? s->geometry() : s->availableGeometry();
        auto* v = qobject_cast<CompareView*>(w.visibleView());
        QVERIFY(v);
        for (int i = 0; i < static_cast<int>(w.lessonPlayer()->lesson()->steps.size()); ++i) {
            w.lessonPlayer()->goToStep(i);
            settle(w);
            const QString wrong = outside(w, room);
            QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("step %1: ").arg(i + 1) + wrong));
            QCOMPARE(w.visibleView(), static_cast<QWidget*>(v));
            if (!v->figure())
                continue; // the tokens step
            QString why;
            QVERIFY2(shownWhole(v->captionLabel(), v->captionLabel()->rect(), room, &why), qPrintable(QStringLiteral("caption: ") + why));
            for (HeatmapView* h : {v->heatmapA(), v->heatmapB(), v->heatmapDifference()}) {
                QCustomPlot* plot = h->plot();
                plot->replot(QCustomPlot::rpImmediateRefresh);
                const QString what = QStringLiteral("step %1, %2: ").arg(i + 1).arg(h == v->heatmapA() ? "A" : h == v->heatmapB() ? "B" : "A − B");
                QVERIFY2(shownWhole(plot, plot->rect(), room, &why), qPrintable(what + why));
                const QRect cells = plot->axisRect()->rect();
                QVERIFY2(cells.width() >= 60 && cells.height() >= 60, qPrintable(what + text(cells) + QStringLiteral(" in a plot %1 wide").arg(plot->width())));
                QCPColorScale* scale = colorScaleOf(plot);
                QVERIFY(scale);
                QVERIFY2(shownWhole(plot, scale->outerRect(), room, &why), qPrintable(what + QStringLiteral("colour scale: ") + why));
                QVERIFY2(scale->outerRect().left() >= cells.right(), qPrintable(what + "the colour scale overlaps the cells"));
            }
        }
    }
};

int main(int argc, char** argv)
{
    return runOnClassroomScreens<TestCompareScreens>(argc, argv);
}

#include "tst_compare_screens.moc"
