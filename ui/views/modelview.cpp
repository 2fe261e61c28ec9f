#include "views/modelview.h"

#include "widgets/controlcheckbox.h"
#include "core/trace.h"
#include "session/session.h"
#include "session/stages.h"
#include "views/modelgrid.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QSizePolicy>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

/// The colour key's size on screen and in a figure.
constexpr int kKeyWidth = 180;
constexpr int kFigureMargin = 16;

/// The top of the colour key when each picture is stretched to its largest weight.
QString largestText()
{
    return ModelView::tr("largest");
}

/// The colour key of the grid's pictures, a widget of its own beside the lists.
class WeightKey : public QWidget {
public:
    WeightKey(const ModelGrid* grid, QWidget* parent)
        : QWidget(parent)
        , m_grid(grid)
    {
    }
    QSize sizeHint() const override
    {
        return {kKeyWidth + fontMetrics().horizontalAdvance(largestText()), fontMetrics().height() + 6};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        paintWeightKey(p, rect(), palette().color(QPalette::WindowText), m_grid->isStretched());
    }

private:
    const ModelGrid* m_grid;
};

/// "3: it": a query token as the list shows it (positions counted from 1).
QString tokenItem(int index, const QString& token)
{
    return QStringLiteral("%1: %2").arg(index + 1).arg(token);
}

} // namespace

void paintWeightKey(QPainter& p, const QRect& r, const QColor& text, bool stretched)
{
    // "0" [viridis] "1": the pictures' colours are the weights, 0..1 (or 0 to each one's largest).
    p.save();
    const QFontMetrics fm(p.font());
    const QString top = stretched ? largestText() : QStringLiteral("1");
    const int zero = fm.horizontalAdvance(QStringLiteral("0")) + 4;
    const int one = fm.horizontalAdvance(top) + 4;
    const QRect bar(r.left() + zero, r.top() + 3, std::max(10, r.width() - zero - one), std::max(6, r.height() - 6));
    QLinearGradient g(bar.topLeft(), bar.topRight());
    const std::vector<QRgb>& colors = weightColors();
    for (int i = 0; i <= 8; ++i)
        g.setColorAt(i / 8.0, QColor(colors[static_cast<std::size_t>(i * 255 / 8)]));
    p.fillRect(bar, g);
    p.setPen(text);
    p.drawText(QRect(r.left(), r.top(), zero, r.height()), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("0"));
    p.drawText(QRect(bar.right() + 1, r.top(), one, r.height()), Qt::AlignVCenter | Qt::AlignRight, top);
    p.restore();
}

ModelView::ModelView(Session* session, QWidget* parent)
    : AttentionView(session, parent)
    , m_grid(new ModelGrid(content()))
    , m_scroll(new QScrollArea(content()))
    , m_tokenLabel(new QLabel(content()))
    , m_tokenBox(new QComboBox(content()))
    , m_stretch(new ControlCheckBox(content()))
    , m_key(new WeightKey(m_grid, content()))
{
    auto* body = new QVBoxLayout(content());
    body->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(blockLabel());
    top->addWidget(blockBox());
    top->addSpacing(12);
    top->addWidget(m_tokenLabel);
    top->addWidget(m_tokenBox);
    top->addStretch(1);
    body->addLayout(top);
    // The colours on a line of their own: a projector's narrow view has no room beside the lists.
    auto* colours = new QHBoxLayout;
    colours->addWidget(m_stretch);
    colours->addSpacing(12);
    colours->addWidget(m_key);
    colours->addStretch(1);
    body->addLayout(colours);
    m_tokenLabel->setBuddy(m_tokenBox);
    m_tokenBox->setMaxVisibleItems(20);
    m_tokenBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tokenBox->setMinimumContentsLength(10);
    // The lists give way before the check box's text does.
    m_stretch->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    // The grid fills the view; below its minimum size (pictures of ModelGrid::kMinCell) it scrolls.
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    body->addWidget(m_scroll, 1);
    setFocusProxy(m_grid);

    connect(m_grid, &ModelGrid::cellActivated, this, &ModelView::open);
    connect(m_grid, &ModelGrid::focusCellChanged, this, &ModelView::revealFocusCell);
    connect(m_tokenBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_grid->setQueryToken(index);
        updateCaption();
    });
    connect(m_stretch, &QCheckBox::toggled, this, [this](bool on) {
        m_grid->setStretched(on);
        m_key->updateGeometry();
        m_key->update();
    });
    connect(session, &Session::headChanged, this, &ModelView::showOpened);
    connect(session, &Session::stepChanged, this, &ModelView::followStep);
    connect(session, &Session::selectionChanged, this, [this](int row, int) { followSelection(row); });
    retranslate();
    refresh();
}

