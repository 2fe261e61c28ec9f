#pragma once
// A stand-in for the Hugging Face Hub on 127.0.0.1 (a port the system picks), for the tests of
// downloading (docs/pretrained-models.md, "Getting a model"). It answers as the hub does:
// /api/models/{repo}[/revision/{rev}] with the file list (sizes, and the SHA-256 of large
// files), /{repo}/resolve/{rev}/{file} with the file — or, for a large file, a 302 to /lfs/{sha}
// with X-Linked-Size and X-Linked-Etag — ETag and X-Repo-Commit headers, Range requests (206),
// 401 for a repository with a token when none or another is given, 404 for anything else. It can
// misbehave on purpose: drop the connection partway through a file, send one wrong byte, send a
// file slowly, never answer, send a redirect of the test's choosing, leave sizes out of the list.
// It runs in a thread of its own, so a test may block (waiting for the command line) while it
// serves, and counts the bytes of each file it sent.

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <memory>

namespace attnlab::testing {

struct ServedFile {
    QByteArray bytes;
    bool lfs = false; ///< a large file: listed with its SHA-256, fetched through a 302
};

class HubServer {
public:
    HubServer();
    ~HubServer();
    HubServer(const HubServer&) = delete;
    HubServer& operator=(const HubServer&) = delete;

    /// "http://127.0.0.1:PORT".
    QString url() const;

    /// Serves `repo` ("owner/name") at `revision` with `files`; with `token`, only to requests
    /// that give it (Authorization: Bearer TOKEN). The commit is made up from the files.
    void addRepo(const QString& repo, const QMap<QString, ServedFile>& files, const QString& token = {},
                 const QString& revision = QStringLiteral("main"));
    /// A folder's files; those named in `lfs` are large ones.
    static QMap<QString, ServedFile> folderFiles(const QString& folder, const QStringList& lfs = {QStringLiteral("model.safetensors")});

    /// The next `times` answers with `file`'s bytes end after `bytes` bytes of it: the
    /// connection is closed.
    void dropAfter(const QString& file, qint64 bytes, int times = 1);
    /// The next `times` answers with `file` have the byte at `offset` of the file changed.
    void corrupt(const QString& file, qint64 offset, int times = 1);
    /// `file` is sent `bytesPerTick` bytes every `tickMs` milliseconds (0: at once again).
    void throttle(const QString& file, int bytesPerTick, int tickMs);
    /// Requests whose path starts with `prefix` get no answer at all ("": every request answers).
    void stall(const QString& prefix);
    /// The resolve of `file` answers with a 302 to `location` ("": as usual).
    void redirect(const QString& file, const QString& location);
    /// File lists without sizes and checksums, as a mirror that does not say them.
    void omitSizes(bool omit);

    /// The bytes of `file` sent in all (through its resolve and its /lfs/ path).
    qint64 bytesSent(const QString& file) const;
    /// Every request so far: "GET /path" and, when given, " Range: bytes=N-" and " auth".
    QStringList requests() const;
    /// How many requests so far had a path containing `part`.
    int count(const QString& part) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace attnlab::testing
