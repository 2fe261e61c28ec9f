// The model view: a grid of layers × heads pictures of the attention weights for every trace
// with attention in layers (the shipped model, seeded Transformers, GPT-2, BERT; one attention
// block is one row), each picture the weights of its layer and head; the query token's row framed
// in every picture and following the chosen token; a click, or Enter after the arrow keys, opens
// that layer and head in the studio; the tooltip names them; the pictures keep their minimum size
// and the grid scrolls; the export is a PNG and an SVG named after the view.

#include "export/figureexport.h"
#include "shell/mainwindow.h"
#include "shell/viewstack.h"
#include "support/attentiontraces.h"
#include "support/studio.h"
#include "views/attentionmaps.h"
#include "views/modelgrid.h"
#include "views/modelview.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QHelpEvent>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::testing;

Q_DECLARE_METATYPE(attnlab::Block)

namespace {

/// Every picture of `grid` shows its layer's and head's weights: pixel (c, r) has the colour of
/// weight (r, c) of the stage found in `trace` (pictures of at most kMaxImageSide tokens).
QString picturesProblem(const ModelGrid& grid, const Trace& trace, Block block)
{
    for (int l = 0; l < grid.layers(); ++l) {
        for (int h = 0; h < grid.heads(); ++h) {
            const Stage* s = trace.find("weights", h, block == Block::None ? std::nullopt : std::optional<int>(l), block);
            if (!s)
                return QStringLiteral("no weights for layer %1 head %2").arg(l).arg(h);
            const Eigen::MatrixXf& w = s->main().values;
            const QImage& image = grid.thumbnail(l, h);
            if (image.width() != w.cols() || image.height() != w.rows())
                return QStringLiteral("layer %1 head %2: picture %3 x %4 for %5 x %6").arg(l).arg(h).arg(image.width()).arg(image.height()).arg(w.rows()).arg(w.cols());
            for (int r = 0; r < w.rows(); ++r) {
                for (int c = 0; c < w.cols(); ++c) {
                    const QRgb want = weightColors()[static_cast<std::size_t>(std::lround(w(r, c) * 255.0f))];
                    if (image.pixel(c, r) != want)
                        return QStringLiteral("layer %1 head %2 cell (%3, %4): colour %5, weight %6").arg(l).arg(h).arg(r).arg(c).arg(image.pixel(c, r), 0, 16).arg(w(r, c));
                }
            }
        }
    }
    return {};
}

} // namespace

