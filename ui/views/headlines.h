#pragma once
// The head view's picture (BertViz's head view): the tokens in two columns, queries on the left
// and keys on the right, and for the chosen query token a line to every key it attends in one
// layer, one colour per head, its thickness and opacity the weight. Painted, not plotted: a
// sentence of 1024 tokens shows every k-th token's label (what fits) and draws only the lines
// that can be seen (opacity of at least 1/255). The chosen token is picked with a click on the
// left column or ↑/↓; ←/→ ask for the previous or next layer.

#include "views/attentionmaps.h"

#include <QWidget>

#include <memory>
#include <vector>

class QPalette;

namespace attnlab {

struct Trace;

class HeadLines : public QWidget {
    Q_OBJECT
public:
    /// A weight of 1 draws a line this wide (and opaque); a weight w: 0.5 + w × this, opacity w.
    static constexpr double kMaxLineWidth = 8.0;

    explicit HeadLines(QWidget* parent = nullptr);

    /// Shows `layer` (0-based) of `block` in `trace` (kept: its stages are shared).
    void setMaps(std::shared_ptr<const Trace> trace, Block block, int layer);
    Block block() const { return m_block; }
    int layer() const { return m_layer; }
    int heads() const { return static_cast<int>(m_weights.size()); }
    int queries() const { return static_cast<int>(m_queries.size()); }
    int keys() const { return static_cast<int>(m_keys.size()); }
    const std::vector<QString>& queryTokens() const { return m_queries; }
    const std::vector<QString>& keyTokens() const { return m_keys; }

    /// The chosen query token (0-based).
    void setToken(int token);
    int token() const { return m_token; }
    /// Whether head `head` (0-based) draws its lines.
    void setHeadShown(int head, bool shown);
    bool isHeadShown(int head) const;

    /// A line of the picture: from the chosen token to `key`, in head `head`'s colour.
    struct Line {
        int head = 0;
        int key = 0;
        float weight = 0;
        double width = 0; ///< pixels
        int alpha = 0;    ///< 0..255
    };
    /// The lines drawn, head by head (shown heads only), keys in order; keys whose weight is
    /// below 1/255 (invisible) have none.
    std::vector<Line> lines() const;

    /// Where the tokens and lines are drawn inside `r`.
    struct Layout {
        QRect area;
        int textWidth = 0;  ///< of each token column
        int rowHeight = 0;  ///< a label's height
        double queryStep = 0; ///< pixels from one query to the next (less than rowHeight: thinned)
        double keyStep = 0;
        double queryY(int i) const { return area.top() + (i + 0.5) * queryStep; }
        double keyY(int j) const { return area.top() + (j + 0.5) * keyStep; }
        int lineLeft() const { return area.left() + textWidth + 8; }
        int lineRight() const { return area.right() - textWidth - 8; }
    };
    Layout layoutIn(const QRect& r) const;
    /// The query and key positions whose labels are drawn in `layout`: every k-th (what fits), the
    /// chosen token and the key it attends most.
    std::vector<int> labelledQueries(const Layout& layout) const;
    std::vector<int> labelledKeys(const Layout& layout) const;
    /// The query token whose row is at `pos` in the left column, or −1.
    int queryAt(const QPoint& pos) const;
    /// The key token whose row is at `pos` in the right column, or −1.
    int keyAt(const QPoint& pos) const;

    /// Paints the tokens and lines into `r` in the colours of `palette`.
    void paintLines(QPainter& painter, const QRect& r, const QPalette& palette) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    /// The user chose query token `token` (a click or ↑/↓).
    void tokenChosen(int token);
    /// ← (−1) or → (+1): the previous or the next layer.
    void layerStepRequested(int delta);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    /// Every k-th of `count` positions spaced `step` apart, plus `forced` (when ≥ 0), no two
    /// labels closer than a row.
    std::vector<int> thinned(int count, double step, int rowHeight, const std::vector<int>& forced) const;
    /// The key the chosen token attends most over the shown heads, or −1.
    int strongestKey() const;
    void chooseToken(int token);

    std::shared_ptr<const Trace> m_trace;
    Block m_block = Block::None;
    int m_layer = 0;
    std::vector<const Eigen::MatrixXf*> m_weights; ///< one per head, from m_trace's stages
    std::vector<QString> m_queries;
    std::vector<QString> m_keys;
    std::vector<char> m_shown; ///< per head
    int m_token = 0;
};

} // namespace attnlab
