// The base of the views: a redraw waits while the view is hidden in a shown window and runs when
// it is shown again (once, however many times the trace changed); a view on screen, or outside
// any shown window, redraws at once; a font change reaches applyFonts, a palette change
// applyPalette, and a language change retranslate and then a redraw; the exported plots are the
// view's plots, the stage view's its heatmap's, and the heads view's those of the mode shown.

#include "views/heatmapview.h"
#include "views/multiheadview.h"
#include "views/sessionview.h"
#include "views/stageview.h"
#include "session/session.h"
#include "shell/languages.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QVBoxLayout>
#include <QtTest>

using namespace attnlab;

namespace {

/// Counts what the base calls.
class CountingView : public SessionView {
public:
    explicit CountingView(Session* session, QWidget* parent = nullptr)
        : SessionView(session, parent)
    {
    }

    int refreshes = 0;
    int retranslations = 0;
    int fontChanges = 0;
    int paletteChanges = 0;
    /// retranslations when the last refresh ran: a language change retranslates first.
    int retranslationsAtRefresh = -1;

    using SessionView::refreshOn;

private:
    void refresh() override
    {
        ++refreshes;
        retranslationsAtRefresh = retranslations;
    }
    void retranslate() override { ++retranslations; }
    void applyFonts() override { ++fontChanges; }
    void applyPalette() override { ++paletteChanges; }
};

/// A window with the view in it, on screen.
struct ShownWindow {
    QWidget window;
    CountingView* view;

    explicit ShownWindow(Session* session)
        : view(new CountingView(session, &window))
    {
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(view);
        window.resize(400, 300);
        window.show();
    }
};

} // namespace

class TestSessionView : public QObject {
    Q_OBJECT

private slots:
    void redrawsAtOnceOutsideAShownWindow()
    {
        Session s;
        CountingView v(&s); // never shown: tests, slides and exports draw at once
        s.setSentence(QStringLiteral("the cat sat"));
        QCOMPARE(v.refreshes, 1);
        QVERIFY(!v.isRefreshPending());
        QCOMPARE(v.session(), &s);
    }

    void redrawsAtOnceOnScreen()
    {
        Session s;
        ShownWindow w(&s);
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        s.setSentence(QStringLiteral("the cat sat"));
        QCOMPARE(w.view->refreshes, 1);
        QVERIFY(!w.view->isRefreshPending());
    }

    void hiddenViewWaitsUntilShown()
    {
        Session s;
        ShownWindow w(&s);
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        w.view->hide();
        s.setSentence(QStringLiteral("the cat sat"));
        s.setSentence(QStringLiteral("the cat sat on the mat"));
        QCOMPARE(w.view->refreshes, 0);
        QVERIFY(w.view->isRefreshPending());

        w.view->show();
        QCOMPARE(w.view->refreshes, 1); // once, with the latest trace
        QVERIFY(!w.view->isRefreshPending());

        // Shown again with nothing new: no redraw.
        w.view->hide();
        w.view->show();
        QCOMPARE(w.view->refreshes, 1);
    }

    void otherSignalsRedrawTheSameWay()
    {
        Session s;
        s.setConfig([] {
            Config c;
            c.heads = 2;
            return c;
        }());
        ShownWindow w(&s);
        w.view->refreshOn(&Session::headChanged);
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        s.setHead(1);
        QCOMPARE(w.view->refreshes, 1);
        w.view->hide();
        s.setHead(0);
        QCOMPARE(w.view->refreshes, 1);
        w.view->show();
        QCOMPARE(w.view->refreshes, 2);
    }

    void fontChangeReachesApplyFonts()
    {
        Session s;
        ShownWindow w(&s);
        QCOMPARE(w.view->fontChanges, 0);
        // The window's font (a slide, a deck page) reaches the view inside it.
        QFont big = w.window.font();
        big.setPointSizeF(big.pointSizeF() * 1.5);
        w.window.setFont(big);
        QCOMPARE(w.view->fontChanges, 1);

        // Presenter mode changes the application font.
        const QFont normal = QApplication::font();
        QFont larger = normal;
        larger.setPointSizeF(normal.pointSizeF() * 1.35);
        CountingView standalone(&s);
        QApplication::setFont(larger);
        QCoreApplication::processEvents();
        QVERIFY(standalone.fontChanges >= 1);
        QApplication::setFont(normal);
    }

    void paletteChangeReachesApplyPalette()
    {
        Session s;
        CountingView v(&s);
        QPalette p = v.palette();
        p.setColor(QPalette::Window, Qt::black);
        p.setColor(QPalette::Text, Qt::white);
        v.setPalette(p);
        QCOMPARE(v.paletteChanges, 1);
    }

    void languageChangeReachesRetranslate()
    {
        Session s;
        CountingView v(&s);
        LanguageManager languages;
        // Qt posts QEvent::LanguageChange to the windows.
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QTRY_VERIFY(v.retranslations >= 1);
        QCoreApplication::processEvents();
        // Each retranslation is followed by a redraw: titles and captions hold numbers and names.
        QCOMPARE(v.refreshes, v.retranslations);
        QCOMPARE(v.retranslationsAtRefresh, v.retranslations);
        const int before = v.retranslations;
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QTRY_VERIFY(v.retranslations > before);
        QCoreApplication::processEvents();
        QCOMPARE(v.refreshes, v.retranslations);
    }

    void exportedPlotsAreTheViewsPlots()
    {
        Session s;
        CountingView v(&s);
        auto* layout = new QVBoxLayout(&v);
        auto* plot = new QCustomPlot(&v);
        auto* heatmap = new HeatmapView(&v);
        layout->addWidget(plot);
        layout->addWidget(heatmap);
        const QList<QCustomPlot*> plots = v.exportedPlots();
        QCOMPARE(plots.size(), 2);
        QVERIFY(plots.contains(plot));
        QVERIFY(plots.contains(heatmap->plot()));

        // The stage view exports its one heatmap, as a vector plot.
        StageView stage(&s);
        QCOMPARE(stage.exportedPlots(), QList<QCustomPlot*>{stage.heatmap()->plot()});

        // The heads view exports the mode it shows.
        Config c;
        c.heads = 2;
        s.setConfig(c);
        MultiHeadView heads(&s);
        QCOMPARE(heads.exportedPlots(), (QList<QCustomPlot*>{heads.headView(0)->plot(), heads.headView(1)->plot()}));
        heads.setMode(MultiHeadView::Mode::Concat);
        QCOMPARE(heads.exportedPlots(), (QList<QCustomPlot*>{heads.concatView()->plot(), heads.outputView()->plot()}));
    }
};

QTEST_MAIN(TestSessionView)
#include "tst_sessionview.moc"
