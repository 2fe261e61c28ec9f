#pragma once
// One GET from the hub or a mirror, as its files need it: redirects followed by hand (to the
// hub's file servers; never from HTTPS down to HTTP; the access token sent only to the
// endpoint's own host), a Range for a resumed file, no compression (the bytes are the file's),
// a timeout when nothing arrives for a while, and every failure as a HubFailure sentence.
// The body goes to a sink as it arrives (a file being written) or into memory (small answers).

#include "hub/hubfailure.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace attnlab {

class HubGet : public QObject {
    Q_OBJECT
public:
    /// Receives each piece of the body; returns an empty failure, or why it could not keep it
    /// (the disk is full), which ends the request.
    using Sink = std::function<HubFailure(const QByteArray& piece)>;

    /// `what` names the request in messages ("the list of files", "model.safetensors").
    HubGet(QNetworkAccessManager* network, const QUrl& url, const QString& what, QObject* parent = nullptr);

    /// The token goes to `tokenHost` only (the endpoint's host), never to a file server the hub
    /// redirects to.
    void setToken(const QString& token, const QString& tokenHost);
    /// Asks for the body from byte `offset` on (a resumed file).
    void setRangeStart(qint64 offset) { m_rangeStart = offset; }
    /// Where the body goes; without a sink it is kept in memory, up to `limit` bytes.
    void setSink(Sink sink) { m_sink = std::move(sink); }
    void setMemoryLimit(qint64 limit) { m_limit = limit; }
    /// Gives up when nothing arrives for `ms` milliseconds (default: ATTNLAB_HUB_TIMEOUT_MS, else 30 s).
    void setTimeout(int ms) { m_timeoutMs = ms; }

    void start();
    /// Stops the request; it finishes with a failure of `kind` (Cancelled, …) and `message`.
    void abort(HubFailure::Kind kind, const QString& message);

    /// After responseStarted: where the body starts in the file (the Range's offset, or 0 when
    /// the server sent the whole file) and the file's whole size when the server said it.
    qint64 bodyOffset() const { return m_offset; }
    std::optional<qint64> totalSize() const { return m_total; }
    /// X-Linked-Size and X-Linked-Etag of the hub's redirect to its file server (a large file's
    /// size and SHA-256), when there was one.
    std::optional<qint64> linkedSize() const { return m_linkedSize; }
    QString linkedSha256() const { return m_linkedSha256; }
    /// The HTTP status of the last answer (0 when none came).
    int status() const { return m_status; }
    const QByteArray& body() const { return m_body; }
    const HubFailure& failure() const { return m_failure; }
    /// Bytes of the body received.
    qint64 received() const { return m_received; }

    /// The sentence for a network error of Qt (no network, name not resolved, TLS, …) on `url`.
    static HubFailure networkFailure(int qtError, const QUrl& url, const QString& detail);
    /// The sentence for an HTTP error status on `what` of `url`.
    static HubFailure httpFailure(int status, const QUrl& url, const QString& what, bool tokenGiven);
    /// The default timeout: ATTNLAB_HUB_TIMEOUT_MS, else 30 000.
    static int defaultTimeoutMs();

signals:
    /// The final answer's headers arrived (after redirects): bodyOffset() and totalSize() are known.
    void responseStarted();
    /// Body bytes arrived (already given to the sink).
    void progressed(qint64 received);
    void finished();

private:
    void send(const QUrl& url);
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void fail(HubFailure failure);
    void finish();

    QNetworkAccessManager* m_network;
    QUrl m_url;
    QString m_what;
    QString m_token;
    QString m_tokenHost;
    qint64 m_rangeStart = 0;
    Sink m_sink;
    qint64 m_limit = 1024 * 1024;
    int m_timeoutMs = 0;
    int m_redirects = 0;
    QPointer<QNetworkReply> m_reply;
    QTimer m_timer;
    bool m_started = false;   ///< responseStarted was emitted
    bool m_done = false;
    int m_status = 0;
    qint64 m_offset = 0;
    std::optional<qint64> m_total;
    std::optional<qint64> m_linkedSize;
    QString m_linkedSha256;
    QByteArray m_body;
    qint64 m_received = 0;
    HubFailure m_failure;
};

} // namespace attnlab
