#pragma once
// The Session owns what the user typed and chose, calls the engine, and keeps the latest
// Trace. It is the only object that calls the engine and the only place that catches engine
// exceptions; views observe it through its signals.

#include "attention.h"

#include <QObject>
#include <QString>

#include <memory>

namespace attnlab {

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(QObject* parent = nullptr);

    const QString& sentence() const { return m_sentence; }
    const Config& config() const { return m_config; }
    /// The latest successful trace (never null after construction).
    const std::shared_ptr<const Trace>& trace() const { return m_trace; }
    /// The message of the last failed computation; empty when the last one succeeded.
    const QString& error() const { return m_error; }

    /// Each setter recomputes at once; a bad value keeps the previous trace and emits errorOccurred.
    void setSentence(const QString& sentence);
    void setConfig(const Config& config);
    /// Imported weights replace the preset; null returns to the preset in the config.
    void setImportedWeights(std::shared_ptr<const AttentionWeights> weights);

signals:
    void traceChanged();
    void errorOccurred(const QString& message);

private:
    void recompute();
    std::shared_ptr<const AttentionWeights> weightsFor(const Config& c);

    QString m_sentence;
    Config m_config;
    std::shared_ptr<const AttentionWeights> m_imported;
    // Preset weights are megabytes of random numbers: made once per (preset, d_model, seed).
    std::shared_ptr<const AttentionWeights> m_presetCache;
    Config m_presetCacheKey;
    std::shared_ptr<const Trace> m_trace;
    QString m_error;
};

} // namespace attnlab
