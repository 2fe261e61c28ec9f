#include "views/multiheadview.h"

#include "plot/palette.h"

#include "widgets/controlcheckbox.h"
#include "widgets/projectiontype.h"
#include "views/heatmapview.h"
#include "session/session.h"
#include "session/stages.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

const QString kCurrentHeadItem = QStringLiteral("currentHead");
const QString kSeparatorItem = QStringLiteral("headSeparator");
constexpr int kBarHeight = 9;        // px: the coloured bar under each head's block
constexpr int kMinLabelledWidth = 340;  // px: narrower small multiples hide their token labels
constexpr int kMinLabelledHeight = 280; // px: and so do lower ones

/// The largest finite |value| of a matrix (masked cells are −∞ and do not count).
double maxAbsFinite(const Eigen::MatrixXf& m)
{
    float r = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        if (std::isfinite(m.data()[i]))
            r = std::max(r, std::abs(m.data()[i]));
    }
    return r;
}

/// 12 -> "₁₂", for names like Z₁₂.
QString subscript(int number)
{
    QString s = QString::number(number);
    for (QChar& c : s)
        c = QChar(0x2080 + (c.unicode() - u'0'));
    return s;
}

} // namespace

QColor MultiHeadView::headColor(int head)
{
    // Okabe–Ito: distinguishable with every common colour-vision deficiency. Models have up to
    // 16 heads (BERT-large, GPT-2 medium): heads 9 to 16 take eight of Kelly's colours of
    // maximum contrast that differ from those eight, so no two heads share a colour.
    static const QColor kColors[] = {
        okabeIto(Okabe::Orange), okabeIto(Okabe::SkyBlue), okabeIto(Okabe::BluishGreen), okabeIto(Okabe::Yellow),
        okabeIto(Okabe::Blue), okabeIto(Okabe::Vermillion), okabeIto(Okabe::ReddishPurple), QColor(0, 0, 0),
        QColor(0xBE0032), QColor(0x8DB600), QColor(0x604E97), QColor(0x882D17),
        QColor(0x848482), QColor(0x2B3D26), QColor(0xF99379), QColor(0xC2B280),
    };
    const int n = static_cast<int>(std::size(kColors));
    return kColors[((head % n) + n) % n];
}

MultiHeadView::MultiHeadView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_stack(new QStackedWidget(this))
    , m_headsCaption(new QLabel(this))
    , m_shared(new ControlCheckBox(this))
    , m_grid(new QWidget(this))
    , m_gridLayout(new QGridLayout(m_grid))
    , m_concatCaption(new QLabel(this))
    , m_concat(new HeatmapView(this))
    , m_times(new QLabel(this))
    , m_output(new HeatmapView(this))
{
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);
    root->addWidget(m_stack);

    // Heads: a caption and the checkbox above the grid of small multiples.
    auto* headsPage = new QWidget(m_stack);
    auto* headsLayout = new QVBoxLayout(headsPage);
    auto* top = new QHBoxLayout;
    m_headsCaption->setWordWrap(true);
    top->addWidget(m_headsCaption, 1);
    top->addWidget(m_shared);
    headsLayout->addLayout(top);
    m_gridLayout->setContentsMargins(0, 0, 0, 0);
    m_gridLayout->setSpacing(6);
    headsLayout->addWidget(m_grid, 1);
    m_stack->addWidget(headsPage);

    // Concat: C, then "× W_Oᵀ + b_O →", then O.
    auto* concatPage = new QWidget(m_stack);
    auto* concatLayout = new QVBoxLayout(concatPage);
    m_concatCaption->setWordWrap(true);
    concatLayout->addWidget(m_concatCaption);
    // C and O side by side, or one above the other when they are wider than tall (12 × 32):
    // showConcat picks the direction that gives the cells the room.
    m_concatRow = new QBoxLayout(QBoxLayout::LeftToRight);
    m_concatRow->addWidget(m_concat, 1);
    m_times->setAlignment(Qt::AlignCenter);
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 1.5);
    big.setBold(true);
    m_times->setFont(big);
    m_concatRow->addWidget(m_times);
    m_concatRow->addWidget(m_output, 1);
    concatLayout->addLayout(m_concatRow, 1);
    m_stack->addWidget(concatPage);

    // The head blocks go again whenever the concat heatmap redraws (which removes items).
    connect(m_concat->plot(), &QCustomPlot::beforeReplot, this, [this] {
        if (!m_concatDecorated)
            decorateConcat();
    });
    connect(m_concat, &HeatmapView::cellClicked, this, [this](int, int column) {
        if (m_concatDk > 0)
            activateHead(column / m_concatDk);
    });

    connect(m_shared, &QCheckBox::toggled, this, &MultiHeadView::applySharedScale);
    connect(session, &Session::stepChanged, this, [this] {
        if (m_mode == Mode::Heads)
            showHeads();
    });
    connect(session, &Session::headChanged, this, &MultiHeadView::updateHighlight);
    connect(session, &Session::selectionChanged, this, &MultiHeadView::updateSelection);
    retranslate();
    refresh();
}

