// English and Simplified Chinese at run time: the translation loads, the studio speaks it, and
// Chinese glyphs come from the Simplified Chinese face.

#include "core/config.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "session/session.h"
#include "session/stages.h"
#include "lessons/lessonplayer.h"
#include "shell/viewstack.h"
#include "widgets/settingspanel.h"
#include "shell/fileactions.h"

#include <QFile>
#include <QFontDatabase>
#include <QLineEdit>
#include <QStandardPaths>
#include <QFontInfo>
#include <QFontMetrics>
#include <QAbstractButton>
#include <QComboBox>
#include <QLabel>
#include <QTabBar>
#include <QDockWidget>
#include <QMenuBar>
#include <QtTest>

using namespace attnlab;

class TestLanguages : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        LanguageManager::useSimplifiedChineseGlyphs();
    }

    void switchesAtRunTime()
    {
        LanguageManager languages;
        QCOMPARE(languages.current(), QStringLiteral("en"));
        QCOMPARE(stepName(QStringLiteral("weights")), QStringLiteral("Softmax \u2192 weights A"));
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(stepName(QStringLiteral("weights")), QStringLiteral("Softmax \u2192 权重 A"));
        {
            Session s;
            MainWindow w(&s);
            QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
            QCOMPARE(w.windowTitle(), QStringLiteral("Attention Lab"));
        }
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        QCOMPARE(stepName(QStringLiteral("weights")), QStringLiteral("Softmax \u2192 weights A"));
        QVERIFY(!languages.setLanguage(QStringLiteral("klingon")));
        QCOMPARE(languages.current(), QStringLiteral("en"));
    }

    // The one language switch: the same window writes every text again where it stands; its
    // size, place, sentence, settings and lesson step stay.
    void theSameWindowSwitchesInPlace()
    {
        LanguageManager languages;
        Session s;
        MainWindow w(&s);
        w.setCurrentLanguage(QStringLiteral("en"));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.lessonPlayer()->openLessonFile(QStringLiteral(":/lessons/en/04-look-ahead-mask.md")));
        w.lessonPlayer()->goToStep(2);
        const QRect geometry = w.geometry();
        const QString sentence = s.sentence();
        const Config config = s.config();
        auto* settingsDock = w.findChild<QDockWidget*>(QStringLiteral("SettingsDock"));
        QCOMPARE(settingsDock->windowTitle(), QStringLiteral("Settings"));

        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        w.setCurrentLanguage(languages.current());
        QCoreApplication::processEvents(); // QEvent::LanguageChange is posted to the window
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
        QCOMPARE(w.findChild<QDockWidget*>(QStringLiteral("StagesDock"))->windowTitle(), QStringLiteral("阶段导航"));
        QCOMPARE(w.findChild<ViewStack*>()->tabText(1), QStringLiteral("所有头"));
        QCOMPARE(w.findChild<SettingsPanel*>()->maskBox()->itemText(0), QStringLiteral("无"));
        QCOMPARE(w.geometry(), geometry);
        QCOMPARE(s.sentence(), sentence);
        QCOMPARE(s.config(), config);
        // The lesson goes on in its Chinese twin, at the same step.
        QCOMPARE(w.lessonPlayer()->currentPath(), QStringLiteral(":/lessons/zh/04-look-ahead-mask.md"));
        QCOMPARE(w.lessonPlayer()->stepIndex(), 2);
        // The Language menu ticks the new language; the menus work (Go ▸ Next step steps).
        QMenu* view = w.menuBar()->actions().at(2)->menu(); // File, Edit, View
        QAction* chinese = nullptr;
        for (QAction* a : view->actions()) {
            if (a->menu() && !a->menu()->actions().isEmpty() && a->menu()->actions().first()->data().isValid()) {
                for (QAction* l : a->menu()->actions())
                    if (l->data().toString() == u"zh_CN")
                        chinese = l;
            }
        }
        QVERIFY(chinese && chinese->isChecked());
        QAction* go = w.menuBar()->actions().at(3);
        go->menu()->actions().first()->trigger();
        QCOMPARE(w.lessonPlayer()->stepIndex(), 3);

        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        w.setCurrentLanguage(languages.current());
        QCoreApplication::processEvents();
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
        QCOMPARE(settingsDock->windowTitle(), QStringLiteral("Settings"));
        QCOMPARE(w.menuBar()->actions().size(), 5); // File, Edit, View, Go, Help: made again, not added to
    }

    // Switching in place leaves no text behind: every label, button, tab, dock title and
    // combo item reads as in a window made in the new language from the start.
    void nothingStaysInTheOldLanguage()
    {
        LanguageManager languages;
        Session s;
        MainWindow switched(&s);
        switched.show();
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCoreApplication::processEvents();
        MainWindow fresh(&s);
        fresh.show();
        QCoreApplication::processEvents();
        const auto texts = [](const QWidget& w) {
            QStringList out;
            // What is on screen: a hidden view writes its captions again when it is shown.
            for (const QWidget* o : w.findChildren<QWidget*>()) {
                if (!o->isVisible())
                    continue;
                if (const auto* l = qobject_cast<const QLabel*>(o); l && !l->text().isEmpty())
                    out << QStringLiteral("label: ") + l->text();
                else if (const auto* b = qobject_cast<const QAbstractButton*>(o); b && !b->text().isEmpty())
                    out << QStringLiteral("button: ") + b->text() + QStringLiteral(" | ") + b->toolTip();
                else if (const auto* d = qobject_cast<const QDockWidget*>(o))
                    out << QStringLiteral("dock: ") + d->windowTitle();
                else if (const auto* t = qobject_cast<const QTabBar*>(o)) {
                    for (int i = 0; i < t->count(); ++i)
                        out << QStringLiteral("tab: ") + t->tabText(i);
                } else if (const auto* c = qobject_cast<const QComboBox*>(o)) {
                    for (int i = 0; i < c->count(); ++i)
                        out << QStringLiteral("item: ") + c->itemText(i);
                }
            }
            out.sort();
            return out;
        };
        const QStringList a = texts(switched);
        const QStringList b = texts(fresh);
        QStringList onlyInSwitched;
        for (const QString& t : a)
            if (!b.contains(t))
                onlyInSwitched << t;
        QVERIFY2(onlyInSwitched.isEmpty(), qPrintable(onlyInSwitched.join(QLatin1Char('\n'))));
        QCOMPARE(a.size(), b.size());
        languages.setLanguage(QStringLiteral("en"));
    }

    // Issue 28 §6: the Chinese studio starts on a Chinese sentence when the user has none of
    // their own; the English one on the English sentence; the user's own sentence (the command
    // line's, the last session's) stays in either language.
    void theChineseStudioStartsOnAChineseSentence()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString last = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/last-session.attnlab.json");
        QFile::remove(last);
        const QString chinese = QStringLiteral("这只动物没有过马路，因为它太累了。");
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(LanguageManager::defaultSentence(QStringLiteral("zh_CN")), chinese);
        QCOMPARE(LanguageManager::defaultSentence(QStringLiteral("en")), QString::fromUtf8(kDefaultSentence));
        {
            Session s;
            MainWindow w(&s);
            w.setCurrentLanguage(languages.current());
            w.start({});
            QCOMPARE(s.sentence(), chinese);
            QVERIFY2(s.error().isEmpty(), qPrintable(s.error()));
            QTRY_COMPARE(w.sentenceEdit()->text(), chinese);
        }
        {
            Session s;
            MainWindow w(&s);
            w.setCurrentLanguage(languages.current());
            w.start(QStringLiteral("The cat sat"));
            QCOMPARE(s.sentence(), QStringLiteral("The cat sat"));
        }
        {
            Session saved;
            saved.setSentence(QStringLiteral("my own words"));
            MainWindow first(&saved);
            first.fileActions()->saveLastSession();
            QVERIFY(QFile::exists(last));
            Session s;
            MainWindow w(&s);
            w.setCurrentLanguage(languages.current());
            w.start({});
            QCOMPARE(s.sentence(), QStringLiteral("my own words"));
            QVERIFY(QFile::remove(last));
        }
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
        Session s;
        MainWindow w(&s);
        w.setCurrentLanguage(languages.current());
        w.start({});
        QCOMPARE(s.sentence(), QString::fromUtf8(kDefaultSentence));
    }

    void everyMessageIsTranslated()
    {
        // The compiled catalogue holds a translation for the strings of each part of the UI.
        LanguageManager languages;
        QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
        for (const char* id : {"tokens", "embedding", "positional_encoding", "input", "q", "k", "v", "scores", "scaled", "mask",
                               "masked_scores", "weights", "head_output", "concat", "output"}) {
            const QString name = stepName(QString::fromLatin1(id));
            bool hasHan = false;
            for (const QChar c : name)
                hasHan = hasHan || (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF);
            QVERIFY2(hasHan, qPrintable(name));
            QVERIFY(!stepExplanation(QString::fromLatin1(id)).isEmpty());
        }
        languages.setLanguage(QStringLiteral("en"));
    }

    void chineseRendersWithASimplifiedChineseFont()
    {
        const QFont f = QApplication::font();
        QVERIFY(f.families().contains(QStringLiteral("Noto Sans CJK SC")));
        QVERIFY(QFontDatabase::families().contains(QStringLiteral("Noto Sans CJK SC")));
        QFont sc(QStringLiteral("Noto Sans CJK SC"));
        const QFontMetrics fm(sc);
        for (const char32_t c : {U'狗', U'咬', U'了', U'人', U'骨', U'直'})
            QVERIFY(fm.inFontUcs4(c));
    }
};

QTEST_MAIN(TestLanguages)
#include "tst_languages.moc"
