#include "views/stageview.h"

#include "widgets/controlcheckbox.h"
#include "widgets/projectiontype.h"
#include "views/columnplot.h"
#include "views/heatmapview.h"
#include "views/topkview.h"
#include "session/session.h"
#include "session/stages.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace attnlab {

StageView::StageView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_matrixChoice(new QComboBox(this))
    , m_shared(new ControlCheckBox(this))
    , m_sharedScores(new ControlCheckBox(this))
    , m_shape(new QLabel(this))
    , m_heatmap(new HeatmapView(this))
    , m_column(new ColumnPlot(this))
    , m_topK(new TopKView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_shape, 1);
    bar->addWidget(m_matrixChoice);
    layout->addLayout(bar);
    // The colour-scale switches get a row of their own: beside the shape they crowd a narrow view.
    auto* switches = new QHBoxLayout;
    switches->addWidget(m_shared);
    switches->addWidget(m_sharedScores);
    switches->addStretch(1);
    layout->addLayout(switches);
    // The output probabilities get the top-k bars of one position beside the matrix (below it
    // in a narrow view: resizeEvent).
    m_plots = new QBoxLayout(QBoxLayout::LeftToRight);
    m_plots->addWidget(m_heatmap, 3);
    m_plots->addWidget(m_column, 3);
    m_plots->addWidget(m_topK, 2);
    m_column->setVisible(false);
    layout->addLayout(m_plots, 1);
    m_topK->setVisible(false);
    m_matrixChoice->setFocusPolicy(Qt::NoFocus);
    m_shared->setFocusPolicy(Qt::NoFocus);
    m_sharedScores->setFocusPolicy(Qt::NoFocus);
    markAsControl(m_shape); // the banner says the shapes: not on a projection or a slide
    m_heatmap->setProjectedType(true); // projected, its labels and numbers a share of the screen's height
    retranslate();

    connect(m_heatmap, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(session, &Session::selectionChanged, m_heatmap, &HeatmapView::setSelectedCell);
    connect(session, &Session::selectionChanged, m_topK, [this](int row) {
        if (row >= 0 && m_topK->isVisibleTo(this))
            m_topK->setRow(row);
    });
    // Picking a position selects its most probable token, so the inspector follows.
    connect(m_topK, &TopKView::rowChanged, this, [this](int row) { this->session()->selectCell(row, m_topK->chosenColumn()); });
    connect(session, &Session::highlightChanged, this, [this] {
        m_heatmap->setHighlight(this->session()->highlight());
        if (m_topK->isVisibleTo(this))
            followHighlightedRow();
    });
    connect(session, &Session::stepChanged, this, [this] {
        m_matrixChoice->setCurrentIndex(0);
        requestRefresh();
    });
    refreshOn(&Session::headChanged);
    connect(m_matrixChoice, &QComboBox::currentIndexChanged, this, &StageView::refresh);
    connect(m_shared, &QCheckBox::toggled, this, &StageView::refresh);
    connect(m_sharedScores, &QCheckBox::toggled, session, &Session::setSharedScoreScale);
    refreshOn(&Session::sharedScoreScaleChanged);
    refresh();
}

QList<QCustomPlot*> StageView::exportedPlots() const
{
    if (m_column->isVisibleTo(this))
        return {m_column->plot()};
    if (m_topK->isVisibleTo(this))
        return {m_heatmap->plot(), m_topK->plot()};
    return {m_heatmap->plot()};
}

void StageView::resizeEvent(QResizeEvent* event)
{
    SessionView::resizeEvent(event);
    placeTopK();
}

