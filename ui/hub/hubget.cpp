#include "hub/hubget.h"

#include "hub/hubaddress.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>

namespace attnlab {

namespace {

constexpr int kMaxRedirects = 10;
constexpr qint64 kMaxErrorBody = 64 * 1024;

struct HubText {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Hub)
};

/// "huggingface.co", "127.0.0.1:8080": the server as people name it.
QString hostOf(const QUrl& url)
{
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/// "bytes 100-199/1000" → 100 and 1000.
bool parseContentRange(const QByteArray& value, qint64& first, std::optional<qint64>& total)
{
    static const QRegularExpression re(QStringLiteral("^bytes (\\d+)-(\\d+)/(\\d+|\\*)$"));
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(value.trimmed()));
    if (!m.hasMatch())
        return false;
    first = m.captured(1).toLongLong();
    if (m.captured(3) != u"*")
        total = m.captured(3).toLongLong();
    return true;
}

} // namespace

HubGet::HubGet(QNetworkAccessManager* network, const QUrl& url, const QString& what, QObject* parent)
    : QObject(parent)
    , m_network(network)
    , m_url(url)
    , m_what(what)
    , m_timeoutMs(defaultTimeoutMs())
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        abort(HubFailure::Kind::Timeout, HubText::tr("%1 did not answer for %n second(s) (a slow or lost connection?)", nullptr,
                                                     (m_timeoutMs + 999) / 1000)
                                             .arg(hostOf(m_url)));
    });
}

int HubGet::defaultTimeoutMs()
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("ATTNLAB_HUB_TIMEOUT_MS", &ok);
    return ok && ms > 0 ? ms : 30000;
}

void HubGet::setToken(const QString& token, const QString& tokenHost)
{
    m_token = token;
    m_tokenHost = tokenHost;
}

void HubGet::start()
{
    send(m_url);
}

void HubGet::send(const QUrl& url)
{
    m_url = url;
    m_status = 0;
    QNetworkRequest request(url);
    // Redirects by hand: each is checked (no HTTPS → HTTP), and the token stays with the hub.
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("attention-lab"));
    // The file's own bytes: a compressed answer would not match its size, checksum or Range.
    request.setRawHeader("Accept-Encoding", "identity");
    if (!m_token.isEmpty() && url.host().compare(m_tokenHost, Qt::CaseInsensitive) == 0)
        request.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    if (m_rangeStart > 0)
        request.setRawHeader("Range", "bytes=" + QByteArray::number(m_rangeStart) + "-");
    m_reply = m_network->get(request);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &HubGet::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &HubGet::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HubGet::onFinished);
    m_timer.start(m_timeoutMs);
}

void HubGet::onMetaData()
{
    m_timer.start(m_timeoutMs);
    m_status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (isRedirect(m_status)) {
        // The hub's redirect of a large file to its file server names the file's size and SHA-256.
        bool ok = false;
        const qint64 size = m_reply->rawHeader("X-Linked-Size").toLongLong(&ok);
        if (ok)
            m_linkedSize = size;
        const QString etag = QString::fromLatin1(m_reply->rawHeader("X-Linked-Etag")).remove(QLatin1Char('"')).remove(QStringLiteral("W/"));
        if (QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(etag).hasMatch())
            m_linkedSha256 = etag;
        return;
    }
    if (m_status < 200 || m_status >= 300 || m_started)
        return;
    m_offset = 0;
    m_total.reset();
    if (m_status == 206) {
        qint64 first = 0;
        if (!parseContentRange(m_reply->rawHeader("Content-Range"), first, m_total) || first != m_rangeStart) {
            fail({HubFailure::Kind::ServerError, HubText::tr("%1 sent another part of %2 than the one asked for").arg(hostOf(m_url), m_what)});
            return;
        }
        m_offset = first;
    } else {
        bool ok = false;
        const qint64 length = m_reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&ok);
        if (ok)
            m_total = length;
    }
    m_started = true;
    emit responseStarted();
}

void HubGet::onReadyRead()
{
    if (m_done || !m_reply)
        return;
    m_timer.start(m_timeoutMs);
    if (m_status == 0)
        onMetaData();
    const QByteArray piece = m_reply->readAll();
    if (m_status < 200 || m_status >= 300) {
        // A redirect's or an error's own text: kept short, for the message.
        if (m_body.size() < kMaxErrorBody)
            m_body += piece.left(kMaxErrorBody - m_body.size());
        return;
    }
    if (!m_started || piece.isEmpty())
        return;
    m_received += piece.size();
    if (m_sink) {
        if (HubFailure f = m_sink(piece)) {
            fail(std::move(f));
            return;
        }
    } else {
        if (m_body.size() + piece.size() > m_limit) {
            fail({HubFailure::Kind::ServerError, HubText::tr("%1 sent more for %2 than Attention Lab reads (%3 bytes)").arg(hostOf(m_url), m_what).arg(m_limit)});
            return;
        }
        m_body += piece;
    }
    emit progressed(m_received);
}

