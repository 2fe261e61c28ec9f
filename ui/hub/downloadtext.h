#pragma once
// How a download's progress reads, in the studio and on the command line: "120 MB of 548 MB ·
// 12.3 MB/s · about 36 s left". The rate is measured over the last seconds (RateMeter), from
// times the caller gives, so that it can be tested without a clock.

#include "hub/modeldownload.h"

#include <QCoreApplication>
#include <QList>
#include <QPair>
#include <QString>

namespace attnlab {

/// Bytes per second over the last `windowMs` milliseconds of samples.
class RateMeter {
public:
    explicit RateMeter(qint64 windowMs = 5000)
        : m_windowMs(windowMs)
    {
    }
    /// `bytes` received in all at time `ms`.
    void add(qint64 ms, qint64 bytes);
    /// Bytes per second; 0 until two samples at least 200 ms apart.
    double rate() const;
    void clear() { m_samples.clear(); }

private:
    qint64 m_windowMs;
    QList<QPair<qint64, qint64>> m_samples;
};

class DownloadText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Hub)
public:
    /// "548.1 MB" (SI units, as the hub shows sizes).
    static QString bytes(qint64 bytes);
    /// "12.3 MB/s".
    static QString rate(double bytesPerSecond);
    /// "about 36 s left", "about 4 min left", "about 2 h left"; empty when it cannot be said.
    static QString timeLeft(qint64 remaining, double bytesPerSecond);
    /// The whole line: done of total, the rate and the time left (the parts that are known).
    static QString overall(const DownloadProgress& p, double bytesPerSecond);
    /// "model.safetensors (4 of 4): 120 MB of 548 MB".
    static QString file(const DownloadProgress& p);
};

} // namespace attnlab
