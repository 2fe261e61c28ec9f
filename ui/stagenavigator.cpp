#include "stagenavigator.h"

#include "session.h"
#include "stages.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab {

StageNavigator::StageNavigator(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_list(new QListWidget(this))
    , m_previous(new QPushButton(this))
    , m_next(new QPushButton(this))
    , m_head(new QSpinBox(this))
    , m_headLabel(new QLabel(this))
    , m_play(new QPushButton(this))
    , m_speed(new QSlider(Qt::Horizontal, this))
    , m_speedLabel(new QLabel(this))
    , m_timer(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    // The list never takes keyboard focus: arrow keys belong to the window-wide shortcuts.
    m_list->setFocusPolicy(Qt::NoFocus);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    for (const auto& step : steps()) {
        auto* item = new QListWidgetItem(m_list);
        item->setData(Qt::UserRole, step.id);
    }
    layout->addWidget(m_list, 1);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    layout->addLayout(buttons);

    auto* grid = new QGridLayout;
    grid->addWidget(m_headLabel, 0, 0);
    grid->addWidget(m_head, 0, 1);
    grid->addWidget(m_play, 1, 0);
    grid->addWidget(m_speed, 1, 1);
    grid->addWidget(m_speedLabel, 2, 1);
    layout->addLayout(grid);

    for (QWidget* w : {static_cast<QWidget*>(m_previous), static_cast<QWidget*>(m_next), static_cast<QWidget*>(m_play)})
        w->setFocusPolicy(Qt::NoFocus);
    m_play->setCheckable(true);
    m_speed->setRange(1, 10); // seconds per step
    m_speed->setValue(3);
    m_timer->setInterval(3000);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            m_session->setStep(row);
    });
    connect(m_previous, &QPushButton::clicked, session, &Session::previousStep);
    connect(m_next, &QPushButton::clicked, session, &Session::nextStep);
    connect(m_head, &QSpinBox::valueChanged, this, [this](int oneBased) { m_session->setHead(oneBased - 1); });
    connect(m_play, &QPushButton::toggled, this, &StageNavigator::setPlaying);
    connect(m_speed, &QSlider::valueChanged, this, [this](int seconds) {
        m_timer->setInterval(seconds * 1000);
        m_speedLabel->setText(tr("%n s per step", nullptr, seconds));
    });
    connect(m_timer, &QTimer::timeout, this, &StageNavigator::advance);
    connect(session, &Session::stepChanged, this, &StageNavigator::syncStep);
    connect(session, &Session::headChanged, this, &StageNavigator::syncHeads);
    connect(session, &Session::traceChanged, this, &StageNavigator::syncHeads);

    retranslate();
    syncStep();
    syncHeads();
}

void StageNavigator::retranslate()
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        item->setText(QStringLiteral("%1. %2").arg(i + 1).arg(stepName(item->data(Qt::UserRole).toString())));
    }
    m_previous->setText(tr("\u25C0 Previous"));
    m_previous->setToolTip(tr("Previous stage (\u2190, PageUp)"));
    m_next->setText(tr("Next \u25B6"));
    m_next->setToolTip(tr("Next stage (\u2192, Space, PageDown)"));
    m_headLabel->setText(tr("Head"));
    m_play->setText(tr("Auto-play"));
    m_speedLabel->setText(tr("%n s per step", nullptr, m_speed->value()));
}

bool StageNavigator::isPlaying() const
{
    return m_timer->isActive();
}

void StageNavigator::setPlaying(bool playing)
{
    const QSignalBlocker block(m_play);
    m_play->setChecked(playing);
    if (playing)
        m_timer->start();
    else
        m_timer->stop();
}

void StageNavigator::advance()
{
    if (m_session->step() + 1 >= static_cast<int>(steps().size())) {
        setPlaying(false); // the end: stop rather than wrap around
        return;
    }
    m_session->nextStep();
}

void StageNavigator::syncStep()
{
    const QSignalBlocker block(m_list);
    m_list->setCurrentRow(m_session->step());
    const bool perHead = steps()[static_cast<std::size_t>(m_session->step())].perHead;
    m_head->setEnabled(perHead);
    m_headLabel->setEnabled(perHead);
    m_previous->setEnabled(m_session->step() > 0);
    m_next->setEnabled(m_session->step() + 1 < static_cast<int>(steps().size()));
}

void StageNavigator::syncHeads()
{
    const QSignalBlocker block(m_head);
    m_head->setRange(1, m_session->config().heads);
    m_head->setValue(m_session->head() + 1);
    m_head->setSuffix(tr(" of %1").arg(m_session->config().heads));
}

} // namespace attnlab