void HubGet::onFinished()
{
    if (m_done || !m_reply)
        return;
    // Bytes that arrived before the end and were not read yet (a dropped connection may report
    // its end before the last readyRead): kept, so a resume goes on after them instead of
    // fetching them again.
    if (m_reply->bytesAvailable() > 0)
        onReadyRead();
    if (m_done || !m_reply)
        return;
    m_timer.stop();
    QNetworkReply* reply = m_reply;
    reply->deleteLater();
    m_reply = nullptr;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_status = status;
    if (status == 0 && reply->error() != QNetworkReply::NoError) {
        fail(networkFailure(reply->error(), m_url, reply->errorString()));
        return;
    }
    if (isRedirect(status)) {
        if (++m_redirects > kMaxRedirects) {
            fail({HubFailure::Kind::ServerError, HubText::tr("%1 redirected %2 more than %3 times").arg(hostOf(m_url), m_what).arg(kMaxRedirects)});
            return;
        }
        QString why;
        const std::optional<QUrl> target = HubAddress::redirectTarget(m_url, reply->rawHeader("Location"), &why);
        if (!target) {
            fail({HubFailure::Kind::Insecure, why});
            return;
        }
        m_body.clear();
        send(*target);
        return;
    }
    if (status >= 400 || status < 200 || status >= 300) {
        fail(httpFailure(status, m_url, m_what, !m_token.isEmpty()));
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        fail(networkFailure(reply->error(), m_url, reply->errorString()));
        return;
    }
    if (m_total && m_offset + m_received < *m_total) {
        fail({HubFailure::Kind::ConnectionLost, HubText::tr("the connection to %1 ended before the end of %2").arg(hostOf(m_url), m_what)});
        return;
    }
    finish();
}

void HubGet::abort(HubFailure::Kind kind, const QString& message)
{
    fail({kind, message});
}

void HubGet::fail(HubFailure failure)
{
    if (m_done)
        return;
    m_failure = std::move(failure);
    if (m_reply) {
        disconnect(m_reply, nullptr, this, nullptr);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    finish();
}

void HubGet::finish()
{
    m_done = true;
    m_timer.stop();
    // Queued: a receiver may delete this object, which may be inside one of its own slots now.
    QMetaObject::invokeMethod(this, &HubGet::finished, Qt::QueuedConnection);
}

HubFailure HubGet::networkFailure(int qtError, const QUrl& url, const QString& detail)
{
    using E = QNetworkReply::NetworkError;
    using K = HubFailure::Kind;
    const QString host = hostOf(url);
    switch (static_cast<E>(qtError)) {
    case E::ConnectionRefusedError:
        return {K::NoNetwork, HubText::tr("%1 refused the connection: is the address right and the server running?").arg(host)};
    case E::HostNotFoundError:
        return {K::HostNotFound, HubText::tr("the name %1 cannot be resolved: no network connection, or a wrong address").arg(url.host())};
    case E::TimeoutError:
        return {K::Timeout, HubText::tr("%1 did not answer in time (a slow or lost connection?)").arg(host)};
    case E::RemoteHostClosedError:
        return {K::ConnectionLost, HubText::tr("%1 closed the connection").arg(host)};
    case E::SslHandshakeFailedError:
        return {K::Insecure, HubText::tr("the secure connection to %1 failed: %2").arg(host, detail)};
    case E::InsecureRedirectError:
        return {K::Insecure, HubText::tr("%1 redirected from HTTPS to plain HTTP; Attention Lab does not follow it").arg(host)};
    case E::ProxyConnectionRefusedError:
    case E::ProxyConnectionClosedError:
    case E::ProxyNotFoundError:
    case E::ProxyTimeoutError:
    case E::ProxyAuthenticationRequiredError:
        return {K::NoNetwork, HubText::tr("the network proxy did not let the download through: %1").arg(detail)};
    default:
        break;
    }
    return {K::NoNetwork, HubText::tr("cannot reach %1: %2 (no network connection?)").arg(host, detail)};
}

HubFailure HubGet::httpFailure(int status, const QUrl& url, const QString& what, bool tokenGiven)
{
    using K = HubFailure::Kind;
    const QString host = hostOf(url);
    if (status == 401 || status == 403)
        return {K::Gated, tokenGiven ? HubText::tr("%1 refused the access token for %2 (HTTP %3): accept the model's licence on the hub "
                                                   "with the token's account, and check the token")
                                           .arg(host, what)
                                           .arg(status)
                                     : HubText::tr("%1 is gated or private (HTTP %2): accept its licence on the hub and give an access "
                                                   "token (HF_TOKEN, or the token field of File \u25B8 Models \u25B8 Get models\u2026)")
                                           .arg(what)
                                           .arg(status)};
    if (status == 404)
        return {K::NotFound, HubText::tr("%1 has no %2 (HTTP 404)").arg(host, what)};
    if (status == 429)
        return {K::ServerError, HubText::tr("%1 has had too many requests (HTTP 429): wait a while and try again").arg(host)};
    if (status >= 500)
        return {K::ServerError, HubText::tr("%1 had an error of its own (HTTP %2) with %3: try again later").arg(host).arg(status).arg(what)};
    return {K::ServerError, HubText::tr("%1 answered HTTP %2 for %3").arg(host).arg(status).arg(what)};
}

} // namespace attnlab
