#include "views/compareview.h"

#include "session/session.h"
#include "session/stages.h"
#include "views/heatmapview.h"

#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

QString joinedTokens(const std::vector<std::string>& tokens)
{
    QStringList list;
    for (const auto& t : tokens)
        list << QString::fromStdString(t);
    return list.join(QStringLiteral(" \u00B7 "));
}

} // namespace

bool showsComparison(const Session& session)
{
    const ViewKind kind = viewKindFor(session.stepId(), session.view());
    return session.isComparing() && kind != ViewKind::KernelRegression && kind != ViewKind::SoftmaxScaling;
}

CompareView::CompareView(Session* session, QWidget* parent)
    : CaptionedView(session, parent)
    , m_a(new HeatmapView(content()))
    , m_b(new HeatmapView(content()))
    , m_difference(new HeatmapView(content()))
    , m_problem(new QLabel(content()))
    , m_note(new QLabel(content()))
{
    auto* layout = new QVBoxLayout(content());
    layout->setContentsMargins(0, 0, 0, 0);
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: #8a5300;"));
    layout->addWidget(m_note);
    // A, B and A − B (or the reason B or the difference is missing) fill the view: in a row, in
    // a column or two by two, whichever gives the largest cells (arrange()).
    m_grid = new QGridLayout;
    m_grid->setSpacing(2);
    for (HeatmapView* h : {m_a, m_b, m_difference})
        h->setMinimumSize(100, 100);
    m_problem->setWordWrap(true);
    m_problem->setAlignment(Qt::AlignCenter);
    m_problem->setStyleSheet(QStringLiteral("color: #8a5300;"));
    layout->addLayout(m_grid, 1);
    int column = 0;
    for (QWidget* w : {static_cast<QWidget*>(m_a), static_cast<QWidget*>(m_b), static_cast<QWidget*>(m_difference),
                       static_cast<QWidget*>(m_problem)})
        m_grid->addWidget(w, 0, column++); // until the first figure is arranged
    captionLabel()->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // A and A − B share A's rows and columns: a click in either selects the cell.
    connect(m_a, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(m_difference, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(session, &Session::selectionChanged, m_a, &HeatmapView::setSelectedCell);
    connect(session, &Session::selectionChanged, m_difference, &HeatmapView::setSelectedCell);
    refreshOn(&Session::comparisonChanged);
    refreshOn(&Session::stepChanged);
    refreshOn(&Session::headChanged);
    refreshOn(&Session::viewChanged);
    refreshOn(&Session::highlightChanged);
    retranslate();
    refresh();
}

void CompareView::resizeEvent(QResizeEvent* event)
{
    CaptionedView::resizeEvent(event);
    arrange();
}

CompareView::Arrangement CompareView::bestArrangement(QSize room, int parts, int rows, int cols, QSize overhead)
{
    // The side of the square a cell would get in each arrangement; the largest wins (a tie keeps
    // the row, the arrangement a reader expects: A, B, A − B from left to right).
    Arrangement best{1, parts};
    double bestCell = -1;
    const auto consider = [&](int gridRows, int gridCols) {
        if (gridRows * gridCols < parts)
            return;
        const double width = (room.width() - 2.0 * (gridCols - 1)) / gridCols - overhead.width();
        const double height = (room.height() - 2.0 * (gridRows - 1)) / gridRows - overhead.height();
        const double cell = std::min(width / std::max(1, cols), height / std::max(1, rows));
        if (cell > bestCell + 1e-9) {
            bestCell = cell;
            best = {gridRows, gridCols};
        }
    };
    consider(1, parts);
    consider(parts, 1);
    if (parts >= 3)
        consider(2, 2);
    return best;
}

void CompareView::arrange()
{
    QList<QWidget*> parts;
    for (QWidget* w : {static_cast<QWidget*>(m_a), static_cast<QWidget*>(m_b), static_cast<QWidget*>(m_difference),
                       static_cast<QWidget*>(m_problem)}) {
        if (!w->isHidden())
            parts << w;
    }
    if (parts.isEmpty() || !m_figure)
        return;
    // What a plot needs besides its cells: the row labels and the colour bar beside them, the
    // title and the column labels above them.
    const QFontMetrics fm(font()); // the heatmaps' labels' type
    int rowLabels = 0;
    if (const Labels& labels = m_figure->a.rowLabels) {
        for (std::size_t i = 0; i < labels->size() && i < 64; ++i)
            rowLabels = std::max(rowLabels, fm.horizontalAdvance(QString::fromStdString((*labels)[i])));
    }
    const QSize overhead(rowLabels + 6 * fm.height(), 4 * fm.height());
    QSize room = content()->size();
    if (!m_note->isHidden())
        room.rheight() -= m_note->sizeHint().height();
    const int rows = static_cast<int>(m_figure->a.values.rows());
    const int cols = static_cast<int>(m_figure->a.values.cols());
    const Arrangement a = bestArrangement(room, static_cast<int>(parts.size()), rows, cols, overhead);
    if (a == m_arrangement && m_grid->count() == parts.size())
        return;
    m_arrangement = a;
    while (m_grid->count() > 0)
        m_grid->takeAt(0); // the widgets stay, children of content()
    for (int r = 0; r < 3; ++r) {
        m_grid->setRowStretch(r, r < a.rows ? 1 : 0);
        m_grid->setColumnStretch(r, r < a.cols ? 1 : 0);
    }
    for (int i = 0; i < parts.size(); ++i)
        m_grid->addWidget(parts[i], i / a.cols, i % a.cols);
}

QList<QCustomPlot*> CompareView::exportedPlots() const
{
    QList<QCustomPlot*> plots;
    for (HeatmapView* h : {m_a, m_b, m_difference}) {
        if (!h->isHidden())
            plots << h->plot();
    }
    return plots;
}

void CompareView::refresh()
{
    Session* s = session();
    m_figure.reset();
    if (!s->isComparing())
        return;
    const Step& step = s->currentStep();
    if (step.id == u"tokens") {
        showTokens();
        return;
    }
    const std::optional<int> head = step.perHead ? std::optional<int>(s->head()) : std::nullopt;
    const Stage* a = stageForHead(*s->trace(), step.id.toStdString(), head);
    if (!a || a->matrices.empty()) {
        showMessage(tr("This step has no matrix to compare."));
        return;
    }
    const auto& traceB = s->comparisonTrace();
    const Stage* b = traceB ? stageForHead(*traceB, step.id.toStdString(), head) : nullptr;
    m_figure = compareFigure(*a, b, s->comparison(), s->trace()->config, s->sentence(), s->comparisonError());
    showContent();
    captionLabel()->setText(m_figure->caption()); // the banner above names the stage
    captionLabel()->setVisible(!captionLabel()->text().isEmpty());
    const QString note = noteForView();
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    m_problem->setText(m_figure->problem);
    m_problem->setVisible(!m_figure->problem.isEmpty());
    // A lesson's highlight marks A and B (a wash over A − B would tint its white zeros).
    for (HeatmapView* h : {m_a, m_b})
        h->setHighlight(s->highlight());
    m_a->setSelectedCell(s->selectedRow(), s->selectedColumn());
    m_difference->setSelectedCell(s->selectedRow(), s->selectedColumn()); // B's rows may be in another order
    showFigure(*m_figure, m_a, m_b, m_difference);
    m_arrangement = {};
    arrange();
}

void CompareView::showTokens()
{
    Session* s = session();
    const std::vector<std::string>& a = s->trace()->tokens;
    const auto& traceB = s->comparisonTrace();
    QString text = tr("A: %1   (n = %2)").arg(joinedTokens(a)).arg(a.size());
    if (!traceB) {
        showMessage(text + QLatin1Char('\n') + tr("B could not be computed: %1").arg(s->comparisonError()));
        return;
    }
    const std::vector<std::string>& b = traceB->tokens;
    text += QLatin1Char('\n') + tr("B: %1   (n = %2)").arg(joinedTokens(b)).arg(b.size()) + QStringLiteral("\n\n");
    if (a == b)
        text += tr("A and B have the same tokens in the same order: the stages are lined up by position.");
    else if (labelPermutation(a, b))
        text += tr("B's tokens are A's in another order: at every stage B's rows (and the columns of the n \u00D7 n matrices) are "
                   "put in A's token order before A \u2212 B is taken. Without positional encoding the difference is then zero.");
    else if (a.size() == b.size())
        text += tr("B has other tokens: the stages are lined up by position (row i of A with row i of B).");
    else
        text += tr("A and B have different numbers of tokens: their matrices are shown side by side, without a difference.");
    showMessage(text);
}

QString CompareView::noteForView() const
{
    const Session* s = session();
    if (s->view() == u"heads")
        return tr("Comparison shows one head at a time: \u2191 and \u2193 change the head.");
    const ViewKind kind = viewKindFor(s->stepId(), QStringLiteral("stage"));
    if (kind == ViewKind::Positional || kind == ViewKind::Concat || kind == ViewKind::LayerNorm || kind == ViewKind::FeedForward)
        return tr("Comparison shows this stage's matrix; switch comparison off to see its own view again.");
    return {};
}

void CompareView::retranslate()
{
    m_a->setToolTip(tr("A: the input as typed"));
    m_b->setToolTip(tr("B: what A is compared with, on the same colour scale as A"));
    m_difference->setToolTip(tr("A \u2212 B, cell by cell, on a diverging scale: white is 0"));
}

} // namespace attnlab