int ModelView::queryToken() const
{
    return m_grid->queryToken();
}

void ModelView::setQueryToken(int token)
{
    if (token >= 0 && token < m_tokenBox->count())
        m_tokenBox->setCurrentIndex(token);
}

void ModelView::refresh()
{
    if (!updateBlocks())
        return;
    if (stepMoved())
        followStepBlock();
    showBlock();
}

void ModelView::showBlock()
{
    m_grid->setMaps(session()->fullTrace(), block());
    fillTokens();
    showOpened();
    updateCaption();
}

void ModelView::fillTokens()
{
    const std::vector<QString> tokens = m_grid->maps().queryTokens();
    if (tokens == m_tokens && m_tokenBox->count() == static_cast<int>(tokens.size()))
        return;
    const int previous = m_grid->queryToken();
    m_tokens = tokens;
    {
        const QSignalBlocker quiet(m_tokenBox);
        m_tokenBox->clear();
        for (std::size_t i = 0; i < tokens.size(); ++i)
            m_tokenBox->addItem(tokenItem(static_cast<int>(i), tokens[i]));
        // The same position when it still exists; else the first token.
        m_tokenBox->setCurrentIndex(previous >= 0 && previous < static_cast<int>(tokens.size()) ? previous : 0);
    }
    m_grid->setQueryToken(m_tokenBox->currentIndex());
}

void ModelView::showOpened()
{
    // The studio shows a layer and head of this block when its step is an attention stage of it.
    const Step& step = session()->currentStep();
    const bool here = step.perHead && step.block == block();
    m_grid->setOpenedCell(here ? step.layer.value_or(0) : -1, here ? session()->head() : -1);
}

void ModelView::followStep()
{
    // Stepping into another block's attention shows that block (a hidden view follows at its
    // next refresh); otherwise the block the user chose stays.
    if (!isRefreshPending() && stepMoved())
        followStepBlock();
    showOpened();
}

void ModelView::showEvent(QShowEvent* event)
{
    AttentionView::showEvent(event);
    // The keyboard starts at the layer and head the studio shows, scrolled into view once the
    // grid has its size.
    const auto [layer, head] = m_grid->openedCell();
    if (layer < 0)
        return;
    m_grid->setFocusCell(layer, head);
    QTimer::singleShot(0, this, &ModelView::revealFocusCell);
}

void ModelView::revealFocusCell()
{
    const auto [layer, head] = m_grid->focusCell();
    const QRect r = m_grid->thumbnailRect(layer, head);
    m_scroll->ensureVisible(r.center().x(), r.center().y(), r.width() / 2 + 16, r.height() / 2 + 16);
}

void ModelView::followSelection(int row)
{
    // A cell clicked in this block's weights chooses its query token here too.
    const Step& step = session()->currentStep();
    if (row >= 0 && step.id == u"weights" && step.block == block())
        setQueryToken(row);
}

void ModelView::open(int layer, int head)
{
    const int step = session()->stepIndex(QStringLiteral("weights"), storedLayer(block(), layer), block());
    if (step >= 0)
        session()->setStep(step);
    session()->setHead(head);
    session()->setView(QStringLiteral("stage"));
    emit headOpened(layer, head);
}