void StageView::placeTopK()
{
    // The bars need about 450 px beside a matrix that needs as much: below it in a narrower view,
    // and below a matrix much wider than tall (a vocabulary), which needs the width itself.
    const Eigen::MatrixXf& m = m_heatmap->matrix().values;
    const bool across = width() >= 1000 && m.cols() <= 2 * m.rows();
    m_plots->setDirection(across ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    // Across: the matrix takes more of the width; down: the bars as much height as its few rows.
    m_plots->setStretch(0, across ? 3 : 1);
    m_plots->setStretch(1, across ? 2 : 1);
}

const Stage* StageView::stage() const
{
    const auto& step = session()->currentStep();
    const std::optional<int> head = step.perHead ? std::optional<int>(session()->head()) : std::nullopt;
    return stageForHead(*session()->trace(), step.id.toStdString(), head);
}

void StageView::refresh()
{
    const Stage* s = stage();
    if (!s)
        return;
    // Stages with several matrices (E and E·√d) offer a choice; the main one comes first.
    {
        const QSignalBlocker block(m_matrixChoice);
        const int keep = m_matrixChoice->currentIndex();
        m_matrixChoice->clear();
        for (const auto& m : s->matrices)
            m_matrixChoice->addItem(QString::fromStdString(m.name));
        m_matrixChoice->setCurrentIndex(std::clamp(keep, 0, m_matrixChoice->count() - 1));
        m_matrixChoice->setVisible(s->matrices.size() > 1);
    }
    const auto& m = s->matrices[static_cast<std::size_t>(std::max(0, m_matrixChoice->currentIndex()))];
    const QString id = QString::fromStdString(s->id);
    m_title = stepName(id);
    if (s->head)
        m_title += tr(" \u2014 head %1").arg(*s->head + 1);
    m_shape->setText(tr("%1: %2 \u00D7 %3").arg(QString::fromStdString(m.name)).arg(m.values.rows()).arg(m.values.cols()));

    const auto scale = HeatmapView::scaleForStage(id);
    m_shared->setVisible(s->head.has_value() && scale == HeatmapView::Scale::Signed);
    m_sharedScores->setVisible(isScoreStage(id));
    {
        const QSignalBlocker block(m_sharedScores);
        m_sharedScores->setChecked(session()->sharedScoreScale());
    }
    m_heatmap->setSharedMaxAbs(sharedRange(*s));
    // With no mask, M is a field of zeros: say so instead of drawing it on a −1…1 bar.
    const bool noMask = id == QLatin1String("mask") && (m.values.array() == 0.0f).all();
    m_heatmap->setMessage(noMask ? tr("No mask\nM = 0: every query sees every key") : QString());
    m_heatmap->setSelectedCell(session()->selectedRow(), session()->selectedColumn());
    m_heatmap->setHighlight(session()->highlight());
    // Projected (presenter mode, a slide), the banner or the page names the stage: the plot's
    // own title would take the room of two rows of cells.
    const QString drawnTitle = isProjected(window()) ? QString() : m_title;
    m_heatmap->setMatrix(m, drawnTitle, scale);
    // An n × 1 stage of an attention kind reads better as bars, one per token.
    const bool column = ColumnPlot::isColumnStage(id) && m.values.cols() == 1;
    m_heatmap->setVisible(!column);
    m_column->setVisible(column);
    if (column)
        m_column->setColumn(m, drawnTitle, columnAxisLabel(id, session()->trace()->config.attention), ColumnPlot::styleForStage(id));
    const bool topK = id == QLatin1String("probabilities");
    m_topK->setVisible(topK);
    if (topK) {
        placeTopK();
        m_topK->setMaskedLanguageModel(isMaskedLanguageModel(*session()->trace()));
        m_topK->setMatrix(m);
        followHighlightedRow();
    }
}

void StageView::followHighlightedRow()
{
    // The bars show the selected position, else the one the lesson's step highlights (a
    // highlighted row, else the first highlighted cell's row): a slide's bars and its row agree.
    const Highlight& lit = session()->highlight();
    const int rows = static_cast<int>(m_heatmap->matrix().values.rows());
    int row = session()->selectedRow();
    if (row < 0 && !lit.rows.empty())
        row = lit.rows.front();
    else if (row < 0 && !lit.cells.empty())
        row = lit.cells.front().first;
    if (row >= 0 && row < rows)
        m_topK->setRow(row);
}

QString StageView::columnAxisLabel(const QString& id, AttentionKind kind)
{
    // Linformer's token weights A·F are no probabilities, so its distance has no ceiling of 2.
    if (id == u"error" && kind == AttentionKind::Linformer)
        return tr("L1 distance to full attention's row");
    if (id == u"error")
        return tr("L1 distance to full attention's row (0 … 2)");
    if (id == u"normalizer")
        return tr("D_i = φ(q_i)·Σ_j φ(k_j)");
    return {};
}

bool StageView::isScoreStage(const QString& id)
{
    return id == QLatin1String("scores") || id == QLatin1String("scaled") || id == QLatin1String("masked_scores");
}

double StageView::sharedRange(const Stage& s) const
{
    // The largest finite |value| (masked cells are −∞) over the stages that share a range:
    // every head of this stage ("Same colour scale for all heads"), and Scores, Scaled and
    // Masked scores of this head, or of every head, with one scale for the scores. 0: its own.
    const QString id = QString::fromStdString(s.id);
    const bool heads = s.head.has_value() && HeatmapView::scaleForStage(id) == HeatmapView::Scale::Signed && m_shared->isChecked();
    const bool scores = isScoreStage(id) && session()->sharedScoreScale();
    if (!heads && !scores)
        return 0;
    double range = 0;
    for (const auto& other : session()->trace()->stages) {
        const bool sameFamily = scores ? isScoreStage(QString::fromStdString(other.id)) : other.id == s.id;
        if (!sameFamily || (!heads && other.head != s.head))
            continue;
        const Eigen::MatrixXf& v = other.main().values;
        for (Eigen::Index i = 0; i < v.size(); ++i) {
            if (std::isfinite(v.data()[i]))
                range = std::max(range, static_cast<double>(std::abs(v.data()[i])));
        }
    }
    return range;
}

void StageView::retranslate()
{
    m_sharedScores->setText(tr("One colour scale for Q·Kᵀ, ÷√d_k and + M"));
    m_sharedScores->setToolTip(tr("Scores, scaled scores and masked scores on one colour range (the largest |value| "
                                  "of the three), so dividing by √d_k shows as paler colours"));
    m_shared->setText(tr("Same colour scale for all heads"));
    m_shared->setToolTip(tr("Compare heads fairly: one colour range for every head of this stage"));
}

} // namespace attnlab
