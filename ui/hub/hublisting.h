#pragma once
// What the hub says a repository holds (GET /api/models/{repo}/revision/{rev}?blobs=true: its
// commit and "siblings", each file's name, size and, for a large (LFS) file, its SHA-256), and
// which of those files Attention Lab fetches: only what the engine reads (config.json,
// model.safetensors, the tokenizer's files of the model's family; pretrained/model_folder.h),
// never the ONNX, TFLite, Flax or Rust copies beside them. A model the engine cannot open is
// refused here, before anything is downloaded.

#include "hub/hubfailure.h"
#include "pretrained/hf_config.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

namespace attnlab {

/// One file of a repository.
struct HubFile {
    QString name;                ///< its path in the repository ("config.json")
    std::optional<qint64> size;  ///< bytes, when the hub says (a mirror may not)
    QString sha256;              ///< a large (LFS) file's SHA-256 in hex, else empty

    bool operator==(const HubFile&) const = default;
};

struct HubListing {
    QString commit; ///< the revision's commit ("sha"), when given
    QList<HubFile> files;

    const HubFile* find(const QString& name) const;
};

/// What to fetch, in this order (config.json first, the weights last).
struct DownloadPlan {
    PretrainedFamily family = PretrainedFamily::Gpt2;
    QString modelType; ///< config.json's model_type
    QList<HubFile> files;

    /// The bytes of the files whose size is known.
    qint64 knownBytes() const;
    /// True when every file's size is known.
    bool sizesKnown() const;
};

class HubListings {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Hub)
public:
    /// The largest file list read (GPT-2's, with every format, is about 10 kB).
    static constexpr qint64 kMaxListingBytes = 16 * 1024 * 1024;

    /// Reads the hub's JSON answer. Nothing, and the reason in `failure`, when it is not one.
    static std::optional<HubListing> parse(const QByteArray& json, HubFailure* failure);
    /// Why `listing` has nothing Attention Lab could open before its config.json is read (no
    /// config.json), or a failure of kind None.
    static HubFailure checkListing(const HubListing& listing, const QString& repo);
    /// The files to fetch for the model whose config.json is `config`, or why it is refused: a
    /// model_type Attention Lab does not open (named), a config it cannot run (the engine's
    /// reason), weights only as pytorch_model.bin, weights split into shards, a tokenizer file
    /// missing.
    static std::optional<DownloadPlan> plan(const HubListing& listing, const QByteArray& config, const QString& repo, HubFailure* failure);
};

} // namespace attnlab
