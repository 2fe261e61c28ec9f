#include "views/positionschemeview.h"

#include "plot/palette.h"

#include "core/segments.h"
#include "families/gated.h"
#include "model/model.h"
#include "nn/blocks.h"
#include "pretrained/model_folder.h"
#include "plot/plotting.h"
#include "position/inside.h"
#include "session/messages.h"
#include "session/session.h"
#include "session/stages.h"
#include "views/heatmapview.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

namespace {

/// The clocks RoPE's page draws at most: positions (rows) and pairs (columns).
constexpr int kClockRows = 12;
constexpr int kClockPairs = 8;
/// The positions of RoPE's q_m·k_n map: the sentence's, at least this many, at most kMaxShift.
constexpr int kMinShift = 16;
constexpr int kMaxShift = 64;

const QColor kLineColors[] = {okabeIto(Okabe::Blue), okabeIto(Okabe::Vermillion), okabeIto(Okabe::BluishGreen), okabeIto(Okabe::ReddishPurple),
                              okabeIto(Okabe::Orange), okabeIto(Okabe::SkyBlue), QColor(0, 0, 0),   okabeIto(Okabe::Grey)};

/// A new page of `pages` laid out by `layout`; returns the layout.
QBoxLayout* addPage(QStackedWidget* pages, QBoxLayout* layout)
{
    auto* w = new QWidget(pages);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    w->setLayout(layout);
    pages->addWidget(w);
    return layout;
}

Labels numbers(int count, int from = 0)
{
    auto v = std::make_shared<std::vector<std::string>>();
    for (int i = 0; i < count; ++i)
        v->push_back(std::to_string(from + i));
    return v;
}

QString tokenText(const Labels& labels, Eigen::Index i)
{
    return labels && i < static_cast<Eigen::Index>(labels->size()) ? QString::fromStdString((*labels)[static_cast<std::size_t>(i)])
                                                                   : QString::number(i);
}

} // namespace

PositionSchemeView::PositionSchemeView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_pages(new QStackedWidget(content()))
    , m_clocks(new QCustomPlot)
    , m_shift(new HeatmapView)
    , m_slopes(new QCustomPlot)
    , m_bias(new HeatmapView)
    , m_keys(new HeatmapView)
    , m_values(new HeatmapView)
    , m_rows(new HeatmapView)
    , m_timeline(new QCustomPlot)
    , m_segment(new QSpinBox)
    , m_segments(new HeatmapView)
{
    auto* root = new QVBoxLayout(content());
    root->setContentsMargins(0, 0, 0, 0);
    root->addWidget(m_pages);
    addPage(m_pages, new QHBoxLayout); // None: the caption says which schemes have a view here
    QBoxLayout* rope = addPage(m_pages, new QHBoxLayout);
    rope->addWidget(m_clocks, 1);
    rope->addWidget(m_shift, 1);
    QBoxLayout* alibi = addPage(m_pages, new QHBoxLayout);
    alibi->addWidget(m_slopes, 1);
    alibi->addWidget(m_bias, 1);
    QBoxLayout* relative = addPage(m_pages, new QHBoxLayout);
    relative->addWidget(m_keys, 1);
    relative->addWidget(m_values, 1);
    relative->addWidget(m_rows, 2);
    QBoxLayout* xl = addPage(m_pages, new QVBoxLayout);
    auto* segmentRow = new QHBoxLayout;
    m_segmentLabel = new QLabel;
    m_segmentLabel->setBuddy(m_segment);
    segmentRow->addWidget(m_segmentLabel);
    segmentRow->addWidget(m_segment);
    segmentRow->addStretch(1);
    xl->addLayout(segmentRow);
    xl->addWidget(m_timeline, 1);
    xl->addWidget(m_segments, 2);
    for (QCustomPlot* p : {m_clocks, m_slopes, m_timeline}) {
        addPlotTitle(p);
        p->setMinimumSize(160, 120);
    }
    // Round clocks whatever the plot's shape: one unit across is as long as one unit down.
    connect(m_clocks, &QCustomPlot::afterLayout, this, [this] { m_clocks->xAxis->setScaleRatio(m_clocks->yAxis, 1.0); });
    m_slopes->legend->setVisible(true);
    putLegendBelow(m_slopes, 2);
    m_segment->setKeyboardTracking(false);
    connect(m_segment, &QSpinBox::valueChanged, this, [session](int v) { session->setSegment(v - 1); });
    connect(m_timeline, &QCustomPlot::mousePress, this, [this, session](QMouseEvent* e) {
        const double row = m_timeline->yAxis->pixelToCoord(e->position().y());
        session->setSegment(static_cast<int>(std::lround(row)));
    });
    for (HeatmapView* h : {m_shift, m_bias, m_segments})
        connect(h, &HeatmapView::cellClicked, session, &Session::selectCell);
    refreshOn(&Session::headChanged);
    refreshOn(&Session::stepChanged);
    refreshOn(&Session::segmentChanged);
    retranslate();
    refresh();
}

