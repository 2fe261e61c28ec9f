// What a desktop application is expected to have (issue 11 §4), driven with real keys where the
// focus is when a user presses them: Help (F1: the getting-started page; Ctrl+F1: the shortcut
// sheet, listing every shortcut the window has; About), Edit (undo and redo of the sentence and the settings), zoom and fit in the
// View menu, the heatmaps' right-click menu, the export names — in English and in Chinese, and
// after a language switch.

#include "lessons/lessonplayer.h"
#include "session/history.h"
#include "session/session.h"
#include "shell/aboutdialog.h"
#include "shell/deskmenus.h"
#include "shell/fileactions.h"
#include "shell/gettingstarted.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "shell/shortcutsheet.h"
#include "shell/stepkeys.h"
#include "views/heatmapmenu.h"
#include "views/heatmapview.h"
#include "views/heatmapzoom.h"
#include "views/multiheadview.h"
#include "views/stageview.h"
#include "widgets/settingspanel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTreeWidget>
#include <QtTest>

using namespace attnlab;

namespace {

/// A key as the user presses it: to the widget that has the focus.
void press(QKeyCombination key)
{
    QWidget* focused = QApplication::focusWidget();
    QVERIFY(focused);
    QTest::keyClick(focused, key.key(), key.keyboardModifiers());
}

/// The items of `menu` (and of its submenus) whose mnemonic another item of the same menu has:
/// with two, the key only moves between them instead of triggering the item.
QStringList sharedMnemonics(const QList<QAction*>& actions, const QString& where)
{
    QStringList found;
    QHash<int, QString> seen;
    for (QAction* a : actions) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        const QKeySequence key = QKeySequence::mnemonic(a->text());
        if (!key.isEmpty()) {
            const int k = key[0].toCombined();
            if (seen.contains(k))
                found << QStringLiteral("%1: %2 / %3").arg(where, seen.value(k), a->text());
            else
                seen.insert(k, a->text());
        }
        if (a->menu())
            found += sharedMnemonics(a->menu()->actions(), where + QStringLiteral(" > ") + a->text());
    }
    return found;
}

QStringList menuTitles(const MainWindow& w)
{
    QStringList titles;
    for (QAction* a : w.menuBar()->actions())
        titles << a->text();
    return titles;
}

QMenu* menuNamed(const MainWindow& w, const QString& objectName)
{
    return w.menuBar()->findChild<QMenu*>(objectName, Qt::FindDirectChildrenOnly);
}

void showActive(MainWindow& w)
{
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
}

} // namespace

