#pragma once
// Where models come from (docs/pretrained-models.md, "Getting a model"): the hub's address (a
// setting, https://huggingface.co by default; HF_ENDPOINT from the environment wins, for a
// mirror), the access token for gated models (HF_TOKEN wins over one typed in the studio), a
// repository's name and the folder it goes to, the hub's URLs of a file list and of a file, and
// which redirects are followed (never from HTTPS down to HTTP).

#include <QCoreApplication>
#include <QString>
#include <QUrl>

#include <optional>

namespace attnlab {

/// A repository on the hub: "openai-community/gpt2", or a name alone ("gpt2", an old name the
/// hub still answers to).
struct RepoId {
    QString owner; ///< empty for a name alone
    QString name;

    QString id() const { return owner.isEmpty() ? name : owner + QLatin1Char('/') + name; }
};

class HubAddress {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Hub)
public:
    /// Where a setting comes from.
    enum class Source {
        Environment, ///< HF_ENDPOINT, HF_TOKEN
        Settings,    ///< typed in File ▸ Models ▸ Get models… (saved for the user)
        Default,     ///< https://huggingface.co; no token
    };

    static QString defaultEndpoint();
    /// The endpoint in use: HF_ENDPOINT, else the saved one, else defaultEndpoint(); without a
    /// trailing '/'.
    static QString endpoint();
    static Source endpointSource();
    /// Saves `endpoint` for later runs (empty: back to the default). HF_ENDPOINT still wins.
    static void setEndpoint(const QString& endpoint);
    /// The access token in use: HF_TOKEN, else the saved one, else empty.
    static QString token();
    static Source tokenSource();
    /// Saves `token` for this user (empty: forgets it). HF_TOKEN still wins.
    static void setToken(const QString& token);

    /// An endpoint as typed, checked: an http or https URL with a host and no query; returned
    /// without a trailing '/'. Nothing, and the reason in `error`, when it is not one.
    static std::optional<QString> checkEndpoint(const QString& text, QString* error);
    /// "owner/name" or "name" (letters, digits, '-', '_', '.'; no "--" or ".."; at most 96
    /// characters). A model Attention Lab knows may be named by its folder name ("gpt2",
    /// "bert-base-chinese"): its repository is used. Nothing, and the reason, otherwise.
    static std::optional<RepoId> parseRepoId(const QString& text, QString* error);
    /// A revision: a branch, tag or commit ("main", "v1.0", "refs/pr/1"); the reason when empty,
    /// too long or with control characters.
    static bool checkRevision(const QString& revision, QString* error);

    /// {endpoint}/api/models/{repo}/revision/{revision}?blobs=true: the files, their sizes and
    /// the SHA-256 of the large ones.
    static QUrl listingUrl(const QString& endpoint, const RepoId& repo, const QString& revision);
    /// {endpoint}/{repo}/resolve/{revision}/{file}.
    static QUrl fileUrl(const QString& endpoint, const RepoId& repo, const QString& revision, const QString& file);
    /// The hub's page of a repository, for people: {endpoint}/{repo}.
    static QUrl pageUrl(const QString& endpoint, const RepoId& repo);

    /// Where a redirect from `from` to `location` (relative or absolute) leads. Nothing, and the
    /// reason, for a redirect from HTTPS to plain HTTP or to another scheme than http(s).
    static std::optional<QUrl> redirectTarget(const QUrl& from, const QByteArray& location, QString* error);
};

} // namespace attnlab
