// The head view: for the chosen query token, a line to each key in one layer for every shown
// head, its weight that token's row of the head's weights (thicker and more opaque for a larger
// weight); the legend's check boxes hide a head's lines; the token is chosen by a click on the
// left column or ↑/↓, the layer with the spin box or ←/→; it works for the shipped model, seeded
// Transformers, GPT-2 and BERT, thins its labels for 1024 tokens without stalling, and exports
// a PNG and an SVG named after the view.

#include "export/figureexport.h"
#include "support/attentiontraces.h"
#include "views/attentionmaps.h"
#include "views/headlines.h"
#include "views/headview.h"
#include "views/multiheadview.h"
#include "shell/viewstack.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace attnlab;
using namespace attnlab::testing;

Q_DECLARE_METATYPE(attnlab::Block)

namespace {

/// The lines of `lines` for query `token` are its rows of the layer's weights in `trace`: one
/// line per shown head and key of weight ≥ 1/255, each with that weight, the width growing with
/// the weight (0.5 + 8·w) and the opacity the weight.
QString linesProblem(const HeadLines& lines, const Trace& trace, Block block, int layer, int token)
{
    std::map<std::pair<int, int>, HeadLines::Line> drawn;
    for (const HeadLines::Line& l : lines.lines())
        drawn[{l.head, l.key}] = l;
    std::size_t expected = 0;
    for (int h = 0; h < lines.heads(); ++h) {
        const Stage* s = trace.find("weights", h, block == Block::None ? std::nullopt : std::optional<int>(layer), block);
        if (!s)
            return QStringLiteral("no weights for head %1").arg(h);
        const Eigen::MatrixXf& w = s->main().values;
        std::vector<std::pair<float, double>> order; // weight, width
        for (int j = 0; j < w.cols(); ++j) {
            const auto it = drawn.find({h, j});
            const bool visible = lines.isHeadShown(h) && w(token, j) * 255.0f >= 0.5f;
            if (visible != (it != drawn.end()))
                return QStringLiteral("head %1 key %2 (weight %3): line %4").arg(h).arg(j).arg(w(token, j)).arg(visible ? "missing" : "drawn");
            if (!visible)
                continue;
            ++expected;
            const HeadLines::Line& l = it->second;
            if (l.weight != w(token, j) || std::abs(l.width - (0.5 + 8.0 * w(token, j))) > 1e-6
                || std::abs(l.alpha - 255.0 * w(token, j)) > 0.5 + 1e-3)
                return QStringLiteral("head %1 key %2: weight %3 width %4 alpha %5 for weight %6").arg(h).arg(j).arg(l.weight).arg(l.width).arg(l.alpha).arg(w(token, j));
            order.emplace_back(l.weight, l.width);
        }
        // Thickness order is weight order.
        std::sort(order.begin(), order.end());
        for (std::size_t i = 1; i < order.size(); ++i) {
            if (order[i].first > order[i - 1].first && !(order[i].second > order[i - 1].second))
                return QStringLiteral("head %1: a larger weight has no thicker line").arg(h);
        }
    }
    return drawn.size() == expected ? QString() : QStringLiteral("%1 lines for %2 weights").arg(drawn.size()).arg(expected);
}

} // namespace

