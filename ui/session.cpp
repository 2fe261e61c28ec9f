#include "session.h"

namespace attnlab {

Session::Session(QObject* parent)
    : QObject(parent)
    , m_sentence(QString::fromUtf8(kDefaultSentence))
{
    recompute();
}

void Session::setSentence(const QString& sentence)
{
    if (sentence == m_sentence && m_error.isEmpty())
        return;
    m_sentence = sentence;
    recompute();
}

void Session::setConfig(const Config& config)
{
    m_config = config;
    recompute();
}

void Session::setImportedWeights(std::shared_ptr<const AttentionWeights> weights)
{
    m_imported = std::move(weights);
    if (m_imported)
        m_config.dModel = m_imported->dModel();
    recompute();
}

std::shared_ptr<const AttentionWeights> Session::weightsFor(const Config& c)
{
    if (m_imported)
        return m_imported;
    const bool cached = m_presetCache && m_presetCacheKey.weightsPreset == c.weightsPreset
        && m_presetCacheKey.dModel == c.dModel && m_presetCacheKey.seed == c.seed;
    if (!cached && c.dModel >= 1 && c.dModel <= ConfigLimits::maxDModel) {
        m_presetCache = std::make_shared<const AttentionWeights>(presetWeights(c.weightsPreset, c.dModel, c.seed));
        m_presetCacheKey = c;
    }
    return m_presetCache;
}

void Session::recompute()
{
    try {
        Request r;
        r.sentence = m_sentence.toStdString();
        r.config = m_config;
        r.config.validate();
        r.weights = weightsFor(m_config);
        m_trace = std::make_shared<const Trace>(computeTrace(r));
        m_error.clear();
        emit traceChanged();
    } catch (const std::exception& e) {
        m_error = QString::fromUtf8(e.what());
        emit errorOccurred(m_error);
    }
}

} // namespace attnlab