bool PositionSchemeView::claims(const QString& stageId, const Trace& trace)
{
    // A modern decoder has no rope_angles step: its keys' RoPE step shows the clocks (the
    // queries' shows the turned numbers).
    if (gatedDecoderConfig(trace))
        return stageId == u"k_rotated";
    switch (trace.config.positional) {
    case PositionalEncoding::Rope:
        return stageId == u"rope_angles";
    case PositionalEncoding::Alibi:
        return stageId == u"position_bias";
    case PositionalEncoding::Relative:
        return stageId == u"relative_keys" || stageId == u"relative_values";
    case PositionalEncoding::Xl:
        return stageId == u"memory";
    default:
        return false;
    }
}

void PositionSchemeView::refresh()
{
    const Trace& t = *session()->trace();
    m_page = Page::None;
    const PositionalEncoding scheme = gatedDecoderConfig(t) ? PositionalEncoding::None : t.config.positional;
    if (gatedDecoderConfig(t) && t.find("q_rotated", 0))
        m_page = Page::Rope;
    switch (scheme) {
    case PositionalEncoding::Rope:
        m_page = t.find("rope_angles") ? Page::Rope : Page::None;
        break;
    case PositionalEncoding::Alibi:
        m_page = t.find("position_bias", 0) ? Page::Alibi : Page::None;
        break;
    case PositionalEncoding::Relative:
        m_page = t.find("relative_keys") ? Page::Relative : Page::None;
        break;
    case PositionalEncoding::Xl:
        m_page = session()->segmentCount() > 0 ? Page::Xl : Page::None;
        break;
    default:
        break;
    }
    if (m_page == Page::None) {
        showMessage(tr("This view shows where position enters attention for RoPE, ALiBi, relative positions and Transformer-XL. "
                       "Choose one of them under Positions in the settings."));
        return;
    }
    showContent();
    m_pages->setCurrentIndex(static_cast<int>(m_page));
    if (m_page == Page::Rope)
        showRope(t);
    else if (m_page == Page::Alibi)
        showAlibi(t);
    else if (m_page == Page::Relative)
        showRelative(t);
    else
        showXl(*session()->fullTrace());
}

