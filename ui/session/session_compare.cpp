// The Session's second input, B (compare/comparison.h): another sentence, or the same sentence
// under one other setting, computed beside A whenever A is (session.cpp's recompute) and shown
// for the same step.

#include "session/session.h"

#include "session/messages.h"

namespace attnlab {

void Session::setComparing(bool on)
{
    if (on == m_comparing)
        return;
    if (on && !m_comparisonChosen) {
        // The classic first comparison: the same words in another order (狗咬了人 → 人咬了狗).
        m_comparison = toggled(CompareKind::Sentence, m_config, m_sentence.toStdString());
        m_comparisonChosen = true;
    }
    m_comparing = on;
    refreshComparison();
}

bool Session::followSentence(const QString& next)
{
    if (!m_comparisonChosen || m_comparison.kind != CompareKind::Sentence)
        return false;
    if (m_comparison.sentence != swapFirstAndLastWords(m_sentence.toStdString()))
        return false; // typed by the user: B stays
    const std::string swapped = swapFirstAndLastWords(next.toStdString());
    if (swapped == m_comparison.sentence)
        return false;
    m_comparison.sentence = swapped;
    return true;
}

void Session::setComparison(const Comparison& comparison)
{
    const bool same = comparison == m_comparison && m_comparisonChosen;
    m_comparison = comparison;
    m_comparisonChosen = true;
    if (same && !m_compareError)
        return;
    if (m_comparing)
        refreshComparison();
    else
        emit comparisonChanged();
}

bool Session::putComparison(const std::optional<Comparison>& comparison)
{
    const bool changed = comparison.has_value() != m_comparing || (comparison && !(*comparison == m_comparison));
    m_comparing = comparison.has_value();
    if (comparison) {
        m_comparison = *comparison;
        m_comparisonChosen = true;
    }
    return changed;
}

void Session::restoreComparison(const std::optional<std::pair<bool, Comparison>>& saved, std::unique_ptr<GenerationRun>* rest)
{
    if (saved) {
        m_comparison = saved->second;
        m_comparisonChosen = true;
    }
    m_comparing = saved && saved->first;
    computeComparison(rest);
}

void Session::refreshComparison()
{
    if (isGenerationRunning() || m_backgroundTrace) {
        // A's generation runs off the GUI thread: it starts again, with B's beside it. In the
        // studio B is computed off the GUI thread with A (B's trace comes with traceChanged).
        recompute();
        emit comparisonChanged();
        return;
    }
    std::unique_ptr<GenerationRun> rest;
    computeComparison(&rest);
    projectComparison();
    emit comparisonChanged();
    startGeneration(nullptr, std::move(rest));
}

void Session::computeComparison(std::unique_ptr<GenerationRun>* rest)
{
    RunResult b;
    std::optional<Message> error;
    if (m_comparing)
        error = failureOf([&] { b = compute(comparisonRequest(), rest); });
    takeComparison(std::move(b), std::move(error));
}

RunRequest Session::comparisonRequest()
{
    if (const auto problem = comparisonProblem(m_config, m_comparison))
        throw Error(*problem);
    const QString text = QString::fromStdString(comparedText(m_sentence.toStdString(), m_comparison));
    // B keeps A's weights file, mask matrix, model and decoder input; another seed makes
    // other seeded weights (in B's own cache, so A's stay made).
    return requestFor(m_compareModels, text, comparedConfig(m_config, m_comparison), m_target, m_imported, m_customMask,
                      m_fileModel, m_generationStep);
}

void Session::takeComparison(RunResult b, std::optional<Message> error)
{
    m_compareFull = std::move(b.trace);
    m_compareGeneration = std::move(b.generation);
    m_compareInputWarnings = std::move(b.inputWarnings);
    m_compareError = std::move(error);
}

void Session::projectComparison()
{
    if (!m_compareFull || !m_compareFull->model || !isModel()) {
        m_compareTrace = m_compareFull;
        return;
    }
    const Step& st = currentStep();
    m_compareTrace = blockView(m_compareFull, st.layer, st.block);
}

QString Session::comparisonError() const
{
    return m_compareError ? messageText(*m_compareError) : QString();
}

} // namespace attnlab
