#include "shell/viewstack.h"

#include "session/session.h"
#include "views/compareview.h"
#include "views/multiheadview.h"
#include "views/registry.h"
#include "views/stageview.h"

#include <QEvent>
#include <QStackedWidget>

#include <algorithm>

namespace attnlab {

namespace {

constexpr int kStageTab = 0;
constexpr int kHeadsTab = 1;

} // namespace

ViewStack::ViewStack(Session* session, QWidget* parent)
    : QTabWidget(parent)
    , m_session(session)
    , m_stack(new QStackedWidget(this))
{
    // Every view of the registry is a page of the "Stage" tab, except the grid of every head,
    // which is the second tab.
    for (const ViewEntry& e : viewRegistry()) {
        SessionView* view = e.make(session, this);
        if (e.kind == ViewKind::Heads) {
            m_headsView = static_cast<MultiHeadView*>(view);
            continue;
        }
        m_stack->addWidget(view);
        m_pages.emplace_back(e.kind, view);
    }
    m_stageView = static_cast<StageView*>(pageFor(ViewKind::Matrix));
    m_compareView = new CompareView(session, this);
    m_stack->addWidget(m_compareView);

    // A stack is as wide as its widest page: an explicit minimum keeps one view's controls
    // (at presenter-mode type sizes) from pushing the window past the projector's edge.
    for (int i = 0; i < m_stack->count(); ++i)
        m_stack->widget(i)->setMinimumSize(320, 240);
    m_headsView->setMinimumSize(320, 240);
    addTab(m_stack, QString());
    addTab(m_headsView, QString());
    retranslate();
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        // The tab follows the lesson's view and the lesson's view follows the tab (while
        // comparing, the comparison is in front whatever the view).
        if (m_session->isComparing())
            return;
        if (index == kHeadsTab && m_session->view() != u"heads")
            m_session->setView(QStringLiteral("heads"));
        else if (index == kStageTab && m_session->view() == u"heads")
            m_session->setView(QStringLiteral("stage"));
    });
    connect(session, &Session::comparisonChanged, this, &ViewStack::showStep);
    setFocusPolicy(Qt::NoFocus);
}

QWidget* ViewStack::currentStageWidget() const
{
    return m_stack->currentWidget();
}

QWidget* ViewStack::visibleView() const
{
    return currentIndex() == kHeadsTab ? static_cast<QWidget*>(m_headsView) : currentStageWidget();
}

QWidget* ViewStack::pageFor(ViewKind kind) const
{
    const auto page = std::find_if(m_pages.begin(), m_pages.end(), [kind](const auto& p) { return p.first == kind; });
    return page != m_pages.end() ? page->second : m_stageView;
}

void ViewStack::showStep()
{
    const ViewKind kind = viewKindFor(m_session->stepId(), m_session->view());
    const bool comparing = showsComparison(*m_session);
    m_stack->setCurrentWidget(comparing ? m_compareView : pageFor(kind));
    setCurrentIndex(kind == ViewKind::Heads && !comparing ? kHeadsTab : kStageTab);
    setTabEnabled(kHeadsTab, !m_session->isComparing()); // the comparison shows one head at a time
}

void ViewStack::retranslate()
{
    setTabText(indexOf(m_stack), tr("Stage"));
    setTabText(indexOf(m_headsView), tr("All heads"));
}

void ViewStack::changeEvent(QEvent* event)
{
    QTabWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attnlab
