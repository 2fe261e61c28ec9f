// The predictions view of a pretrained model: BERT's bars at each [MASK] and GPT-2's next-token
// bars are the top 10 of that row of the independent PyTorch reference's probabilities
// (tests/reference/hf/*.json, sorted here), with GPT-2's tokens as the studio shows them
// (a leading space as ␣); a hint without a [MASK]; a message for a folder without a head and for
// no model; the generation stepper's buttons and keys (greedy Next token × 3 gives the
// reference's tokens, a seeded Generate the tokens of generateTokens, Back restores the sentence,
// bad options are refused and change nothing); the studio shows the view first on a pretrained
// model's probabilities; the shortcut sheet lists its keys; the export writes a PNG.

#include "export/figureexport.h"
#include "pretrained/generate.h"
#include "pretrained/model_folder.h"
#include "session/generationstepper.h"
#include "session/session.h"
#include "shell/mainwindow.h"
#include "shell/shortcutsheet.h"
#include "shell/viewstack.h"
#include "support/hfsession.h"
#include "support/reference.h"
#include "views/generationpanel.h"
#include "views/predictionsview.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace attnlab;
using namespace attnlab::testing;

namespace {

/// Input `index` of the golden file of `name` (text, token ids, stages).
nlohmann::json goldenInput(const char* name, int index)
{
    return readJson(hfDir() + "/" + name + ".json").at("inputs").at(static_cast<std::size_t>(index));
}

/// The 10 largest entries of row `row` of the reference's probabilities, sorted here.
std::vector<std::pair<int, float>> referenceTopTen(const nlohmann::json& input, int row)
{
    for (const auto& stage : input.at("stages")) {
        if (stage.at("id") != "probabilities")
            continue;
        std::vector<float> p;
        for (const auto& v : stage.at("data").at(static_cast<std::size_t>(row)))
            p.push_back(jsonFloat(v));
        std::vector<int> order(p.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p[a] > p[b]; });
        std::vector<std::pair<int, float>> top;
        for (int i = 0; i < 10; ++i)
            top.emplace_back(order[i], p[static_cast<std::size_t>(order[i])]);
        return top;
    }
    return {};
}

/// Where the bars of `block` differ from `want` (ids in order, probabilities within 1e-4), or empty.
QString barsProblem(const PredictionBlock& block, const std::vector<std::pair<int, float>>& want)
{
    if (block.bars.size() != want.size())
        return QStringLiteral("%1 bars for %2").arg(block.bars.size()).arg(want.size());
    float largest = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (block.bars[i].id != want[i].first)
            return QStringLiteral("bar %1 is id %2, the reference's %3").arg(i).arg(block.bars[i].id).arg(want[i].first);
        largest = std::max(largest, std::abs(block.bars[i].probability - want[i].second));
    }
    return largest < 1e-4f ? QString() : QStringLiteral("a probability differs by %1").arg(largest);
}

} // namespace

