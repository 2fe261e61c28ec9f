#include "shell/viewstack.h"

#include "session/session.h"
#include "views/feedforwardview.h"
#include "views/kernelregressionview.h"
#include "views/layernormview.h"
#include "views/multiheadview.h"
#include "views/positionalview.h"
#include "views/scalingview.h"
#include "views/stageview.h"
#include "views/tokensview.h"

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
    addPage(ViewKind::Tokens, new TokensView(session, this));
    m_stageView = addPage(ViewKind::Matrix, new StageView(session, this));
    addPage(ViewKind::Positional, new PositionalEncodingView(session, this));
    auto* concat = addPage(ViewKind::Concat, new MultiHeadView(session, this));
    m_headsView = new MultiHeadView(session, this);
    addPage(ViewKind::KernelRegression, new KernelRegressionView(session, this));
    addPage(ViewKind::SoftmaxScaling, new SoftmaxScalingView(session, this));
    addPage(ViewKind::LayerNorm, new LayerNormView(session, this));
    addPage(ViewKind::FeedForward, new FeedForwardView(session, this));
    concat->setMode(MultiHeadView::Mode::Concat);

    // A stack is as wide as its widest page: an explicit minimum keeps one view's controls
    // (at presenter-mode type sizes) from pushing the window past the projector's edge.
    for (int i = 0; i < m_stack->count(); ++i)
        m_stack->widget(i)->setMinimumSize(320, 240);
    m_headsView->setMinimumSize(320, 240);
    addTab(m_stack, tr("Stage"));
    addTab(m_headsView, tr("All heads"));
    connect(this, &QTabWidget::currentChanged, this, [this](int index) {
        // The tab follows the lesson's view and the lesson's view follows the tab.
        if (index == kHeadsTab && m_session->view() != u"heads")
            m_session->setView(QStringLiteral("heads"));
        else if (index == kStageTab && m_session->view() == u"heads")
            m_session->setView(QStringLiteral("stage"));
    });
    setFocusPolicy(Qt::NoFocus);
}

template <class View>
View* ViewStack::addPage(ViewKind kind, View* view)
{
    m_stack->addWidget(view);
    m_pages.emplace_back(kind, view);
    return view;
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
    m_stack->setCurrentWidget(pageFor(kind));
    setCurrentIndex(kind == ViewKind::Heads ? kHeadsTab : kStageTab);
}

} // namespace attnlab
