#include "hub/hubaddress.h"

#include "lesson/requirement.h"

#include <QRegularExpression>
#include <QSettings>

namespace attnlab {

namespace {

// The studio's settings, named in full (session/modelsfolder.cpp): the command line reads them too.
const QString kOrganisation = QStringLiteral("Attention Lab");
const QString kEndpointKey = QStringLiteral("hubEndpoint");
const QString kTokenKey = QStringLiteral("hubToken");
constexpr char kEndpointVariable[] = "HF_ENDPOINT";
constexpr char kTokenVariable[] = "HF_TOKEN";
constexpr int kMaxRepoId = 96;
constexpr int kMaxRevision = 256;

QString saved(const QString& key)
{
    return QSettings(kOrganisation, kOrganisation).value(key).toString();
}

void save(const QString& key, const QString& value)
{
    QSettings settings(kOrganisation, kOrganisation);
    if (value.isEmpty())
        settings.remove(key);
    else
        settings.setValue(key, value);
}

QString withoutTrailingSlash(QString s)
{
    while (s.endsWith(QLatin1Char('/')))
        s.chop(1);
    return s;
}

/// The parts of a path, each percent-encoded, joined by '/'.
QByteArray encodedPath(const QString& path)
{
    QByteArray out;
    for (const QString& part : path.split(QLatin1Char('/'))) {
        if (!out.isEmpty())
            out += '/';
        out += QUrl::toPercentEncoding(part);
    }
    return out;
}

QUrl under(const QString& endpoint, const QByteArray& encodedTail)
{
    return QUrl::fromEncoded(withoutTrailingSlash(endpoint).toUtf8() + encodedTail, QUrl::StrictMode);
}

} // namespace

QString HubAddress::defaultEndpoint()
{
    return QStringLiteral("https://huggingface.co");
}

HubAddress::Source HubAddress::endpointSource()
{
    if (!qEnvironmentVariableIsEmpty(kEndpointVariable))
        return Source::Environment;
    return saved(kEndpointKey).isEmpty() ? Source::Default : Source::Settings;
}

QString HubAddress::endpoint()
{
    switch (endpointSource()) {
    case Source::Environment:
        return withoutTrailingSlash(qEnvironmentVariable(kEndpointVariable).trimmed());
    case Source::Settings:
        return withoutTrailingSlash(saved(kEndpointKey));
    case Source::Default:
        break;
    }
    return defaultEndpoint();
}

void HubAddress::setEndpoint(const QString& endpoint)
{
    save(kEndpointKey, endpoint == defaultEndpoint() ? QString() : withoutTrailingSlash(endpoint));
}

HubAddress::Source HubAddress::tokenSource()
{
    if (!qEnvironmentVariableIsEmpty(kTokenVariable))
        return Source::Environment;
    return saved(kTokenKey).isEmpty() ? Source::Default : Source::Settings;
}

QString HubAddress::token()
{
    if (tokenSource() == Source::Environment)
        return qEnvironmentVariable(kTokenVariable).trimmed();
    return saved(kTokenKey);
}

void HubAddress::setToken(const QString& token)
{
    save(kTokenKey, token.trimmed());
}

std::optional<QString> HubAddress::checkEndpoint(const QString& text, QString* error)
{
    const QString trimmed = text.trimmed();
    const QUrl url(trimmed, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"http" && scheme != u"https") || url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
        if (error)
            *error = tr("%1 is not the address of a hub: give one such as https://huggingface.co or https://hf-mirror.com")
                         .arg(trimmed.isEmpty() ? tr("an empty text") : trimmed);
        return std::nullopt;
    }
    return withoutTrailingSlash(trimmed);
}

std::optional<RepoId> HubAddress::parseRepoId(const QString& text, QString* error)
{
    const QString id = text.trimmed();
    if (const KnownModel* known = knownModel(id.toStdString())) {
        const QString hub = QString::fromUtf8(known->hubId.data(), qsizetype(known->hubId.size()));
        return RepoId{hub.section(QLatin1Char('/'), 0, 0), hub.section(QLatin1Char('/'), 1)};
    }
    static const QRegularExpression part(QStringLiteral("^[A-Za-z0-9_.-]+$"));
    const QStringList parts = id.split(QLatin1Char('/'));
    bool ok = !id.isEmpty() && id.size() <= kMaxRepoId && parts.size() <= 2 && !id.contains(QStringLiteral("--"))
              && !id.contains(QStringLiteral(".."));
    for (const QString& p : parts)
        ok = ok && part.match(p).hasMatch() && !p.startsWith(QLatin1Char('-')) && !p.startsWith(QLatin1Char('.'))
             && !p.endsWith(QLatin1Char('-')) && !p.endsWith(QLatin1Char('.'));
    if (!ok) {
        if (error)
            *error = tr("%1 is not the name of a model on the hub: give it as owner/name, e.g. openai-community/gpt2")
                         .arg(id.isEmpty() ? tr("an empty text") : QStringLiteral("\u201C%1\u201D").arg(id));
        return std::nullopt;
    }
    return parts.size() == 2 ? RepoId{parts[0], parts[1]} : RepoId{QString(), parts[0]};
}

bool HubAddress::checkRevision(const QString& revision, QString* error)
{
    bool ok = !revision.isEmpty() && revision.size() <= kMaxRevision;
    for (const QChar c : revision)
        ok = ok && c.isPrint() && !c.isSpace();
    if (!ok && error)
        *error = tr("%1 is not a revision: give a branch, a tag or a commit, e.g. main")
                     .arg(revision.isEmpty() ? tr("an empty text") : QStringLiteral("\u201C%1\u201D").arg(revision));
    return ok;
}

QUrl HubAddress::listingUrl(const QString& endpoint, const RepoId& repo, const QString& revision)
{
    return under(endpoint, "/api/models/" + encodedPath(repo.id()) + "/revision/" + QUrl::toPercentEncoding(revision) + "?blobs=true");
}

QUrl HubAddress::fileUrl(const QString& endpoint, const RepoId& repo, const QString& revision, const QString& file)
{
    return under(endpoint, "/" + encodedPath(repo.id()) + "/resolve/" + QUrl::toPercentEncoding(revision) + "/" + encodedPath(file));
}

QUrl HubAddress::pageUrl(const QString& endpoint, const RepoId& repo)
{
    return under(endpoint, "/" + encodedPath(repo.id()));
}

std::optional<QUrl> HubAddress::redirectTarget(const QUrl& from, const QByteArray& location, QString* error)
{
    const QUrl target = from.resolved(QUrl::fromEncoded(location.trimmed()));
    const QString scheme = target.scheme().toLower();
    QString why;
    if (!target.isValid() || target.host().isEmpty() || (scheme != u"http" && scheme != u"https"))
        why = tr("the server sent the download elsewhere, to %1, which is not a web address").arg(QString::fromUtf8(location));
    else if (from.scheme().toLower() == u"https" && scheme == u"http")
        why = tr("the server sent the download from a secure address (HTTPS) to an insecure one (%1); Attention Lab does not follow it")
                  .arg(target.toDisplayString(QUrl::RemoveQuery));
    if (why.isEmpty())
        return target;
    if (error)
        *error = why;
    return std::nullopt;
}

} // namespace attnlab
