#include "hub/hublisting.h"

#include "families/family.h"
#include "lesson/requirement.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace attnlab {

namespace {

HubFailure unsupported(const QString& message)
{
    return {HubFailure::Kind::Unsupported, message};
}

/// The files the engine reads for `family` beside config.json and the weights, each needed:
/// tokenizer.json when the family reads it and the repository has it (Llama 3 ships only that),
/// else the family's own files (model_folder.h).
QStringList tokenizerFiles(PretrainedFamily family, const HubListing& listing)
{
    const ModelFamily& f = modelFamily(family);
    if (f.tokenizerJson && listing.find(QStringLiteral("tokenizer.json")))
        return {QStringLiteral("tokenizer.json")};
    QStringList files;
    for (const std::string& name : f.tokenizerFiles)
        files << QString::fromStdString(name);
    return files;
}

/// Read when present: BERT's do_lower_case, tokenizer.json's add_bos_token and special tokens.
QStringList optionalFiles(PretrainedFamily family)
{
    QStringList files;
    for (const std::string& name : modelFamily(family).optionalFiles)
        files << QString::fromStdString(name);
    return files;
}

/// "gpt2, bert, llama, mistral, qwen2 and qwen3": the model types the engine opens.
QString openedTypes()
{
    const std::vector<std::string> types = supportedModelTypes();
    QStringList names;
    for (const std::string& t : types)
        names << QString::fromStdString(t);
    const QString last = names.takeLast();
    return names.isEmpty() ? last : HubListings::tr("%1 and %2").arg(names.join(QStringLiteral(", ")), last);
}

/// The shards model.safetensors.index.json points to, as the hub names them
/// ("model-00001-of-00002.safetensors"), in order; empty when the listing has none.
QList<HubFile> shardFiles(const HubListing& listing)
{
    static const QRegularExpression shard(QStringLiteral("^model-\\d+-of-\\d+\\.safetensors$"));
    QList<HubFile> shards;
    for (const HubFile& f : listing.files) {
        if (shard.match(f.name).hasMatch())
            shards << f;
    }
    std::sort(shards.begin(), shards.end(), [](const HubFile& a, const HubFile& b) { return a.name < b.name; });
    return shards;
}

} // namespace

const HubFile* HubListing::find(const QString& name) const
{
    const auto it = std::find_if(files.begin(), files.end(), [&](const HubFile& f) { return f.name == name; });
    return it != files.end() ? &*it : nullptr;
}

qint64 DownloadPlan::knownBytes() const
{
    qint64 sum = 0;
    for (const HubFile& f : files)
        sum += f.size.value_or(0);
    return sum;
}

bool DownloadPlan::sizesKnown() const
{
    return std::all_of(files.begin(), files.end(), [](const HubFile& f) { return f.size.has_value(); });
}

std::optional<HubListing> HubListings::parse(const QByteArray& json, HubFailure* failure)
{
    const auto bad = [&](const QString& why) -> std::optional<HubListing> {
        if (failure)
            *failure = {HubFailure::Kind::ServerError, tr("the server's list of files is not the hub's: %1").arg(why)};
        return std::nullopt;
    };
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return bad(tr("it is not a JSON object"));
    const QJsonObject root = doc.object();
    const QJsonValue siblings = root.value(QStringLiteral("siblings"));
    if (!siblings.isArray())
        return bad(tr("it has no \u201Csiblings\u201D"));
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    HubListing listing;
    listing.commit = root.value(QStringLiteral("sha")).toString();
    for (const QJsonValue& v : siblings.toArray()) {
        const QJsonObject o = v.toObject();
        HubFile f;
        f.name = o.value(QStringLiteral("rfilename")).toString();
        if (f.name.isEmpty())
            return bad(tr("a file has no name"));
        const QJsonValue size = o.value(QStringLiteral("size"));
        if (size.isDouble() && size.toDouble() >= 0)
            f.size = static_cast<qint64>(size.toDouble());
        const QJsonObject lfs = o.value(QStringLiteral("lfs")).toObject();
        const QString sha = lfs.value(QStringLiteral("sha256")).toString().toLower();
        if (hex.match(sha).hasMatch())
            f.sha256 = sha;
        if (lfs.value(QStringLiteral("size")).isDouble())
            f.size = static_cast<qint64>(lfs.value(QStringLiteral("size")).toDouble());
        listing.files << f;
    }
    return listing;
}

HubFailure HubListings::checkListing(const HubListing& listing, const QString& repo)
{
    if (!listing.find(QStringLiteral("config.json")))
        return unsupported(tr("%1 has no config.json: it is not a model Attention Lab can open (of type %2, in the Transformers format)").arg(repo, openedTypes()));
    return {};
}

std::optional<DownloadPlan> HubListings::plan(const HubListing& listing, const QByteArray& config, const QString& repo, HubFailure* failure)
{
    const auto refuse = [&](const QString& message) -> std::optional<DownloadPlan> {
        if (failure)
            *failure = unsupported(message);
        return std::nullopt;
    };
    if (const HubFailure f = checkListing(listing, repo))
        return refuse(f.message);
    // model_type first: a model of another architecture is named as such, whatever else is wrong.
    const QJsonObject json = QJsonDocument::fromJson(config).object();
    const QString type = json.value(QStringLiteral("model_type")).toString();
    const std::vector<std::string> types = supportedModelTypes();
    if (std::find(types.begin(), types.end(), type.toStdString()) == types.end())
        return refuse(type.isEmpty() ? tr("%1's config.json names no model_type: Attention Lab opens models of type %2").arg(repo, openedTypes())
                                     : tr("%1 is a model of type \u201C%2\u201D, which Attention Lab cannot open: it opens models of type %3")
                                           .arg(repo, type, openedTypes()));
    HfConfig parsed;
    try {
        parsed = parseHfConfig(config.toStdString(), "config.json");
    } catch (const std::exception& e) {
        return refuse(tr("Attention Lab cannot open %1: %2").arg(repo, QString::fromUtf8(e.what())));
    }
    DownloadPlan plan;
    plan.family = parsed.family;
    plan.modelType = type;
    QList<HubFile> weights;
    if (const HubFile* single = listing.find(QStringLiteral("model.safetensors"))) {
        weights << *single;
    } else if (const HubFile* index = listing.find(QStringLiteral("model.safetensors.index.json"))) {
        // The index and every shard beside it (opening the folder checks each one the index names).
        const QList<HubFile> shards = shardFiles(listing);
        if (shards.isEmpty())
            return refuse(tr("%1 has model.safetensors.index.json but none of the shards it points to").arg(repo));
        weights << *index << shards;
    }
    if (weights.isEmpty()) {
        if (listing.find(QStringLiteral("pytorch_model.bin")))
            return refuse(tr("%1 has its weights only as pytorch_model.bin; Attention Lab reads model.safetensors (convert it with "
                             "scripts/convert_to_safetensors.py, or pick a revision that has model.safetensors)")
                              .arg(repo));
        return refuse(tr("%1 has no model.safetensors: Attention Lab has no weights to read").arg(repo));
    }
    plan.files << *listing.find(QStringLiteral("config.json"));
    for (const QString& name : tokenizerFiles(plan.family, listing)) {
        const HubFile* f = listing.find(name);
        if (!f)
            return refuse(tr("%1 has no %2, which the tokenizer of a %3 model needs").arg(repo, name, QString::fromStdString(familyTitle(plan.family))));
        plan.files << *f;
    }
    for (const QString& name : optionalFiles(plan.family)) {
        if (const HubFile* f = listing.find(name))
            plan.files << *f;
    }
    plan.files << weights;
    return plan;
}

} // namespace attnlab
