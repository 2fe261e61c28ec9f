// The clicker test: the stepping keys (←/→, Space, PageUp/PageDown, Home/End, ↑/↓) step the
// stages, or the lesson while one plays, whatever widget has the keyboard focus — every
// focusable widget of every view of the view stack, and of the docks around it. The keys go the
// way a keyboard or a clicker sends them (through the window, to the focused widget; shortcut
// overrides included), never straight to a widget. A text field keeps its keys only while the
// user types in it (PageUp/PageDown still step), and Esc gives them back; a widget that owns the
// arrow keys (the model view's grid, the head view's tokens) keeps ←/→/↑/↓. Also: the keys work
// right after start without a click, the Go menu lists every key, Esc leaves presenter mode and
// unticks its menu action, and B blacks the screen out in presenter mode.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/mainwindow.h"
#include "widgets/decoderpanel.h"
#include "widgets/formulabanner.h"
#include "shell/presentermode.h"
#include "shell/stepkeys.h"
#include "shell/viewstack.h"
#include "views/multiheadview.h"
#include "views/registry.h"
#include "views/sessionview.h"
#include "views/stageview.h"
#include "views/tokensview.h"
#include "widgets/settingspanel.h"
#include "widgets/stagenavigator.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QPushButton>
#include <QTimer>
#include <QtTest>

#include <functional>

using namespace attnlab;

namespace {

/// A key as the keyboard (or a clicker) sends it: to the window, which hands it to the focus.
void press(MainWindow& w, Qt::Key key)
{
    QTest::keyClick(w.windowHandle(), key);
}

/// What a key must do from step `mid` with head 0 (head 1 for ↑); `last` is the last step.
struct KeyCase {
    Qt::Key key;
    const char* name;
    int step; ///< the step after the key; -1: mid - 1, -2: mid + 1, -3: the last
    int head; ///< the head after the key
};

constexpr KeyCase kCases[] = {
    {Qt::Key_Right, "Right", -2, 0},
    {Qt::Key_Space, "Space", -2, 0},
    {Qt::Key_PageDown, "PageDown", -2, 0},
    {Qt::Key_Left, "Left", -1, 0},
    {Qt::Key_PageUp, "PageUp", -1, 0},
    {Qt::Key_Home, "Home", 0, 0},
    {Qt::Key_End, "End", -3, 0},
    {Qt::Key_Down, "Down", -4, 1}, // -4: the step stays
    {Qt::Key_Up, "Up", -4, 0},
};

int expectedStep(const KeyCase& c, int mid, int last)
{
    switch (c.step) {
    case -1: return mid - 1;
    case -2: return mid + 1;
    case -3: return last;
    case -4: return mid;
    default: return c.step;
    }
}

/// Widgets a user can put the focus on, visible now, in `root` (itself included).
QList<QWidget*> focusable(QWidget* root)
{
    QList<QWidget*> all{root};
    all += root->findChildren<QWidget*>();
    QList<QWidget*> out;
    for (QWidget* w : all) {
        if (w->isVisible() && w->isEnabled() && (w == root || w->focusPolicy() != Qt::NoFocus) && !w->focusProxy())
            out << w;
    }
    return out;
}

QString describe(const QWidget* w)
{
    return QStringLiteral("%1 \"%2\"").arg(QString::fromLatin1(w->metaObject()->className()), w->objectName());
}

/// For each widget and each key: `reset` puts the studio at step `mid` again (and the page of
/// the widget in front), the widget gets the real focus, the key goes through the window, and
/// `position()` must have moved as the key says while the widget kept its own value.
void checkEveryKey(MainWindow& w, Session& s, const QList<QWidget*>& widgets, const std::function<void()>& reset,
                   const std::function<int()>& position, int mid, int last)
{
    for (QWidget* target : widgets) {
        for (const KeyCase& c : kCases) {
            reset();
            s.setHead(c.key == Qt::Key_Up ? 1 : 0);
            if (!target->isVisible())
                QFAIL(qPrintable(describe(target) + QStringLiteral(" is hidden after the reset")));
            target->setFocus(Qt::OtherFocusReason);
            QVERIFY2(QApplication::focusWidget() == target, qPrintable(describe(target) + " did not take the focus"));
            QVERIFY2(!w.stepKeys()->typingIn(), qPrintable(describe(target)));
            // A spin box keeps its number (the navigator's head box shows the head: it follows).
            auto* spin = target == w.navigator()->headBox() ? nullptr : qobject_cast<QAbstractSpinBox*>(target);
            const QString spinText = spin ? spin->text() : QString();
            press(w, c.key);
            const QString where = describe(target) + QStringLiteral(", key ") + QLatin1String(c.name);
            // A widget that owns the arrows (the model view's grid, the head view's tokens) moves
            // in itself: the stages and the head stay.
            const bool arrow = c.key == Qt::Key_Left || c.key == Qt::Key_Right || c.key == Qt::Key_Up || c.key == Qt::Key_Down;
            if (arrow && target->property(kOwnsArrowKeys).toBool()) {
                QVERIFY2(position() == mid, qPrintable(where + QStringLiteral(": the arrow stepped to %1").arg(position())));
                QVERIFY2(s.head() == (c.key == Qt::Key_Up ? 1 : 0), qPrintable(where + QStringLiteral(": head %1").arg(s.head())));
                continue;
            }
            QVERIFY2(position() == expectedStep(c, mid, last),
                     qPrintable(where + QStringLiteral(": at %1, expected %2").arg(position()).arg(expectedStep(c, mid, last))));
            QVERIFY2(s.head() == c.head, qPrintable(where + QStringLiteral(": head %1").arg(s.head())));
            if (spin)
                QVERIFY2(spin->text() == spinText, qPrintable(where + ": the spin box took the key"));
        }
    }
}

/// A Transformer small enough to recompute quickly, so that every kind of view has a step.
void useSmallTransformer(Session& s)
{
    Config c = s.config();
    c.model = ModelKind::Seeded;
    c.dModel = 8;
    c.heads = 2;
    c.setLayers(1);
    s.setConfig(c);
    s.setSentence(QStringLiteral("a b c"));
}

void showActive(MainWindow& w)
{
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
}

} // namespace

