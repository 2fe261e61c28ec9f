#include "hubserver.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QMutexLocker>
#include <QPointer>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>
#include <QUrl>

namespace attnlab::testing {

namespace {

struct Repo {
    QString id;
    QString revision;
    QString commit;
    QString token;
    QMap<QString, ServedFile> files;
};

struct Misbehaviour {
    qint64 dropAfter = -1;
    int dropTimes = 0;
    qint64 corruptAt = -1;
    int corruptTimes = 0;
    int bytesPerTick = 0;
    int tickMs = 0;
    QString redirect;
};

QByteArray sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QByteArray sha1(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex();
}

const char* reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 302: return "Found";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 416: return "Range Not Satisfiable";
    default: return "Status";
    }
}

} // namespace

/// Lives in the server's thread; its state is shared with the test's thread under `mutex`.
struct HubServer::Impl : QObject {
    QThread thread;
    QTcpServer* server = nullptr;
    quint16 port = 0;

    mutable QMutex mutex;
    QList<Repo> repos;
    QHash<QString, Misbehaviour> misbehaviours;
    QHash<QString, qint64> sent;
    QStringList log;
    QString stallPrefix;
    bool omitSizes = false;

    QHash<QTcpSocket*, QByteArray> pending;

    void listen()
    {
        server = new QTcpServer(this);
        server->listen(QHostAddress::LocalHost, 0);
        port = server->serverPort();
        connect(server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = server->nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QObject::destroyed, this, [this, s] { pending.remove(s); });
            }
        });
    }

    void onRead(QTcpSocket* s)
    {
        QByteArray& buffer = pending[s];
        buffer += s->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QList<QByteArray> lines = buffer.left(end).split('\n');
        buffer.clear();
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        QHash<QByteArray, QByteArray> headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon > 0)
                headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
        }
        handle(s, QString::fromLatin1(first.value(1)), headers);
    }

    const Repo* findRepo(const QString& id, const QString& revision) const
    {
        for (const Repo& r : repos) {
            if (r.id == id && r.revision == revision)
                return &r;
        }
        return nullptr;
    }

    void handle(QTcpSocket* s, const QString& target, const QHash<QByteArray, QByteArray>& headers)
    {
        const QUrl url = QUrl::fromEncoded(target.toLatin1());
        const QString path = url.path(QUrl::FullyEncoded);
        QMutexLocker lock(&mutex);
        QString entry = QStringLiteral("GET ") + path;
        if (headers.contains("range"))
            entry += QStringLiteral(" Range: ") + QString::fromLatin1(headers.value("range"));
        if (headers.contains("authorization"))
            entry += QStringLiteral(" auth");
        log << entry;
        if (!stallPrefix.isEmpty() && path.startsWith(stallPrefix))
            return; // no answer, ever
        const QStringList parts = path.split(QLatin1Char('/'));
        const auto decoded = [&](int i) { return QUrl::fromPercentEncoding(parts.value(i).toLatin1()); };
        const QByteArray auth = headers.value("authorization");
        // /api/models/{owner}/{name}[/revision/{rev}]
        if (parts.value(1) == u"api" && parts.value(2) == u"models") {
            const QString revision = parts.value(5) == u"revision" ? decoded(6) : QStringLiteral("main");
            const Repo* repo = findRepo(decoded(3) + QLatin1Char('/') + decoded(4), revision);
            if (!repo)
                return answer(s, 404, {{"X-Error-Code", "RepoNotFound"}}, R"({"error":"Repository not found"})");
            if (!repo->token.isEmpty() && auth != "Bearer " + repo->token.toUtf8())
                return answer(s, 401, {{"X-Error-Code", "GatedRepo"}}, R"({"error":"Access to this model is restricted."})");
            return answer(s, 200, {{"Content-Type", "application/json"}}, listing(*repo));
        }
        // /lfs/{sha256}: a large file, as the hub's file servers send it
        if (parts.value(1) == u"lfs") {
            for (const Repo& r : repos) {
                for (auto it = r.files.begin(); it != r.files.end(); ++it) {
                    if (it->lfs && sha256(it->bytes) == parts.value(2).toLatin1())
                        return serveFile(s, it.key(), it->bytes, {{"ETag", '"' + sha256(it->bytes) + '"'}}, headers.value("range"));
                }
            }
            return answer(s, 404, {}, "no such object");
        }
        // /{owner}/{name}/resolve/{rev}/{file}
        if (parts.value(3) == u"resolve") {
            const Repo* repo = findRepo(decoded(1) + QLatin1Char('/') + decoded(2), decoded(4));
            if (!repo)
                return answer(s, 404, {{"X-Error-Code", "RepoNotFound"}}, R"({"error":"Repository not found"})");
            if (!repo->token.isEmpty() && auth != "Bearer " + repo->token.toUtf8())
                return answer(s, 401, {{"X-Error-Code", "GatedRepo"}}, R"({"error":"Access to this model is restricted."})");
            const QString name = decoded(5);
            const auto it = repo->files.find(name);
            if (it == repo->files.end())
                return answer(s, 404, {{"X-Error-Code", "EntryNotFound"}}, R"({"error":"Entry not found"})");
            const QByteArray commit = repo->commit.toLatin1();
            if (const QString to = misbehaviours.value(name).redirect; !to.isEmpty())
                return answer(s, 302, {{"Location", to.toLatin1()}, {"X-Repo-Commit", commit}}, {});
            if (it->lfs) {
                const QByteArray sha = sha256(it->bytes);
                return answer(s, 302,
                              {{"Location", "/lfs/" + sha + "?expires=1"},
                               {"X-Linked-Size", QByteArray::number(it->bytes.size())},
                               {"X-Linked-Etag", '"' + sha + '"'},
                               {"X-Repo-Commit", commit},
                               {"ETag", '"' + sha1(it->bytes) + '"'}},
                              {});
            }
            return serveFile(s, name, it->bytes, {{"ETag", '"' + sha1(it->bytes) + '"'}, {"X-Repo-Commit", commit}}, headers.value("range"));
        }
        answer(s, 404, {}, "not found");
    }

    QByteArray listing(const Repo& repo) const
    {
        QJsonArray siblings;
        for (auto it = repo.files.begin(); it != repo.files.end(); ++it) {
            QJsonObject o{{"rfilename", it.key()}};
            if (!omitSizes) {
                o.insert(QStringLiteral("size"), static_cast<double>(it->bytes.size()));
                o.insert(QStringLiteral("blobId"), QString::fromLatin1(sha1(it->bytes)));
                if (it->lfs)
                    o.insert(QStringLiteral("lfs"), QJsonObject{{"sha256", QString::fromLatin1(sha256(it->bytes))},
                                                                {"size", static_cast<double>(it->bytes.size())},
                                                                {"pointerSize", 134}});
            }
            siblings.append(o);
        }
        return QJsonDocument(QJsonObject{{"id", repo.id}, {"sha", repo.commit}, {"siblings", siblings}}).toJson(QJsonDocument::Compact);
    }

    /// Sends `status`, `headers` and `body`, then closes the connection.
    void answer(QTcpSocket* s, int status, const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& body)
    {
        s->write(head(status, headers, body.size()));
        s->write(body);
        s->disconnectFromHost(); // after what is written has gone
    }

    static QByteArray head(int status, const QList<QPair<QByteArray, QByteArray>>& headers, qint64 length)
    {
        QByteArray h = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason(status) + "\r\n";
        for (const auto& [name, value] : headers)
            h += name + ": " + value + "\r\n";
        return h + "Content-Length: " + QByteArray::number(length) + "\r\nConnection: close\r\n\r\n";
    }

    /// A file's bytes from the Range's start (206), or all of them (200), as it misbehaves.
    void serveFile(QTcpSocket* s, const QString& name, const QByteArray& bytes, QList<QPair<QByteArray, QByteArray>> headers,
                   const QByteArray& range)
    {
        qint64 start = 0;
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^bytes=(\\d+)-$")).match(QString::fromLatin1(range));
        if (m.hasMatch())
            start = m.captured(1).toLongLong();
        if (start >= bytes.size() && start > 0)
            return answer(s, 416, {{"Content-Range", "bytes */" + QByteArray::number(bytes.size())}}, {});
        QByteArray body = bytes.mid(start);
        Misbehaviour& how = misbehaviours[name];
        if (how.corruptTimes > 0 && how.corruptAt >= start && how.corruptAt < bytes.size()) {
            --how.corruptTimes;
            body[how.corruptAt - start] = static_cast<char>(body[how.corruptAt - start] ^ 0x5a);
        }
        const qint64 length = body.size();
        bool drop = false;
        if (how.dropTimes > 0 && how.dropAfter >= start) {
            --how.dropTimes;
            body.truncate(how.dropAfter - start);
            drop = true;
        }
        if (m.hasMatch())
            headers.append({"Content-Range", "bytes " + QByteArray::number(start) + '-' + QByteArray::number(bytes.size() - 1) + '/'
                                                 + QByteArray::number(bytes.size())});
        s->write(head(m.hasMatch() ? 206 : 200, headers, length));
        if (how.bytesPerTick > 0 && !drop)
            return trickle(s, name, body, how.bytesPerTick, how.tickMs);
        sent[name] += body.size();
        s->write(body);
        s->disconnectFromHost();
    }

    /// Sends `body` a piece per tick; stops when the client goes.
    void trickle(QTcpSocket* s, const QString& name, const QByteArray& body, int perTick, int tickMs)
    {
        auto* timer = new QTimer(s);
        auto offset = std::make_shared<qint64>(0);
        connect(timer, &QTimer::timeout, s, [this, s, timer, name, body, perTick, offset] {
            if (s->state() != QAbstractSocket::ConnectedState) {
                timer->stop();
                return;
            }
            const QByteArray piece = body.mid(*offset, perTick);
            *offset += piece.size();
            {
                QMutexLocker lock(&mutex);
                sent[name] += piece.size();
            }
            s->write(piece);
            if (*offset >= body.size()) {
                timer->stop();
                s->disconnectFromHost();
            }
        });
        timer->start(tickMs);
    }
};