class TestDeskMenus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_deskmenus"));
        QSettings().clear();
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void theMenusAreWhereDesktopAppsHaveThem()
    {
        Session s;
        MainWindow w(&s);
        QCOMPARE(menuTitles(w), (QStringList{"&File", "&Edit", "&View", "&Go", "&Help"}));
        QMenu* help = menuNamed(w, QStringLiteral("HelpMenu"));
        QVERIFY(help);
        auto* desk = w.findChild<DeskMenus*>();
        QVERIFY(help->actions().contains(desk->gettingStartedAction()));
        QVERIFY(help->actions().contains(desk->shortcutsAction()));
        QVERIFY(help->actions().contains(desk->aboutAction()));
        QCOMPARE(help->actions().first(), desk->gettingStartedAction());
        QCOMPARE(desk->gettingStartedAction()->shortcut(), QKeySequence(Qt::Key_F1));
        QCOMPARE(desk->shortcutsAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F1));
        QCOMPARE(desk->undoAction()->shortcut(), QKeySequence(QKeySequence::Undo));
        QCOMPARE(desk->redoAction()->shortcuts(), (QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
                                                                      QKeySequence(Qt::CTRL | Qt::Key_Y)}));
        QMenu* view = w.menuBar()->actions().at(2)->menu();
        for (QAction* zoom : {desk->zoomInAction(), desk->zoomOutAction(), desk->fitAction()})
            QVERIFY(view->actions().contains(zoom));
        QCOMPARE(desk->zoomInAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Equal));
        QCOMPARE(desk->zoomOutAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Minus));
        QCOMPARE(desk->fitAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
    }

    void f1OpensAGettingStartedPageBesideTheSheet()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        press(Qt::Key_F1);
        auto* start = w.findChild<GettingStarted*>();
        QVERIFY(start);
        QVERIFY(start->isVisible());
        QVERIFY(!w.findChild<ShortcutSheet*>()); // the sheet stays beside it, unopened
        QCOMPARE(start->windowTitle(), QStringLiteral("Getting started"));
        const QString text = start->plainText();
        // The concepts, the clicker's keys (as the stepping keys name them) and the lessons.
        for (const QString& part : {QStringLiteral("queries Q, keys K and values V"), QStringLiteral("rows are queries"),
                                    StepKeys::keysText(StepKey::Next), StepKeys::keysText(StepKey::Previous),
                                    StepKeys::keysText(StepKey::Blackout), QStringLiteral("F11"), QStringLiteral("Presenter mode"),
                                    QStringLiteral("Lessons"), QStringLiteral("Export lesson"), QStringLiteral("File ▸ Models"),
                                    QStringLiteral("Ctrl+F1")})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in the page")));
        // F1 again, with the page in front, raises the same page.
        QTRY_VERIFY(QApplication::activeWindow() == start);
        press(Qt::Key_F1);
        QCOMPARE(w.findChildren<GettingStarted*>().size(), 1);
        // A click on the page's link opens the full sheet.
        QTextBrowser* page = start->page();
        QTextCursor link = page->document()->find(QStringLiteral("Keyboard shortcuts"));
        QVERIFY(!link.isNull());
        QTextCursor inside(page->document());
        inside.setPosition(link.selectionStart() + 3);
        page->setTextCursor(inside);
        page->ensureCursorVisible();
        const QPoint at = page->cursorRect(inside).center() + QPoint(2, 0);
        QTest::mouseClick(page->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY(w.findChild<ShortcutSheet*>() && w.findChild<ShortcutSheet*>()->isVisible());
    }

    void ctrlF1OpensASheetOfEveryShortcut()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        press(Qt::CTRL | Qt::Key_F1);
        auto* sheet = w.findChild<ShortcutSheet*>();
        QVERIFY(sheet);
        QVERIFY(sheet->isVisible());
        const QList<ShortcutEntry> entries = sheet->entries();
        const auto listed = [&entries](const QString& keys, const QString& action) {
            for (const ShortcutEntry& e : entries)
                if ((e.keys == keys || e.keys.split(QStringLiteral(", ")).contains(keys)) && (action.isEmpty() || e.action == action))
                    return true;
            return false;
        };
        // Every action of the window with a shortcut, whoever made it, under its menu text.
        int withShortcuts = 0;
        for (const QAction* a : w.findChildren<QAction*>()) {
            QString text = a->text().section(QLatin1Char('\t'), 0, 0);
            text.remove(QLatin1Char('&'));
            for (const QKeySequence& k : a->shortcuts()) {
                ++withShortcuts;
                QVERIFY2(listed(k.toString(QKeySequence::NativeText), text), qPrintable(text + QStringLiteral(": ") + k.toString()));
            }
        }
        QVERIFY(withShortcuts >= 15); // File's, Edit's, View's, Go's, Help's, Ctrl+D
        // Every stepping key (shell/stepkeys.h), and the window's QShortcuts (Ctrl+L).
        for (const StepKey key : {StepKey::Next, StepKey::Previous, StepKey::First, StepKey::Last, StepKey::NextHead,
                                  StepKey::PreviousHead, StepKey::Blackout, StepKey::Escape})
            QVERIFY2(listed(StepKeys::keysText(key), QString()), qPrintable(StepKeys::keysText(key)));
        QVERIFY(listed(QKeySequence(Qt::CTRL | Qt::Key_L).toString(QKeySequence::NativeText), QStringLiteral("Type in the sentence box")));
        // The tree shows them by menu.
        QStringList groups;
        for (int i = 0; i < sheet->tree()->topLevelItemCount(); ++i)
            groups << sheet->tree()->topLevelItem(i)->text(0);
        QVERIFY2(groups.mid(0, 5) == (QStringList{"File", "Edit", "View", "Go", "Help"}), qPrintable(groups.join(u',')));
        QVERIFY(groups.contains(QStringLiteral("Stepping keys")));
        QCOMPARE(groups.last(), QStringLiteral("Mouse on a heatmap"));
        QVERIFY(listed(QStringLiteral("Ctrl + wheel"), QStringLiteral("Zoom in or out at the pointer")));
    }

    void aboutSaysWhatAndWhichVersions()
    {
        // The version of CMake's project(), read here from the top CMakeLists.txt.
        QFile cmake(QStringLiteral(ATTNLAB_TEST_DATA "/../../CMakeLists.txt"));
        QVERIFY(cmake.open(QIODevice::ReadOnly));
        const auto match = QRegularExpression(QStringLiteral("project\\(AttentionLab VERSION ([0-9.]+)")).match(QString::fromUtf8(cmake.readAll()));
        QVERIFY(match.hasMatch());
        QCOMPARE(AboutDialog::version(), match.captured(1));
        Session s;
        MainWindow w(&s);
        auto* desk = w.findChild<DeskMenus*>();
        desk->aboutAction()->trigger();
        auto* about = w.findChild<AboutDialog*>();
        QVERIFY(about && about->isVisible());
        const QString text = about->text();
        for (const QString& part : {match.captured(1), QString::fromLatin1(qVersion()), QStringLiteral("Eigen 3."),
                                    QStringLiteral("QCustomPlot " QCUSTOMPLOT_VERSION_STR), QStringLiteral("Transformer attention"),
                                    QStringLiteral("GPL-3.0"), QStringLiteral("licence")})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in ") + text));
    }

    // File > Open model and File > Models both had D, File > Save session as and Export all
    // stages both A: every item of every menu has a mnemonic of its own, in both languages.
    void everyMenuItemHasItsOwnMnemonic()
    {
        LanguageManager languages;
        Session s;
        MainWindow w(&s);
        for (const char* language : {"en", "zh_CN"}) {
            QVERIFY(languages.setLanguage(QString::fromLatin1(language)));
            w.setCurrentLanguage(languages.current());
            QCoreApplication::processEvents();
            const QStringList shared = sharedMnemonics(w.menuBar()->actions(), QString::fromLatin1(language));
            QVERIFY2(shared.isEmpty(), qPrintable(shared.join(QLatin1Char('\n'))));
        }
    }

    void theMenusSurviveALanguageSwitch()
    {
        LanguageManager languages;
        Session s;
        MainWindow w(&s);
        showActive(w);
        auto* desk = w.findChild<DeskMenus*>();
        desk->aboutAction()->trigger();
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        w.setCurrentLanguage(languages.current());
        QCoreApplication::processEvents();
        QCOMPARE(menuTitles(w), (QStringList{QStringLiteral("文件(&F)"), QStringLiteral("编辑(&E)"), QStringLiteral("视图(&V)"),
                                             QStringLiteral("转到(&G)"), QStringLiteral("帮助(&H)")}));
        QCOMPARE(menuNamed(w, QStringLiteral("EditMenu"))->actions().size(), 2); // made again, not added to
        QCOMPARE(desk->undoAction()->text(), QStringLiteral("撤销(&U)"));
        QVERIFY(w.findChild<AboutDialog*>()->text().contains(QStringLiteral("许可")));
        // F1 opens the getting-started page, in Chinese; Ctrl+F1 the sheet.
        press(Qt::Key_F1);
        auto* start = w.findChild<GettingStarted*>();
        QVERIFY(start && start->isVisible());
        QCOMPARE(start->windowTitle(), QStringLiteral("入门"));
        QVERIFY2(start->plainText().contains(QStringLiteral("课程")) && start->plainText().contains(QStringLiteral("演示模式"))
                     && start->plainText().contains(StepKeys::keysText(StepKey::Next)),
                 qPrintable(start->plainText()));
        press(Qt::CTRL | Qt::Key_F1);
        auto* sheet = w.findChild<ShortcutSheet*>();
        QVERIFY(sheet && sheet->isVisible());
        QCOMPARE(sheet->windowTitle(), QStringLiteral("键盘快捷键"));
        QCOMPARE(sheet->tree()->topLevelItem(1)->text(0), QStringLiteral("编辑"));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        w.setCurrentLanguage(languages.current());
        QCoreApplication::processEvents();
        QCOMPARE(menuTitles(w), (QStringList{"&File", "&Edit", "&View", "&Go", "&Help"}));
        QTRY_COMPARE(sheet->windowTitle(), QStringLiteral("Keyboard shortcuts"));
        QTRY_COMPARE(start->windowTitle(), QStringLiteral("Getting started"));
    }

    void ctrlZUndoesTheTypedWordsInTheSentenceBox()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        const QString original = s.sentence();
        // Click into the box, clear it, type word by word (slower than the 40 ms that commit).
        QTest::mouseClick(w.sentenceEdit(), Qt::LeftButton);
        QCOMPARE(QApplication::focusWidget(), w.sentenceEdit());
        press(Qt::CTRL | Qt::Key_A);
        press(Qt::Key_Backspace);
        QTest::keyClicks(w.sentenceEdit(), QStringLiteral("the cat sat"), Qt::NoModifier, 60);
        QTRY_COMPARE(s.sentence(), QStringLiteral("the cat sat"));
        // The focus stays in the box, where the user left it.
        press(Qt::CTRL | Qt::Key_Z);
        QCOMPARE(s.sentence(), QStringLiteral("the cat"));
        QCOMPARE(w.sentenceEdit()->text(), QStringLiteral("the cat"));
        press(Qt::CTRL | Qt::Key_Z);
        QCOMPARE(s.sentence(), QStringLiteral("the"));
        press(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);
        QCOMPARE(s.sentence(), QStringLiteral("the cat"));
        press(Qt::CTRL | Qt::Key_Z);
        press(Qt::CTRL | Qt::Key_Z); // the typing, then the clearing
        press(Qt::CTRL | Qt::Key_Z);
        QCOMPARE(s.sentence(), original);
        QCOMPARE(w.sentenceEdit()->text(), original);
        press(Qt::CTRL | Qt::Key_Y);
        QCOMPARE(s.sentence(), QString());
    }

    void undoRightAfterTypingTakesTheTypingBack()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        const QString original = s.sentence();
        QTest::mouseClick(w.sentenceEdit(), Qt::LeftButton);
        press(Qt::Key_End);
        QTest::keyClicks(w.sentenceEdit(), QStringLiteral(" again")); // no pause: not committed yet
        press(Qt::CTRL | Qt::Key_Z);
        QCOMPARE(s.sentence(), original);
        QCOMPARE(w.sentenceEdit()->text(), original);
    }

    void ctrlZUndoesASettingWhereTheFocusIs()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        const Config before = s.config();
        SettingsPanel* settings = w.settingsPanel();
        // A click on the checkbox: the focus stays on it.
        auto* scale = settings->scaleBox();
        QTest::mouseClick(scale, Qt::LeftButton, Qt::NoModifier, QPoint(8, scale->height() / 2));
        QCOMPARE(s.config().scaleScores, !before.scaleScores);
        scale->setFocus(Qt::MouseFocusReason); // offscreen: a click focuses as on a desktop
        press(Qt::CTRL | Qt::Key_Z);
        QCOMPARE(s.config(), before);
        QCOMPARE(scale->isChecked(), before.scaleScores);
        press(Qt::CTRL | Qt::Key_Y);
        QCOMPARE(s.config().scaleScores, !before.scaleScores);
        press(Qt::CTRL | Qt::Key_Z);
        // Typing a seed into its box, then Ctrl+Z in the box: the studio's undo, not the field's.
        QSpinBox* seed = settings->seedBox();
        QTest::mouseClick(seed, Qt::LeftButton);
        seed->setFocus(Qt::MouseFocusReason);
        press(Qt::CTRL | Qt::Key_A);
        QTest::keyClicks(seed, QStringLiteral("77"));
        press(Qt::Key_Return); // a number is taken on Enter (or on leaving the box)
        QTRY_COMPARE(s.config().seed, std::uint64_t(77));
        QCoreApplication::processEvents();
        press(Qt::CTRL | Qt::Key_Z);
        QCOMPARE(s.config(), before);
        QCOMPARE(seed->value(), static_cast<int>(before.seed));
        // With the focus on the view (after Enter in the sentence box), the menu's shortcut acts.
        QTest::mouseClick(w.sentenceEdit(), Qt::LeftButton);
        press(Qt::Key_End);
        QTest::keyClicks(w.sentenceEdit(), QStringLiteral(" too"));
        press(Qt::Key_Return);
        QVERIFY(QApplication::focusWidget() != w.sentenceEdit());
        press(Qt::CTRL | Qt::Key_Z);
        QVERIFY(!s.sentence().endsWith(QStringLiteral(" too")));
    }

    void aLessonClearsTheHistory()
    {
        Session s;
        MainWindow w(&s);
        auto* desk = w.findChild<DeskMenus*>();
        s.setSentence(QStringLiteral("my own sentence"));
        QCoreApplication::processEvents();
        QVERIFY(desk->undoAction()->isEnabled());
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/en/04-look-ahead-mask.md")));
        QCoreApplication::processEvents();
        QVERIFY(!desk->history()->canUndo());
        QVERIFY(!desk->undoAction()->isEnabled());
    }

    void zoomKeysZoomTheHeatmapInFront()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        w.stageView()->setFocus();
        HeatmapZoom* zoom = w.stageView()->heatmap()->zoom();
        QCOMPARE(zoom->factor(), 1.0);
        press(Qt::CTRL | Qt::Key_Equal);
        QCOMPARE(zoom->factor(), HeatmapZoom::kStep);
        press(Qt::CTRL | Qt::Key_Equal);
        QCOMPARE(zoom->factor(), HeatmapZoom::kStep * HeatmapZoom::kStep);
        press(Qt::CTRL | Qt::Key_Minus);
        QCOMPARE(zoom->factor(), HeatmapZoom::kStep);
        press(Qt::CTRL | Qt::Key_0);
        QCOMPARE(zoom->factor(), 1.0);
    }

    void aRightClickOnTheWindowsHeatmapOpensItsMenu()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        QCustomPlot* plot = w.stageView()->heatmap()->plot();
        const QPoint cell(qRound(plot->xAxis->coordToPixel(0)), qRound(plot->yAxis->coordToPixel(0)));
        QContextMenuEvent click(QContextMenuEvent::Mouse, cell, plot->mapToGlobal(cell));
        QApplication::sendEvent(plot, &click);
        QMenu* menu = w.findChild<DeskMenus*>()->heatmapMenu()->menu();
        QVERIFY(menu && menu->isVisible());
        QCOMPARE(menu->actions().size(), 4); // Copy image, Copy value, a separator, Export…
        menu->close();
        // A view made of heatmaps: the all-heads grid, head 2's heatmap.
        w.tabs()->setCurrentIndex(1);
        QCoreApplication::processEvents();
        QCOMPARE(w.visibleView(), static_cast<QWidget*>(w.headsView()));
        HeatmapView* second = w.headsView()->headView(1);
        QVERIFY(second && second->isVisible());
        QCustomPlot* grid = second->plot();
        const QPoint there(qRound(grid->xAxis->coordToPixel(1)), qRound(grid->yAxis->coordToPixel(0)));
        QContextMenuEvent onTheGrid(QContextMenuEvent::Mouse, there, grid->mapToGlobal(there));
        QApplication::sendEvent(grid, &onTheGrid);
        QMenu* gridMenu = w.findChild<DeskMenus*>()->heatmapMenu()->menu();
        QVERIFY(gridMenu && gridMenu->isVisible());
        QCOMPARE(gridMenu->actions().at(1)->toolTip(), HeatmapMenu::cellText(*second, 0, 1));
        gridMenu->close();
    }

    void exportNamesComeFromWhatIsOnScreen()
    {
        Session s;
        MainWindow w(&s);
        auto* files = w.findChild<FileActions*>();
        s.setSentence(QStringLiteral("狗咬了人"));
        s.setStepId(QStringLiteral("weights"));
        s.setHead(0);
        QCOMPARE(files->suggestedName(QStringLiteral("png")), QStringLiteral("weights-head1-狗咬了人.png"));
        s.setStepId(QStringLiteral("concat"));
        QCOMPARE(files->suggestedName(QStringLiteral("csv")), QStringLiteral("concat-狗咬了人.csv"));
        QCOMPARE(files->suggestedLessonName(), QStringLiteral("lesson.pdf"));
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/en/04-look-ahead-mask.md")));
        const QString title = QString::fromStdString(w.lessonPlayer()->lesson()->title);
        QCOMPARE(files->suggestedLessonName(), QStringLiteral("lesson-") + title.simplified().replace(u' ', u'_') + QStringLiteral(".pdf"));
    }
};

QTEST_MAIN(TestDeskMenus)
#include "tst_deskmenus.moc"
