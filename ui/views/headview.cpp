#include "views/headview.h"

#include "plot/palette.h"

#include "core/trace.h"
#include "session/session.h"
#include "views/headlines.h"
#include "views/multiheadview.h"
#include "widgets/projectiontype.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

constexpr int kFigureMargin = 16;
constexpr int kFigureWidth = 900;

QIcon swatch(const QColor& color)
{
    QPixmap p(14, 14);
    p.fill(color);
    return QIcon(p);
}

} // namespace

HeadView::HeadView(Session* session, QWidget* parent)
    : AttentionView(session, parent)
    , m_layerLabel(new QLabel(content()))
    , m_layerBox(new QSpinBox(content()))
    , m_lines(new HeadLines(content()))
    , m_legend(new QWidget(content()))
    , m_legendLayout(new QGridLayout(m_legend))
    , m_allHeads(new QPushButton(content()))
    , m_noHeads(new QPushButton(content()))
{
    auto* body = new QVBoxLayout(content());
    body->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(m_layerLabel);
    top->addWidget(m_layerBox);
    top->addSpacing(12);
    top->addWidget(blockLabel());
    top->addWidget(blockBox());
    top->addStretch(1);
    body->addLayout(top);
    m_layerLabel->setBuddy(m_layerBox);
    m_layerBox->setMinimum(1);

    // The picture, and the legend of the heads beside it.
    auto* row = new QHBoxLayout;
    row->addWidget(m_lines, 1);
    auto* side = new QVBoxLayout;
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_allHeads);
    buttons->addWidget(m_noHeads);
    side->addLayout(buttons);
    m_legendLayout->setContentsMargins(0, 0, 0, 0);
    side->addWidget(m_legend);
    side->addStretch(1);
    row->addLayout(side);
    body->addLayout(row, 1);
    setFocusProxy(m_lines);

    connect(m_layerBox, &QSpinBox::valueChanged, this, &HeadView::showLayer);
    connect(m_lines, &HeadLines::tokenChosen, this, &HeadView::updateCaption);
    connect(m_lines, &HeadLines::layerStepRequested, this, [this](int delta) { m_layerBox->setValue(m_layerBox->value() + delta); });
    connect(m_allHeads, &QPushButton::clicked, this, [this] {
        for (QCheckBox* b : m_headBoxes)
            b->setChecked(true);
    });
    connect(m_noHeads, &QPushButton::clicked, this, [this] {
        for (QCheckBox* b : m_headBoxes)
            b->setChecked(false);
    });
    connect(session, &Session::stepChanged, this, &HeadView::followStep);
    connect(session, &Session::selectionChanged, this, [this](int row, int) { followSelection(row); });
    // A lesson step names the query token with a highlighted row (`highlight: rows 4`).
    connect(session, &Session::highlightChanged, this, [this] {
        if (const Highlight& lit = this->session()->highlight(); !lit.rows.empty())
            followSelection(lit.rows.front());
    });
    retranslate();
    refresh();
}

QCheckBox* HeadView::headBox(int head) const
{
    return head >= 0 && head < headBoxCount() ? m_headBoxes[static_cast<std::size_t>(head)] : nullptr;
}

int HeadView::layer() const
{
    return m_layerBox->value() - 1;
}

void HeadView::setLayer(int layer)
{
    m_layerBox->setValue(layer + 1); // showLayer() through valueChanged, when it changes
}

void HeadView::showBlock()
{
    const AttentionMaps maps = attentionMaps(*session()->fullTrace(), block());
    {
        const QSignalBlocker quiet(m_layerBox);
        m_layerBox->setMaximum(std::max(1, maps.layers));
        m_layerLabel->setVisible(block() != Block::None); // one attention block has no layers
        m_layerBox->setVisible(block() != Block::None);
    }
    showLayer();
}

void HeadView::refresh()
{
    if (!updateBlocks())
        return;
    followStep();
    showBlock();
}

void HeadView::showLayer()
{
    m_lines->setMaps(session()->fullTrace(), block(), layer());
    if (m_lines->heads() != headBoxCount())
        rebuildLegend(m_lines->heads());
    for (int h = 0; h < headBoxCount(); ++h)
        m_lines->setHeadShown(h, m_headBoxes[static_cast<std::size_t>(h)]->isChecked());
    updateCaption();
}

void HeadView::rebuildLegend(int heads)
{
    for (QCheckBox* b : m_headBoxes)
        delete b;
    m_headBoxes.clear();
    // One column, two for many heads (16 rows would not fit a projector's height).
    const int columns = heads > 8 ? 2 : 1;
    for (int h = 0; h < heads; ++h) {
        auto* box = new QCheckBox(m_legend);
        box->setChecked(true);
        box->setIcon(swatch(MultiHeadView::headColor(h)));
        connect(box, &QCheckBox::toggled, this, [this, h](bool on) { m_lines->setHeadShown(h, on); });
        m_legendLayout->addWidget(box, h / columns, h % columns);
        m_headBoxes.push_back(box);
    }
    retranslate();
}

