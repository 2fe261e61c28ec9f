#include "views/attentionmaps.h"

#include "core/trace.h"
#include "plot/plotting.h"
#include "session/stages.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

const char kWeights[] = "weights";

std::vector<QString> labels(const Labels& names, Eigen::Index count)
{
    std::vector<QString> out;
    out.reserve(static_cast<std::size_t>(count));
    for (Eigen::Index i = 0; i < count; ++i) {
        const bool named = names && static_cast<std::size_t>(i) < names->size();
        out.push_back(named ? QString::fromStdString((*names)[static_cast<std::size_t>(i)]) : QString::number(i));
    }
    return out;
}

} // namespace

std::optional<int> storedLayer(Block block, int layer)
{
    return block == Block::None ? std::nullopt : std::optional<int>(layer);
}

QString attentionBlockTitle(Block block)
{
    return block == Block::None ? QCoreApplication::translate("attnlab::AttentionMaps", "One attention block") : blockName(block);
}

void fillBlockBox(QComboBox* box, QLabel* label, const std::vector<Block>& blocks)
{
    const QSignalBlocker quiet(box);
    box->clear();
    for (const Block b : blocks)
        box->addItem(attentionBlockTitle(b), static_cast<int>(b));
    box->setVisible(blocks.size() > 1);
    label->setVisible(blocks.size() > 1);
}

void retranslateBlockBox(QComboBox* box)
{
    for (int i = 0; i < box->count(); ++i)
        box->setItemText(i, attentionBlockTitle(static_cast<Block>(box->itemData(i).toInt())));
}

std::vector<Block> attentionBlocks(const Trace& trace)
{
    std::vector<Block> out;
    for (const Block b : {Block::EncoderSelf, Block::DecoderSelf, Block::Cross, Block::None}) {
        if (trace.find(kWeights, 0, storedLayer(b, 0), b))
            out.push_back(b);
    }
    return out;
}

AttentionMaps attentionMaps(const Trace& trace, Block block)
{
    AttentionMaps maps;
    maps.block = block;
    const int heads = trace.config.heads;
    for (int layer = 0; heads > 0; ++layer) {
        std::vector<const Stage*> row;
        for (int h = 0; h < heads; ++h) {
            const Stage* s = trace.find(kWeights, h, storedLayer(block, layer), block);
            if (!s || s->matrices.empty())
                break;
            row.push_back(s);
        }
        if (static_cast<int>(row.size()) != heads)
            break;
        maps.stages.insert(maps.stages.end(), row.begin(), row.end());
        ++maps.layers;
        if (block == Block::None)
            break; // one attention block has one "layer"
    }
    maps.heads = maps.layers > 0 ? heads : 0;
    return maps;
}

int AttentionMaps::queries() const
{
    return empty() ? 0 : static_cast<int>(stages.front()->main().values.rows());
}

int AttentionMaps::keys() const
{
    return empty() ? 0 : static_cast<int>(stages.front()->main().values.cols());
}

std::vector<QString> AttentionMaps::queryTokens() const
{
    return empty() ? std::vector<QString>() : labels(stages.front()->main().rowLabels, queries());
}

std::vector<QString> AttentionMaps::keyTokens() const
{
    return empty() ? std::vector<QString>() : labels(stages.front()->main().colLabels, keys());
}

const std::vector<QRgb>& weightColors()
{
    static const std::vector<QRgb> kColors = [] {
        QCPColorGradient g = viridisGradient(); // color() is not const (it caches)
        std::vector<QRgb> c(256);
        for (int i = 0; i < 256; ++i)
            c[static_cast<std::size_t>(i)] = g.color(i / 255.0, QCPRange(0, 1));
        return c;
    }();
    return kColors;
}

QImage weightsImage(const Eigen::MatrixXf& w, int maxSide, float top)
{
    const auto rows = static_cast<int>(w.rows());
    const auto cols = static_cast<int>(w.cols());
    if (rows == 0 || cols == 0 || maxSide < 1)
        return {};
    const int height = std::min(rows, maxSide);
    const int width = std::min(cols, maxSide);
    // Cell (r, c) falls on pixel (c·width/cols, r·height/rows); each pixel keeps the largest
    // weight that falls on it: a peak is what a reader looks for. Column by column, as Eigen
    // stores the matrix.
    std::vector<int> pixelRow(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r)
        pixelRow[static_cast<std::size_t>(r)] = static_cast<int>(static_cast<long long>(r) * height / rows);
    std::vector<float> peak(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), -1.0f);
    for (int c = 0; c < cols; ++c) {
        const int x = static_cast<int>(static_cast<long long>(c) * width / cols);
        const float* column = w.data() + static_cast<std::ptrdiff_t>(c) * rows;
        for (int r = 0; r < rows; ++r) {
            float& p = peak[static_cast<std::size_t>(pixelRow[static_cast<std::size_t>(r)]) * static_cast<std::size_t>(width)
                            + static_cast<std::size_t>(x)];
            if (!std::isnan(column[r]))
                p = std::max(p, column[r]);
        }
    }
    QImage image(width, height, QImage::Format_RGB32);
    const std::vector<QRgb>& colors = weightColors();
    const float scale = top > 0 ? 1.0f / top : 1.0f;
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const float v = peak[static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
            // Only NaN cells fell here (a weight is never below 0).
            line[x] = v < 0 ? kNanColor : colors[static_cast<std::size_t>(std::lround(std::min(v * scale, 1.0f) * 255.0f))];
        }
    }
    return image;
}

} // namespace attnlab