class TestHeadView : public QObject {
    Q_OBJECT
private slots:
    void linesAreTheTokensWeightsRow_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("one attention block") << "block";
        QTest::newRow("the shipped model") << "reversal";
        QTest::newRow("seeded encoder–decoder") << "seeded";
    }

    void linesAreTheTokensWeightsRow()
    {
        QFETCH(QString, model);
        Session s;
        if (model == u"reversal")
            QVERIFY(useReversalModel(s));
        else if (model == u"seeded")
            QVERIFY(useSeededModel(s, 3, 4));
        HeadView v(&s);
        HeadLines* lines = v.lines();
        QCOMPARE(v.headBoxCount(), s.fullTrace()->config.heads);
        QCOMPARE(lines->heads(), s.fullTrace()->config.heads);
        const std::vector<Block> blocks = attentionBlocks(*s.fullTrace());
        QCOMPARE(v.blockBox()->count(), static_cast<int>(blocks.size()));
        for (const Block block : blocks) {
            v.setBlock(block);
            const int layers = attentionMaps(*s.fullTrace(), block).layers;
            QCOMPARE(v.layerBox()->maximum(), layers);
            for (int layer = 0; layer < layers; ++layer) {
                v.setLayer(layer);
                for (const int token : {0, 2, lines->queries() - 1}) {
                    lines->setToken(token);
                    const QString problem = linesProblem(*lines, *s.fullTrace(), block, layer, token);
                    QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("layer %1 token %2: ").arg(layer).arg(token) + problem));
                }
            }
        }
    }

    void pretrainedFoldersDrawTheirHeads_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<Block>("block");
        QTest::newRow("gpt2_f32") << "gpt2_f32" << Block::DecoderSelf;
        QTest::newRow("bert_mlm_f32") << "bert_mlm_f32" << Block::EncoderSelf;
        QTest::newRow("bert_f16_pretrain") << "bert_f16_pretrain" << Block::EncoderSelf;
    }

    void pretrainedFoldersDrawTheirHeads()
    {
        QFETCH(QString, folder);
        QFETCH(Block, block);
        const auto trace = folderTrace(folder.toStdString(), "The animal didn't cross the street because it was too tired.");
        HeadLines lines;
        lines.resize(700, 500);
        const int layers = attentionMaps(*trace, block).layers;
        QVERIFY(layers >= 2);
        for (int layer = 0; layer < layers; ++layer) {
            lines.setMaps(trace, block, layer);
            QCOMPARE(lines.heads(), trace->config.heads);
            for (const int token : {0, 5, lines.queries() - 1}) {
                lines.setToken(token);
                const QString problem = linesProblem(lines, *trace, block, layer, token);
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
                // GPT-2 is causal: no line goes to a later token.
                if (block == Block::DecoderSelf) {
                    for (const HeadLines::Line& l : lines.lines())
                        QVERIFY(l.key <= token);
                }
            }
        }
        // The labels are the tokens as the studio shows them (GPT-2's space mark).
        QCOMPARE(lines.queryTokens().size(), trace->tokens.size());
        // A look at it (ATTNLAB_SCREENSHOTS=folder): the last layer, token 5.
        if (const QString shots = qEnvironmentVariable("ATTNLAB_SCREENSHOTS"); !shots.isEmpty()) {
            lines.setToken(5);
            lines.grab().save(QStringLiteral("%1/head-lines-%2.png").arg(shots, folder));
        }
    }

    void aHeadsCheckBoxHidesItsLines()
    {
        Session s;
        QVERIFY(useReversalModel(s));
        HeadView v(&s);
        HeadLines* lines = v.lines();
        lines->setToken(1);
        const auto countOf = [&](int head) {
            const std::vector<HeadLines::Line> drawn = lines->lines();
            return std::count_if(drawn.begin(), drawn.end(), [&](const HeadLines::Line& l) { return l.head == head; });
        };
        const std::vector<HeadLines::Line> before = lines->lines();
        QVERIFY(countOf(1) > 0);
        v.headBox(1)->setChecked(false);
        QVERIFY(!lines->isHeadShown(1));
        QCOMPARE(countOf(1), 0);
        QCOMPARE(lines->lines().size(), before.size() - static_cast<std::size_t>(std::count_if(before.begin(), before.end(), [](const HeadLines::Line& l) { return l.head == 1; })));
        QString problem = linesProblem(*lines, *s.fullTrace(), v.block(), v.layer(), 1);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // A hidden head stays hidden in another layer; "All" shows every head again.
        v.setLayer(1);
        QVERIFY(!lines->isHeadShown(1));
        problem = linesProblem(*lines, *s.fullTrace(), v.block(), 1, 1);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QPushButton* all = v.findChildren<QPushButton*>().at(0);
        QCOMPARE(all->text(), QStringLiteral("All"));
        all->click();
        QVERIFY(lines->isHeadShown(1));
        v.findChildren<QPushButton*>().at(1)->click();
        QVERIFY(lines->lines().empty());
    }

    void theTokenAndLayerAreChosenByMouseAndKeys()
    {
        Session s;
        QVERIFY(useSeededModel(s, 3, 2, true));
        HeadView v(&s);
        QVERIFY(showSized(v, 900, 600));
        HeadLines* lines = v.lines();
        const HeadLines::Layout layout = lines->layoutIn(lines->rect().adjusted(2, 2, -2, -2));
        QTest::mouseClick(lines, Qt::LeftButton, {}, QPoint(layout.area.left() + 10, static_cast<int>(layout.queryY(4)) + 2));
        QCOMPARE(lines->token(), 4);
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("“%1”").arg(lines->queryTokens()[4])));
        QTest::keyClick(lines, Qt::Key_Down);
        QCOMPARE(lines->token(), 5);
        QTest::keyClick(lines, Qt::Key_Up);
        QTest::keyClick(lines, Qt::Key_Up);
        QCOMPARE(lines->token(), 3);
        // ←/→ go through the layers, the spin box too.
        QCOMPARE(v.layer(), 0);
        QTest::keyClick(lines, Qt::Key_Right);
        QCOMPARE(v.layer(), 1);
        QCOMPARE(lines->layer(), 1);
        v.layerBox()->setValue(3);
        QCOMPARE(lines->layer(), 2);
        QString problem = linesProblem(*lines, *s.fullTrace(), Block::EncoderSelf, 2, 3);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Stepping the studio to an attention stage of a layer shows that layer.
        s.setStep(s.stepIndex(QStringLiteral("scores"), 1, Block::EncoderSelf));
        QCOMPARE(v.layer(), 1);
        // A cell clicked in the weights chooses the query token.
        s.setStep(s.stepIndex(QStringLiteral("weights"), 1, Block::EncoderSelf));
        s.selectCell(6, 0);
        QCOMPARE(lines->token(), 6);
    }

    void aHiddenViewFollowsTheStepWhenShown()
    {
        // The view waits behind another tab while the studio goes to layer 3 (or opens a session
        // there); shown, it draws that layer.
        Session s;
        QWidget window;
        ViewStack stack(&s, &window);
        QObject::connect(&s, &Session::stepChanged, &stack, &ViewStack::showStep);
        QObject::connect(&s, &Session::viewChanged, &stack, &ViewStack::showStep);
        QVERIFY(showSized(window, 1000, 700));
        QVERIFY(useSeededModel(s, 3, 4, true));
        s.setStep(s.stepIndex(QStringLiteral("weights"), 2, Block::EncoderSelf));
        auto* v = static_cast<HeadView*>(stack.tabView(ViewKind::HeadLines));
        QVERIFY(!v->isVisible());
        s.setView(QStringLiteral("head-view"));
        QVERIFY(v->isVisible());
        QCOMPARE(v->layer(), 2);
        QCOMPARE(v->lines()->layer(), 2);
        // The layer chosen here stays while the studio steps inside that layer.
        v->setLayer(0);
        s.setStep(s.stepIndex(QStringLiteral("scores"), 2, Block::EncoderSelf));
        QCOMPARE(v->layer(), 0);
        s.setStep(s.stepIndex(QStringLiteral("scores"), 1, Block::EncoderSelf));
        QCOMPARE(v->layer(), 1);
    }

    void sixteenHeadsHaveSixteenColours()
    {
        QSet<QRgb> colours;
        for (int h = 0; h < 16; ++h)
            colours.insert(MultiHeadView::headColor(h).rgb());
        QCOMPARE(colours.size(), 16);
    }

    void aLongSentenceThinsItsLabels()
    {
        // One attention block of 1024 tokens: the labels that fit, the lines that can be seen.
        Session s;
        Config c = s.config();
        c.maxTokens = 1024;
        s.setConfig(c);
        QStringList words;
        for (int i = 0; i < 1024; ++i)
            words << QStringLiteral("w%1").arg(i % 50);
        s.setSentence(words.join(QLatin1Char(' ')));
        QCOMPARE(s.fullTrace()->tokens.size(), std::size_t(1024));
        HeadView v(&s);
        QVERIFY(showSized(v, 1000, 700));
        HeadLines* lines = v.lines();
        QCOMPARE(lines->queries(), 1024);
        lines->setToken(700);
        const HeadLines::Layout layout = lines->layoutIn(lines->rect());
        const std::vector<int> labelled = lines->labelledQueries(layout);
        const int fit = layout.area.height() / layout.rowHeight;
        QVERIFY2(static_cast<int>(labelled.size()) <= fit + 1 && labelled.size() >= std::size_t(fit / 3),
                 qPrintable(QStringLiteral("%1 labels, %2 fit").arg(labelled.size()).arg(fit)));
        QVERIFY(std::find(labelled.begin(), labelled.end(), 700) != labelled.end()); // the chosen token is named
        for (std::size_t i = 1; i < labelled.size(); ++i)
            QVERIFY(layout.queryY(labelled[i]) - layout.queryY(labelled[i - 1]) >= layout.rowHeight - 1e-6); // no overlap
        const QString problem = linesProblem(*lines, *s.fullTrace(), Block::None, 0, 700);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Painting it does not stall the studio: what a paint draws is bounded by what can be
        // seen, not by the 1024 × 1024 weights (counted, not timed: a busy machine is slow at
        // anything). A visible line has a weight of at least 1/510, and a head's weights sum to 1.
        const int heads = s.config().heads;
        QVERIFY2(static_cast<int>(lines->lines().size()) <= heads * 510,
                 qPrintable(QStringLiteral("%1 lines for %2 heads").arg(lines->lines().size()).arg(heads)));
        QVERIFY(static_cast<int>(lines->labelledKeys(layout).size()) <= layout.area.height() / layout.rowHeight + 1);
        lines->repaint();
    }

    // Issue 28 §3: self-attention's two columns named different tokens when they thinned.
    void bothColumnsNameTheSameTokens()
    {
        Session s;
        QStringList words;
        for (int i = 0; i < 60; ++i)
            words << QStringLiteral("w%1").arg(i);
        s.setSentence(words.join(QLatin1Char(' ')));
        HeadView v(&s);
        QVERIFY(showSized(v, 900, 500));
        HeadLines* lines = v.lines();
        QCOMPARE(lines->queries(), lines->keys());
        for (int token : {0, 17, 58}) {
            lines->setToken(token);
            const HeadLines::Layout layout = lines->layoutIn(lines->rect());
            const std::vector<int> left = lines->labelledQueries(layout);
            QVERIFY(left.size() < std::size_t(60)); // thinned
            QCOMPARE(lines->labelledKeys(layout), left);
            QVERIFY(std::find(left.begin(), left.end(), token) != left.end());
        }
    }

    void exportsArePngAndSvg()
    {
        QTemporaryDir dir;
        Session s;
        QVERIFY(useReversalModel(s));
        HeadView v(&s);
        v.setLayer(1);
        v.lines()->setToken(2);
        const FigureName name = v.figureName();
        QCOMPARE(name.view, QStringLiteral("head-view"));
        QCOMPARE(name.layer, std::optional<int>(2));
        QVERIFY(paintedFigure(&v) == &v);
        ExportOptions png;
        png.dpi = 96;
        QVERIFY(exportFigure(v, png, dir.filePath("h.png")).ok);
        const QImage image(dir.filePath("h.png"));
        QCOMPARE(image.size(), v.figureSize());
        if (const QString shots = qEnvironmentVariable("ATTNLAB_SCREENSHOTS"); !shots.isEmpty())
            image.save(shots + QStringLiteral("/head-view-export.png"));
        // Head 1's colour is in the picture (a line of it, or its legend square).
        const QColor head1 = v.headBox(0)->icon().pixmap(14, 14).toImage().pixelColor(7, 7);
        bool found = false;
        for (int y = 0; y < image.height() && !found; y += 2) {
            for (int x = 0; x < image.width() && !found; x += 2)
                found = image.pixelColor(x, y) == head1;
        }
        QVERIFY(found);
        ExportOptions svg;
        svg.format = ImageFormat::Svg;
        QVERIFY(exportFigure(v, svg, dir.filePath("h.svg")).ok);
        QFile file(dir.filePath("h.svg"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(v.lines()->queryTokens()[2].toUtf8())); // the tokens are text
        QVERIFY(text.contains("Head 1"));
    }
};

QTEST_MAIN(TestHeadView)
#include "tst_headview.moc"
