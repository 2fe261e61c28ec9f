#include "views/approximationview.h"

#include "attention/approximation.h"
#include "plot/fitting.h"
#include "plot/plotting.h"
#include "session/kindstages.h"
#include "session/messages.h"
#include "session/session.h"
#include "views/columnplot.h"
#include "views/heatmapview.h"

#include <QHBoxLayout>
#include <QLabel>

namespace attnlab {

ApproximationView::ApproximationView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_weights(new HeatmapView(content()))
    , m_reference(new HeatmapView(content()))
    , m_error(new ColumnPlot(content()))
{
    // The two matrices as large as the view allows, the error column narrower beside them.
    auto* row = new QHBoxLayout(content());
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(4);
    row->addWidget(m_weights, 3);
    row->addWidget(m_reference, 3);
    row->addWidget(m_error, 2);
    for (QWidget* w : {static_cast<QWidget*>(m_weights), static_cast<QWidget*>(m_reference), static_cast<QWidget*>(m_error)})
        w->setMinimumWidth(120);
    // Short titles on one line (the caption names the kind and the head): the height goes to the cells.
    for (QCustomPlot* p : {m_weights->plot(), m_reference->plot(), m_error->plot()})
        keepTitlesOnOneLine(p);
    connect(m_weights, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(m_reference, &HeatmapView::cellClicked, session, &Session::selectCell);
    refreshOn(&Session::headChanged);
    refreshOn(&Session::stepChanged);
    refresh();
}

bool ApproximationView::claimsWeights(const QString& stageId, const Trace& trace)
{
    return stageId == u"weights" && trace.find("reference_weights", 0) != nullptr;
}

void ApproximationView::refresh()
{
    const Trace& t = *session()->trace();
    const int head = session()->head();
    const Stage* a = t.find("weights", head);
    const Stage* full = t.find("reference_weights", head);
    const Stage* error = t.find("error", head);
    m_shown = a && full && error;
    m_maxAbs.reset();
    m_relFro.reset();
    if (!m_shown) {
        showMessage(tr("Full attention: there is nothing to compare it with. Choose another attention kind in the settings "
                       "to see its weights beside full attention's and how far they are from them."));
        return;
    }
    showContent();
    const QString kind = attentionKindName(t.config.attention);
    const std::string_view name = toString(t.config.attention);
    m_weights->setMatrix(a->main(), tr("A: %1").arg(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()))),
                         HeatmapView::Scale::Probability);
    m_reference->setMatrix(full->main(), tr("A^full: full attention"), HeatmapView::Scale::Probability);
    m_error->setColumn(error->main(), tr("Error e_i"),
                       t.config.attention == AttentionKind::Linformer ? tr("L1 distance") : tr("L1 distance (0 \u2026 2)"),
                       ColumnPlot::Style::Values);
    for (HeatmapView* h : {m_weights, m_reference}) {
        h->setSelectedCell(session()->selectedRow(), session()->selectedColumn());
        h->setHighlight(session()->highlight());
    }
    // The block's output against full attention's (the one of this layer and block).
    for (const Approximation& x : approximations(t)) {
        if (x.layer == t.scopeLayer && x.block == t.scopeBlock) {
            m_maxAbs = x.outputMaxAbs;
            m_relFro = x.outputRelFro;
        }
    }
    const double meanError = error->main().values.size() > 0 ? static_cast<double>(error->main().values.mean()) : 0.0;
    QString caption = tr("%1, head %2: its weights beside full attention's on the same queries, keys and mask; mean error "
                         "per query %3.")
                          .arg(kind)
                          .arg(head + 1)
                          .arg(fixedNumber(meanError, 3));
    if (m_maxAbs && m_relFro)
        caption = appendSentence(caption, tr("Output against full attention: max |O \u2212 O^full| = %1, \u2016O \u2212 O^full\u2016_F / \u2016O^full\u2016_F = %2.")
                  .arg(fixedNumber(*m_maxAbs, 4), fixedNumber(*m_relFro, 4)));
    if (t.config.attention == AttentionKind::Linformer)
        caption = appendSentence(caption, tr("Linformer's weights are over its K = %1 projected rows; the error compares the token weights A·F they "
                 "imply.")
                  .arg(a->main().values.cols()));
    captionLabel()->setText(caption);
}

void ApproximationView::retranslate()
{
    m_weights->setToolTip(tr("The weights this attention kind computes"));
    m_reference->setToolTip(tr("Full softmax attention's weights on the same queries, keys and mask"));
    m_error->setToolTip(tr("For each query: the sum of the absolute differences between its two rows of weights"));
}

} // namespace attnlab
