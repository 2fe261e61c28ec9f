#include "shell/viewstack.h"

#include "session/session.h"
#include "views/compareview.h"
#include "views/multiheadview.h"
#include "views/registry.h"
#include "views/stageview.h"

#include <QEvent>
#include <QLabel>
#include <QStackedWidget>

#include <algorithm>

namespace attnlab {

namespace {

constexpr int kStageTab = 0;

} // namespace

ViewStack::ViewStack(Session* session, QWidget* parent)
    : QTabWidget(parent)
    , m_session(session)
    , m_stack(new QStackedWidget(this))
{
    // Every view of the registry is a page of the "Stage" tab, except those with a tab of their
    // own (every head, the model view, the head view), which follow it in the registry's order.
    for (const ViewEntry& e : viewRegistry()) {
        SessionView* view = e.make(session, this);
        addActions(view->windowActions()); // their keys work whatever view is in front
        if (e.tab) {
            m_tabViews.emplace_back(e.kind, view);
            continue;
        }
        m_stack->addWidget(view);
        m_pages.emplace_back(e.kind, view);
    }
    m_headsView = static_cast<MultiHeadView*>(tabView(ViewKind::Heads));
    m_stageView = static_cast<StageView*>(pageFor(ViewKind::Matrix));
    m_compareView = new CompareView(session, this);
    m_stack->addWidget(m_compareView);

    // A stack is as wide as its widest page: an explicit minimum keeps one view's controls
    // (at presenter-mode type sizes) from pushing the window past the projector's edge.
    for (int i = 0; i < m_stack->count(); ++i)
        m_stack->widget(i)->setMinimumSize(320, 240);
    addTab(m_stack, QString());
    for (const auto& [kind, view] : m_tabViews) {
        view->setMinimumSize(320, 240);
        addTab(view, QString());
    }
    retranslate();
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        // The tab follows the lesson's view and the lesson's view follows the tab (while
        // comparing, the comparison is in front whatever the view).
        if (m_session->isComparing())
            return;
        const auto tab = std::find_if(m_tabViews.begin(), m_tabViews.end(), [&](const auto& t) { return indexOf(t.second) == index; });
        const bool onTabView = std::any_of(m_tabViews.begin(), m_tabViews.end(),
                                           [&](const auto& t) { return viewEntry(t.first).lessonView == m_session->view(); });
        if (tab != m_tabViews.end())
            m_session->setView(viewEntry(tab->first).lessonView);
        else if (index == kStageTab && onTabView)
            m_session->setView(QStringLiteral("stage"));
    });
    connect(session, &Session::comparisonChanged, this, &ViewStack::showStep);
    connect(session, &Session::stepChanged, this, &ViewStack::followStep);
    setFocusPolicy(Qt::NoFocus);
}

void ViewStack::followStep()
{
    // A pretrained model's probabilities are shown first as its predictions (the Stage tab keeps
    // their heatmap); a step away from the logits and probabilities leaves the predictions.
    const QString id = m_session->stepId();
    const QString predictions = viewEntry(ViewKind::Predictions).lessonView;
    const auto& model = m_session->model();
    if (id == u"probabilities" && model && model->pretrained && model->hasHead() && m_session->view() == u"stage")
        m_session->setView(predictions);
    else if (m_session->view() == predictions && id != u"probabilities" && id != u"logits")
        m_session->setView(QStringLiteral("stage"));
}

QWidget* ViewStack::currentStageWidget() const
{
    return m_stack->currentWidget();
}

QWidget* ViewStack::visibleView() const
{
    return currentIndex() == kStageTab ? currentStageWidget() : currentWidget();
}

QWidget* ViewStack::tabView(ViewKind kind) const
{
    const auto tab = std::find_if(m_tabViews.begin(), m_tabViews.end(), [kind](const auto& t) { return t.first == kind; });
    return tab != m_tabViews.end() ? tab->second : nullptr;
}

QWidget* ViewStack::pageFor(ViewKind kind) const
{
    const auto page = std::find_if(m_pages.begin(), m_pages.end(), [kind](const auto& p) { return p.first == kind; });
    return page != m_pages.end() ? page->second : m_stageView;
}

void ViewStack::setPlaceholder(const QString& text)
{
    if (!m_placeholder) {
        m_placeholder = new QLabel(m_stack);
        m_placeholder->setObjectName(QStringLiteral("ViewPlaceholder"));
        m_placeholder->setAlignment(Qt::AlignCenter);
        m_placeholder->setWordWrap(true);
        m_placeholder->setMargin(24);
        m_placeholder->setStyleSheet(QStringLiteral("color: #8a5300;"));
        m_stack->addWidget(m_placeholder);
    }
    m_placeholder->setText(text);
    showStep();
}

void ViewStack::showStep()
{
    if (m_placeholder && !m_placeholder->text().isEmpty()) {
        m_stack->setCurrentWidget(m_placeholder);
        setCurrentIndex(kStageTab);
        return;
    }
    const ViewKind kind = viewKindFor(m_session->stepId(), m_session->view(), m_session->trace().get());
    const bool comparing = showsComparison(*m_session);
    m_stack->setCurrentWidget(comparing ? m_compareView : pageFor(kind));
    QWidget* tab = comparing ? nullptr : tabView(kind);
    setCurrentIndex(tab ? indexOf(tab) : kStageTab);
    // The comparison shows one head of one layer at a time.
    for (const auto& t : m_tabViews)
        setTabEnabled(indexOf(t.second), !m_session->isComparing());
}

void ViewStack::retranslate()
{
    setTabText(indexOf(m_stack), tr("Stage"));
    for (const auto& [kind, view] : m_tabViews)
        setTabText(indexOf(view), tr(viewEntry(kind).tab));
}

void ViewStack::changeEvent(QEvent* event)
{
    QTabWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attnlab
