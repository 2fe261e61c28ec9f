// Readable from the back of the room: in English and in Simplified Chinese, on screens of
// 1600 × 1000 and 1920 × 1080 (and the projectors' 1024 × 768 and 1280 × 720), every view of the
// studio — each kind of stage of one attention block, the heads, a Transformer's LayerNorm,
// feed-forward network and output probabilities with their top-k bars, the lessons' kernel
// regression and softmax-scaling views, the model view and the head view, a GPT-2's and a BERT's
// predictions (bars, the generation stepper's controls), the attention kinds' views (a kind against
// full attention, its own stages, the Cost tab), and the cell inspector —
// draws every title, legend entry, axis label and one-line label inside its box, and no two tick
// labels of an axis run into each other (tests/support/layout.h measures them).

#include "session/session.h"
#include "shell/languages.h"
#include "shell/mainwindow.h"
#include "support/layout.h"
#include "support/screens.h"
#include "views/cellinspector.h"
#include "views/costview.h"

#include <QApplication>
#include <QPushButton>
#include <QScreen>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

constexpr char kRoomScreens[] = R"({"screens": [
    {"name": "monitor-1600", "x": 0, "y": 0, "width": 1600, "height": 1000, "logicalDpi": 96, "logicalBaseDpi": 96},
    {"name": "monitor-1920", "x": 1600, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96},
    {"name": "projector-1024", "x": 3520, "y": 0, "width": 1024, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96},
    {"name": "projector-1280", "x": 4544, "y": 0, "width": 1280, "height": 720, "logicalDpi": 96, "logicalBaseDpi": 96}
]})";

/// The steps of one attention block that have a view of their own, and a Transformer's.
const char* const kBlockSteps[] = {"tokens", "embedding", "positional_encoding", "q", "scores", "scaled", "mask",
                                   "masked_scores", "weights", "head_output", "concat", "output"};
const char* const kModelSteps[] = {"attn_norm", "ffn_hidden", "ffn_norm", "logits", "probabilities"};

/// The attention kinds (issue 13): a kind's weights beside full attention's with the error, its own
/// stages (features, n x K scores, the n x 1 stages as bars), and the Cost tab after a small
/// measurement with Performer's error against M. Back to full attention at the end.
void checkAttentionKinds(Session& s, MainWindow& w, const std::function<void(const QString&)>& check)
{
    struct KindStep {
        AttentionKind kind;
        const char* step;
    };
    for (const KindStep& k : {KindStep{AttentionKind::Performer, "weights"}, KindStep{AttentionKind::Performer, "q_features"},
                              KindStep{AttentionKind::Performer, "normalizer"}, KindStep{AttentionKind::Linformer, "scores"},
                              KindStep{AttentionKind::Lsh, "buckets"}, KindStep{AttentionKind::SlidingWindow, "error"}}) {
        Config c = s.config();
        c.attention = k.kind;
        s.setConfig(c);
        s.setStepId(QString::fromLatin1(k.step));
        check(QStringLiteral("%1-%2").arg(QString::fromLatin1(toString(k.kind).data()), QString::fromLatin1(k.step)));
    }
    s.setView(QStringLiteral("cost"));
    auto* cost = qobject_cast<CostView*>(w.visibleView());
    QVERIFY(cost);
    cost->lengthsEdit()->setText(QStringLiteral("64, 128"));
    cost->dModelBox()->setValue(32);
    cost->repeatsBox()->setValue(1);
    QSignalSpy finished(cost, &CostView::runFinished);
    cost->run();
    QVERIFY(finished.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(!cost->isComputingConvergence(), 120000);
    check(QStringLiteral("cost"));
    s.setView(QStringLiteral("stage"));
    Config c = s.config();
    c.attention = AttentionKind::Full;
    s.setConfig(c);
}

} // namespace

