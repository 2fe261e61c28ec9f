#include "hub/downloadtext.h"

#include <QLocale>

#include <cmath>

namespace attnlab {

void RateMeter::add(qint64 ms, qint64 bytes)
{
    m_samples.append({ms, bytes});
    while (m_samples.size() > 2 && m_samples.front().first < ms - m_windowMs)
        m_samples.removeFirst();
}

double RateMeter::rate() const
{
    if (m_samples.size() < 2)
        return 0;
    const auto& first = m_samples.front();
    const auto& last = m_samples.back();
    const qint64 ms = last.first - first.first;
    return ms < 200 ? 0 : (last.second - first.second) * 1000.0 / static_cast<double>(ms);
}

QString DownloadText::bytes(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, bytes < 1000 * 1000 ? 0 : 1, QLocale::DataSizeSIFormat);
}

QString DownloadText::rate(double bytesPerSecond)
{
    return tr("%1/s").arg(bytes(static_cast<qint64>(bytesPerSecond)));
}

QString DownloadText::timeLeft(qint64 remaining, double bytesPerSecond)
{
    if (remaining < 0 || bytesPerSecond <= 0)
        return {};
    const double seconds = std::ceil(static_cast<double>(remaining) / bytesPerSecond);
    if (seconds < 90)
        return tr("about %1 s left").arg(static_cast<qint64>(seconds));
    if (seconds < 90 * 60)
        return tr("about %1 min left").arg(static_cast<qint64>(std::lround(seconds / 60)));
    return tr("about %1 h left").arg(static_cast<qint64>(std::lround(seconds / 3600)));
}

QString DownloadText::overall(const DownloadProgress& p, double bytesPerSecond)
{
    QStringList parts;
    parts << (p.total >= 0 ? tr("%1 of %2").arg(bytes(p.done), bytes(p.total)) : bytes(p.done));
    if (bytesPerSecond > 0)
        parts << rate(bytesPerSecond);
    const QString left = timeLeft(p.total >= 0 ? p.total - p.done : -1, bytesPerSecond);
    if (!left.isEmpty())
        parts << left;
    return parts.join(QStringLiteral(" \u00B7 "));
}

QString DownloadText::file(const DownloadProgress& p)
{
    const QString amount = p.fileTotal >= 0 ? tr("%1 of %2").arg(bytes(p.fileDone), bytes(p.fileTotal)) : bytes(p.fileDone);
    return tr("%1 (%2 of %3): %4").arg(p.file, QString::number(p.fileIndex + 1), QString::number(p.fileCount), amount);
}

} // namespace attnlab