void MultiHeadView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_stack->setCurrentIndex(mode == Mode::Heads ? 0 : 1);
    refresh(); // only the visible mode is kept up to date
    recheckCellValuesLater();
    emit modeChanged(mode);
}

HeatmapView* MultiHeadView::headView(int head) const
{
    return head >= 0 && head < headPlotCount() ? m_heads[static_cast<std::size_t>(head)].view : nullptr;
}

QFrame* MultiHeadView::headFrame(int head) const
{
    return head >= 0 && head < headPlotCount() ? m_heads[static_cast<std::size_t>(head)].frame : nullptr;
}

QList<QCustomPlot*> MultiHeadView::exportedPlots() const
{
    if (m_mode == Mode::Concat)
        return {m_concat->plot(), m_output->plot()};
    QList<QCustomPlot*> plots;
    for (const HeadCell& cell : m_heads)
        plots.append(cell.view->plot());
    return plots;
}

void MultiHeadView::refresh()
{
    if (!session()->trace())
        return;
    if (m_mode == Mode::Heads)
        showHeads();
    else
        showConcat();
}

// --- Heads ---------------------------------------------------------------------------------

void MultiHeadView::rebuildGrid(int heads)
{
    for (HeadCell& cell : m_heads) {
        m_gridLayout->removeWidget(cell.frame);
        cell.frame->hide();
        cell.frame->deleteLater(); // not delete: a click on it may be what led here
    }
    m_heads.clear();
    m_gridColumns = 0;
    m_highlighted = -1;
    for (int h = 0; h < heads; ++h) {
        HeadCell cell;
        cell.frame = new QFrame(m_grid);
        cell.frame->setObjectName(QStringLiteral("headFrame"));
        // Every frame has the same 3 px box; only the current head's is drawn in a visible colour.
        cell.frame->setFrameStyle(QFrame::Box | QFrame::Plain);
        cell.frame->setLineWidth(3);
        auto* layout = new QVBoxLayout(cell.frame);
        layout->setContentsMargins(3, 3, 3, 3);
        layout->setSpacing(2);
        // The head's colour, as in the concatenation's block marks.
        cell.colorBar = new QFrame(cell.frame);
        cell.colorBar->setFixedHeight(6);
        cell.colorBar->setAutoFillBackground(true);
        QPalette barPalette = cell.colorBar->palette();
        barPalette.setColor(QPalette::Window, headColor(h));
        cell.colorBar->setPalette(barPalette);
        layout->addWidget(cell.colorBar);
        cell.view = new HeatmapView(cell.frame);
        cell.view->setCellValuesVisible(false); // small multiples: colours only, values in the tooltip
        cell.view->setToolTip(tr("Click to focus head %1").arg(h + 1));
        layout->addWidget(cell.view, 1);
        // Any click on the plot focuses the head, a click on a cell also selects that cell.
        connect(cell.view->plot(), &QCustomPlot::mousePress, this, [this, h] { activateHead(h); });
        connect(cell.view, &HeatmapView::cellClicked, this, [this](int r, int c) {
            if (session()->stepId() == m_gridStage)
                session()->selectCell(r, c);
        });
        m_heads.push_back(cell);
    }
    layoutGrid();
}

