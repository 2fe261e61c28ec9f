#pragma once
// The predictions view's picture: blocks of horizontal bars, one block per position asked about
// (BERT: each [MASK]; GPT-2: the chosen position), each bar a token and its probability in per
// cent on a scale of 0 to 100 % (so lengths compare across blocks), the likeliest first and in
// the colour of the model's choice, the token the text really has there outlined. Painted, not
// plotted: blocks flow into as many columns as the width allows, and the same painting makes
// the exported figure.

#include <QString>
#include <QWidget>

#include <vector>

class QPalette;

namespace attnlab {

struct PredictionBar {
    QString token;       ///< as people read it ("␣the", "##ing")
    int id = 0;          ///< vocabulary id
    float probability = 0;
    bool inText = false; ///< the token the text has at the predicted place
};

struct PredictionBlock {
    QString title;
    std::vector<PredictionBar> bars; ///< most probable first
};

class PredictionBars : public QWidget {
    Q_OBJECT
public:
    explicit PredictionBars(QWidget* parent = nullptr);

    void setBlocks(std::vector<PredictionBlock> blocks);
    const std::vector<PredictionBlock>& blocks() const { return m_blocks; }

    /// The text right of a bar: "12.3 %", "< 0.1 %", with "◀ in the text" for the text's token.
    static QString barText(const PredictionBar& bar);
    /// The height the blocks need when painted `width` pixels wide in `font`.
    int heightFor(int width, const QFont& font) const;
    /// Paints the blocks into `r` with the colours of `palette` (its text and base colours).
    void paintBlocks(QPainter& painter, const QRect& r, const QPalette& palette) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Geometry {
        int columns = 1;
        int columnWidth = 0;
        int rowHeight = 0;
        int titleHeight = 0;
        int labelWidth = 0; ///< the tokens' column
        int textWidth = 0;  ///< the probabilities' texts
    };
    Geometry geometryFor(int width, const QFont& font) const;
    /// The top-left corner of block `i` and its height.
    QRect blockRect(int i, const Geometry& g, const QRect& r) const;
    void fitHeight();

    std::vector<PredictionBlock> m_blocks;
};

} // namespace attnlab
