#pragma once
// What the model view and the head view share: they draw the attention of a whole trace
// (Session::fullTrace), one block at a time, with a block choice (hidden when the model has one
// block), and a message instead of the content when the trace has no attention weights. The
// block follows the studio's step into another block's attention.

#include "views/captionedview.h"

#include <optional>

class QComboBox;
class QLabel;

namespace attnlab {

class AttentionView : public CaptionedView {
    Q_OBJECT
public:
    /// The block shown and its choice.
    Block block() const { return m_block; }
    QComboBox* blockBox() const { return m_blockBox; }
    /// Shows `block` when the trace has it.
    void setBlock(Block block);

protected:
    AttentionView(Session* session, QWidget* parent);

    QLabel* blockLabel() const { return m_blockLabel; }
    /// Lists the trace's blocks and picks the one to show: the block shown while the trace has
    /// it, else (and the first time) the step's, else the first. False, with a message in place
    /// of the content, when the trace has no attention weights.
    bool updateBlocks();
    /// Shows the block of the studio's step when the trace has it; false when it has not.
    bool followStepBlock();
    /// True (once) when the studio's step is in another layer or block than at the last call:
    /// the views then follow it, and otherwise keep what the user chose.
    bool stepMoved();
    /// Draws block() (after it changed).
    virtual void showBlock() = 0;
    /// The block label and list in the interface's language.
    void retranslateBlocks();
    /// An exported figure's title: "Encoder self-attention · query token “it”".
    static QString figureTitle(const QString& where, const QString& token);

private:
    QLabel* m_blockLabel;
    QComboBox* m_blockBox;
    Block m_block = Block::None;
    bool m_blockShown = false; ///< a block was picked (else the step's is taken)
    std::optional<int> m_seenLayer; ///< the step's layer and block at the last stepMoved()
    std::optional<Block> m_seenBlock;
};

} // namespace attnlab