void PositionSchemeView::showRope(const Trace& t)
{
    // A modern decoder turns features i and i + d_k/2 by pos·ω_i (rope_theta with its scaling, a
    // sliding layer's local base), not the neighbours 2i, 2i + 1 of pe=rope; Qwen3 and Gemma 3
    // turn the q and k their q_norm and k_norm made.
    const HfConfig* gated = gatedDecoderConfig(t);
    const int head = session()->head();
    const bool normed = gated && t.find("q_norm", head);
    const Stage* q = t.find(normed ? "q_norm" : "q", head);
    const Stage* k = stageForHead(t, normed ? "k_norm" : "k", head);
    const int dK = static_cast<int>(q->main().values.cols());
    const int layer = t.scopeLayer.value_or(0);
    const auto anglesFor = [&](Eigen::Index n) {
        return gated ? ropeAnglesOf(detail::gatedInverseFrequencies(*gated, layer), n)
                     : ropeAngles(static_cast<int>(n), dK, t.config.positionOptions.ropeBase);
    };
    const Eigen::MatrixXf angles = gated ? anglesFor(q->main().values.rows()) : t.find("rope_angles")->main().values;
    const Labels tokens = q->main().rowLabels;
    const int rows = static_cast<int>(std::min<Eigen::Index>(angles.rows(), kClockRows));
    const int pairs = static_cast<int>(std::min<Eigen::Index>(angles.cols(), kClockPairs));
    // One clock per position (row, downwards) and pair (column): a circle and its hand at θ_pos,i.
    m_clocks->clearItems();
    const QPen face(palette().color(QPalette::Mid), 1);
    const QPen hand(okabeIto(Okabe::Vermillion), 2);
    for (int pos = 0; pos < rows; ++pos) {
        for (int i = 0; i < pairs; ++i) {
            auto* circle = new QCPItemEllipse(m_clocks);
            circle->setPen(face);
            circle->topLeft->setCoords(i - 0.42, pos - 0.42);
            circle->bottomRight->setCoords(i + 0.42, pos + 0.42);
            auto* line = new QCPItemLine(m_clocks);
            line->setPen(hand);
            const double theta = angles(pos, i);
            line->start->setCoords(i, pos);
            line->end->setCoords(i + 0.38 * std::sin(theta), pos - 0.38 * std::cos(theta)); // 12 o'clock is θ = 0, clockwise
        }
    }
    std::vector<QString> rowNames;
    for (int pos = 0; pos < rows; ++pos)
        rowNames.push_back(QStringLiteral("%1 %2").arg(pos + 1).arg(tokenText(tokens, pos)));
    m_clocks->yAxis->setTicker(tokenTicker(rowNames));
    m_clocks->yAxis->setRangeReversed(true);
    m_clocks->yAxis->setRange(-0.6, rows - 0.4);
    std::vector<QString> pairNames;
    for (int i = 0; i < pairs; ++i)
        pairNames.push_back(QString::number(i + 1));
    m_clocks->xAxis->setTicker(tokenTicker(pairNames));
    m_clocks->xAxis->setLabel(gated ? tr("pair i: features i, i + %1").arg(dK / 2) : tr("pair i of the head's dimensions"));
    m_clocks->xAxis->setRange(-0.6, pairs - 0.4);
    plotTitle(m_clocks)->setText(gated ? tr("RoPE turns features i and i + %1 of position pos together by \u03B8 = pos\u00B7\u03C9_i: the first pairs fast, the last slowly").arg(dK / 2)
                                       : tr("RoPE turns pair i of position pos by \u03B8 = pos / B^(2i/d_k): the first pairs fast, the last slowly"));
    m_clocks->replot();

    // q of the first token and k of the second, rotated as if they stood at m and n, scaled as
    // the model scales its scores (Gemma 3: by √query_pre_attn_scalar).
    const int n = std::clamp(static_cast<int>(angles.rows()), kMinShift, kMaxShift);
    const Eigen::MatrixXf all = anglesFor(n);
    const RopeLayout layout = gated ? RopeLayout::HalfSplit : RopeLayout::Interleaved;
    const Eigen::Index kRow = std::min<Eigen::Index>(1, k->main().values.rows() - 1);
    const Eigen::MatrixXf qs = ropeRotate(q->main().values.row(0).replicate(n, 1), all, layout);
    const Eigen::MatrixXf ks = ropeRotate(k->main().values.row(kRow).replicate(n, 1), all, layout);
    const double scalar = gated ? gated->queryPreAttnScalar : 0.0;
    m_shiftScores = qs * ks.transpose() / static_cast<float>(std::sqrt(scalar > 0 ? scalar : static_cast<double>(dK)));
    m_shift->setCellValuesVisible(false); // up to 64 × 64 cells: the colours tell the diagonals
    m_shift->setMatrix(LabeledMatrix{"S", m_shiftScores, numbers(n, 1), numbers(n, 1)},
                       tr("q of \u201C%1\u201D at m (rows) \u00B7 k of \u201C%2\u201D at n (columns), head %3")
                           .arg(tokenText(q->main().rowLabels, 0), tokenText(k->main().rowLabels, kRow))
                           .arg(head + 1),
                       HeatmapView::Scale::Signed);
    const QString sameDistance = tr("The map moves the same q and k to every pair of positions: the score is constant along each "
                                    "diagonal m \u2212 n, because RoPE makes q_m\u00B7k_n depend on the distance only.");
    const QString clocks = gated ? tr("This model pairs feature i of each head with feature i + %1 (its two halves, as Hugging Face's "
                                      "Llama code rotates them), not the neighbours 2i and 2i + 1: each clock is one such pair at one position.")
                                       .arg(dK / 2)
                                 : tr("Each clock is one pair of dimensions of one position.");
    captionLabel()->setText(appendSentence(clocks, sameDistance));
}

