// The main window's menus: View ▸ Panels brings back a closed panel (issue 11 §2: a closed
// inspector, settings or stages panel could not be brought back), also after a language switch.

#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QtTest>

using namespace attnlab;

namespace {

/// The action of `menu` (or of its submenus) whose text, without '&', is `text`.
QAction* findAction(const QMenu* menu, const QString& text)
{
    for (QAction* a : menu->actions()) {
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
        if (a->menu())
            if (QAction* found = findAction(a->menu(), text))
                return found;
    }
    return nullptr;
}

QMenu* viewMenu(const MainWindow& w)
{
    for (QAction* a : w.menuBar()->actions()) {
        if (a->menu() && (a->text().remove(QLatin1Char('&')) == QStringLiteral("View") || a->text().contains(QStringLiteral("视图"))))
            return a->menu();
    }
    return nullptr;
}

} // namespace

class TestMainWindowMenus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow_menus"));
    }

    void everyClosedPanelComesBackFromTheViewMenu()
    {
        LanguageManager languages;
        Session s;
        MainWindow w(&s);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
        QCOMPARE(docks.size(), 4);
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            QVERIFY(languages.setLanguage(language));
            QCoreApplication::processEvents();
            QMenu* view = viewMenu(w);
            QVERIFY2(view, qPrintable(language));
            for (QDockWidget* dock : docks) {
                dock->close();
                QVERIFY(!dock->toggleViewAction()->isChecked());
                QAction* action = findAction(view, dock->windowTitle());
                QVERIFY2(action, qPrintable(dock->windowTitle()));
                QVERIFY(action->isCheckable());
                action->trigger();
                QVERIFY(dock->toggleViewAction()->isChecked());
                QVERIFY2(!dock->isHidden(), qPrintable(dock->windowTitle()));
            }
            for (QDockWidget* dock : docks)
                dock->close();
            QAction* all = findAction(view, language == u"en" ? QStringLiteral("Show all panels") : QStringLiteral("显示所有面板"));
            QVERIFY(all);
            all->trigger();
            for (QDockWidget* dock : docks)
                QVERIFY(dock->toggleViewAction()->isChecked());
        }
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }
};

QTEST_MAIN(TestMainWindowMenus)
#include "tst_mainwindow_menus.moc"