class TestPredictionsView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the main window's autosave
    }

    void bertFillsEachMaskWithTheReferencesTopTen()
    {
        const auto input = goldenInput("bert_mlm_f32", 2); // "Paris is the [MASK] of France."
        Session s;
        QVERIFY(openHfFolder(s, "bert_mlm_f32", QString::fromStdString(input.at("text").get<std::string>())));
        PredictionsView v(&s);
        QVERIFY(!v.messageLabel()->isVisibleTo(&v));
        QVERIFY(!v.hintLabel()->isVisibleTo(&v));
        QVERIFY(!v.generation()->isVisibleTo(&v)); // GPT-2 only
        const auto& blocks = v.bars()->blocks();
        QCOMPARE(blocks.size(), std::size_t(1));
        // [CLS] paris is the [MASK]: position 5 as people count (the CLI's 4), and the caption says
        // how the two counts differ.
        QVERIFY2(blocks[0].title.startsWith(QStringLiteral("[MASK] at 5: paris is the [MASK] of france")), qPrintable(blocks[0].title));
        QVERIFY2(v.captionLabel()->text().contains(QStringLiteral("fill-mask --json and the trace JSON count from 0")),
                 qPrintable(v.captionLabel()->text()));
        const QString problem = barsProblem(blocks[0], referenceTopTen(input, 4));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // By hand: the reference's likeliest token there is id 258 at p = 0.14536677.
        QCOMPARE(blocks[0].bars[0].id, 258);
        QVERIFY(std::abs(blocks[0].bars[0].probability - 0.14536677f) < 1e-4f);
        QCOMPARE(PredictionBars::barText(blocks[0].bars[0]), QStringLiteral("14.5 %"));
        // Two masks, two blocks, each its row's.
        s.setSentence(QStringLiteral("[MASK] is the [MASK] of France."));
        QCOMPARE(v.bars()->blocks().size(), std::size_t(2));
        QVERIFY(v.bars()->blocks()[1].title.startsWith(QStringLiteral("[MASK] at 5:")));
        const Eigen::MatrixXf& p = s.headTrace()->find("probabilities", std::nullopt, std::nullopt, Block::None)->main().values;
        QCOMPARE(v.bars()->blocks()[0].bars[0].id, static_cast<int>(topProbabilities(p.row(1), 1)[0].first));
    }

    void bertWithoutAMaskGivesAHintAndOneRow()
    {
        const auto input = goldenInput("bert_mlm_f32", 0); // "The cat sat on the mat."
        Session s;
        QVERIFY(openHfFolder(s, "bert_mlm_f32", QString::fromStdString(input.at("text").get<std::string>())));
        PredictionsView v(&s);
        QVERIFY(v.hintLabel()->isVisibleTo(&v));
        QVERIFY(v.hintLabel()->text().contains(QStringLiteral("Type [MASK]")));
        QCOMPARE(v.row(), 1); // the first word after [CLS]
        QCOMPARE(v.bars()->blocks().size(), std::size_t(1));
        QString problem = barsProblem(v.bars()->blocks()[0], referenceTopTen(input, 1));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        v.setRow(6); // "mat"
        problem = barsProblem(v.bars()->blocks()[0], referenceTopTen(input, 6));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (const PredictionBar& bar : v.bars()->blocks()[0].bars)
            QCOMPARE(bar.inText, bar.id == 340); // the text's own token, when it is among them
    }

    void gpt2ShowsTheNextTokensAfterTheChosenPosition()
    {
        const auto input = goldenInput("gpt2_f32", 0); // "The cat was tired."
        Session s;
        QVERIFY(openHfFolder(s, "gpt2_f32", QString::fromStdString(input.at("text").get<std::string>())));
        PredictionsView v(&s);
        QVERIFY(v.generation()->isVisibleTo(&v));
        QCOMPARE(v.row(), 7); // the last token by default
        QCOMPARE(v.positionBox()->count(), 8);
        QCOMPARE(v.positionBox()->itemText(3), QStringLiteral("4: \u2423was"));
        QString problem = barsProblem(v.bars()->blocks()[0], referenceTopTen(input, 7));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(v.bars()->blocks()[0].bars[0].token, QStringLiteral("\u2423the")); // id 262, Ġthe
        v.setRow(3);
        problem = barsProblem(v.bars()->blocks()[0], referenceTopTen(input, 3));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(v.bars()->blocks()[0].title.contains(QStringLiteral("\u201C\u2423was\u201D (position 4)")));
        // A chosen position stays when the text grows; the last one follows the end.
        s.setSentence(s.sentence() + QStringLiteral(" the"));
        QCOMPARE(v.row(), 3);
        v.setRow(8);
        s.setSentence(s.sentence() + QStringLiteral(" the"));
        QCOMPARE(v.row(), 9);
    }

    void aFolderWithoutAHeadOrNoModelSaysSo()
    {
        Session s;
        PredictionsView v(&s);
        QVERIFY(v.messageLabel()->isVisibleTo(&v));
        QVERIFY(v.messageLabel()->text().contains(QStringLiteral("GPT-2, BERT, Llama")));
        QVERIFY(v.figureSize().isEmpty());
        QVERIFY(openHfFolder(s, "bert_model_cased", QStringLiteral("Paris is the [MASK] of France.")));
        QVERIFY(v.messageLabel()->isVisibleTo(&v));
        QVERIFY2(v.messageLabel()->text().contains(QStringLiteral("no masked-LM head")), qPrintable(v.messageLabel()->text()));
        QVERIFY(v.bars()->blocks().empty());
        QVERIFY(!v.generation()->nextAction()->isEnabled());
    }

    void nextTokenBackAndGenerateThroughTheButtons()
    {
        const auto input = goldenInput("gpt2_f32", 0);
        const auto want = input.at("generation").at("new_ids").get<std::vector<int>>();
        Session s;
        const QString prompt = QString::fromStdString(input.at("text").get<std::string>());
        QVERIFY(openHfFolder(s, "gpt2_f32", prompt));
        PredictionsView v(&s);
        GenerationPanel* panel = v.generation();
        GenerationStepper* g = GenerationStepper::of(&s);
        QVERIFY(!panel->backButton()->isEnabled());
        for (int i = 0; i < 3; ++i) {
            QVERIFY(panel->nextButton()->isEnabled());
            panel->nextButton()->click();
            QVERIFY(waitIdle(g));
        }
        QCOMPARE(g->generated(), std::vector<int>(want.begin(), want.begin() + 3));
        QCOMPARE(s.sentence(), prompt + QStringLiteral(" the the which"));
        QCOMPARE(v.row(), 10); // the bars follow the end
        QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("\u2423which")));
        panel->backButton()->click();
        QCOMPARE(s.sentence(), prompt + QStringLiteral(" the the"));
        panel->backButton()->click();
        panel->backButton()->click();
        QCOMPARE(s.sentence(), prompt);
        QVERIFY(!panel->backButton()->isEnabled());
        // Generate N, greedy: the reference's eight tokens.
        panel->countBox()->setValue(8);
        QCOMPARE(panel->generateButton()->text(), QStringLiteral("Generate 8"));
        panel->generateButton()->click();
        QVERIFY(waitIdle(g));
        QCOMPARE(g->generated(), want);
    }

    void seededSamplingThroughThePanelIsGenerateTokens()
    {
        Session s;
        QVERIFY(openHfFolder(s, "gpt2_f32", QStringLiteral("The")));
        PredictionsView v(&s);
        GenerationPanel* panel = v.generation();
        panel->modeBox()->setCurrentIndex(1);
        QVERIFY(panel->temperatureEdit()->isEnabled());
        panel->temperatureEdit()->setText(QStringLiteral("1.2"));
        panel->topPEdit()->setText(QStringLiteral("0.9"));
        panel->seedEdit()->setText(QStringLiteral("3"));
        panel->countBox()->setValue(6);
        SamplingOptions o;
        o.temperature = 1.2f;
        o.topP = 0.9f;
        o.seed = 3;
        const GeneratedTokens want = generateTokens(s.model()->pretrained->weights, s.fullTrace()->tokenIds, 6, o);
        panel->generateButton()->click();
        QVERIFY(waitIdle(GenerationStepper::of(&s)));
        QCOMPARE(GenerationStepper::of(&s)->generated(), want.ids);
    }

    void badOptionsAreRefusedAndChangeNothing_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("temperature 0") << "temperature" << "0" << "temperature must be a number above 0";
        QTest::newRow("temperature −1") << "temperature" << "-1" << "temperature must be a number above 0";
        QTest::newRow("temperature not a number") << "temperature" << "warm" << "temperature must be a number above 0";
        QTest::newRow("top-k −2") << "top-k" << "-2" << "Top-k must be a whole number";
        QTest::newRow("top-k 2.5") << "top-k" << "2.5" << "Top-k must be a whole number";
        QTest::newRow("top-p 1.5") << "top-p" << "1.5" << "Top-p must be a number above 0 and at most 1";
        QTest::newRow("top-p 0") << "top-p" << "0" << "Top-p must be a number above 0 and at most 1";
        QTest::newRow("seed −3") << "seed" << "-3" << "seed must be a whole number";
    }

    void badOptionsAreRefusedAndChangeNothing()
    {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, message);
        Session s;
        const QString prompt = QStringLiteral("The cat was tired.");
        QVERIFY(openHfFolder(s, "gpt2_f32", prompt));
        PredictionsView v(&s);
        GenerationPanel* panel = v.generation();
        panel->modeBox()->setCurrentIndex(1);
        QLineEdit* edit = field == u"temperature" ? panel->temperatureEdit()
                          : field == u"top-k"     ? panel->topKEdit()
                          : field == u"top-p"     ? panel->topPEdit()
                                                  : panel->seedEdit();
        edit->setText(text);
        QString problem;
        QVERIFY(!panel->options(&problem));
        QVERIFY(!panel->generate(1));
        panel->nextButton()->click();
        QVERIFY(!GenerationStepper::of(&s)->isRunning());
        QVERIFY2(panel->statusLabel()->text().contains(message), qPrintable(panel->statusLabel()->text()));
        QCOMPARE(s.sentence(), prompt);
        QVERIFY(GenerationStepper::of(&s)->generated().empty());
        // Greedy ignores the sampling fields.
        panel->modeBox()->setCurrentIndex(0);
        QVERIFY(panel->options());
    }

    void theStudioShowsPredictionsFirstAndTheKeysWork()
    {
        Session s;
        const QString prompt = QStringLiteral("The cat was tired.");
        s.setSentence(prompt);
        MainWindow w(&s);
        QString error;
        QVERIFY2(s.importModel(hfFolder("gpt2_f32"), &error), qPrintable(error));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* stack = w.findChild<ViewStack*>();
        auto* view = static_cast<PredictionsView*>(stack->tabView(ViewKind::Predictions));
        QVERIFY(view);
        s.setStepId(QStringLiteral("probabilities"));
        QCOMPARE(s.view(), QStringLiteral("predictions"));
        QCOMPARE(stack->visibleView(), view);
        // The Stage tab keeps the probabilities' heatmap.
        stack->setCurrentIndex(0);
        QCOMPARE(s.view(), QStringLiteral("stage"));
        s.setStepId(QStringLiteral("logits"));
        s.setStepId(QStringLiteral("probabilities"));
        QCOMPARE(s.view(), QStringLiteral("predictions"));
        // N writes the next token wherever the focus is and whatever step is shown.
        GenerationStepper* g = GenerationStepper::of(&s);
        s.setStepId(QStringLiteral("weights"));
        QCOMPARE(s.view(), QStringLiteral("stage"));
        QTest::keyClick(w.focusWidget() ? w.focusWidget() : &w, Qt::Key_N);
        QVERIFY(waitIdle(g));
        QCOMPARE(g->generated(), std::vector<int>{262});
        QCOMPARE(s.sentence(), prompt + QStringLiteral(" the"));
        QTest::keyClick(w.focusWidget() ? w.focusWidget() : &w, Qt::Key_Backspace);
        QCOMPARE(s.sentence(), prompt);
        // The shortcut sheet lists the keys under their own group.
        int listed = 0;
        for (const ShortcutEntry& e : collectShortcuts(&w)) {
            if (e.group == u"Generation")
                listed += (e.action == u"Next token" && e.keys == u"N") + (e.action == u"Generate N tokens" && e.keys == u"G")
                          + (e.action == u"Remove the last generated token" && e.keys == u"Backspace");
        }
        QCOMPARE(listed, 3);
    }

    void theFigureExportsAsAPng_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("sentence");
        QTest::newRow("gpt2") << "gpt2_f32" << "The cat was tired.";
        QTest::newRow("bert, two masks") << "bert_mlm_f32" << "[MASK] is the [MASK] of France.";
    }

    void theFigureExportsAsAPng()
    {
        QFETCH(QString, folder);
        QFETCH(QString, sentence);
        Session s;
        QVERIFY(openHfFolder(s, folder.toUtf8().constData(), sentence));
        PredictionsView v(&s);
        QCOMPARE(v.figureName().view, QStringLiteral("predictions"));
        QVERIFY(!v.figureSize().isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.png"));
        ExportOptions png;
        const ExportResult r = exportFigure(v, png, path);
        QVERIFY2(r.ok, qPrintable(r.error));
        QImage image(path);
        QVERIFY(!image.isNull());
        QVERIFY(QFileInfo(path).size() > 1000);
        // Not blank: the orange of the likeliest token's bar is in it.
        bool orange = false;
        for (int y = 0; y < image.height() && !orange; y += 2) {
            for (int x = 0; x < image.width() && !orange; x += 2)
                orange = image.pixelColor(x, y) == QColor(0xE69F00);
        }
        QVERIFY(orange);
        if (const QString shots = qEnvironmentVariable("ATTNLAB_SCREENSHOTS"); !shots.isEmpty())
            image.save(QStringLiteral("%1/predictions-%2.png").arg(shots, folder));
    }
};

QTEST_MAIN(TestPredictionsView)
#include "tst_predictionsview.moc"