void PositionSchemeView::showAlibi(const Trace& t)
{
    const int heads = t.config.heads;
    const int n = static_cast<int>(t.tokens.size());
    const std::vector<double> slopes = alibiSlopes(heads);
    m_slopes->clearGraphs();
    for (int h = 0; h < heads; ++h) {
        QCPGraph* g = m_slopes->addGraph();
        QPen pen(kLineColors[h % std::size(kLineColors)], h == session()->head() ? 3 : 1.5);
        g->setPen(pen);
        g->setName(tr("head %1: m = %2").arg(h + 1).arg(fixedNumber(slopes[static_cast<std::size_t>(h)], 4)));
        for (int d = 0; d < n; ++d)
            g->addData(d, -slopes[static_cast<std::size_t>(h)] * d);
    }
    m_slopes->xAxis->setLabel(tr("distance |i \u2212 j|"));
    m_slopes->yAxis->setLabel(tr("bias added to the score"));
    m_slopes->rescaleAxes();
    plotTitle(m_slopes)->setText(tr("Each head's penalty \u2212m_h\u00B7|i \u2212 j|: steep heads look near, flat heads far"));
    m_slopes->replot();
    const int head = session()->head();
    m_bias->setMatrix(t.find("position_bias", head)->main(), tr("B, head %1 (m = %2)").arg(head + 1).arg(fixedNumber(slopes[static_cast<std::size_t>(head)], 4)),
                      HeatmapView::Scale::Signed);
    m_bias->setSelectedCell(session()->selectedRow(), session()->selectedColumn());
    captionLabel()->setText(tr("ALiBi adds no position vector: each head subtracts its slope times the distance from every score "
                               "(not divided by \u221Ad_k). The slopes halve from head to head, 2^(\u22128h/H)."));
}

void PositionSchemeView::showRelative(const Trace& t)
{
    const Stage* keys = t.find("relative_keys");
    const Stage* values = t.find("relative_values");
    m_keys->setMatrix(keys->main(), tr("a\u1D37: one key per distance"), HeatmapView::Scale::Signed);
    m_values->setMatrix(values->main(), tr("a\u2C7D: one value per distance"), HeatmapView::Scale::Signed);
    const int K = t.config.positionOptions.maxDistance;
    const auto n = static_cast<int>(t.tokens.size());
    Eigen::MatrixXf rows(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j)
            rows(i, j) = static_cast<float>(relativeRow(i, j, K) - K);
    }
    const Labels tokens = std::make_shared<const std::vector<std::string>>(t.tokens);
    m_rows->setMatrix(LabeledMatrix{"r", rows, tokens, tokens}, tr("clip(j \u2212 i, \u2212%1, %1): the row each score uses").arg(K),
                      HeatmapView::Scale::Signed);
    m_rows->setCellValuesVisible(true);
    captionLabel()->setText(tr("Relative positions: a query scores a key by q\u00B7k plus q\u00B7a\u1D37 of their distance, and takes "
                               "a\u2C7D of that distance with the key's value. Beyond K = %1 every distance shares the last row, so "
                               "the map on the right is constant away from its diagonal band.")
                                .arg(K));
}