void HeadView::followStep()
{
    // The studio's step went to another layer or block: show that layer here (a hidden view
    // follows at its next refresh); otherwise the layer the user chose stays.
    if (isRefreshPending() || !stepMoved())
        return;
    const Step& step = session()->currentStep();
    if (!step.layer || blockBox()->findData(static_cast<int>(step.block)) < 0)
        return;
    {
        const QSignalBlocker quiet(m_layerBox);
        m_layerBox->setMaximum(std::max(m_layerBox->maximum(), *step.layer + 1));
        m_layerBox->setValue(*step.layer + 1);
    }
    setBlock(step.block); // draws when the block changes
    showLayer();
}

void HeadView::followSelection(int row)
{
    // A cell clicked in this block's weights chooses its query token here too.
    const Step& step = session()->currentStep();
    if (row >= 0 && step.id == u"weights" && step.block == block()) {
        m_lines->setToken(row);
        updateCaption();
    }
}

QString HeadView::placeText() const
{
    return block() == Block::None ? attentionBlockTitle(block())
                                  : tr("Layer %1 of %2").arg(layer() + 1).arg(attentionBlockTitle(block()).toLower());
}

void HeadView::updateCaption()
{
    if (m_lines->queries() == 0)
        return;
    const QString token = m_lines->queryTokens()[static_cast<std::size_t>(m_lines->token())];
    // Projected (presenter mode, a slide), the instructions for the mouse and keys are left out.
    QString text = tr("%1: where the query token “%2” looks, a line to each key in every head's colour, thicker and "
                      "more opaque for a larger weight.")
                       .arg(placeText(), token);
    if (!isProjected(window()))
        text += QLatin1Char(' ') + tr("Click a token on the left or press ↑/↓ to choose another; ←/→ change the layer; the check "
                                      "boxes switch heads on and off.");
    captionLabel()->setText(text);
}

void HeadView::retranslate()
{
    m_layerLabel->setText(tr("Layer:"));
    retranslateBlocks();
    m_allHeads->setText(tr("All"));
    m_allHeads->setToolTip(tr("Show every head's lines"));
    m_noHeads->setText(tr("None"));
    m_noHeads->setToolTip(tr("Hide every head's lines"));
    for (int h = 0; h < headBoxCount(); ++h) {
        m_headBoxes[static_cast<std::size_t>(h)]->setText(tr("Head %1").arg(h + 1));
        m_headBoxes[static_cast<std::size_t>(h)]->setToolTip(tr("Show or hide the lines of head %1").arg(h + 1));
    }
}

void HeadView::applyPalette()
{
    m_lines->update();
}

// --- Export ---------------------------------------------------------------------------------

QSize HeadView::figureSize() const
{
    if (m_lines->queries() == 0)
        return {};
    const int line = QFontMetrics(font()).height();
    const int rows = std::max(m_lines->queries(), m_lines->keys());
    const int picture = std::clamp(rows * (line + 4) * 8 / 5, 240, 1600); // HeadLines' roomy rows
    const int legendRows = (headBoxCount() + 5) / 6;
    return {kFigureWidth, 2 * kFigureMargin + line + 8 + legendRows * (line + 6) + 8 + picture};
}

void HeadView::paintLegend(QPainter& p, const QRect& r) const
{
    // "■ Head 1   ■ Head 2 …", six to a row: the heads drawn.
    const QFontMetrics fm(font());
    const int line = fm.height() + 6;
    const int column = r.width() / 6;
    int slot = 0;
    for (int h = 0; h < headBoxCount(); ++h) {
        if (!m_lines->isHeadShown(h))
            continue;
        const QPoint at(r.left() + (slot % 6) * column, r.top() + (slot / 6) * line);
        p.fillRect(QRect(at.x(), at.y() + (line - 12) / 2, 12, 12), MultiHeadView::headColor(h));
        p.setPen(Qt::black);
        p.drawText(QRect(at.x() + 18, at.y(), column - 20, line), Qt::AlignLeft | Qt::AlignVCenter, tr("Head %1").arg(h + 1));
        ++slot;
    }
}

void HeadView::paintFigure(QPainter& p) const
{
    const QSize size = figureSize();
    if (size.isEmpty())
        return;
    p.save();
    const int line = QFontMetrics(font()).height();
    const int width = size.width() - 2 * kFigureMargin;
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(Qt::black);
    const QString token = m_lines->queryTokens()[static_cast<std::size_t>(m_lines->token())];
    const QString title = figureTitle(placeText(), token);
    p.drawText(QRect(kFigureMargin, kFigureMargin, width, line + 4), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(title, Qt::ElideRight, width));
    p.setFont(font());
    const int legendTop = kFigureMargin + line + 8;
    paintLegend(p, QRect(kFigureMargin, legendTop, width, 0));
    const int legendRows = (headBoxCount() + 5) / 6;
    const int pictureTop = legendTop + legendRows * (line + 6) + 8;
    QPalette light;
    light.setColor(QPalette::WindowText, Qt::black);
    light.setColor(QPalette::Highlight, okabeIto(Okabe::Blue));
    light.setColor(QPalette::HighlightedText, Qt::white);
    m_lines->paintLines(p, QRect(kFigureMargin, pictureTop, width, size.height() - pictureTop - kFigureMargin), light);
    p.restore();
}

FigureName HeadView::figureName() const
{
    return {QStringLiteral("head-view"), block() == Block::None ? std::nullopt : std::optional<int>(layer() + 1), block()};
}

} // namespace attnlab
