#include "views/registry.h"

#include "session/stagecatalogue.h"

#include "views/approximationview.h"
#include "views/lengthview.h"
#include "views/positionschemeview.h"
#include "views/costview.h"
#include "views/feedforwardview.h"
#include "views/headview.h"
#include "views/kernelregressionview.h"
#include "views/layernormview.h"
#include "views/modelview.h"
#include "views/multiheadview.h"
#include "views/positionalview.h"
#include "views/predictionsview.h"
#include "views/scalingview.h"
#include "views/stageview.h"
#include "views/tokensview.h"
#include "views/trainingview.h"

#include <QtGlobal>

namespace attnlab {

namespace {

template <class View>
SessionView* make(Session* session, QWidget* parent)
{
    return new View(session, parent);
}

SessionView* makeConcat(Session* session, QWidget* parent)
{
    auto* view = new MultiHeadView(session, parent);
    view->setMode(MultiHeadView::Mode::Concat);
    return view;
}

void finishStatistics(SessionView* view)
{
    // A slide shows the finished curves, not "computing…".
    static_cast<SoftmaxScalingView*>(view)->waitForStatistics();
}

void trainForSlide(SessionView* view)
{
    // A slide shows a trained run's curves and snapshots, not empty axes.
    static_cast<TrainingView*>(view)->prepareForSlide();
}

void measureCost(SessionView* view)
{
    // A slide shows measured curves and Performer's error, not empty axes.
    static_cast<CostView*>(view)->prepareForSlide();
}

} // namespace

const std::vector<ViewEntry>& viewRegistry()
{
    static const std::vector<ViewEntry> kViews{
        {ViewKind::Tokens, {}, make<TokensView>},
        {ViewKind::Matrix, {}, make<StageView>},
        {ViewKind::Positional, {}, make<PositionalEncodingView>},
        {ViewKind::Concat, {}, makeConcat},
        {ViewKind::Heads, QStringLiteral("heads"), make<MultiHeadView>, nullptr, QT_TRANSLATE_NOOP("attnlab::ViewStack", "All heads")},
        {ViewKind::KernelRegression, QStringLiteral("kernel-regression"), make<KernelRegressionView>},
        {ViewKind::SoftmaxScaling, QStringLiteral("softmax-scaling"), make<SoftmaxScalingView>, finishStatistics},
        // A layer's norms (LayerNorm or RMSNorm, with Gemma 3's norms after the sublayers) and its
        // feed-forward network (a gated one's gate and up steps too).
        {ViewKind::LayerNorm, {}, make<LayerNormView>},
        {ViewKind::FeedForward, {}, make<FeedForwardView>},
        // The attention of a whole model: every layer × head of a block, and one layer's heads as lines.
        {ViewKind::Model, QStringLiteral("model"), make<ModelView>, nullptr, QT_TRANSLATE_NOOP("attnlab::ViewStack", "Model")},
        {ViewKind::HeadLines, QStringLiteral("head-view"), make<HeadView>, nullptr, QT_TRANSLATE_NOOP("attnlab::ViewStack", "Head view")},
        // What a pretrained model predicts (fill-mask, next token) and GPT-2's generation stepper;
        // the view stack brings it to the front on a pretrained model's probabilities.
        {ViewKind::Predictions, QStringLiteral("predictions"), make<PredictionsView>, nullptr,
         QT_TRANSLATE_NOOP("attnlab::ViewStack", "Predictions")},
        // An attention kind against full attention (its weights step), and the kinds' measured cost.
        {ViewKind::Approximation, QStringLiteral("approximation"), make<ApproximationView>, nullptr, nullptr,
         ApproximationView::claimsWeights},
        {ViewKind::Cost, QStringLiteral("cost"), make<CostView>, measureCost, QT_TRANSLATE_NOOP("attnlab::ViewStack", "Cost")},
        // Where a position scheme inside attention puts position (its own step), and the length experiment.
        {ViewKind::PositionScheme, QStringLiteral("positions"), make<PositionSchemeView>, nullptr, nullptr, PositionSchemeView::claims},
        {ViewKind::Length, QStringLiteral("length"), make<LengthView>, nullptr, QT_TRANSLATE_NOOP("attnlab::ViewStack", "Length")},
        // A small model trained in the studio, its attention forming (issue 15).
        {ViewKind::Training, QStringLiteral("training"), make<TrainingView>, trainForSlide,
         QT_TRANSLATE_NOOP("attnlab::ViewStack", "Training")},
    };
    return kViews;
}

const ViewEntry& viewEntry(ViewKind kind)
{
    for (const auto& e : viewRegistry()) {
        if (e.kind == kind)
            return e;
    }
    return viewEntry(ViewKind::Matrix); // every kind is listed above
}

ViewKind viewKindFor(const QString& stageId, const QString& view, const Trace* trace)
{
    // A lesson's view first, then the view that claims the step by the trace, then the view the
    // stage catalogue names for the stage (session/stagecatalogue.h), the heatmap for most.
    for (const auto& e : viewRegistry()) {
        if (!e.lessonView.isEmpty() && e.lessonView == view)
            return e.kind;
    }
    for (const auto& e : viewRegistry()) {
        if (trace && e.claims && (view.isEmpty() || view == u"stage") && e.claims(stageId, *trace))
            return e.kind;
    }
    return catalogueView(stageId);
}

} // namespace attnlab