void PositionSchemeView::showXl(const Trace& full)
{
    const int segments = segmentCount(full.stages);
    const int shown = session()->segment();
    {
        const QSignalBlocker block(m_segment);
        m_segment->setRange(1, segments);
        m_segment->setValue(shown + 1);
    }
    drawTimeline(full);
    // Every segment's weights (current head) at the absolute positions of its queries and keys.
    const int head = session()->head();
    const auto n = static_cast<Eigen::Index>(full.tokens.size());
    m_assembled = Eigen::MatrixXf::Zero(n, n);
    for (int tau = 0; tau < segments; ++tau) {
        const Stage* w = findStage(full.stages, StageKey{"weights", head, full.scopeLayer, full.scopeBlock, tau});
        const Stage* q = findStage(full.stages, StageKey{"q", head, full.scopeLayer, full.scopeBlock, tau});
        if (!w || !q)
            continue;
        const XlSegment seg = xlSegments(static_cast<int>(n), full.config.positionOptions.segment,
                                         full.config.positionOptions.xlMemory())[static_cast<std::size_t>(tau)];
        m_assembled.block(seg.start, seg.firstKey(), seg.length, seg.keys()) = w->main().values;
    }
    const Labels tokens = std::make_shared<const std::vector<std::string>>(full.tokens);
    m_segments->setMatrix(LabeledMatrix{"A", m_assembled, tokens, tokens},
                          tr("Weights of every segment at their absolute positions, head %1").arg(head + 1),
                          HeatmapView::Scale::Probability);
    const auto& o = full.config.positionOptions;
    captionLabel()->setText(tr("Transformer-XL cuts the %1 tokens into segments of L = %2; each also attends the M = %3 rows "
                               "before it (its memory, lighter in the timeline). In the weights, the blocks left of the diagonal "
                               "are the memory: attention reaching back into the previous segment.")
                                .arg(n)
                                .arg(o.segment)
                                .arg(o.xlMemory()));
}

void PositionSchemeView::drawTimeline(const Trace& full)
{
    const auto n = static_cast<int>(full.tokens.size());
    const auto& o = full.config.positionOptions;
    const std::vector<XlSegment> segments = xlSegments(n, o.segment, o.xlMemory());
    m_timeline->clearItems();
    const int shown = session()->segment();
    const QColor own = okabeIto(Okabe::Blue), memory = okabeIto(Okabe::SkyBlue);
    for (std::size_t tau = 0; tau < segments.size(); ++tau) {
        const XlSegment& s = segments[tau];
        const double y = static_cast<double>(tau);
        const auto span = [&](int from, int count, const QColor& colour) {
            if (count <= 0)
                return;
            auto* r = new QCPItemRect(m_timeline);
            r->topLeft->setCoords(from - 0.5, y - 0.35);
            r->bottomRight->setCoords(from + count - 0.5, y + 0.35);
            r->setBrush(colour);
            r->setPen(static_cast<int>(tau) == shown ? QPen(palette().color(QPalette::WindowText), 2) : QPen(colour.darker(130)));
        };
        span(s.firstKey(), s.memory, memory);
        span(s.start, s.length, own);
    }
    std::vector<QString> rows;
    for (std::size_t tau = 0; tau < segments.size(); ++tau)
        rows.push_back(tr("segment %1").arg(tau + 1));
    m_timeline->yAxis->setTicker(tokenTicker(rows));
    m_timeline->yAxis->setRangeReversed(true);
    m_timeline->yAxis->setRange(-0.6, static_cast<double>(segments.size()) - 0.4);
    std::vector<QString> tokens;
    for (const std::string& t : full.tokens)
        tokens.push_back(QString::fromStdString(t));
    m_timeline->xAxis->setTicker(tokenTicker(tokens));
    m_timeline->xAxis->setRange(-0.6, n - 0.4);
    fitTokenLabels(m_timeline, tokens);
    plotTitle(m_timeline)->setText(tr("Dark: the segment's own tokens (its queries); light: its memory"));
    m_timeline->replot();
}

void PositionSchemeView::retranslate()
{
    m_segmentLabel->setText(tr("Segment"));
    m_segment->setToolTip(tr("The segment the other views show (its memory, queries, keys, scores and weights)"));
    m_timeline->setToolTip(tr("Click a segment to show it"));
}

} // namespace attnlab
