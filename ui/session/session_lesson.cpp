// The Session under a lesson (lesson/lesson.h): a lesson's own input, and each step's settings,
// sentence, comparison, stage, head, view and highlight.

#include "session/session.h"

namespace attnlab {

void Session::setLessonInput(const std::optional<QString>& sentence, const Config& config)
{
    if (sentence)
        m_sentence = *sentence;
    m_config = config;
    adoptModelSizes(m_config);
    m_imported.reset();
    m_weightsPath.clear();
    m_customMask.reset();
    emit inputChanged();
    recompute(true); // the lesson player places its step in the trace of this input
}

bool Session::applyLessonStep(const LessonStep& s, bool force)
{
    // The step is placed in the trace of the input it starts from, and its own input is computed
    // here (the player reports its error at once): a lesson step is one computation, as before.
    finishComputing();
    Config wanted = s.config;
    adoptModelSizes(wanted);
    const bool input = force || s.sentence || !(wanted == m_config) || s.target || s.generate;
    const bool compared = putComparison(s.compare); // B is computed with the input, or below
    if (input) {
        if (s.sentence)
            m_sentence = QString::fromStdString(*s.sentence);
        m_config = wanted;
        m_imported.reset();
        m_weightsPath.clear();
        m_customMask.reset();
        if (s.target)
            m_target = QString::fromStdString(*s.target);
        if (s.generate) {
            m_target.reset();
            m_generationStep = *s.generate == LessonStep::kLastGenerationStep ? -1 : *s.generate;
        }
        emit inputChanged();
        emit decodingChanged();
        recompute(true);
        if (compared || force)
            emit comparisonChanged();
    } else if (compared) {
        refreshComparison();
    }
    bool found = true;
    if (isModel()) {
        int i = lessonStepIndex(s.stage, s.layer, s.block);
        if (i < 0) {
            found = false;
            i = stepIndex(QString::fromStdString(s.stage));
        }
        if (i >= 0)
            setStep(i);
    } else {
        setStepId(QString::fromStdString(s.stage));
    }
    setHead(s.head);
    setView(QString::fromStdString(s.view));
    setHighlight(s.highlight);
    if (s.scoreColors)
        setSharedScoreScale(*s.scoreColors == LessonStep::ScoreColors::Shared);
    selectCell(-1, -1);
    return found;
}

int Session::lessonStepIndex(const std::string& stage, int layer, Block block) const
{
    const QString id = QString::fromStdString(stage);
    if (id == u"tokens" || id == u"embedding" || id == u"positional_encoding" || id == u"input" || id == u"segment_embedding"
        || id == u"embedding_sum")
        return stepIndex(id, std::nullopt, block == Block::EncoderSelf ? Block::EncoderSelf : Block::DecoderSelf);
    // The whole model's stages, of no layer (the rollout spans them all, issue 28 §3).
    if (id == u"encoder_output" || id == u"decoder_output" || id == u"logits" || id == u"probabilities" || id == u"mlm_transform"
        || id == u"rollout")
        return stepIndex(id, std::nullopt, Block::None);
    Block b = block;
    if (id == u"cross_residual" || id == u"cross_norm")
        b = Block::Cross;
    else if (b == Block::Cross && (id.startsWith(u"ffn_") || id == u"attn_residual" || id == u"attn_norm" || id == u"layer_output"))
        b = Block::DecoderSelf;
    return stepIndex(id, layer, b);
}

} // namespace attnlab