void MultiHeadView::layoutGrid()
{
    const int heads = headPlotCount();
    if (heads == 0)
        return;
    // The column count that makes the (roughly square) heatmaps largest in the space there is;
    // ceil(sqrt(h)) before the widget has a size.
    const int w = m_grid->width();
    const int hgt = m_grid->height();
    int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(heads))));
    if (w > 100 && hgt > 100) {
        double best = 0;
        for (int c = 1; c <= heads; ++c) {
            const int r = (heads + c - 1) / c;
            const double side = std::min(static_cast<double>(w) / c, static_cast<double>(hgt) / r);
            if (side > best + 1) {
                best = side;
                columns = c;
            }
        }
    }
    const int rows = (heads + columns - 1) / columns;
    if (columns != m_gridColumns) {
        for (int i = 0; i < std::max(m_gridLayout->rowCount(), m_gridLayout->columnCount()); ++i) {
            m_gridLayout->setRowStretch(i, i < rows ? 1 : 0);
            m_gridLayout->setColumnStretch(i, i < columns ? 1 : 0);
        }
        for (int h = 0; h < heads; ++h) {
            m_gridLayout->removeWidget(m_heads[static_cast<std::size_t>(h)].frame);
            m_gridLayout->addWidget(m_heads[static_cast<std::size_t>(h)].frame, h / columns, h % columns);
            m_heads[static_cast<std::size_t>(h)].frame->show();
        }
        for (int i = 0; i < std::max(rows, columns); ++i) {
            m_gridLayout->setRowStretch(i, i < rows ? 1 : 0);
            m_gridLayout->setColumnStretch(i, i < columns ? 1 : 0);
        }
        m_gridColumns = columns;
    }
    // Token labels only where they fit; the tooltip always names the cell.
    const bool labels = w <= 100 || (w / columns >= kMinLabelledWidth && hgt / rows >= kMinLabelledHeight);
    for (const HeadCell& cell : m_heads) {
        QCustomPlot* p = cell.view->plot();
        if (p->yAxis->tickLabels() != labels) {
            p->yAxis->setTickLabels(labels);
            p->xAxis2->setTickLabels(labels);
            p->replot(QCustomPlot::rpQueuedReplot);
        }
    }
}

void MultiHeadView::resizeEvent(QResizeEvent* event)
{
    SessionView::resizeEvent(event);
    layoutGrid();
}

void MultiHeadView::showEvent(QShowEvent* event)
{
    SessionView::showEvent(event);
    recheckCellValuesLater();
}

void MultiHeadView::recheckCellValuesLater()
{
    // HeatmapView decides whether values fit inside the cells from its plot's last layout, which
    // does not exist yet when a plot is first shown (so a 12 x 32 concatenation got unreadable
    // numbers). Ask again once the plots have been laid out at their real size: the plots'
    // queued replots run first, this zero timer after them.
    if (m_mode != Mode::Concat)
        return;
    QTimer::singleShot(0, this, [this] {
        m_concat->setCellValuesVisible(true);
        m_output->setCellValuesVisible(true);
    });
}

void MultiHeadView::applyPalette()
{
    m_highlighted = -1; // the outline takes its colour from the palette: draw it again
    updateHighlight();
}

void MultiHeadView::showHeads()
{
    const auto& trace = session()->trace();
    const std::string step = session()->stepId().toStdString();
    m_gridStage = isPerHeadStage(step) ? QString::fromStdString(step) : QStringLiteral("weights");
    const int heads = trace->config.heads;
    if (heads != headPlotCount())
        rebuildGrid(heads); // the same number of heads reuses the plots: typing stays fast

    const HeatmapView::Scale scale = HeatmapView::scaleForStage(m_gridStage);
    // Probabilities always use 0..1, so one scale is already shared.
    m_shared->setEnabled(scale == HeatmapView::Scale::Signed);
    QString caption = tr("%1 for each of the %2 heads (d_k = %3).").arg(stepName(m_gridStage)).arg(heads).arg(trace->config.dK());
    if (!isProjected(window())) // an instruction, not on a projection or a slide
        caption += QLatin1Char(' ') + tr("Click a head to focus it.");
    m_headsCaption->setText(caption);
    for (int h = 0; h < heads; ++h) {
        const Stage* s = trace->find(m_gridStage.toStdString(), h);
        if (s)
            m_heads[static_cast<std::size_t>(h)].view->setMatrix(s->main(), tr("Head %1").arg(h + 1), scale);
    }
    applySharedScale();
    updateSelection();
    updateHighlight();
}