class TestModelView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
    }

    void gridHasEveryLayerAndHead_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("blocks");
        QTest::newRow("one attention block") << "block" << 1 << 4 << 1;
        QTest::newRow("the shipped model") << "reversal" << -1 << -1 << 3;
        QTest::newRow("seeded encoder–decoder 3 × 2") << "seeded" << 3 << 2 << 3;
        QTest::newRow("seeded encoder 2 × 4") << "encoder" << 2 << 4 << 1;
    }

    void gridHasEveryLayerAndHead()
    {
        QFETCH(QString, model);
        QFETCH(int, layers);
        QFETCH(int, heads);
        QFETCH(int, blocks);
        Session s;
        if (model == u"reversal") {
            QVERIFY(useReversalModel(s));
            layers = s.fullTrace()->config.encoderLayers; // the shipped model's file says how many
            heads = s.fullTrace()->config.heads;
        } else if (model == u"seeded") {
            QVERIFY(useSeededModel(s, layers, heads));
        } else if (model == u"encoder") {
            QVERIFY(useSeededModel(s, layers, heads, true));
        }
        ModelView v(&s);
        QCOMPARE(v.blockBox()->count(), blocks);
        QCOMPARE(v.blockBox()->isVisibleTo(&v), blocks > 1);
        for (int b = 0; b < blocks; ++b) {
            const auto block = static_cast<Block>(v.blockBox()->itemData(b).toInt());
            v.setBlock(block);
            QCOMPARE(v.grid()->layers(), block == Block::DecoderSelf || block == Block::Cross ? s.fullTrace()->config.decoderLayers : layers);
            QCOMPARE(v.grid()->heads(), heads);
            const QString problem = picturesProblem(*v.grid(), *s.fullTrace(), block);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    void pretrainedFoldersGiveTheirGrid_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<Block>("block");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::newRow("gpt2_f32") << "gpt2_f32" << Block::DecoderSelf << 2 << 4;
        QTest::newRow("bert_mlm_f32") << "bert_mlm_f32" << Block::EncoderSelf << 2 << 4;
        QTest::newRow("bert_f16_pretrain") << "bert_f16_pretrain" << Block::EncoderSelf << 3 << 2;
        QTest::newRow("llama_gqa_tied_f32") << "llama_gqa_tied_f32" << Block::DecoderSelf << 2 << 6;
        QTest::newRow("qwen2_mqa_f16") << "qwen2_mqa_f16" << Block::DecoderSelf << 2 << 3;
    }

    void pretrainedFoldersGiveTheirGrid()
    {
        QFETCH(QString, folder);
        QFETCH(Block, block);
        QFETCH(int, layers);
        QFETCH(int, heads);
        const auto trace = folderTrace(folder.toStdString(), "The animal didn't cross the street because it was too tired.");
        QVERIFY(attentionBlocks(*trace) == std::vector<Block>{block});
        ModelGrid grid;
        grid.setMaps(trace, block);
        QCOMPARE(grid.layers(), layers);
        QCOMPARE(grid.heads(), heads);
        const QString problem = picturesProblem(grid, *trace, block);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // GPT-2 is causal: above the diagonal every picture is the colour of weight 0.
        if (block == Block::DecoderSelf)
            QCOMPARE(grid.thumbnail(1, heads - 1).pixel(grid.thumbnail(1, heads - 1).width() - 1, 0), weightColors().front());
        grid.setQueryToken(2);
        grid.resize(grid.sizeHint());
        QVERIFY(grid.queryRowRect(0, 0).height() >= 4);
        QVERIFY(grid.thumbnailRect(0, 0).contains(grid.queryRowRect(0, 0)));
        // A look at it (ATTNLAB_SCREENSHOTS=folder).
        if (const QString shots = qEnvironmentVariable("ATTNLAB_SCREENSHOTS"); !shots.isEmpty())
            grid.grab().save(QStringLiteral("%1/model-grid-%2.png").arg(shots, folder));
    }

    // Issue 31 §3: grouped-query attention. The query heads that share a key/value head are
    // grouped under one band in its colour, "KV1" …: 6 query heads over 2 KV heads (3 each), 3
    // over 1 (multi-query); GPT-2's 4 heads have 4 and no band.
    void queryHeadsAreGroupedByTheirKeyValueHead_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QList<int>>("groups"); // of each query head; empty: not grouped
        QTest::newRow("llama, 6 heads over 2") << "llama_gqa_tied_f32" << QList<int>{0, 0, 0, 1, 1, 1};
        QTest::newRow("qwen2, 3 heads over 1") << "qwen2_mqa_f16" << QList<int>{0, 0, 0};
        QTest::newRow("gpt2, multi-head") << "gpt2_f32" << QList<int>{};
    }

    void queryHeadsAreGroupedByTheirKeyValueHead()
    {
        QFETCH(QString, folder);
        QFETCH(QList<int>, groups);
        const auto trace = folderTrace(folder.toStdString(), "The animal didn't cross the street because it was too tired.");
        ModelGrid grid;
        grid.setMaps(trace, Block::DecoderSelf);
        grid.resize(grid.sizeHint());
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QCOMPARE(grid.isGrouped(), !groups.isEmpty());
        if (groups.isEmpty()) {
            QCOMPARE(grid.kvGroup(0), -1);
            QVERIFY(grid.kvGroupRect(0).isEmpty());
            return;
        }
        for (int h = 0; h < grid.heads(); ++h)
            QCOMPARE(grid.kvGroup(h), groups.at(h));
        const QImage picture = grid.grab().toImage();
        const int kvHeads = groups.last() + 1;
        for (int g = 0; g < kvHeads; ++g) {
            // The band spans exactly its query heads' columns, above the first layer's pictures.
            const QRect band = grid.kvGroupRect(g);
            const int first = static_cast<int>(groups.indexOf(g));
            const int last = static_cast<int>(groups.lastIndexOf(g));
            QCOMPARE(band.left(), grid.thumbnailRect(0, first).left());
            QCOMPARE(band.right(), grid.thumbnailRect(0, last).right());
            QVERIFY(band.bottom() < grid.thumbnailRect(0, first).top());
            QVERIFY(band.height() >= 8);
            // Drawn in its colour (a corner, away from the "KV1" text), each group its own.
            QCOMPARE(QColor(picture.pixel(band.topLeft() + QPoint(1, 1))), ModelGrid::kvGroupColor(g));
            QCOMPARE(QColor(picture.pixel(band.bottomRight() - QPoint(1, 1))), ModelGrid::kvGroupColor(g));
            if (g > 0)
                QVERIFY(ModelGrid::kvGroupColor(g) != ModelGrid::kvGroupColor(g - 1));
        }
        // The tooltip names the KV head a picture reads.
        const QRect cell = grid.thumbnailRect(1, grid.heads() - 1);
        QHelpEvent help(QEvent::ToolTip, cell.center(), grid.mapToGlobal(cell.center()));
        QCoreApplication::sendEvent(&grid, &help);
        QTRY_VERIFY2(QToolTip::text().contains(QStringLiteral("KV head %1").arg(kvHeads)), qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    void longSentencesKeepTheirPeaks()
    {
        // 300 × 300 weights in a picture of at most 160 pixels: each pixel the largest weight it covers.
        Eigen::MatrixXf w = Eigen::MatrixXf::Zero(300, 300);
        w(299, 0) = 1.0f; // one peak in the last row: shrinking by averaging would hide it
        w(150, 151) = 0.5f;
        const QImage image = weightsImage(w, ModelGrid::kMaxImageSide);
        QCOMPARE(image.size(), QSize(160, 160));
        QCOMPARE(image.pixel(0, 159), weightColors().back());
        QCOMPARE(image.pixel(151 * 160 / 300, 150 * 160 / 300), weightColors()[128]);
        QCOMPARE(image.pixel(100, 10), weightColors().front());
        // Stretched to the largest weight 0.5: the 0.5 takes the top colour, 0.25 the middle.
        Eigen::MatrixXf small(2, 2);
        small << 0.5f, 0.25f, 0.0f, 0.125f;
        const QImage stretched = weightsImage(small, ModelGrid::kMaxImageSide, 0.5f);
        QCOMPARE(stretched.pixel(0, 0), weightColors().back());
        QCOMPARE(stretched.pixel(1, 0), weightColors()[128]);
        QCOMPARE(stretched.pixel(1, 1), weightColors()[64]);
    }

    void stretchingGivesEachPictureItsOwnRange()
    {
        Session s;
        QVERIFY(useReversalModel(s));
        ModelView v(&s);
        v.setBlock(Block::EncoderSelf);
        const Stage* first = s.fullTrace()->find("weights", 0, 0, Block::EncoderSelf);
        const float largest = first->main().values.maxCoeff();
        QVERIFY(largest < 0.9f); // a head that spreads its attention: no yellow at 0..1
        const auto hasTop = [&] {
            const QImage& image = v.grid()->thumbnail(0, 0);
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    if (image.pixel(x, y) == weightColors().back())
                        return true;
                }
            }
            return false;
        };
        QVERIFY(!hasTop());
        v.stretchBox()->setChecked(true);
        QVERIFY(v.grid()->isStretched());
        QVERIFY(hasTop());
        const QString problem = [&] {
            // Every pixel is its weight over the picture's largest.
            const Eigen::MatrixXf& w = first->main().values;
            for (int r = 0; r < w.rows(); ++r) {
                for (int c = 0; c < w.cols(); ++c) {
                    if (v.grid()->thumbnail(0, 0).pixel(c, r) != weightColors()[static_cast<std::size_t>(std::lround(w(r, c) / largest * 255.0f))])
                        return QStringLiteral("cell (%1, %2)").arg(r).arg(c);
                }
            }
            return QString();
        }();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void theQueryRowFollowsTheChosenToken()
    {
        Session s;
        QVERIFY(useReversalModel(s));
        ModelView v(&s);
        QVERIFY(showSized(v, 1000, 700));
        ModelGrid* g = v.grid();
        const int n = g->maps().queries();
        QVERIFY(n > 4);
        QCOMPARE(v.tokenBox()->count(), n);
        for (const int token : {0, 3, n - 1}) {
            v.setQueryToken(token);
            QCOMPARE(g->queryToken(), token);
            for (int l = 0; l < g->layers(); ++l) {
                for (int h = 0; h < g->heads(); ++h) {
                    const QRect picture = g->thumbnailRect(l, h);
                    const QRect row = g->queryRowRect(l, h);
                    // Across the whole picture, at the token's rows (cell = side / n).
                    QCOMPARE(row.left(), picture.left());
                    QCOMPARE(row.width(), picture.width());
                    const double centre = picture.top() + (token + 0.5) * picture.height() / n;
                    QVERIFY2(std::abs(row.center().y() - centre) <= 2.5, qPrintable(QStringLiteral("row %1 centre %2, want %3").arg(token).arg(row.center().y()).arg(centre)));
                }
            }
            // The frame is drawn: its white line runs along the top of the row in the picture.
            const QImage shot = g->grab().toImage();
            const QRect row = g->queryRowRect(1, 1);
            QCOMPARE(QColor(shot.pixel(row.center().x(), row.top() - 1)), QColor(Qt::white));
        }
        QVERIFY(v.captionLabel()->text().contains(QStringLiteral("“%1”").arg(g->maps().queryTokens()[static_cast<std::size_t>(n - 1)])));
        // A cell clicked in a heatmap of this block's weights chooses the token here too.
        s.setStep(s.stepIndex(QStringLiteral("weights"), 0, g->maps().block));
        s.selectCell(2, 1);
        QCOMPARE(g->queryToken(), 2);
    }

    void aClickOpensTheLayerAndHead()
    {
        Session s;
        QVERIFY(useSeededModel(s, 3, 4));
        ModelView v(&s);
        QVERIFY(showSized(v, 1000, 800));
        v.setBlock(Block::Cross);
        QSignalSpy opened(&v, &ModelView::headOpened);
        s.setView(QStringLiteral("model"));
        QTest::mouseClick(v.grid(), Qt::LeftButton, {}, v.grid()->thumbnailRect(2, 1).center());
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().at(0).toInt(), 2);
        QCOMPARE(opened.first().at(1).toInt(), 1);
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        QCOMPARE(s.currentStep().layer, std::optional<int>(2));
        QVERIFY(s.currentStep().block == Block::Cross);
        QCOMPARE(s.head(), 1);
        QCOMPARE(s.view(), QStringLiteral("stage"));
        // The studio's layer and head are outlined in the grid.
        QCOMPARE(v.grid()->openedCell(), std::make_pair(2, 1));
        s.setHead(3);
        QCOMPARE(v.grid()->openedCell(), std::make_pair(2, 3));
        s.setStepId(QStringLiteral("tokens"));
        QCOMPARE(v.grid()->openedCell(), std::make_pair(-1, -1));
    }

    void arrowKeysMoveAndEnterOpens()
    {
        Session s;
        QVERIFY(useSeededModel(s, 3, 4, true));
        ModelView v(&s);
        QVERIFY(showSized(v, 900, 700));
        ModelGrid* g = v.grid();
        g->setFocus();
        QCOMPARE(g->focusCell(), std::make_pair(0, 0));
        QTest::keyClick(g, Qt::Key_Right);
        QTest::keyClick(g, Qt::Key_Right);
        QTest::keyClick(g, Qt::Key_Down);
        QCOMPARE(g->focusCell(), std::make_pair(1, 2));
        QTest::keyClick(g, Qt::Key_Left);
        QCOMPARE(g->focusCell(), std::make_pair(1, 1));
        for (int i = 0; i < 5; ++i)
            QTest::keyClick(g, Qt::Key_Down); // stops at the last layer
        QCOMPARE(g->focusCell(), std::make_pair(2, 1));
        QTest::keyClick(g, Qt::Key_Up);
        QTest::keyClick(g, Qt::Key_Return);
        QCOMPARE(s.stepId(), QStringLiteral("weights"));
        QCOMPARE(s.currentStep().layer, std::optional<int>(1));
        QCOMPARE(s.head(), 1);
    }

    void theStudiosSteppingKeysLeaveTheArrowsToTheGrid()
    {
        Session s;
        QVERIFY(useSeededModel(s, 2, 4, true));
        MainWindow w(&s);
        w.resize(1280, 800);
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        s.setView(QStringLiteral("model"));
        auto* v = qobject_cast<ModelView*>(w.visibleView());
        QVERIFY(v);
        v->grid()->setFocus();
        const int step = s.step();
        QTest::keyClick(v->grid(), Qt::Key_Right);
        QTest::keyClick(v->grid(), Qt::Key_Down);
        QCOMPARE(v->grid()->focusCell(), std::make_pair(1, 1));
        QCOMPARE(s.step(), step); // the arrows moved in the grid, not through the stages
        QTest::keyClick(v->grid(), Qt::Key_PageDown); // the clicker still steps
        QCOMPARE(s.step(), step + 1);
    }

    void hoveringNamesTheLayerAndHead()
    {
        Session s;
        QVERIFY(useSeededModel(s, 3, 4, true));
        ModelView v(&s);
        QVERIFY(showSized(v, 900, 700));
        ModelGrid* g = v.grid();
        const QPoint at = g->thumbnailRect(2, 3).center();
        QHelpEvent help(QEvent::ToolTip, at, g->mapToGlobal(at));
        QApplication::sendEvent(g, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("layer 3, head 4"));
    }

    void picturesKeepTheirSizeAndTheGridScrolls()
    {
        Session s;
        QVERIFY(useSeededModel(s, 12, 8, true));
        ModelView v(&s);
        QVERIFY(showSized(v, 700, 500));
        ModelGrid* g = v.grid();
        QCOMPARE(g->layers(), 12);
        QCOMPARE(g->cellSize(), ModelGrid::kMinCell);
        QVERIFY(v.scrollArea()->verticalScrollBar()->maximum() > 0);
        // The keyboard's cell is brought into view.
        g->setFocus();
        for (int i = 0; i < 11; ++i)
            QTest::keyClick(g, Qt::Key_Down);
        const QRect last = g->thumbnailRect(11, 0);
        const QRect shown(QPoint(v.scrollArea()->horizontalScrollBar()->value(), v.scrollArea()->verticalScrollBar()->value()),
                          v.scrollArea()->viewport()->size());
        QVERIFY2(shown.contains(last), qPrintable(QStringLiteral("last row at y %1, viewport from %2").arg(last.top()).arg(shown.top())));
        // Shown again, the grid starts at the layer and head the studio shows, in view.
        v.hide();
        s.setStep(s.stepIndex(QStringLiteral("weights"), 10, Block::EncoderSelf));
        s.setHead(6);
        v.scrollArea()->verticalScrollBar()->setValue(0);
        v.scrollArea()->horizontalScrollBar()->setValue(0);
        v.show();
        QCOMPARE(g->focusCell(), std::make_pair(10, 6));
        QTRY_VERIFY(QRect(QPoint(v.scrollArea()->horizontalScrollBar()->value(), v.scrollArea()->verticalScrollBar()->value()),
                          v.scrollArea()->viewport()->size())
                        .contains(g->thumbnailRect(10, 6)));
        // Room enough: the pictures grow and nothing scrolls.
        v.resize(1400, 1400);
        QTRY_VERIFY(g->cellSize() > ModelGrid::kMinCell);
        QCOMPARE(v.scrollArea()->verticalScrollBar()->maximum(), 0);
    }

    void exportsArePngAndSvgNamedAfterTheView()
    {
        QTemporaryDir dir;
        Studio studio;
        QObject::connect(&studio.session, &Session::viewChanged, studio.views, &ViewStack::showStep);
        QVERIFY(useReversalModel(studio.session));
        studio.session.setView(QStringLiteral("model"));
        auto* v = qobject_cast<ModelView*>(studio.views->visibleView());
        QVERIFY(v);
        QCOMPARE(studio.views->tabText(studio.views->currentIndex()), QStringLiteral("Model"));
        const QString name = studio.files->suggestedName(QStringLiteral("png"));
        QVERIFY2(name.startsWith(QStringLiteral("model-encoder_self-")), qPrintable(name));
        QVERIFY(studio.files->exportCurrentView(dir.filePath(name), 96));
        const QImage png(dir.filePath(name));
        QCOMPARE(png.size(), v->figureSize());
        // Not blank: every picture is in it, in the colours of its weights.
        const QImage& first = v->grid()->thumbnail(0, 0);
        int coloured = 0;
        for (int y = 0; y < png.height(); ++y) {
            for (int x = 0; x < png.width(); ++x)
                coloured += png.pixel(x, y) == first.pixel(0, 0) ? 1 : 0;
        }
        QVERIFY2(coloured > 50, qPrintable(QStringLiteral("%1 pixels of weight (0, 0)'s colour").arg(coloured)));
        const QString copy = qEnvironmentVariable("ATTNLAB_SCREENSHOTS");
        if (!copy.isEmpty())
            png.save(copy + QStringLiteral("/model-export.png"));
        QVERIFY(studio.files->exportCurrentView(dir.filePath("grid.svg")));
        QFile svg(dir.filePath("grid.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(">L1<") && text.contains(">H1<")); // the labels are text
        QVERIFY(text.contains("<image"));
        // Copy image takes the same figure.
        studio.files->copyImage();
        QCOMPARE(QApplication::clipboard()->image().size(), v->figureSize());
        // The head view is named after itself, its layer and block.
        studio.session.setView(QStringLiteral("head-view"));
        const QString headName = studio.files->suggestedName(QStringLiteral("svg"));
        QVERIFY2(headName.startsWith(QStringLiteral("head-view-layer1-encoder_self-")), qPrintable(headName));
    }
};

QTEST_MAIN(TestModelView)
#include "tst_modelview.moc"
