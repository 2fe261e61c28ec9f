// The File menu's actions without their dialogs: each one reports in one message what it did
// or why it could not (and returns false), the session path and the recent files follow the
// sessions opened and saved, the last session comes back or is reported, and the menu holds
// every action with its shortcut.

#include "lessons/lessonplayer.h"
#include "session/session.h"
#include "shell/fileactions.h"
#include "shell/viewstack.h"
#include "support/studio.h"

#include <QDir>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using attnlab::testing::Studio;

namespace {

/// The actions that take one path, by name.
using PathAction = bool (FileActions::*)(const QString&);
PathAction actionNamed(const QString& name)
{
    static const QHash<QString, PathAction> actions{
        {QStringLiteral("openSession"), &FileActions::openSession},
        {QStringLiteral("saveSession"), &FileActions::saveSession},
        {QStringLiteral("importWeights"), &FileActions::importWeights},
        {QStringLiteral("saveWeights"), &FileActions::saveWeights},
        {QStringLiteral("importModel"), &FileActions::importModel},
        {QStringLiteral("saveModel"), &FileActions::saveModel},
        {QStringLiteral("openMask"), &FileActions::openMask},
        {QStringLiteral("exportCurrentCsv"), &FileActions::exportCurrentCsv},
    };
    return actions.value(name);
}

} // namespace