class TestStepKeys : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_stepkeys"));
    }

    void everyWidgetOfEveryViewStepsTheStages()
    {
        Session s;
        useSmallTransformer(s);
        MainWindow w(&s);
        showActive(w);
        auto* stack = static_cast<ViewStack*>(w.tabs());
        const int last = static_cast<int>(s.steps().size()) - 1;
        int checked = 0;
        for (const ViewEntry& e : viewRegistry()) {
            const QString view = e.lessonView.isEmpty() ? QStringLiteral("stage") : e.lessonView;
            // A step this view shows, away from both ends (so Home and End move).
            int mid = -1;
            for (int i = 1; i < last && mid < 0; ++i) {
                if (viewKindFor(s.steps()[static_cast<std::size_t>(i)].id, view) == e.kind)
                    mid = i;
            }
            QVERIFY2(mid > 0, qPrintable(QStringLiteral("no step for view %1").arg(static_cast<int>(e.kind))));
            const auto reset = [&] {
                s.setView(view);
                s.setStep(mid);
            };
            reset();
            QWidget* page = e.tab ? stack->tabView(e.kind) : stack->pageFor(e.kind);
            QVERIFY(page == w.visibleView());
            const QList<QWidget*> widgets = focusable(page);
            checkEveryKey(w, s, widgets, reset, [&] { return s.step(); }, mid, last);
            if (QTest::currentTestFailed())
                return;
            checked += static_cast<int>(widgets.size());
        }
        QVERIFY2(checked >= 12, qPrintable(QStringLiteral("only %1 widgets").arg(checked)));
    }

    void everyWidgetAroundTheViewsStepsTheStages()
    {
        // The docks (stages, lessons, settings, inspector), the sentence box (the focus there, no
        // typing yet), the banner and the tab bars.
        Session s;
        MainWindow w(&s);
        showActive(w);
        const int mid = s.stepIndex(QStringLiteral("scores"));
        const int last = static_cast<int>(s.steps().size()) - 1;
        QList<QWidget*> widgets;
        for (QWidget* widget : focusable(&w)) {
            if (widget != &w && !w.tabs()->currentWidget()->isAncestorOf(widget) && widget != w.tabs()->currentWidget())
                widgets << widget;
        }
        QVERIFY(widgets.contains(w.sentenceEdit()));
        QVERIFY(widgets.contains(w.settingsPanel()->seedBox()));
        checkEveryKey(w, s, widgets, [&] { s.setStep(mid); }, [&] { return s.step(); }, mid, last);
    }

    void everyWidgetStepsTheLesson()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/en/04-look-ahead-mask.md")));
        const int last = static_cast<int>(w.lessonPlayer()->lesson()->steps.size()) - 1;
        const int mid = 4;
        const auto reset = [&] { w.lessonPlayer()->goToStep(mid); };
        reset();
        QList<QWidget*> widgets = focusable(&w);
        widgets.removeOne(&w);
        checkEveryKey(w, s, widgets, reset, [&] { return w.lessonPlayer()->stepIndex(); }, mid, last);
    }

    void keysWorkRightAfterStart_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::newRow("no arguments") << QString();
        QTest::newRow("--lesson zh/04-look-ahead-mask") << QStringLiteral(":/lessons/zh/04-look-ahead-mask.md");
    }

    void keysWorkRightAfterStart()
    {
        // As app/gui/main.cpp starts: the window, shown and activated, then the lesson. No
        // click, no setFocus. The lesson's first step shows the tokens table; Qt hands the focus
        // of the hidden heatmap to the table, which used to take →, Space and PageDown itself.
        QFETCH(QString, lesson);
        Session s;
        MainWindow w(&s);
        w.showWithinScreen();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        if (!lesson.isEmpty())
            QVERIFY(w.lessonPlayer()->openLessonFile(lesson));
        QWidget* focus = QApplication::focusWidget();
        QVERIFY(focus && (focus == &w || w.isAncestorOf(focus)));
        qInfo("focus at start: %s", qPrintable(describe(focus)));
        const auto position = [&] { return lesson.isEmpty() ? s.step() : w.lessonPlayer()->stepIndex(); };
        const int start = position();
        press(w, Qt::Key_PageDown);
        press(w, Qt::Key_Right);
        press(w, Qt::Key_Space);
        QCOMPARE(position(), start + 3);
        press(w, Qt::Key_PageUp);
        QCOMPARE(position(), start + 2);
    }

    void typingKeepsTheKeysUntilEscape()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        s.setStep(5);
        QLineEdit* edit = w.sentenceEdit();
        // The focus in the box without typing: the keys step.
        edit->setFocus(Qt::OtherFocusReason);
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), 6);
        // A click into the text: typing. The arrows, Space, Home/End and ↑/↓ are the text's.
        QTest::mouseClick(edit, Qt::LeftButton);
        QCOMPARE(w.stepKeys()->typingIn(), edit);
        edit->setCursorPosition(3);
        for (Qt::Key key : {Qt::Key_Right, Qt::Key_Left, Qt::Key_Left, Qt::Key_End, Qt::Key_Home, Qt::Key_Up, Qt::Key_Down})
            press(w, key);
        QCOMPARE(s.step(), 6);
        QCOMPARE(s.head(), 0);
        QCOMPARE(edit->cursorPosition(), 0);
        press(w, Qt::Key_Space);
        QVERIFY(edit->text().startsWith(QLatin1Char(' ')));
        QCOMPARE(s.step(), 6);
        // A clicker's PageDown still steps.
        press(w, Qt::Key_PageDown);
        QCOMPARE(s.step(), 7);
        // Esc gives the keys back: the focus leaves the box.
        press(w, Qt::Key_Escape);
        QVERIFY(!w.stepKeys()->typingIn());
        QVERIFY(QApplication::focusWidget() != edit);
        press(w, Qt::Key_Left);
        QCOMPARE(s.step(), 6);

        // Typing a letter into a box that has the focus starts typing too; Enter ends it.
        edit->setFocus(Qt::OtherFocusReason);
        edit->setCursorPosition(0);
        press(w, Qt::Key_X);
        QVERIFY(edit->text().startsWith(QLatin1Char('x')));
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), 6);
        press(w, Qt::Key_Return);
        QVERIFY(!w.stepKeys()->typingIn());
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), 7);

        // Ctrl+L: straight to typing.
        QTest::keyClick(w.windowHandle(), Qt::Key_L, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), edit);
        QCOMPARE(w.stepKeys()->typingIn(), edit);
        press(w, Qt::Key_Left);
        QCOMPARE(s.step(), 7);
    }

    // Issue 11 §2: after Return in the teacher-forcing box, and after clicking Next, End/←/→
    // did nothing: the box kept the keys.
    void theTargetBoxGivesTheKeysBackAfterReturn()
    {
        Session s;
        useSmallTransformer(s);
        MainWindow w(&s);
        showActive(w);
        auto* target = w.findChild<DecoderPanel*>()->targetEdit();
        QVERIFY(target->isVisible());
        s.setStep(3);
        QTest::mouseClick(target, Qt::LeftButton);
        QCOMPARE(w.stepKeys()->typingIn(), target);
        for (Qt::Key key : {Qt::Key_X, Qt::Key_Space, Qt::Key_Y})
            press(w, key);
        QCOMPARE(target->text(), QStringLiteral("x y"));
        press(w, Qt::Key_Return);
        QTRY_COMPARE(s.fullTrace()->targetTokens.size(), std::size_t(3)); // <sos> x y
        QVERIFY(!w.stepKeys()->typingIn());
        const int step = s.step();
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step + 1);
        press(w, Qt::Key_Left);
        QCOMPARE(s.step(), step);
        press(w, Qt::Key_End);
        QCOMPARE(s.step(), static_cast<int>(s.steps().size()) - 1);
        // Typing again, then the Next button (it takes no focus): the keys are the stages' again.
        QTest::mouseClick(target, Qt::LeftButton);
        press(w, Qt::Key_Z);
        QCOMPARE(w.stepKeys()->typingIn(), target);
        QPushButton* next = nullptr;
        for (auto* b : w.lessonPlayer()->findChildren<QPushButton*>()) {
            if (b->text().contains(QStringLiteral("Next")))
                next = b;
        }
        QVERIFY(next);
        QTest::mouseClick(next, Qt::LeftButton);
        QVERIFY(!w.stepKeys()->typingIn());
        press(w, Qt::Key_Home);
        QCOMPARE(s.step(), 0);
    }

    // Issue 11 §2: Ctrl+E did nothing right after saving a session: the focus was back in the
    // sentence box, whose emacs key Ctrl+E (end of line) swallowed the shortcut.
    void windowShortcutsWorkFromTheSentenceBox()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        QLineEdit* edit = w.sentenceEdit();
        QTest::mouseClick(edit, Qt::LeftButton); // typing in it
        edit->setCursorPosition(0);
        QString dialog;
        QTimer poll;
        connect(&poll, &QTimer::timeout, &w, [&dialog] {
            if (QWidget* d = QApplication::activeModalWidget()) {
                dialog = d->windowTitle();
                d->close();
            }
        });
        poll.start(50);
        QTest::keyClick(w.windowHandle(), Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(!dialog.isEmpty());
        QVERIFY2(dialog.contains(QStringLiteral("Export")), qPrintable(dialog));
        QCOMPARE(edit->cursorPosition(), 0); // the box did not take the key
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        // Ctrl+D (compare) too; the editing keys stay the box's.
        QVERIFY(!s.isComparing());
        QTest::keyClick(w.windowHandle(), Qt::Key_D, Qt::ControlModifier);
        QVERIFY(s.isComparing());
        QTest::keyClick(w.windowHandle(), Qt::Key_D, Qt::ControlModifier);
        QVERIFY(!s.isComparing());
        QTest::keyClick(w.windowHandle(), Qt::Key_A, Qt::ControlModifier);
        QCOMPARE(edit->selectedText(), edit->text());
    }

    void aSpinBoxBeingEditedKeepsItsKeys()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        s.setStepId(QStringLiteral("scores"));
        s.setHead(1);
        QSpinBox* seed = w.settingsPanel()->seedBox();
        const int value = seed->value();
        seed->setFocus(Qt::OtherFocusReason);
        press(w, Qt::Key_Up); // not edited: the head
        QCOMPARE(s.head(), 0);
        QCOMPARE(seed->value(), value);
        // A click into its number: now ↑ is the spin box's.
        QTest::mouseClick(seed->findChild<QLineEdit*>(), Qt::LeftButton);
        QCOMPARE(w.stepKeys()->typingIn(), seed);
        press(w, Qt::Key_Up);
        QCOMPARE(seed->value(), value + 1);
        QCOMPARE(s.head(), 0);
        const int step = s.step();
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step);
        press(w, Qt::Key_Escape);
        QVERIFY(!w.stepKeys()->typingIn());
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step + 1);
    }

    void theMenuBarKeepsItsArrows()
    {
        // Alt puts the menu bar in keyboard mode: the arrows walk its menus, not the stages.
        Session s;
        MainWindow w(&s);
        showActive(w);
        const int step = s.step();
        press(w, Qt::Key_Alt);
        QVERIFY(qobject_cast<QMenuBar*>(QApplication::focusWidget()));
        press(w, Qt::Key_Right);
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step);
        press(w, Qt::Key_Escape);
        QTRY_VERIFY(!qobject_cast<QMenuBar*>(QApplication::focusWidget()));
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step + 1);
    }

    void aMenuClosedWithEscapeGivesTheKeysBack_data()
    {
        QTest::addColumn<int>("key");
        QTest::newRow("PageDown") << int(Qt::Key_PageDown);
        QTest::newRow("Right") << int(Qt::Key_Right);
        QTest::newRow("Space") << int(Qt::Key_Space);
        QTest::newRow("a click") << 0;
    }

    void aMenuClosedWithEscapeGivesTheKeysBack()
    {
        // A menu opened by a click and closed with Esc leaves the menu bar in keyboard mode, its
        // title lit: the clicker's next key must step all the same (issue 28 §1), and so must →
        // and Space (the user never asked for keyboard menus); a click anywhere ends it too.
        QFETCH(int, key);
        Session s;
        MainWindow w(&s);
        showActive(w);
        const int step = s.step();
        QMenuBar* bar = w.menuBar();
        QAction* file = bar->actions().first();
        QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(file).center());
        QTRY_VERIFY(QApplication::activePopupWidget());
        QTest::keyClick(QApplication::activePopupWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!QApplication::activePopupWidget());
        QVERIFY(qobject_cast<QMenuBar*>(QApplication::focusWidget())); // the state the clicker met
        if (key == 0) {
            // On a part of the window that takes no focus (the formula banner; the lesson's step
            // list is another).
            QWidget* banner = w.banner();
            QCOMPARE(banner->focusPolicy(), Qt::NoFocus);
            QTest::mouseClick(banner, Qt::LeftButton, {}, QPoint(5, 5));
            QVERIFY(!qobject_cast<QMenuBar*>(QApplication::focusWidget()));
            press(w, Qt::Key_PageDown);
        } else {
            press(w, static_cast<Qt::Key>(key));
        }
        QCOMPARE(s.step(), step + 1);
        QVERIFY(!qobject_cast<QMenuBar*>(QApplication::focusWidget()));
        QVERIFY(!QApplication::activePopupWidget()); // no menu opened instead
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step + 2);
    }

    void theClickerStepsOutOfTheMenuBar()
    {
        // Alt's keyboard mode keeps the arrows for the menus, but the clicker's keys step.
        Session s;
        MainWindow w(&s);
        showActive(w);
        const int step = s.step();
        press(w, Qt::Key_Alt);
        QVERIFY(qobject_cast<QMenuBar*>(QApplication::focusWidget()));
        press(w, Qt::Key_PageDown);
        QCOMPARE(s.step(), step + 1);
        QVERIFY(!qobject_cast<QMenuBar*>(QApplication::focusWidget()));
    }

    void goMenuListsEveryKey()
    {
        Session s;
        MainWindow w(&s);
        QStringList texts;
        for (QAction* a : w.goMenu()->actions())
            texts << a->text();
        const QString all = texts.join(QLatin1Char('\n'));
        // The names menus show on Linux, written out here; arrows as arrows.
        for (const char* key : {"\u2192", "\u2190", "\u2191", "\u2193", "Space", "PgDown", "PgUp", "Home", "End"})
            QVERIFY2(all.contains(QString::fromUtf8(key)), qPrintable(all + QStringLiteral("\nlacks ") + QString::fromUtf8(key)));
        // Each line shows its keys after a tab, where menus put shortcuts, and does what they do.
        QAction* next = nullptr;
        for (QAction* a : w.goMenu()->actions()) {
            if (a->text().contains(QStringLiteral("PgDown")))
                next = a;
        }
        QVERIFY(next && next->text().contains(QStringLiteral("\t\u2192, Space, PgDown")));
        const int step = s.step();
        next->trigger();
        QCOMPARE(s.step(), step + 1);
    }

    void escapeLeavesPresenterModeAndUnticksIt()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        w.presenterAction()->trigger();
        QVERIFY(w.isPresenterMode());
        QVERIFY(w.presenterAction()->isChecked());
        press(w, Qt::Key_Escape);
        QVERIFY(!w.isPresenterMode());
        QVERIFY(!w.presenterAction()->isChecked());
        // Started another way (the command line's --presenter, a language switch): ticked too.
        w.setPresenterMode(true);
        QVERIFY(w.presenterAction()->isChecked());
        w.setPresenterMode(false);
        QVERIFY(!w.presenterAction()->isChecked());
    }

    void blackScreenInPresenterMode()
    {
        Session s;
        MainWindow w(&s);
        showActive(w);
        QWidget* black = w.presenter()->blackScreen();
        press(w, Qt::Key_B); // not presenting: nothing
        QVERIFY(!black->isVisible());
        w.setPresenterMode(true);
        const int step = s.step();
        press(w, Qt::Key_B);
        QVERIFY(black->isVisible());
        QCOMPARE(black->geometry(), w.rect());
        QCOMPARE(black->palette().color(QPalette::Window), QColor(Qt::black));
        QCOMPARE(black->grab().toImage().pixelColor(10, 10), QColor(Qt::black));
        // Behind the black nothing moves; B again brings the view back.
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step);
        press(w, Qt::Key_B);
        QVERIFY(!black->isVisible());
        press(w, Qt::Key_Right);
        QCOMPARE(s.step(), step + 1);
        // Esc ends the black screen first, then presenter mode.
        press(w, Qt::Key_Period);
        QVERIFY(black->isVisible());
        press(w, Qt::Key_Escape);
        QVERIFY(!black->isVisible());
        QVERIFY(w.isPresenterMode());
        press(w, Qt::Key_Escape);
        QVERIFY(!w.isPresenterMode());
        // Typing a b in a text field on the projection (the positional encoding's dimensions;
        // the sentence row steps aside in presenter mode) is a letter, not a black screen.
        w.setPresenterMode(true);
        QVERIFY(!w.sentenceEdit()->isVisible());
        s.setStepId(QStringLiteral("positional_encoding"));
        auto* dims = w.visibleView()->findChild<QLineEdit*>();
        QVERIFY(dims && dims->isVisible());
        QTest::mouseClick(dims, Qt::LeftButton);
        press(w, Qt::Key_B);
        QVERIFY(!black->isVisible());
        QVERIFY(dims->text().contains(QLatin1Char('b')));
    }
};

QTEST_MAIN(TestStepKeys)
#include "tst_stepkeys.moc"