HubServer::HubServer()
    : m(std::make_unique<Impl>())
{
    m->moveToThread(&m->thread);
    m->thread.start();
    QMetaObject::invokeMethod(m.get(), [this] { m->listen(); }, Qt::BlockingQueuedConnection);
}

HubServer::~HubServer()
{
    QMetaObject::invokeMethod(m.get(), [this] {
        // The connections and the server go in their own thread.
        for (QTcpSocket* s : m->findChildren<QTcpSocket*>())
            s->abort();
        delete m->server;
        m->server = nullptr;
    }, Qt::BlockingQueuedConnection);
    m->thread.quit();
    m->thread.wait();
}

QString HubServer::url() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(m->port);
}

void HubServer::addRepo(const QString& repo, const QMap<QString, ServedFile>& files, const QString& token, const QString& revision)
{
    QByteArray all;
    for (auto it = files.begin(); it != files.end(); ++it)
        all += it.key().toUtf8() + sha1(it->bytes);
    QMutexLocker lock(&m->mutex);
    m->repos.append({repo, revision, QString::fromLatin1(sha1(all + revision.toUtf8())), token, files});
}

QMap<QString, ServedFile> HubServer::folderFiles(const QString& folder, const QStringList& lfs)
{
    QMap<QString, ServedFile> files;
    for (const QString& name : QDir(folder).entryList(QDir::Files)) {
        QFile f(QDir(folder).filePath(name));
        if (f.open(QIODevice::ReadOnly))
            files.insert(name, {f.readAll(), lfs.contains(name)});
    }
    return files;
}