void MultiHeadView::applySharedScale()
{
    double shared = 0; // 0: each head its own range
    if (m_shared->isChecked() && HeatmapView::scaleForStage(m_gridStage) == HeatmapView::Scale::Signed) {
        for (const HeadCell& cell : m_heads)
            shared = std::max(shared, maxAbsFinite(cell.view->matrix().values));
    }
    for (const HeadCell& cell : m_heads)
        cell.view->setSharedMaxAbs(shared);
}

void MultiHeadView::updateSelection()
{
    // The session's selection belongs to the current step's matrix: shown only when the grid
    // shows that step, in every head (the same query and key, compared across heads).
    const bool same = session()->stepId() == m_gridStage;
    for (const HeadCell& cell : m_heads) {
        if (same)
            cell.view->setSelectedCell(session()->selectedRow(), session()->selectedColumn());
        else
            cell.view->setSelectedCell(-1, -1);
    }
}

void MultiHeadView::updateHighlight()
{
    const int current = session()->head();
    if (current != m_highlighted) {
        for (int h = 0; h < headPlotCount(); ++h) {
            QFrame* frame = m_heads[static_cast<std::size_t>(h)].frame;
            const bool on = h == current;
            QPalette p = frame->palette();
            p.setColor(QPalette::WindowText, on ? palette().color(QPalette::Text) : palette().color(QPalette::Window));
            frame->setPalette(p);
            frame->setProperty("current", on);
        }
        m_highlighted = current < headPlotCount() ? current : -1;
    }
    if (m_mode == Mode::Concat && m_concatHeads > 0) {
        // Move the outline in the concatenation to the current head's block.
        QCustomPlot* p = m_concat->plot();
        for (int i = p->itemCount() - 1; i >= 0; --i) {
            if (p->item(i)->objectName() == kCurrentHeadItem)
                p->removeItem(i);
        }
        decorateConcat();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MultiHeadView::activateHead(int head)
{
    session()->setHead(head);
    emit headActivated(head);
}

// --- Concat --------------------------------------------------------------------------------

void MultiHeadView::showConcat()
{
    const auto& trace = session()->trace();
    const Stage* concat = trace->find("concat");
    const Stage* output = trace->find("output");
    if (!concat || !output)
        return;
    m_concatHeads = trace->config.heads;
    m_concatDk = trace->config.dK();

    // The engine's column labels name head and dimension as people count them: "h1·d1".
    const LabeledMatrix& c = concat->main();
    const int n = static_cast<int>(c.values.rows());
    const bool wide = c.values.cols() > c.values.rows();
    if (wide != (m_concatRow->direction() == QBoxLayout::TopToBottom)) {
        m_concatRow->setDirection(wide ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
        retranslate(); // the arrow points down or right
    }
    m_concat->setMatrix(c, tr("Concatenation C = [Z₁ | … | Z%1]: %2 × %3").arg(subscript(m_concatHeads)).arg(n).arg(c.values.cols()),
                        HeatmapView::Scale::Signed);
    m_output->setMatrix(output->main(), tr("Output O = C·W_Oᵀ + b_O: %1 × %2").arg(n).arg(output->main().values.cols()),
                        HeatmapView::Scale::Signed);
    m_concatCaption->setText(tr("Each head's output Z (%1 × %2) is placed side by side, in head order: C is %1 × %3. "
                                "The output projection W_O then mixes the heads' features into O. Click a block to "
                                "focus its head.")
                                 .arg(n)
                                 .arg(m_concatDk)
                                 .arg(c.values.cols()));
    decorateConcat();
}

void MultiHeadView::decorateConcat()
{
    QCustomPlot* p = m_concat->plot();
    const int rows = static_cast<int>(m_concat->matrix().values.rows());
    if (m_concatHeads <= 0 || rows == 0)
        return;
    const int dk = m_concatDk;

    // Head names under the blocks (the bottom axis is free: the keys' labels are along the top);
    // just the numbers when the blocks are too narrow for "Head 12".
    QFont f = font();
    f.setBold(true);
    const double blockPx = static_cast<double>(p->axisRect()->width()) / m_concatHeads;
    const bool longNames = p->axisRect()->width() <= 0
        || QFontMetrics(f).horizontalAdvance(tr("Head %1").arg(m_concatHeads)) + 6 <= blockPx;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int h = 0; h < m_concatHeads; ++h)
        ticker->addTick(h * dk + (dk - 1) / 2.0, longNames ? tr("Head %1").arg(h + 1) : QString::number(h + 1));
    p->xAxis->setVisible(true);
    p->xAxis->setTicker(ticker);
    p->xAxis->setTickLabelRotation(0);
    p->xAxis->setTickLabelFont(f);
    p->xAxis->setBasePen(Qt::NoPen);
    p->xAxis->setTickPen(Qt::NoPen);
    p->xAxis->setSubTickPen(Qt::NoPen);
    p->xAxis->setTickLabelPadding(kBarHeight + 4); // room for the coloured bars

    QCPItemRect* first = nullptr;
    if (!m_concatDecorated) {
        for (int h = 0; h < m_concatHeads; ++h) {
            // A bar in the head's colour right under its block of columns.
            auto* bar = new QCPItemRect(p);
            bar->setObjectName(headBlockItemName());
            bar->setClipToAxisRect(false);
            bar->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
            bar->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            bar->topLeft->setCoords(h * dk - 0.5, 1.0);
            bar->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
            bar->bottomRight->setParentAnchorY(bar->topLeft);
            bar->bottomRight->setTypeY(QCPItemPosition::ptAbsolute);
            bar->bottomRight->setCoords((h + 1) * dk - 0.5, kBarHeight);
            bar->setPen(QPen(headColor(h).darker(130), 1));
            bar->setBrush(headColor(h));
            if (!first)
                first = bar;
            // A line between blocks, so each head's columns read as one block.
            if (h > 0) {
                auto* sep = new QCPItemLine(p);
                sep->setObjectName(kSeparatorItem);
                sep->start->setCoords(h * dk - 0.5, -0.5);
                sep->end->setCoords(h * dk - 0.5, rows - 0.5);
                sep->setPen(QPen(QColor(40, 40, 40), 1.5));
            }
        }
        m_concatDecorated = first;
    }
    // The current head's block, outlined.
    bool hasOutline = false;
    for (int i = 0; i < p->itemCount(); ++i)
        hasOutline = hasOutline || p->item(i)->objectName() == kCurrentHeadItem;
    const int current = session()->head();
    if (!hasOutline && current >= 0 && current < m_concatHeads) {
        auto* outline = new QCPItemRect(p);
        outline->setObjectName(kCurrentHeadItem);
        outline->setClipToAxisRect(false);
        outline->topLeft->setCoords(current * dk - 0.5, -0.5);
        outline->bottomRight->setCoords((current + 1) * dk - 0.5, rows - 0.5);
        outline->setPen(QPen(palette().color(QPalette::Text), 3));
        outline->setBrush(Qt::NoBrush);
    }
}

void MultiHeadView::retranslate()
{
    m_shared->setText(tr("Shared colour scale"));
    m_shared->setToolTip(tr("Give every head the same colour range (the largest |value| over all heads), "
                            "so colours compare across heads"));
    const bool down = m_concatRow->direction() == QBoxLayout::TopToBottom;
    m_times->setText(down ? tr("↓  × W_Oᵀ + b_O") : tr("× W_Oᵀ + b_O\n→"));
    m_times->setToolTip(tr("O = C·W_Oᵀ + b_O: the output projection mixes the heads' features"));
}

} // namespace attnlab