class TestFileActions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Keep the tests away from the user's real settings and last session.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_fileactions"));
        QSettings().clear();
    }

    void eachActionReportsOnce_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("path"); // relative: inside a fresh temporary folder
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message"); // the start of the message
        const QString data = QStringLiteral(ATTNLAB_TEST_DATA);
        QTest::newRow("open a missing session") << "openSession" << "missing.json" << false << "Cannot open session ";
        QTest::newRow("save a session") << "saveSession" << "a.attnlab.json" << true << "Saved a.attnlab.json";
        QTest::newRow("save a session nowhere") << "saveSession" << "no/such/dir/a.json" << false << "Could not save the session: ";
        QTest::newRow("open weights") << "importWeights" << data + "/mha/causal_je.safetensors" << true
                                      << "Weights from causal_je.safetensors: d_model 16";
        QTest::newRow("open bad weights") << "importWeights" << data + "/mha/cases.json" << false << "Could not open the weights: ";
        QTest::newRow("save weights") << "saveWeights" << "w.safetensors" << true << "Saved the weights to w.safetensors";
        QTest::newRow("save weights nowhere") << "saveWeights" << "no/such/dir/w.safetensors" << false << "Could not save the weights: ";
        QTest::newRow("open a bad model") << "importModel" << data + "/mha/cases.json" << false << "Could not open the model: ";
        QTest::newRow("save a model nowhere") << "saveModel" << "no/such/dir/m.safetensors" << false << "Could not save the model: ";
        QTest::newRow("open a bad mask") << "openMask" << data + "/mha/cases.json" << false << "";
        QTest::newRow("export the matrix") << "exportCurrentCsv" << "a.csv" << true << "Exported a.csv";
        QTest::newRow("export the matrix nowhere") << "exportCurrentCsv" << "no/such/dir/a.csv" << false << "The matrix was not exported: ";
    }

    void eachActionReportsOnce()
    {
        QFETCH(QString, action);
        QFETCH(QString, path);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        QTemporaryDir dir;
        Studio studio;
        const QString file = QDir::isAbsolutePath(path) ? path : dir.filePath(path);
        const auto before = studio.session.trace();
        QCOMPARE((studio.files->*actionNamed(action))(file), ok);
        const auto [text, isError] = studio.report();
        QVERIFY2(text.startsWith(message), qPrintable(text));
        QCOMPARE(isError, !ok);
        if (!ok)
            QCOMPARE(studio.session.trace(), before); // nothing changed
    }

    void aMaskOpensSilently()
    {
        Studio studio;
        studio.session.setSentence(QStringLiteral("Masks hide some keys."));
        QVERIFY(studio.files->openMask(ATTNLAB_TEST_DATA "/mha/custom.mask"));
        QVERIFY(studio.session.config().mask == MaskKind::Custom);
        QCOMPARE(studio.reports.size(), 0); // the view shows it
    }

    // Issue 11 §2: a mask file of another size than the sentence switched Mask to "custom"
    // anyway (and the sentence then failed to compute).
    void aMaskThatDoesNotFitChangesNothing()
    {
        Studio studio;
        studio.session.setSentence(QStringLiteral("one two three four five six seven eight nine ten"));
        const auto before = studio.session.trace();
        const Config config = studio.session.config();
        QVERIFY(!studio.files->openMask(ATTNLAB_TEST_DATA "/mha/custom.mask"));
        const auto [text, isError] = studio.report();
        QVERIFY(isError);
        QVERIFY2(text.contains(QStringLiteral("custom.mask")) && text.contains(QStringLiteral("10")), qPrintable(text));
        QVERIFY(studio.session.config() == config);
        QVERIFY(studio.session.config().mask == MaskKind::None);
        QVERIFY(!studio.session.customMask());
        QCOMPARE(studio.session.trace(), before);
        QVERIFY(studio.session.error().isEmpty()); // nothing failed to compute: nothing changed
    }

    void exportsNeedSomethingToExport()
    {
        QTemporaryDir dir;
        Studio studio;
        QVERIFY(!studio.files->exportCurrentView(dir.filePath("a.gif")));
        QCOMPARE(studio.report(), std::make_pair(QStringLiteral("Choose a file ending in .png, .svg or .pdf"), true));
        studio.session.setStepId(QStringLiteral("tokens"));
        QVERIFY(!studio.files->exportCurrentCsv(dir.filePath("a.csv")));
        QCOMPARE(studio.report(), std::make_pair(QStringLiteral("This step has no matrix to export; pick a stage such as Q\u00B7K\u1D40."), true));
        QVERIFY(!QFileInfo::exists(dir.filePath("a.csv")));
        QVERIFY(!studio.files->exportLesson(dir.filePath("lesson.pdf"), false));
        QCOMPARE(studio.report(), std::make_pair(QStringLiteral("Start a lesson first, then export it."), true));
    }

    void exportAllStagesCountsTheFiles()
    {
        QTemporaryDir dir;
        Studio studio;
        QVERIFY(studio.files->exportAllStagesTo(dir.filePath("all"), QStringLiteral("png")));
        const int stages = static_cast<int>(studio.session.fullTrace()->stages.size());
        QCOMPARE(studio.report(), std::make_pair(QStringLiteral("Exported %1 file(s) to %2").arg(2 * stages).arg(dir.filePath("all")), false));
        QCOMPARE(QDir(dir.filePath("all")).entryList({"*.png"}).size(), stages);
        QVERIFY(!studio.files->exportAllStagesTo(dir.filePath("no/such/dir"), QStringLiteral("png")));
        QVERIFY(studio.report().first.startsWith(QStringLiteral("The stages were not exported: cannot export to")));
    }

    void recentFilesFollowTheSessions()
    {
        QSettings().remove(QStringLiteral("recentFiles"));
        QTemporaryDir dir;
        Studio studio;
        QMenu menu;
        studio.files->addTo(&menu);
        QMenu* recent = menu.actions().at(1)->menu();
        QVERIFY(recent && !recent->isEnabled()); // nothing yet
        for (int i = 1; i <= 10; ++i)
            QVERIFY(studio.files->saveSession(dir.filePath(QStringLiteral("s%1.attnlab.json").arg(i))));
        QVERIFY(studio.files->openSession(dir.filePath("s3.attnlab.json")));
        // Newest first, each once, at most 8.
        QStringList expected{dir.filePath("s3.attnlab.json")};
        for (int i = 10; expected.size() < 8; --i) {
            if (i != 3)
                expected << dir.filePath(QStringLiteral("s%1.attnlab.json").arg(i));
        }
        for (QString& e : expected)
            e = QFileInfo(e).absoluteFilePath();
        QCOMPARE(studio.files->recentFiles(), expected);
        QVERIFY(recent->isEnabled());
        QCOMPARE(recent->actions().size(), 8);
        QCOMPARE(recent->actions().first()->text(), QStringLiteral("s3.attnlab.json"));
        QCOMPARE(recent->actions().first()->toolTip(), expected.first());
        // Choosing one opens it.
        studio.reports.clear();
        recent->actions().at(1)->trigger();
        QCOMPARE(studio.report(), std::make_pair(QStringLiteral("Opened s10.attnlab.json"), false));
    }

    void lastSessionComesBack()
    {
        const QString last = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/last-session.attnlab.json");
        QFile::remove(last);
        {
            Studio studio;
            QVERIFY(!studio.files->restoreLastSession()); // none yet: nothing said
            QCOMPARE(studio.reports.size(), 0);
            studio.session.setSentence(QStringLiteral("kept between runs"));
            studio.files->saveLastSession();
        }
        {
            Studio studio;
            QVERIFY(studio.files->restoreLastSession());
            QCOMPARE(studio.session.sentence(), QStringLiteral("kept between runs"));
            QCOMPARE(studio.reports.size(), 0);
        }
        QFile f(last);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{ broken");
        f.close();
        Studio studio;
        QVERIFY(!studio.files->restoreLastSession());
        const auto [text, isError] = studio.report();
        QVERIFY2(text.startsWith(QStringLiteral("The last session could not be restored (")), qPrintable(text));
        QVERIFY(text.endsWith(QStringLiteral("); starting fresh.")));
        QVERIFY(isError);
        QFile::remove(last);
    }

    void theMenuHoldsEveryAction()
    {
        Studio studio;
        QMenu menu;
        studio.files->addTo(&menu);
        QStringList texts;
        QList<QKeySequence> keys;
        for (QAction* a : menu.actions()) {
            texts << (a->isSeparator() ? QStringLiteral("-") : a->text());
            keys << a->shortcut();
        }
        QCOMPARE(texts, (QStringList{"&Open session\u2026", "Open &recent", "&Save session", "Save session &as\u2026", "-",
                                     "Open &weights\u2026", "Save weights\u2026", "Open &mask\u2026", "-", "Ope&n model\u2026", "Open model &folder\u2026",
                                     "Save model as\u2026", "-", "&Export view as image\u2026", "Export matrix as &CSV\u2026",
                                     "Export all s&tages\u2026", "Cop&y image", "Export &lesson\u2026"}));
        QCOMPARE(keys.at(0), QKeySequence(QKeySequence::Open));
        QCOMPARE(keys.at(2), QKeySequence(QKeySequence::Save));
        QCOMPARE(keys.at(3), QKeySequence(QKeySequence::SaveAs));
        QCOMPARE(keys.at(13), QKeySequence(Qt::CTRL | Qt::Key_E));
        QCOMPARE(keys.at(16), QKeySequence(QKeySequence::Copy));
    }
};

QTEST_MAIN(TestFileActions)
#include "tst_fileactions.moc"