void ModelView::updateCaption()
{
    const AttentionMaps& maps = m_grid->maps();
    if (maps.empty())
        return;
    const int token = m_grid->queryToken();
    const QString tokenText = token >= 0 && token < static_cast<int>(m_tokens.size()) ? m_tokens[static_cast<std::size_t>(token)] : QString();
    if (block() == Block::None) {
        captionLabel()->setText(tr("One attention block: the attention weights of each of its %1 heads, pictures of %2 × %3 "
                                   "weights. The row of the query token “%4” is framed in each. Click a picture, or press "
                                   "Enter on it, to open that head.")
                                    .arg(maps.heads)
                                    .arg(maps.queries())
                                    .arg(maps.keys())
                                    .arg(tokenText));
        return;
    }
    captionLabel()->setText(tr("%1: the attention weights of every layer (rows) and head (columns), %2 × %3 pictures of "
                               "%4 × %5 weights. The row of the query token “%6” is framed in each. Click a picture, or "
                               "press Enter on it, to open that layer and head.")
                                .arg(attentionBlockTitle(block()))
                                .arg(maps.layers)
                                .arg(maps.heads)
                                .arg(maps.queries())
                                .arg(maps.keys())
                                .arg(tokenText));
}

void ModelView::retranslate()
{
    retranslateBlocks();
    m_tokenLabel->setText(tr("Query token:"));
    m_key->setToolTip(tr("Colours: attention weight from 0 to 1, or to each picture's largest weight (a picture of "
                         "many tokens shows the largest weight of the cells each pixel covers)"));
    m_stretch->setText(tr("Stretch colours"));
    m_stretch->setToolTip(tr("Colour each picture from 0 to its own largest weight, so heads that spread their "
                             "attention thin show their pattern too"));
    m_grid->setToolTip(QString()); // the grid names the picture under the mouse itself
}

void ModelView::applyFonts()
{
    m_grid->updateGeometry(); // the labels' room (the grid takes the view's font)
    m_key->updateGeometry();
}

void ModelView::applyPalette()
{
    m_grid->update();
    m_key->update();
}

// --- Export ---------------------------------------------------------------------------------

namespace {

/// The cell side of an exported grid: the studio's, at least 64 and at most 160 pixels.
int figureCell(const ModelGrid& grid)
{
    return std::clamp(grid.cellSize(), 64, 160);
}

QPalette figurePalette()
{
    QPalette p;
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::Window, Qt::white);
    return p;
}

} // namespace

QSize ModelView::figureSize() const
{
    if (m_grid->layers() == 0)
        return {};
    const QSize grid = m_grid->gridSize(figureCell(*m_grid));
    const int line = QFontMetrics(font()).height();
    return {std::max(grid.width(), kKeyWidth * 2) + 2 * kFigureMargin, grid.height() + 3 * line + 2 * kFigureMargin + 16};
}

void ModelView::paintFigure(QPainter& p) const
{
    const QSize size = figureSize();
    if (size.isEmpty())
        return;
    p.save();
    p.setFont(font());
    const int line = QFontMetrics(font()).height();
    const int width = size.width() - 2 * kFigureMargin;
    // The title: the block and the query token; the grid; the colour key under it.
    const int token = m_grid->queryToken();
    const QString title = token >= 0 && token < static_cast<int>(m_tokens.size())
        ? figureTitle(attentionBlockTitle(block()), m_tokens[static_cast<std::size_t>(token)])
        : attentionBlockTitle(block());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(Qt::black);
    p.drawText(QRect(kFigureMargin, kFigureMargin, width, line + 4), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(title, Qt::ElideRight, width));
    p.setFont(font());
    const int cell = figureCell(*m_grid);
    m_grid->paintGrid(p, QPoint(kFigureMargin, kFigureMargin + line + 8), cell, figurePalette(), false);
    const int keyTop = kFigureMargin + line + 8 + m_grid->gridSize(cell).height() + 8;
    paintWeightKey(p, QRect(kFigureMargin, keyTop, kKeyWidth + QFontMetrics(font()).horizontalAdvance(largestText()), line + 6),
                   Qt::black, m_grid->isStretched());
    p.restore();
}

FigureName ModelView::figureName() const
{
    return {QStringLiteral("model"), std::nullopt, block()};
}

} // namespace attnlab
