#include "views/lengthview.h"

#include "plot/palette.h"

#include "nn/embedding.h"
#include "plot/fitting.h"
#include "plot/plotting.h"
#include "position/shift.h"
#include "session/session.h"
#include "views/comparefigure.h"

#include <qcustomplot.h>

#include <QHBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

struct Line {
    PositionalEncoding scheme;
    QColor colour;
    Qt::PenStyle style;
};

const Line kLines[] = {
    {PositionalEncoding::Sinusoidal, okabeIto(Okabe::Vermillion), Qt::SolidLine}, {PositionalEncoding::Learned, okabeIto(Okabe::Orange), Qt::SolidLine},
    {PositionalEncoding::Rope, okabeIto(Okabe::Blue), Qt::SolidLine},       {PositionalEncoding::Alibi, okabeIto(Okabe::BluishGreen), Qt::DashLine},
    {PositionalEncoding::Relative, okabeIto(Okabe::ReddishPurple), Qt::DotLine},
};

} // namespace

LengthView::LengthView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_short(new QCustomPlot(content()))
    , m_long(new QCustomPlot(content()))
{
    auto* row = new QHBoxLayout(content());
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_short, 1);
    row->addWidget(m_long, 2);
    for (QCustomPlot* p : {m_short, m_long}) {
        addPlotTitle(p);
        p->setMinimumSize(180, 160);
        keepTitlesOnOneLine(p);
    }
    m_long->legend->setVisible(true);
    putLegendBelow(m_long, 3);
    refreshOn(&Session::headChanged);
    refresh();
}

void LengthView::refresh()
{
    const Trace& t = *session()->trace();
    const Config& c = t.config;
    m_spread.clear();
    if (!t.weights || t.model || t.tokens.empty()) {
        showMessage(tr("The length experiment runs on one attention block: choose \u201Cone attention block\u201D as the model."));
        return;
    }
    showContent();
    // The first token as the query, the second (or the first again) as the key, as X = E·s holds them.
    const std::vector<std::string> pair{t.tokens.front(), t.tokens.size() > 1 ? t.tokens[1] : t.tokens.front()};
    const Eigen::MatrixXf e = tokenEmbeddings(pair, c.dModel, c.seed) * embeddingScale(c.dModel, c.embedScale);
    const int head = std::clamp(session()->head(), 0, c.heads - 1);
    ShiftPair shift{e.row(0), e.row(1), *t.weights, c.heads, kOffset, c.seed, c.positionOptions, nullptr};
    std::map<PositionalEncoding, std::pair<double, double>> range;
    for (QCustomPlot* p : {m_short, m_long}) {
        const int n = p == m_short ? kShort : kLong;
        p->clearGraphs();
        for (const Line& line : kLines) {
            if (line.scheme == PositionalEncoding::Rope && c.dK() % 2 != 0)
                continue; // RoPE turns pairs of dimensions
            const std::vector<double> scores = shiftScores(line.scheme, shift, n)[static_cast<std::size_t>(head)];
            QCPGraph* g = p->addGraph();
            g->setPen(QPen(line.colour, 2, line.style));
            g->setName(positionalName(line.scheme));
            auto& [lo, hi] = range.try_emplace(line.scheme, scores.front(), scores.front()).first->second;
            for (std::size_t i = 0; i < scores.size(); ++i) {
                g->addData(static_cast<double>(i + 1), scores[i]);
                lo = std::min(lo, scores[i]);
                hi = std::max(hi, scores[i]);
            }
        }
        p->rescaleAxes();
        // A margin above and below, so a flat line does not lie on the frame.
        const QCPRange y = p->yAxis->range();
        const double pad = std::max(0.1 * y.size(), 0.05 * std::max(1.0, std::abs(y.center())));
        p->yAxis->setRange(y.lower - pad, y.upper + pad);
        p->xAxis->setRange(1, n - kOffset);
        p->xAxis->setLabel(tr("position of the query (the key is %1 later)").arg(kOffset));
        p->yAxis->setLabel(tr("score of the pair, head %1").arg(head + 1));
        plotTitle(p)->setText(tr("n = %1 tokens").arg(n));
        p->replot();
    }
    QStringList spreads;
    for (const auto& [scheme, lohi] : range) {
        m_spread[scheme] = lohi.second - lohi.first;
        spreads << QStringLiteral("%1 %2").arg(positionalName(scheme), fixedNumber(lohi.second - lohi.first, 4));
    }
    captionLabel()->setText(tr("The tokens \u201C%1\u201D (query) and \u201C%2\u201D (key, %3 positions later) moved together along "
                               "inputs of %4 and %5 tokens. How much the score changes with the position (max \u2212 min): %6. "
                               "Flat lines mean the pair looks the same anywhere, however long the input.")
                                .arg(QString::fromStdString(pair[0]), QString::fromStdString(pair[1]))
                                .arg(kOffset)
                                .arg(kShort)
                                .arg(kLong)
                                .arg(spreads.join(QStringLiteral(", "))));
}

} // namespace attnlab