class TestReadable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        LanguageManager::useSimplifiedChineseGlyphs();
        QCOMPARE(QGuiApplication::screens().size(), 4);
    }

    void everyTextFits_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("screen");
        for (const char* language : {"en", "zh_CN"}) {
            for (const char* screen : {"monitor-1600", "monitor-1920", "projector-1024", "projector-1280"})
                QTest::addRow("%s %s", language, screen) << QString::fromLatin1(language) << QString::fromLatin1(screen);
        }
    }

    void everyTextFits()
    {
        QFETCH(QString, language);
        QFETCH(QString, screen);
        LanguageManager languages;
        QVERIFY(languages.setLanguage(language));
        Session s;
        MainWindow w(&s);
        w.setCurrentLanguage(language);
        QScreen* room = screenNamed(screen);
        QVERIFY(room);
        openOn(w, room);
        w.setGeometry(room->availableGeometry());
        settle(w);
        QStringList problems;
        const QString shots = qEnvironmentVariable("ATTNLAB_SCREENSHOTS");
        const auto check = [&](const QString& what) {
            settle(w);
            problems += clippedTexts(w.visibleView(), what);
            if (!shots.isEmpty())
                w.grab().save(QStringLiteral("%1/%2-%3-%4.png").arg(shots, language, screen, what));
        };
        for (const char* id : kBlockSteps) {
            s.setStepId(QString::fromLatin1(id));
            check(QString::fromLatin1(id));
        }
        s.setStepId(QStringLiteral("weights"));
        s.setView(QStringLiteral("heads"));
        check(QStringLiteral("heads"));
        for (const char* lessonView : {"kernel-regression", "softmax-scaling"}) {
            s.setView(QString::fromLatin1(lessonView));
            check(QString::fromLatin1(lessonView));
        }
        s.setView(QStringLiteral("stage"));
        s.selectCell(1, 2);
        check(QStringLiteral("weights-selected"));
        problems += clippedTexts(w.inspector(), QStringLiteral("inspector (weights)"));
        // The inspector's table shows every row of its softmax, none behind a scroll bar.
        QTableWidget* table = w.inspector()->table();
        if (table->verticalScrollBar()->maximum() > 0)
            problems << QStringLiteral("inspector (weights): the table of %1 rows scrolls").arg(table->rowCount());

        checkAttentionKinds(s, w, check);

        Config c = s.config();
        c.model = ModelKind::Reversal;
        s.setConfig(c);
        QVERIFY2(s.isModel(), qPrintable(s.error()));
        for (const char* id : kModelSteps) {
            s.setStepId(QString::fromLatin1(id));
            check(QString::fromLatin1(id));
        }
        // The model view and the head view of the model's attention.
        for (const char* view : {"model", "head-view"}) {
            s.setView(QString::fromLatin1(view));
            check(QString::fromLatin1(view));
        }
        s.setView(QStringLiteral("stage"));
        s.selectCell(3, 5);
        check(QStringLiteral("probabilities-selected"));
        problems += clippedTexts(w.inspector(), QStringLiteral("inspector (probabilities)"));
        // A pretrained model's predictions: GPT-2's bars and generation stepper, BERT's [MASK]s,
        // BERT without one (the hint and the position box); their buttons' texts fit too.
        struct Case {
            const char* name;
            const char* folder;
            const char* sentence;
        };
        for (const Case& c : {Case{"predictions-gpt2", "gpt2_f32", "The cat was tired."},
                              Case{"predictions-bert-mask", "bert_mlm_f32", "Paris is the [MASK] of France."},
                              Case{"predictions-bert-no-mask", "bert_mlm_f32", "The cat sat on the mat."}}) {
            s.setSentence(QString::fromUtf8(c.sentence));
            QString error;
            QVERIFY2(s.importModel(QStringLiteral(ATTNLAB_TEST_DATA "/hf/") + QString::fromUtf8(c.folder), &error), qPrintable(error));
            s.setStepId(QStringLiteral("probabilities"));
            s.setView(QStringLiteral("predictions"));
            const QString what = QString::fromUtf8(c.name);
            check(what);
            for (QPushButton* b : w.visibleView()->findChildren<QPushButton*>()) {
                if (b->isVisibleTo(w.visibleView()) && b->sizeHint().width() > b->width() + 1)
                    problems << QStringLiteral("%1: button \"%2\" needs %3 px, has %4").arg(what, b->text()).arg(b->sizeHint().width()).arg(b->width());
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 texts do not fit:\n").arg(problems.size()) + problems.join(QLatin1Char('\n'))));
        QVERIFY(languages.setLanguage(QStringLiteral("en")));
    }
};

int main(int argc, char** argv)
{
    return runOnScreens<TestReadable>(argc, argv, kRoomScreens);
}

#include "tst_readable.moc"