void HubServer::dropAfter(const QString& file, qint64 bytes, int times)
{
    QMutexLocker lock(&m->mutex);
    m->misbehaviours[file].dropAfter = bytes;
    m->misbehaviours[file].dropTimes = times;
}

void HubServer::corrupt(const QString& file, qint64 offset, int times)
{
    QMutexLocker lock(&m->mutex);
    m->misbehaviours[file].corruptAt = offset;
    m->misbehaviours[file].corruptTimes = times;
}

void HubServer::throttle(const QString& file, int bytesPerTick, int tickMs)
{
    QMutexLocker lock(&m->mutex);
    m->misbehaviours[file].bytesPerTick = bytesPerTick;
    m->misbehaviours[file].tickMs = tickMs;
}

void HubServer::stall(const QString& prefix)
{
    QMutexLocker lock(&m->mutex);
    m->stallPrefix = prefix;
}

void HubServer::redirect(const QString& file, const QString& location)
{
    QMutexLocker lock(&m->mutex);
    m->misbehaviours[file].redirect = location;
}

void HubServer::omitSizes(bool omit)
{
    QMutexLocker lock(&m->mutex);
    m->omitSizes = omit;
}

qint64 HubServer::bytesSent(const QString& file) const
{
    QMutexLocker lock(&m->mutex);
    return m->sent.value(file);
}

QStringList HubServer::requests() const
{
    QMutexLocker lock(&m->mutex);
    return m->log;
}

int HubServer::count(const QString& part) const
{
    QMutexLocker lock(&m->mutex);
    int n = 0;
    for (const QString& r : m->log)
        n += r.contains(part) ? 1 : 0;
    return n;
}

} // namespace attnlab::testing
