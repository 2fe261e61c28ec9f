#include "views/attentionview.h"

#include "core/trace.h"
#include "session/session.h"
#include "views/attentionmaps.h"

#include <QComboBox>
#include <QLabel>

#include <algorithm>

namespace attnlab {

AttentionView::AttentionView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_blockLabel(new QLabel(content()))
    , m_blockBox(new QComboBox(content()))
{
    m_blockLabel->setBuddy(m_blockBox);
    m_blockBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_blockBox, &QComboBox::activated, this,
            [this](int index) { setBlock(static_cast<Block>(m_blockBox->itemData(index).toInt())); });
}

void AttentionView::setBlock(Block block)
{
    const int index = m_blockBox->findData(static_cast<int>(block));
    if (index < 0)
        return;
    m_blockBox->setCurrentIndex(index);
    if (block == m_block && m_blockShown)
        return;
    m_block = block;
    m_blockShown = true;
    showBlock();
}

bool AttentionView::updateBlocks()
{
    const auto& full = session()->fullTrace();
    const std::vector<Block> blocks = full ? attentionBlocks(*full) : std::vector<Block>();
    if (blocks.empty()) {
        showMessage(tr("This computation has no attention weights to show."));
        return false;
    }
    showContent();
    fillBlockBox(m_blockBox, m_blockLabel, blocks);
    const auto has = [&](Block b) { return std::find(blocks.begin(), blocks.end(), b) != blocks.end(); };
    const Block stepBlock = session()->currentStep().block;
    if (!m_blockShown || !has(m_block))
        m_block = has(stepBlock) ? stepBlock : blocks.front();
    m_blockShown = true;
    m_blockBox->setCurrentIndex(m_blockBox->findData(static_cast<int>(m_block)));
    return true;
}

bool AttentionView::followStepBlock()
{
    const Block stepBlock = session()->currentStep().block;
    if (m_blockBox->findData(static_cast<int>(stepBlock)) < 0)
        return false;
    setBlock(stepBlock);
    return true;
}

bool AttentionView::stepMoved()
{
    const Step& step = session()->currentStep();
    if (m_seenBlock && *m_seenBlock == step.block && m_seenLayer == step.layer)
        return false;
    m_seenBlock = step.block;
    m_seenLayer = step.layer;
    return true;
}

void AttentionView::retranslateBlocks()
{
    m_blockLabel->setText(tr("Block:"));
    retranslateBlockBox(m_blockBox);
}

QString AttentionView::figureTitle(const QString& where, const QString& token)
{
    return tr("%1 · query token “%2”").arg(where, token);
}

} // namespace attnlab
