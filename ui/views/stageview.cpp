#include "views/stageview.h"

#include "views/heatmapview.h"
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
    , m_shared(new QCheckBox(this))
    , m_shape(new QLabel(this))
    , m_heatmap(new HeatmapView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_shape, 1);
    bar->addWidget(m_matrixChoice);
    bar->addWidget(m_shared);
    layout->addLayout(bar);
    layout->addWidget(m_heatmap, 1);
    m_matrixChoice->setFocusPolicy(Qt::NoFocus);
    m_shared->setFocusPolicy(Qt::NoFocus);
    retranslate();

    connect(m_heatmap, &HeatmapView::cellClicked, session, &Session::selectCell);
    connect(session, &Session::selectionChanged, m_heatmap, &HeatmapView::setSelectedCell);
    connect(session, &Session::highlightChanged, this, [this] { m_heatmap->setHighlight(this->session()->highlight()); });
    connect(session, &Session::stepChanged, this, [this] {
        m_matrixChoice->setCurrentIndex(0);
        requestRefresh();
    });
    refreshOn(&Session::headChanged);
    connect(m_matrixChoice, &QComboBox::currentIndexChanged, this, &StageView::refresh);
    connect(m_shared, &QCheckBox::toggled, this, &StageView::refresh);
    refresh();
}

QList<QCustomPlot*> StageView::exportedPlots() const
{
    return {m_heatmap->plot()};
}

const Stage* StageView::stage() const
{
    const auto& step = session()->currentStep();
    const std::optional<int> head = step.perHead ? std::optional<int>(session()->head()) : std::nullopt;
    return session()->trace()->find(step.id.toStdString(), head);
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
    double shared = 0;
    if (m_shared->isVisible() && m_shared->isChecked()) {
        for (const auto& other : session()->trace()->stages) {
            if (other.id != s->id)
                continue;
            const Eigen::MatrixXf& v = other.main().values;
            for (Eigen::Index i = 0; i < v.size(); ++i) {
                if (std::isfinite(v.data()[i]))
                    shared = std::max(shared, static_cast<double>(std::abs(v.data()[i])));
            }
        }
    }
    m_heatmap->setSharedMaxAbs(shared);
    m_heatmap->setSelectedCell(session()->selectedRow(), session()->selectedColumn());
    m_heatmap->setHighlight(session()->highlight());
    m_heatmap->setMatrix(m, m_title, scale);
}

void StageView::retranslate()
{
    m_shared->setText(tr("Same colour scale for all heads"));
    m_shared->setToolTip(tr("Compare heads fairly: one colour range for every head of this stage"));
}

} // namespace attnlab
